"""Rule tracebacks (rulelang/game/callchain.py): a runtime error names the rule calls that led
to it, from the designer's rulebook through the `use`d modules, in every evaluation mode."""
from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RuleRuntimeError, render_calls
from rulelang.source import Source, Span

ROOT = Path(__file__).resolve().parents[2]
CHAIN = Path(__file__).parent / "rules" / "calls" / "chain.rule"
MODES = ["interpreted", "compiled"]


def failure(path: Path | str, mode: str, options: dict[str, int] | None = None,
            seed: int = 3) -> RuleRuntimeError:
    """The error a seeded random game meets."""
    game = rulelang.load_game(str(path), options=options or {}, mode=mode)
    state, rng = game.new_initial_state(seed), random.Random(seed)
    with pytest.raises(RuleRuntimeError) as caught:
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    return caught.value


def where(err: RuleRuntimeError) -> list[tuple[str, int, int, str]]:
    return [(Path(s.path).name, s.line, s.column, name) for s, name in err.calls or ()]


@pytest.mark.parametrize("mode", MODES)
def test_an_error_three_calls_deep_names_every_call_from_the_designers_line(mode: str) -> None:
    err = failure(CHAIN, mode)
    assert where(err) == [
        ("chain.rule", 24, 5, "action place"),
        ("chain_helpers.rule", 12, 11, "effect chain_helpers.tally"),
        ("chain_helpers.rule", 9, 10, "chain_helpers.spread"),
        ("chain_helpers.rule", 5, 19, "chain_helpers.ratio"),
    ]
    assert err.calls is not None and err.calls[-1][0] == err.diagnostic.span
    text = err.render()
    assert "rule calls (innermost last):" in text
    assert "chain.rule:24:5 in action place: chain_helpers.tally(size(free))" in text
    assert any("rule calls" in note for note in getattr(err, "__notes__", []))


@pytest.mark.parametrize("mode", MODES)
def test_an_error_in_the_designers_own_rule_has_no_chain(mode: str) -> None:
    err = failure(CHAIN, mode, {"direct": 1})
    assert err.calls == ()
    assert "rule calls" not in err.render()


@pytest.mark.parametrize("mode", MODES)
def test_an_error_inside_the_standard_library_names_the_tic_tac_toe_line(mode: str,
                                                                         tmp_path: Path) -> None:
    """The place action that puts nothing: lines.full_line_through meets `last.site` none,
    and the error inside stdlib/lines.rule names the designer's end rule that called it."""
    text = (ROOT / "rulebooks" / "tic_tac_toe.rule").read_text()
    book = tmp_path / "no_put.rule"
    book.write_text(text.replace("  put mark of mover at s\n", ""))
    err = failure(book, mode)
    assert (err.diagnostic.span.path, err.diagnostic.span.line) == ("stdlib/lines.rule", 15)
    line = next(i for i, t in enumerate(book.read_text().splitlines(), 1)
                if "lines.full_line_through" in t)
    assert where(err) == [("no_put.rule", line, 8, "end"),
                          ("lines.rule", 15, 44, "lines.full_line_through")]


def test_the_chain_survives_pickling() -> None:
    """A worker process's error reaches the parent with its chain."""
    err = failure(CHAIN, "interpreted")
    again = pickle.loads(pickle.dumps(err))
    assert again.calls == err.calls
    assert again.render() == err.render()


def test_a_long_chain_shows_its_ends_and_how_many_calls_are_left_out() -> None:
    source = Source("r.rule", "def f(n) = f(n - 1)\n")
    calls = tuple((Span("r.rule", 1, 12 + i % 2, 1, 20), f"f{i}") for i in range(12))
    lines = render_calls(calls, {"r.rule": source}).split("\n")
    shown = [line.strip() for line in lines[2:]]
    assert shown[:2] == ["r.rule:1:12 in f0: def f(n) = f(n - 1)",
                         "r.rule:1:13 in f1: def f(n) = f(n - 1)"]
    assert shown[2] == "… 5 more"
    assert [s.split(" in ")[1].split(":")[0] for s in shown[3:]] == [f"f{i}" for i in range(7, 12)]


def test_play_and_test_show_the_chain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rulelang.tools.cli import main
    assert main(["play", str(CHAIN), "--agents", "random,random", "--seed", "3"]) == 1
    assert "chain.rule:24:5 in action place: chain_helpers.tally(size(free))" \
        in capsys.readouterr().err
    (tmp_path / "chain.rule").write_text(CHAIN.read_text(), encoding="utf-8")
    helpers = CHAIN.with_name("chain_helpers.rule")
    (tmp_path / "chain_helpers.rule").write_text(helpers.read_text(), encoding="utf-8")
    (tmp_path / "chain.test").write_text(
        'rulebook "chain.rule"\n\nscenario "six marks"\n  when "place a1", "place a2", '
        '"place a3", "place b1", "place b2", "place b3"\n  expect not over\n', encoding="utf-8")
    assert main(["test", str(tmp_path / "chain.test")]) == 1
    out = capsys.readouterr().out
    assert "rule calls (innermost last):" in out
    assert "chain_helpers.rule:5:19 in chain_helpers.ratio" in out
