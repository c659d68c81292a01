"""Screens that fit, through the terminal session's own drawing (`Session.screen`, what a
human's turn prints above the prompt, and `Session.end_screen`), without a terminal: a seeded
random game of each bundled game under its largest options, measured along the way (at its
start, a third and two thirds of the way, each of the last 4 decisions, and the last screen
of the first and the last player): the abstract games in 80 x 24, the card and board games in
120 x 50, the prompt's row (or "record written to …") included. `python
bench/terminal_screens.py` measures every screen of more games."""
from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

import rulelang
from rulelang.agents import HumanAgent
from rulelang.resources import bundled_dir
from rulelang.tools.terminal.session import Session

WORST = [("hex", {"size": 19}, (24, 80)), ("karesansui", {"players": 4}, (50, 120)),
         ("tatara", {"players": 4}, (50, 120)), ("muso_sakura", {"players": 5}, (50, 120))]


def _session(book: str, options: dict[str, int], rows: int, cols: int, seed: int) -> Session:
    game = rulelang.load_game(bundled_dir() / f"{book}.rule", options)
    console = Console(file=io.StringIO(), width=cols, height=rows)
    return Session(game, [HumanAgent() for _ in game.player_names], seed, book, console=console)


def _played(session: Session, seed: int) -> list[int]:
    """The actions of a seeded random game, to its end."""
    state = session.game.new_initial_state(seed=seed)
    rng, moves = random.Random(seed), []
    while not state.is_terminal():
        actions = state.legal_actions()
        moves.append(actions[rng.randrange(len(actions))])
        state.apply_action(moves[-1])
    return moves


def _size(lines: list[object], extra: int) -> tuple[int, int]:
    return len(lines) + extra, max(t.cell_len for t in lines)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("book", "options", "limit"), WORST, ids=[w[0] for w in WORST])
def test_every_screen_of_a_long_game_fits(book: str, options: dict[str, int],
                                          limit: tuple[int, int]) -> None:
    rows, cols = limit
    session = _session(book, options, rows, cols, seed=3)
    moves = _played(session, seed=3)
    assert len(moves) > 40  # a long game: its late screens hold the most
    measured = []
    shown = {0, len(moves) // 3, 2 * len(moves) // 3, *range(len(moves) - 4, len(moves))}
    for ply, move in enumerate(moves):
        if ply in shown:
            player = session.state.current_player()
            lines = session.screen(player, session.state.observation(player), set())
            measured.append(_size(lines, 1))  # and the prompt's row
            assert lines[0].plain.startswith(session.game.name)
        session._apply(move)
    assert session.state.is_terminal()
    session.humans = [0]
    for player in (0, session.game.num_players - 1):
        session.seen[player] = session.state.observation(player)["board"]
        lines = session.end_screen(player, session.ending)
        measured.append(_size(lines, 1))  # and "record written to …"
        assert any(t.plain.startswith(("why: ", "rule: ")) for t in lines)
    tall, wide = max(m[0] for m in measured), max(m[1] for m in measured)
    assert tall <= rows and wide <= cols, f"{book} {options}: {tall} x {wide}"


def test_a_tall_board_puts_the_legend_beside_its_short_rows() -> None:
    session = _session("hex", {"size": 19}, 24, 80, seed=1)
    obs = session.state.observation(0)
    lines = [t.plain for t in session.screen(0, obs, set())]
    board_top = lines[1]
    assert board_top.split()[:3] == ["a", "b", "c"] and "B Black: link" in board_top
    assert not any(line.startswith("  B Black") for line in lines)  # not under the board
    assert lines[2].startswith(" 1 . . .") and lines[20].startswith(f"{' ' * 18}19 .")
    assert len(lines) + 1 <= 24


def test_a_screen_that_fits_below_is_left_as_it_was() -> None:
    session = _session("hex", {"size": 5}, 24, 80, seed=1)
    lines = [t.plain for t in session.screen(0, session.state.observation(0), set())]
    assert lines[1].startswith("  B Black: link the north edge (row 1)")
    assert lines[3].split() == list("abcde")
