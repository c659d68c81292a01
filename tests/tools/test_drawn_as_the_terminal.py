"""`rulelang replay --as PLAYER` and the SVG pictures lay the board out as `rulelang play`
does: where the geometry's `draw at` puts each site (row 1 at the bottom of a square board,
each Hex row half a site further east, pyramid levels side by side)."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import rulelang
from rulelang.tools import cli
from rulelang.tools.pictures.picture import board_shape, draw
from rulelang.tools.records.record import record_game, write_record
from rulelang.tools.terminal.board import BoardPainter

NS = "{http://www.w3.org/2000/svg}"


def _record(tmp_path: Path, book: str, moves: list[str]) -> Path:
    game = rulelang.load_game(book)
    state = game.new_initial_state(seed=0)
    for text in moves:
        state.apply_action(text)
    path = tmp_path / "game.yaml"
    write_record(path, record_game(game, state, 0, rulebook=book))
    return path


def test_replay_as_a_player_draws_the_board_as_the_terminal_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    moves = ["place d1", "place d2", "place c1"]
    path = _record(tmp_path, "connect_four", moves)
    assert cli.main(["replay", str(path), "--as", "O"]) == 0
    out = capsys.readouterr().out
    game = rulelang.load_game("connect_four")
    state = game.new_initial_state(seed=0)
    for text in moves:
        state.apply_action(text)
    board = [t.plain for t in BoardPainter(state.observation(1)).lines()]
    shown = out.splitlines()
    start = shown.index(board[0])
    assert shown[start:start + len(board)] == board
    assert "1 . . X X . . . 1" in shown and "2 . . . O . . . 2" in shown  # row 1 at the bottom
    assert shown.index("2 . . . O . . . 2") < shown.index("1 . . X X . . . 1")
    assert "vars:" not in out and out.startswith("the game as O saw it:")


def _centres(svg: str) -> dict[str, tuple[float, float]]:
    root = ET.fromstring(svg)
    out = {}
    for g in root.iter(NS + "g"):
        name = g.get("data-site")
        shape = g.find(NS + "rect")
        if shape is None:
            shape = g.find(NS + "circle")
        if name is None or shape is None:
            continue
        if shape.tag == NS + "rect":
            out[name] = (float(shape.get("x", 0)), float(shape.get("y", 0)))
        else:
            out[name] = (float(shape.get("cx", 0)), float(shape.get("cy", 0)))
    return out


@pytest.mark.parametrize("book", ["connect_four", "breakthrough", "spline"])
def test_svg_sites_lie_where_draw_at_puts_them(book: str) -> None:
    game = rulelang.load_game(book)
    obs = game.new_initial_state(seed=0).observation(0)
    at = obs["draw_at"]
    centres = _centres(draw(obs, board_shape(game)))
    assert set(centres) == set(at)
    layer = {s["site"]: tuple(s["coords"][:-2]) for s in obs["board"]}
    for a in at:
        for b in at:
            if layer[a] != layer[b]:
                continue
            (ra, ca), (rb, cb) = at[a], at[b]
            (xa, ya), (xb, yb) = centres[a], centres[b]
            assert (ra < rb) == (ya < yb) and (ra == rb) == (ya == yb)
            assert (ca < cb) == (xa < xb) and (ca == cb) == (xa == xb)


def test_svg_follows_a_draw_at_that_turns_the_board(tmp_path: Path) -> None:
    path = tmp_path / "turned.rule"
    path.write_text('game "Turned"\nplayers White, Black\ngeometry strip(n)\n'
                    '  sites (r, c) for r in 0..1, c in 0..n-1\n'
                    '  name letter(c) + str(r + 1)\n  draw at (c, r)\n'
                    'board strip(3)\npiece stone\nzone supply each player: 9 stone\n'
                    'action place\n  choose site s in sites where empty(s)\n'
                    '  put stone of mover at s\nturn\n  do place\n'
                    'end\n  when turn > 3\n    draw\n')
    game = rulelang.load_game(path)
    obs = game.new_initial_state(seed=0).observation(0)
    centres = _centres(draw(obs, board_shape(game)))
    assert centres["a1"][1] < centres["b1"][1] < centres["c1"][1]  # columns run down
    assert centres["a1"][0] < centres["a2"][0] and centres["a1"][1] == centres["a2"][1]
    board = [t.plain for t in BoardPainter(obs).lines()]
    assert [line.split()[0] for line in board[1:4]] == ["a", "b", "c"]  # as in the terminal
