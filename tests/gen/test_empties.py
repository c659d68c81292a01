"""The writer's bound on the sites effects can empty (gen/empties.py), read from statements:
each case a rulebook's action, between its first choose and a later one."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.gen.empties import emptied, empty_values
from rulelang.language import ast

BOOK = """use square
game "Effects"
players A, B
board square.grid(3, 3, 3)
piece stone
zone supply each player: 20 stone
def open = each s in sites where empty(s) and s.r > 0
effect slide(s)
  move top(s) to first t in square.north(s) where empty(t)
effect drop(s)
  remove top(s)
  drop(s)
action place
  choose site s in sites where empty(s)
  put stone of mover at s
action act
  choose site s in sites where occupied(s)
{body}
  choose site d in {domain}
  put stone of mover at d
turn
  do place or act
end
  when turn >= 4
    draw
"""


def _action(tmp_path: Path, body: str, domain: str = "sites where empty(d)") -> tuple[Any, Any]:
    path = tmp_path / "effects.rule"
    path.write_text(BOOK.format(body="\n".join("  " + line for line in body.splitlines()),
                                domain=domain))
    program = rulelang.load_game(path, mode="interpreted").runtime.program
    stmts = program.actions["act"].body.stmts
    return program, stmts


@pytest.mark.parametrize("body, most", [
    ("remove top(s)", 1),
    ("remove top(s)\nremove top(s)", 2),
    ("move top(s) to first t in square.north(s) where empty(t)", 0),  # one left, one filled
    ("move top(s) to first t in square.north(s) where t.r > 0", 1),  # (maybe a pile)
    ("while any t in sites: occupied(t) and t.r == 0\n"
     "  slide(first t in sites where occupied(t) and t.r == 0)", 0),
    ("while any t in sites: occupied(t)\n  remove top(first t in sites where occupied(t))",
     None),  # a loop that empties: no bound
    ("if s.r == 0\n  remove top(s)\n  remove top(s)\nelse\n  remove top(s)", 2),
    ("drop(s)", None),  # (an effect calling itself)
])
def test_the_sites_effects_can_empty(tmp_path: Path, body: str, most: int | None) -> None:
    program, stmts = _action(tmp_path, body)
    later = next(k for k, s in enumerate(stmts) if k and isinstance(s, ast.Choose))
    assert emptied(program, stmts[1:later]) == most


@pytest.mark.parametrize("domain, empty", [
    ("sites where empty(d)", True),
    ("open", True),  # a constant rule of sites where empty
    ("open where d.c > 0", True),
    ("sites", False),
    ("sites + sites where empty(d)", False),  # (a site may come twice)
    ("sites where empty(d) or d.r == 0", False),
])
def test_a_choose_of_empty_sites(tmp_path: Path, domain: str, empty: bool) -> None:
    program, stmts = _action(tmp_path, "remove top(s)", domain)
    assert empty_values(program, stmts[-2]) is empty
