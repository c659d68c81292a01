"""An unexpected Python exception (a bug of rulelang, not a rule error) raised through
generated code keeps its type and traceback, and gains a note naming the rulebook position
of each generated function it came through (rulelang/errors.note_rulebook_lines, from the
functions' line maps), so that a traceback of generated code says which rule it ran."""
from __future__ import annotations

from pathlib import Path

import pytest
from codegen_tools import both_fast_modes  # noqa: F401 - a fixture

import rulelang
from rulelang.fast import codegen

RULEBOOK = """game "Notes"
players A, B
def joined(a, b) = a + b
turn
  if size(joined("a", "b")) == 2
    draw
"""


def test_a_bug_in_generated_code_names_the_rule_it_ran(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        both_fast_modes: tuple[str, str]) -> None:  # noqa: F811
    def broken(*args: object) -> object:
        raise KeyError("a planted bug")

    # texts are added by the general binop, semantics.compute, a constant of the generated
    # function: planted there, the bug is raised inside generated code
    monkeypatch.setattr(codegen, "compute", broken)
    path = tmp_path / "notes.rule"
    path.write_text(RULEBOOK, encoding="utf-8")
    with codegen.watching() as sources:
        game = rulelang.load_game(path, mode="generated")
        with pytest.raises(KeyError, match="a planted bug") as caught:
            game.new_initial_state(seed=0)
    assert sources, "the rule was not generated"
    notes = getattr(caught.value, "__notes__", [])
    assert any(f"{path}:3:20" in n and "generated" in n for n in notes), notes
