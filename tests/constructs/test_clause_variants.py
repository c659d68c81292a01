"""A variant (`extends`) that writes a rule only as clauses of symbols replaces the parent's
clauses of those symbols and keeps the others (docs/language.md, "Rules written as
clauses"): a clause of a symbol the parent has takes its place, one of a new symbol goes
before the parent's catch-all; a variant that writes a catch-all or a plain rule replaces
the whole rule, as any declaration replaces the parent's of its name."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

PARENT = """game "Parent"
players A, B
enum gardener_name: Muso, Zenami, Sesshu, Enshu
counter points each player = 0
def worth(Muso) = 1
def worth(Zenami) = 2
def worth(other) = 0
effect gain(Muso, p)
  increase points of p by 1
effect gain(other, p)
  increase points of p by 2
setup
  gain(Muso, A)
  gain(Zenami, B)
turn
  draw
score table(p) = worth(Muso) * 1000 + worth(Zenami) * 100 + worth(Sesshu) * 10 + worth(Enshu)
score points(p) = points of p
"""


def scores(tmp_path: Path, variant: str, mode: str) -> tuple[list[float], list[float]]:
    """(the parent's scores, the variant's) after the one turn."""
    (tmp_path / "parent.rule").write_text(PARENT, encoding="utf-8")
    child = tmp_path / "child.rule"
    child.write_text('game "Child" extends "parent.rule"\n' + variant, encoding="utf-8")
    out = []
    for path in (tmp_path / "parent.rule", child):
        state = rulelang.load_game(path, mode=mode).new_initial_state(seed=0)
        assert state.is_terminal()
        out.append(state.scores())
    return out[0], out[1]


MODES = ["interpreted", "compiled"]


@pytest.mark.parametrize("mode", MODES)
def test_a_clause_of_a_symbol_replaces_that_clause_only(tmp_path: Path, mode: str) -> None:
    parent, child = scores(tmp_path, "def worth(Zenami) = 5\n", mode)
    assert parent == [1201.0, 1202.0]  # Muso 1, Zenami 2, Sesshu and Enshu 0; 1 and 2 points
    assert child == [1501.0, 1502.0]


@pytest.mark.parametrize("mode", MODES)
def test_a_clause_of_a_new_symbol_goes_before_the_catch_all(tmp_path: Path, mode: str) -> None:
    _, child = scores(tmp_path, "def worth(Sesshu) = 7\ndef worth(Muso) = 3\n", mode)
    assert child == [3271.0, 3272.0]  # Muso 3, Zenami 2 kept, Sesshu 7, Enshu by catch-all


@pytest.mark.parametrize("mode", MODES)
def test_effect_clauses_are_replaced_one_by_one_too(tmp_path: Path, mode: str) -> None:
    _, child = scores(tmp_path, "effect gain(Zenami, p)\n  increase points of p by 9\n", mode)
    assert child == [1201.0, 1209.0]  # Muso's clause kept (1 point to A), Zenami's new


@pytest.mark.parametrize("mode", MODES)
def test_a_catch_all_or_a_plain_rule_replaces_the_whole_rule(tmp_path: Path, mode: str) -> None:
    _, child = scores(tmp_path, "def worth(Zenami) = 5\ndef worth(g) = 4\n", mode)
    assert child == [4545.0, 4546.0]  # the variant's clauses alone: Zenami 5, the rest 4
    _, child = scores(tmp_path, "def worth(g) = 3\n", mode)
    assert child == [3334.0, 3335.0]


def test_a_variant_clause_keeps_its_own_position(tmp_path: Path) -> None:
    (tmp_path / "parent.rule").write_text(PARENT, encoding="utf-8")
    child = tmp_path / "child.rule"
    child.write_text('game "Child" extends "parent.rule"\ndef worth(Zenami) = 1 // 0\n',
                     encoding="utf-8")
    with pytest.raises(rulelang.RuleRuntimeError) as caught:
        rulelang.load_game(child).new_initial_state(seed=0).scores()
    span = caught.value.diagnostic.span
    assert (Path(span.path).name, span.line) == ("child.rule", 2)


def test_a_symbol_given_twice_by_the_variant_is_reported(tmp_path: Path) -> None:
    (tmp_path / "parent.rule").write_text(PARENT, encoding="utf-8")
    child = tmp_path / "child.rule"
    child.write_text('game "Child" extends "parent.rule"\n'
                     "def worth(Zenami) = 5\ndef worth(Zenami) = 6\n", encoding="utf-8")
    with pytest.raises(rulelang.RulebookError) as caught:
        rulelang.load_game(child)
    assert "R262" in [d.code for d in caught.value.diagnostics]
