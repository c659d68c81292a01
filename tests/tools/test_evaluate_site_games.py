"""evaluate reads the record of a game whose every decision is one action's menu of sites
(tic-tac-toe, Spline) by a shortcut (tools/evidence/playout.py `_read_sites`: a verdict kept per
menu,
strings kept per site, the rest read with builtins). Its reading must be that of the general
one-pass reading (`_read`, itself checked against a straightforward reading in
test_evaluate_record_reading.py), each with its own memo; and it must decline (None) every
history it is not for: a menu naming a site twice, a value that is no site of the board, a
second action, a decision of its own, a menu of several segments or kept as a plain list."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from rulelang.agents import make_agent
from rulelang.library.decision import Decision, Options
from rulelang.tools.evidence.playout import Setup, _Memo, _read, _read_sites, game_seed

ROOT = Path(__file__).resolve().parents[2]


def _histories(name: str, games: int) -> tuple[Any, list[list[tuple[Decision, int]]]]:
    game = Setup(str(ROOT / "rulebooks" / f"{name}.rule"), (), ("random",), 7, 2000,
                 mode="closures").game()
    out = []
    for i in range(games):
        seed = game_seed(7, i)
        agents = [make_agent("random", seed + p + 1) for p in range(game.num_players)]
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].choose(state))
        out.append(state.ctx.data.history)
    return game, out


def test_site_games_are_read_as_the_general_reading_reads_them() -> None:
    for name, games in (("tic_tac_toe", 30), ("spline", 12)):
        game, histories = _histories(name, games)
        program = game.runtime.program
        fast, general = _Memo(game), _Memo(game)
        for _ in range(2):  # the second time with every verdict and string kept
            for history in histories:
                got = _read_sites(program, history, fast)
                assert got is not None, name
                assert got == _read(program, history, general), name
                assert [list(v) for v in got[3][0].values()] == \
                    [list(v) for v in _read(program, history, general)[3][0].values()]


def test_histories_it_is_not_for_are_declined() -> None:
    game, histories = _histories("tic_tac_toe", 1)
    program = game.runtime.program
    history = histories[0]
    d = history[0][0]
    assert isinstance(d.options, Options)
    sites = list(game.runtime.board.sites)
    action = d.options.segments[0][0]

    def one(options: object, menu: object = d.menu, player: int = 0, taken: int = 1
            ) -> list[tuple[Decision, int]]:
        return [(Decision(player, options, menu=menu), taken)]  # type: ignore[arg-type]

    again = one(Options([(action, tuple(sites[:3]))])) * 2 + one(Options([(action, (
        sites[4], sites[1]))]), player=1)  # the same site taken twice (in other menus)
    got = _read_sites(program, again, _Memo(game))
    assert got is not None and got == _read(program, again, _Memo(game))
    assert list(got[3][0].values()) == [{sites[1].name: 3}] and got[1] == [0, 0, 1]
    declined = {
        "a site twice": one(Options([(action, (sites[0], sites[1], sites[0]))]), taken=2),
        "no site": one(Options([(action, (sites[0], 5, sites[2]))])),
        "no action": one(Options([(None, [(action, (sites[0],)), (action, (sites[1],))])])),
        "two segments": one(Options([(action, (sites[0],)), (action, (sites[1],))])),
        "a plain list": one([(action, (sites[0],)), (action, (sites[1],))]),
        "its own": one(Options([(action, tuple(sites[:3]))]), menu=None),
        "a second action": history + one(Options([("other", tuple(sites[:3]))])),
    }
    for why, case in declined.items():
        assert _read_sites(program, case, _Memo(game)) is None, why
    assert _read(program, declined["a site twice"], _Memo(game))[0] == \
        [f"{action} {sites[0].name} #2"]  # (the engine's string, numbered)
