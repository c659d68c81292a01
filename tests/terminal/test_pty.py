"""`rulelang play` through a real pseudo-terminal, for every bundled game: the first screen,
a move, an illegal move, help, undo, and the end (a game resumed from a record one move
before its end, the last move typed by the human). Each screen drawn is measured: the
abstract games fit 80 x 24, the card and board games 120 x 50. The other seats are random
agents, so that the tests stay quick."""
from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")

import rulelang  # noqa: E402
from rulelang.agents import RandomAgent  # noqa: E402
from rulelang.resources import bundled_dir  # noqa: E402
from rulelang.tools.records.record import read_record, record_game, write_record  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r")
CLEAR = "\x1b[H\x1b[2J"
BIG = {"muso_sakura": 3, "tatara": 2, "karesansui": 2}  # the card and board games: players
BOOKS = sorted(p.stem for p in bundled_dir().glob("*.rule") if not rulelang.is_library(p))
RULELANG = [sys.executable, "-m", "rulelang"]


def _size(book: str) -> tuple[int, int]:
    return (50, 120) if book in BIG else (24, 80)


def _spawn(book: str, args: list[str], cwd: Path, sigint: Any = signal.SIG_DFL) -> object:
    """`rulelang play` in a pseudo-terminal; `sigint`: what it inherits for SIGINT (a
    background job of a shell without job control, as CI runs, inherits it ignored)."""
    rows, cols = _size(book)
    env = {**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "COLUMNS": str(cols),
           "LINES": str(rows), "PAGER": "cat"}  # `rules` pages through $PAGER: no waiting
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(RULELANG[0], RULELANG[1:] + ["play", *args], cwd=str(cwd),
                          env=env, dimensions=(rows, cols), encoding="utf-8", timeout=90,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, sigint))
    # no pause before each line sent (pexpect's default 0.05 s guards programs that read
    # before they turn echo off): every line here is sent once the prompt is drawn
    child.delaybeforesend = None
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
    used = len(lines) + (lines[-1] != "")  # the text ends where the prompt's row begins
    assert used <= rows, f"{book}: {used} rows drawn:\n" + "\n".join(lines)
    assert width <= cols, f"{book}: {width} columns drawn:\n" + max(lines, key=len)
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


@pytest.mark.parametrize("how", ["ctrl-c", "eof", "ctrl-c while the AI thinks",
                                 "ctrl-c while the AI thinks, SIGINT inherited ignored"])
def test_ctrl_c_and_end_of_input_write_the_record_and_resume_goes_on(how: str,
                                                                    tmp_path: Path) -> None:
    agents = "human,mcts:30s" if "thinks" in how else "human,random"
    sigint = signal.SIG_IGN if how.endswith("ignored") else signal.SIG_DFL
    child = _spawn("hex", ["hex", "--agents", agents, "--record", "game.yaml"], tmp_path,
                   sigint)
    _prompt(child, "Black")
    child.sendline("place a1")
    if "thinks" in how:  # the search's own progress line: it is searching now (the
        # prompt has given the terminal back; a ctrl-c sent before that is only a character)
        child.expect(r"is thinking… +[0-9.]+ s, [0-9]+ playouts")
        child.sendintr()
    else:
        _prompt(child, "Black")
        child.sendintr() if how == "ctrl-c" else child.sendeof()
    child.expect(pexpect.EOF)
    assert "record written to game.yaml" in ANSI.sub("", child.before)
    record = read_record(tmp_path / "game.yaml")
    assert not record.finished and record.actions[0] == "place a1"
    again = _spawn("hex", ["--resume", "game.yaml", "--agents", "human,random"], tmp_path)
    screen = _fits("hex", _prompt(again, "Black"))
    assert any(" 1 B " in line or line.startswith("1 B ") for line in screen)
    again.sendline("q")
    again.expect(pexpect.EOF)


def test_hot_seat_wipes_the_screen_and_scrollback_between_players(tmp_path: Path) -> None:
    game = rulelang.load_game(bundled_dir() / "muso_sakura.rule", {"players": 3})
    state = game.new_initial_state(seed=2)
    first = state.observation(0)
    mine = [p["attrs"]["name"] for z in first["zones"] if z["zone"] == "hidden"
            and z["owner"] == "Player1" for p in z["pieces"]]
    child = _spawn("muso_sakura", ["muso_sakura", "--players", "3", "--seed", "2",
                                   "--agents", "human,human,human"], tmp_path)
    _prompt(child, "Player1")
    child.sendline("wander")
    handed = ""  # what was printed since the last answer
    while True:  # Player1 may decide more than once; then the device goes to Player2
        # (a new prompt is told by its bracketed paste turned on: the prompt drawn again
        # as it takes an answer is not answered, which would type ahead, echoed)
        index = child.expect_exact(["pass the device to Player2", NEW_PROMPT])
        handed += str(child.before)
        if index == 0:
            break
        index = child.expect_exact(["pass the device to Player2", "Player1>"])
        handed += NEW_PROMPT + str(child.before)
        if index == 0:  # (the handover's own prompt)
            break
        child.sendline("1")
        handed = ""
    # wiped, and nothing shown since but the prompt's controls
    assert "\x1b[3J" in handed and not ANSI.sub("", handed.rsplit("\x1b[3J", 1)[1]).strip()
    child.sendline("")
    second = _prompt(child, "Player2")
    assert "\x1b[3J" in second  # wiped again once Player2 has the device
    shown = ANSI.sub("", second.split("\x1b[3J")[-1])
    others = [p["attrs"]["name"] for z in state.observation(1)["zones"]
              if z.get("pieces") and z["owner"] in ("Player2", None) for p in z["pieces"]]
    for name in set(mine) - set(others):  # Player1's hidden cards, unless Player2 sees one
        assert name not in shown
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_rules_and_hint_at_the_prompt(tmp_path: Path) -> None:
    child = _spawn("tic_tac_toe", ["tic_tac_toe", "--agents", "human,random"], tmp_path)
    _prompt(child, "X")
    child.sendline("rules")
    rules = ANSI.sub("", _prompt(child, "X"))
    assert "Tic-tac-toe" in rules and "Three of your marks in a row" in rules
    child.sendline("hint")
    hint = ANSI.sub("", _prompt(child, "X"))
    assert re.search(r"hint: place [a-c][1-3]", hint)
    child.sendline("score")
    assert "no score" in ANSI.sub("", _prompt(child, "X"))
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_hex_19_fits_80_by_24_through_a_pseudo_terminal(tmp_path: Path) -> None:
    child = _spawn("hex", ["hex", "--option", "size=19", "--agents", "human,random",
                           "--seed", "1"], tmp_path)
    screen = _fits("hex", _prompt(child, "Black"))
    assert screen[1].split()[:2] == ["a", "b"] and "Black: link" in screen[1]
    assert any(line.lstrip().startswith("19 . .") for line in screen)
    child.sendline("q")
    child.expect(pexpect.EOF)
