"""`rulelang play` through a real pseudo-terminal, for every bundled game: the first screen,
a move, an illegal move, help, undo, and the end (a game resumed from a record one move
before its end, the last move typed by the human). Each screen drawn is measured: the
abstract games fit 80 x 24, the card and board games 120 x 50. The other seats are random
agents, so that the tests stay quick."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

import rulelang  # noqa: E402
from rulelang.agents import RandomAgent  # noqa: E402
from rulelang.resources import bundled_dir  # noqa: E402
from rulelang.tools.record import read_record, record_game, write_record  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r")
CLEAR = "\x1b[H\x1b[2J"
BIG = {"muso_sakura": 3, "tatara": 2, "karesansui": 2}  # the card and board games: players
BOOKS = sorted(p.stem for p in bundled_dir().glob("*.rule") if not rulelang.is_library(p))
RULELANG = [sys.executable, "-m", "rulelang"]


def _size(book: str) -> tuple[int, int]:
    return (50, 120) if book in BIG else (24, 80)


def _spawn(book: str, args: list[str], cwd: Path) -> object:
    rows, cols = _size(book)
    env = {**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "COLUMNS": str(cols),
           "LINES": str(rows)}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(RULELANG[0], RULELANG[1:] + ["play", *args], cwd=str(cwd),
                          env=env, dimensions=(rows, cols), encoding="utf-8", timeout=90)
    return child


NEW_PROMPT = "\x1b[?2004h"  # a prompt begins (prompt_toolkit turns bracketed paste on)


def _prompt(child: object, name: str) -> str:
    """Wait for a new prompt `name>`; what was printed before it."""
    child.expect_exact(NEW_PROMPT)  # type: ignore[attr-defined]
    text = str(child.before)  # type: ignore[attr-defined]
    child.expect_exact(f"{name}>")  # type: ignore[attr-defined]
    return text


def _screen(text: str) -> list[str]:
    return ANSI.sub("", text.split(CLEAR)[-1]).split("\n")


def _fits(book: str, text: str) -> list[str]:
    lines = _screen(text)
    rows, cols = _size(book)
    width = max(len(line) for line in lines)
    assert len(lines) + 1 <= rows, f"{book}: {len(lines) + 1} rows drawn:\n" + "\n".join(lines)
    assert width <= cols, f"{book}: {width} columns drawn"
    return lines


def _players(book: str) -> list[str]:
    return ["--players", str(BIG[book])] if book in BIG else []


def _agents(n: int, human: int = 0) -> str:
    return ",".join("human" if i == human else "random" for i in range(n))


@pytest.mark.parametrize("book", BOOKS)
def test_start_move_illegal_help_undo(book: str, tmp_path: Path) -> None:
    game = rulelang.load_game(bundled_dir() / f"{book}.rule",
                              {"players": BIG[book]} if book in BIG else None)
    state = game.new_initial_state(seed=1)
    seat = state.current_player()  # the human makes the first decision
    me = game.player_names[seat]
    child = _spawn(book, [book, *_players(book), "--agents", _agents(game.num_players, seat),
                          "--seed", "1", "--record", "game.yaml"], tmp_path)
    first = _fits(book, _prompt(child, me))
    assert first[0].startswith(game.name) and f"you are {me}" in first[0]
    labels = [state.action_to_string(a) for a in state.legal_actions()]
    child.sendline("this is no move")
    assert "not allowed: " in _prompt(child, me)
    child.sendline("help")
    assert "undo" in _prompt(child, me)
    child.sendline(labels[0])
    after = _prompt(child, me)  # the same player again, or after the others' moves
    _fits(book, after)
    child.sendline("undo")
    undone = _prompt(child, me)
    assert "undone" in undone or "nothing to undo" not in undone
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert "record written to game.yaml" in ANSI.sub("", child.before)
    record = (tmp_path / "game.yaml").read_text()
    assert f"rulebook: {book}\n" in record  # a bundled rulebook is named: replays anywhere


def _almost_finished(book: str, tmp_path: Path) -> tuple[Path, int, str]:
    """A record of a random game stopped one move before its end; the seat that makes the
    last move and that move."""
    options = {"players": BIG[book]} if book in BIG else {}
    game = rulelang.load_game(bundled_dir() / f"{book}.rule", options or None)
    agent = RandomAgent(4)
    state = game.new_initial_state(seed=4)
    texts: list[str] = []
    movers: list[int] = []
    while not state.is_terminal():
        movers.append(state.current_player())
        action = agent.choose(state)
        texts.append(state.action_to_string(action))
        state.apply_action(action)
    stopped = game.new_initial_state(seed=4)
    for text in texts[:-1]:
        stopped.apply_action(text)
    path = tmp_path / "stopped.yaml"
    write_record(path, record_game(game, stopped, 4, rulebook=book))
    return path, movers[-1], texts[-1]


@pytest.mark.parametrize("book", BOOKS)
def test_the_end(book: str, tmp_path: Path) -> None:
    path, seat, last = _almost_finished(book, tmp_path)
    game = rulelang.load_game(bundled_dir() / f"{book}.rule",
                              {"players": BIG[book]} if book in BIG else None)
    name = game.player_names[seat]
    away = tmp_path / "elsewhere"
    away.mkdir()
    child = _spawn(book, ["--resume", str(path), "--agents",
                          _agents(game.num_players, seat)], away)
    _fits(book, _prompt(child, name))
    child.sendline(last)
    child.expect(pexpect.EOF)
    end = ANSI.sub("", child.before)
    assert "result: " in end and "record written to" in end
    assert "rule: " in end  # which end rule ended it
    if game.runtime.program.scores:
        assert "\ntotal " in end  # every player's score by term
    finished = read_record(path)
    assert finished.finished
