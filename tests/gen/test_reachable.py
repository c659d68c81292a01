"""What can run in a game (gen/facts.reachable): its declarations and the rules they name,
not a `use`d module's rules that nothing names. The writer keeps `moved` (the pieces moved
in the current action) and charges unbounded loops only where something that can run needs
them; a rule that reads `moved` from a picture or through a table is reached."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.gen import GenGame, facts

from .test_generated_equal import _same

ROOT = Path(__file__).resolve().parents[2]


def _reaches(game: object, key: str) -> bool:
    program = game.runtime.program  # type: ignore[attr-defined]
    rule = program.defs.get(key) or program.effects.get(key)
    return any(node is rule for node in facts.reachable(program))


def test_a_used_modules_rule_nothing_names_cannot_run() -> None:
    spline = rulelang.load_game("spline", mode="interpreted")
    spyramid = rulelang.load_game("spyramid", mode="interpreted")
    assert not _reaches(spline, "shibumi.on_fallen")  # (Spline never moves a ball)
    assert not _reaches(spline, "shibumi.settle")
    assert _reaches(spyramid, "shibumi.on_fallen") and _reaches(spyramid, "shibumi.settle")
    spline_state = rulelang.load_game("spline").new_initial_state(0)
    source = spline_state.generated.source  # type: ignore[attr-defined]
    assert "S.moved" not in source and "S.steps" not in source
    assert "S.moved" in rulelang.load_game("spyramid").new_initial_state(0) \
        .generated.source  # type: ignore[attr-defined]


# `moved` read only where the reference evaluates it for a generated game (a picture), or
# by a rule only passed to a builtin (group's link)
MOVED = """use square
game "Hops"
players A, B
board square.grid(1, 6, 2)
piece stone
zone supply each player: 3 stone
def linked(a, b) = not moved(b)
picture stone(p) = "*" if moved(site(p)) else "o"
action put
  choose site s in sites where empty(s)
  put stone of mover at s
action hop
  choose site s in sites where owner(s) == mover
  choose site t in square.orthogonal(s) where empty(t)
  move top(s) to t
turn
  do put or hop
end
  when {end}
    winner mover
  when turn > 12
    draw
"""


@pytest.mark.parametrize("end", ["size(group(last.site, square.orthogonal, linked)) >= 3",
                                 "false"])
def test_moved_read_by_a_picture_or_a_rule_given_to_a_builtin_is_kept(
        tmp_path: Path, end: str) -> None:
    path = tmp_path / "hops.rule"
    path.write_text(MOVED.format(end=end))
    gen = rulelang.load_game(path, mode="generated")
    ref = rulelang.load_game(path, mode="interpreted")
    assert isinstance(gen, GenGame)
    assert _reaches(ref, "linked") == (end != "false")
    for seed in range(6):
        g, r = gen.new_initial_state(seed), ref.new_initial_state(seed)
        rng = random.Random(seed)
        while True:
            _same(g, r, f"seed {seed}")
            for player in (0, 1):  # (the pictures mark the pieces moved by the last action)
                assert g.observation(player) == r.observation(player)
            if r.is_terminal():
                break
            action = rng.randrange(len(r.legal_actions()))
            g.apply_action(action)
            r.apply_action(action)
