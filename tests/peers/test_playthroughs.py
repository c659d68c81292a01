"""OpenSpiel's own generate_playthrough on the registered rulelang games against its
playthrough of its C++ games, for the same seed and actions: state by state the same player
to move, the same terminal and chance flags, rewards and returns, the same legal moves and
the same move applied. Moves are matched through board coordinates
(tests/openspiel/mapping.py).

What differs, by design (docs/action_space.md): the games' names and parameters, the action
ids where the two number moves differently (Connect Four: OpenSpiel numbers columns, the
rulebook sites; Breakthrough: OpenSpiel 6 directions x capture per site, the rulebook pairs
of sites), and so NumDistinctActions, History() and LegalActions(); the tensors' layout and
the strings (OpenSpiel's own drawing against the rulebook's observation as JSON);
MaxGameLength (the rulebook's cap). Tic-tac-toe and Hex number their moves as OpenSpiel
does: there the same seed draws the same actions, and History() is the same too.
"""
from __future__ import annotations

import json
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import generate_playthrough  # noqa: E402
from openspiel.mapping import PAIRS  # noqa: E402

import rulelang.openspiel  # noqa: E402,F401  (registers the bundled rulebooks)

CASES = [("tic_tac_toe", "tic_tac_toe", "rulelang_tic_tac_toe", True),
         ("connect_four", "connect_four", "rulelang_connect_four", False),
         ("hex", "hex(board_size=5)", "rulelang_hex(size=5)", True),
         ("breakthrough", "breakthrough(rows=6,columns=6)", "rulelang_breakthrough(size=6)",
          False)]
_SAME = ("IsTerminal()", "IsChanceNode()", "IsSimultaneousNode()", "CurrentPlayer()",
         "Rewards()", "Returns()")


def states(lines: list[str]) -> list[dict[str, Any]]:
    """The playthrough cut at each '# State k': its drawing (the '# ' lines below the
    header), its 'key = value' lines, the move applied after it."""
    out: list[dict[str, Any]] = []
    for line in lines:
        if line.startswith("# State "):
            out.append({"drawing": []})
        elif not out:
            continue
        elif line.startswith('# Apply action "'):
            out[-1]["applied"] = line[len('# Apply action "'):-1]
        elif line.startswith("# ") and "IsTerminal()" not in out[-1]:
            out[-1]["drawing"].append(line[2:])
        elif line == "#" and "IsTerminal()" not in out[-1]:
            out[-1]["drawing"].append("")
        elif " = " in line:
            k, v = line.split(" = ", 1)
            out[-1][k] = v
        elif line.startswith("action: "):
            out[-1]["action"] = int(line[len("action: "):])
    return out


def spelled(pair: Any, theirs: str, actions: list[int]) -> list[dict[str, Any]]:
    """Each state of the C++ game along `actions`: its legal moves and the move applied,
    spelled as the rulebook spells them (the playthrough shows only some states in full)."""
    state, out = pyspiel.load_game(theirs).new_initial_state(), []
    for a in [*actions, None]:
        board = pair.read_board(str(state)) if pair.needs_board else {}
        player = state.current_player()
        legal = [] if state.is_terminal() else state.legal_actions()
        out.append({"legal": sorted(pair.read_move(state.action_to_string(player, m), board)
                                    for m in legal)})
        if a is not None:
            out[-1]["applied"] = pair.read_move(state.action_to_string(player, a), board)
            state.apply_action(a)
    return out


def _numbers(text: str | None) -> list[float] | None:
    return None if text is None else [float(x) for x in json.loads(text)]


@pytest.mark.parametrize(("rulebook", "theirs", "mine", "same_ids"), CASES,
                         ids=[c[0] for c in CASES])
def test_playthrough_against_openspiel(rulebook: str, theirs: str, mine: str,
                                       same_ids: bool) -> None:
    pair = PAIRS[rulebook]
    expected = states(generate_playthrough.playthrough_lines(theirs, seed=7))
    moves = spelled(pair, theirs, [s["action"] for s in expected if "action" in s])
    game = pyspiel.load_game(mine)
    ids, state = [], game.new_initial_state()
    for s in moves[:-1]:  # the C++ game's moves, as ids of the rulebook's action space
        rl = state.rl
        action = rl.action_id(rl.string_to_action(s["applied"]))
        ids.append(action)
        state.apply_action(action)
    assert state.is_terminal()
    found = states(generate_playthrough.playthrough_lines(mine, action_sequence=ids))
    assert len(found) == len(expected) == len(moves)
    shown = 0
    for k, (a, b, s) in enumerate(zip(found, expected, moves, strict=True)):
        assert a.get("applied") == s.get("applied"), k
        assert ("IsTerminal()" in a) == ("IsTerminal()" in b), k  # shown in full in both
        if "IsTerminal()" not in b:
            continue
        shown += 1
        for key in _SAME:  # (floats: OpenSpiel writes -0 for some of its draws)
            same = _numbers if key in ("Rewards()", "Returns()") else str
            assert same(a.get(key)) == same(b.get(key)), (k, key)
        assert sorted(json.loads(a.get("StringLegalActions()", "[]"))) == s["legal"], k
    assert shown >= 3
    if same_ids:  # the same seed draws the same moves, numbered alike
        again = states(generate_playthrough.playthrough_lines(mine, seed=7))
        assert [s.get("action") for s in again] == [s.get("action") for s in expected]
        assert [s.get("History()") for s in again] == [s.get("History()") for s in expected]
