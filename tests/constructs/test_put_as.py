"""`put … as t` (docs/language.md, "Put … as"), on its own: the piece put is named for the
rest of the block, in both modes alike (tests/constructs/put_as.rule); the name is a piece
of the kind put for the checker, and unknown before the `put` and outside its block. The
values, case by case, are in tests/conformance/cases/21_put_as.cases."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang

HERE = Path(__file__).resolve().parent
RULE = (HERE / "put_as.rule").read_text(encoding="utf-8")


def _play(mode: str, seed: int) -> tuple[list[str], list[int], list[int]]:
    state = rulelang.load_game(HERE / "put_as.rule", mode=mode).new_initial_state(seed)
    pick = random.Random(seed)
    shown = []
    while not state.is_terminal():
        action = pick.choice(state.legal_actions())
        shown.append(state.action_to_string(action))
        state.apply_action(action)
    return shown, state.winners(), _levels(state)


def _levels(state: rulelang.State) -> dict[str, list[int]]:
    """The levels of the stones on each occupied site, as an observation shows them."""
    return {s["site"]: [p["attrs"]["level"] for p in s["pieces"]]
            for s in state.observation(0)["board"] if s["pieces"]}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_both_modes_play_the_same_game(seed: int) -> None:
    assert _play("interpreted", seed) == _play("compiled", seed)


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_the_named_piece_is_the_one_put(mode: str) -> None:
    state = rulelang.load_game(HERE / "put_as.rule", mode=mode).new_initial_state()
    state.apply_action("place b2")  # level 2: the stone is on the board when it is set
    state.apply_action("place c3")  # level 3
    state.apply_action("double a1")  # 7 on a1, and 8 on a2 and a3
    assert _levels(state) == {"b2": [2], "c3": [3], "a1": [7], "a2": [8], "a3": [8]}


def _codes(tmp_path: Path, text: str) -> list[tuple[str, int, str]]:
    path = tmp_path / "put_as.rule"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(rulelang.RulebookError) as info:
        rulelang.load_game(path)
    return [(d.code, d.span.line, d.message) for d in info.value.diagnostics]


def _line(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


def test_the_name_is_unknown_before_the_put_and_outside_its_block(tmp_path: Path) -> None:
    before = RULE.replace("  put stone of mover at s as t\n  set t.level = 1 +",
                          "  set t.level = 0\n  put stone of mover at s as t\n  set t.level = 1 +")
    assert _codes(tmp_path, before) == [("R201", _line(before, "  set t.level = 0"),
                                         "unknown name 't'")]
    outside = RULE.replace("    set u.level = top(s).level + 1\n",
                           "    set u.level = top(s).level + 1\n  set u.level = 0\n")
    assert _codes(tmp_path, outside) == [("R201", _line(outside, "  set u.level = 0"),
                                          "unknown name 'u'")]


def test_the_name_is_a_piece_for_the_checker(tmp_path: Path) -> None:
    text = RULE.replace("increase placed of mover by t.level", "increase placed of mover by t.lvl")
    [(code, line, message)] = _codes(tmp_path, text)
    assert (code, line) == ("R238", _line(text, "  increase placed"))
    assert message == "a 'stone' piece has no 'lvl'"
    site = RULE.replace("increase placed of mover by t.level",
                        "increase placed of mover by size(pieces(t))")
    [(code, _, message)] = _codes(tmp_path, site)
    assert code == "R230" and "found a 'stone' piece" in message
