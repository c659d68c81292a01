"""`resample(p, seed)` is consistent with everything p has seen, for every bundled rulebook
and option set (tests/endings_tools.py), at many seeded random positions: p's observation of
each resample is the observation of the true state, the same player is to move (and, when
it is p, with the same options), every piece p knows the place of is there, and when the
game hides something the resamples differ from the truth in what p cannot see."""
from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import endings_tools as tools  # noqa: E402

from rulelang.game.resample import _known  # noqa: E402

# per option set: games, positions per game, resamples per player and position; a game that
# hides nothing has only one resample to give (the position itself), so fewer positions
GAMES, POSITIONS, SEEDS = 2, 10, 2
OPEN_GAMES, OPEN_POSITIONS, OPEN_SEEDS = 1, 3, 1
CASES = tools.cases()
REDONE: Counter[str] = Counter()  # per case: resamples that made a secret choice again


def hidden_part(state: Any, player: int) -> Any:
    """What of the state p cannot see: the pieces of the zones hidden from p, and the
    other players' choices in the history."""
    data, program = state.ctx.data, state.game.runtime.program
    zones = {str(ref): [p.id for p in pile] for ref, pile in data.zones.items()
             if program.zones[ref.name].visible != "everyone"
             and not (program.zones[ref.name].visible == "owner" and ref.owner == player)}
    secret = [(d.labels()[i]) for d, i in data.history if d.secret and d.player != player]
    return zones, secret


def check(state: Any, player: int, seed: int, name: str) -> bool:
    """The resample's checks; True when it differs from the truth in what p cannot see."""
    seen = json.dumps(state.observation(player), sort_keys=True)
    sample = state.resample(player, seed)
    assert json.dumps(sample.observation(player), sort_keys=True) == seen, \
        f"{name}: the resample for player {player} shows another position"
    assert sample.current_player() == state.current_player()
    assert sample.is_terminal() == state.is_terminal()
    if state.current_player() == player:
        labels = [state.action_to_string(a) for a in state.legal_actions()]
        assert [sample.action_to_string(a) for a in sample.legal_actions()] == labels
    data, new, program = state.ctx.data, sample.ctx.data, state.game.runtime.program
    for piece_id, came in enumerate(data.came):  # what p knows of where the pieces are
        known, where = _known(came, program, player), data.loc[piece_id]
        if known is None or where not in data.zones:
            continue
        assert new.loc[piece_id] == where, f"{name}: a piece known to be in {where} left it"
        if known == "here":  # and where in it
            assert [p.id for p in new.zones[where]].index(piece_id) == \
                [p.id for p in data.zones[where]].index(piece_id), f"{name}: a known piece moved"
    truth, other = hidden_part(state, player), hidden_part(sample, player)
    if truth[1] != other[1]:
        REDONE[name] += 1
    return truth != other


@pytest.mark.parametrize(("book", "options"), CASES,
                         ids=[tools.label(b, o) for b, o in CASES])
def test_resamples_agree_with_what_the_player_saw(book: Path, options: dict[str, Any]) -> None:
    game = tools.game_of(book, tuple(sorted(options.items())))
    name = tools.label(book, options)
    differs = checked = 0
    hidden = game.has_hidden_information
    games, positions, seeds = ((GAMES, POSITIONS, SEEDS) if hidden
                               else (OPEN_GAMES, OPEN_POSITIONS, OPEN_SEEDS))
    for g in range(games):
        final = tools.random_game(game, 1000 + g)
        moves = final.history()
        rng = random.Random(g)
        plies = sorted(rng.sample(range(len(moves)), min(positions, len(moves))))
        state, done = game.new_initial_state(seed=1000 + g), 0
        for ply in plies:
            while done < ply:
                state.apply_action(moves[done])
                done += 1
            for player in range(game.num_players):
                for seed in range(seeds):
                    differs += check(state, player, seed + 7 * ply, name)
                    checked += 1
    if hidden:
        assert differs > checked // 2, f"{name}: only {differs} of {checked} resamples differ"
    else:
        assert differs == 0
    if book.stem == "muso_sakura":  # the others' secret roles were chosen again, sometimes
        assert REDONE[name] > 0    # (Karesansui's steals: test_karesansui_flow.py)

