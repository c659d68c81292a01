"""The SVG pictures (rulelang/tools/pictures/picture.py): their structure, parsed with xml.etree:
a site element per board site, a piece element per piece on the board, the classes and data
attributes; every bundled game at its start, in the middle and at the end of a seeded game;
the `render` command and its mistakes."""
from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.agents import make_agent
from rulelang.tools.cli import bundled, main
from rulelang.tools.pictures.picture import PALETTE, board_shape, draw

NS = "{http://www.w3.org/2000/svg}"
GAMES = [p.stem for p in bundled()]


def classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def find(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in classes(el)]


@cache
def played(name: str) -> tuple[Any, list[str]]:
    """A seeded random game of a bundled rulebook: the game and its moves."""
    game = rulelang.load_game(name)
    state = game.new_initial_state(seed=5)
    agent = make_agent("random", seed=5)
    while not state.is_terminal() and len(state.history()) < 400:
        state.apply_action(agent.choose(state))
    return game, list(state.history())


def at(name: str, ply: int) -> Any:
    game, moves = played(name)
    state = game.new_initial_state(seed=5)
    for text in moves[:ply]:
        state.apply_action(text)
    return state


def check_structure(state: Any, player: int) -> ET.Element:
    obs = state.observation(player)
    root = ET.fromstring(draw(obs, board_shape(state.game)))
    assert root.tag == NS + "svg" and float(root.get("width", 0)) > 0
    sites = find(root, "site")
    assert [s.get("data-site") for s in sites] == [s["site"] for s in obs["board"]] or \
        sorted(s.get("data-site") or "" for s in sites) == sorted(s["site"] for s in obs["board"])
    for el, site in zip(sorted(sites, key=lambda e: e.get("data-site") or ""),
                        sorted(obs["board"], key=lambda s: s["site"]), strict=True):
        pieces = find(el, "piece")
        assert [p.get("data-piece") for p in pieces] == [p["kind"] for p in site["pieces"][-3:]]
        assert ("empty" in classes(el)) == (not site["pieces"])
    on_board = [p for s in obs["board"] for p in s["pieces"][-3:]]
    assert len(find(root, "piece")) == len(on_board)
    for p in find(root, "piece"):
        owner = p.get("data-owner")
        assert (f"owner-{owner}" if owner else "unowned") in classes(p)
        assert f"kind-{p.get('data-piece')}" in classes(p)
    # beside the board: the zones, counters and vars as the rulebook's `view` shows them
    panel = " ".join(" ".join(g.itertext()) for g in find(root, "group"))
    view = obs.get("view") or {}
    hidden, labels = set(view.get("hidden") or []), view.get("labels") or {}
    for c in obs["counters"] + obs.get("vars", []):
        name = c.get("counter") or c.get("var")
        title = labels.get(name, name.replace("_", " "))
        assert (title in panel) == (name not in hidden), (name, panel)
    assert len(find(root, "player")) == len(obs["players"])
    assert (len(find(root, "score")) > 0) == (obs.get("scores") is not None)
    return root


@pytest.mark.parametrize("name", GAMES)
def test_every_game_renders_at_start_middle_and_end(name: str) -> None:
    _, moves = played(name)
    for ply in (0, len(moves) // 2, len(moves)):
        state = at(name, ply)
        for player in range(state.game.num_players):
            check_structure(state, player)


def test_hex_rows_shift_half_a_site() -> None:
    root = check_structure(rulelang.load_game("hex").new_initial_state(seed=0), 0)
    cells = {s.get("data-site"): s.find(NS + "polygon") for s in find(root, "site")}
    assert all(c is not None for c in cells.values())

    def left(site: str) -> float:
        cell = cells[site]
        assert cell is not None
        return min(float(p.split(",")[0]) for p in (cell.get("points") or "").split())
    step = left("b1") - left("a1")
    assert abs((left("a2") - left("a1")) - step / 2) < 0.2


def test_square_rows_run_up_and_checker() -> None:
    state = rulelang.load_game("connect_four").new_initial_state(seed=0)
    state.apply_action(state.legal_actions()[0])
    root = check_structure(state, 0)
    by = {s.get("data-site"): s for s in find(root, "site")}
    y = {k: float(v.find(NS + "rect").get("y", 0)) for k, v in by.items()}  # type: ignore
    assert y["a1"] > y["a2"]  # row 1 at the bottom
    assert classes(by["a1"]) & {"light", "dark"} != classes(by["a2"]) & {"light", "dark"}
    assert len(find(root, "piece")) == 1 and "lastmove" not in classes(by["a1"])
    disc = find(root, "piece")[0].find(NS + "circle")
    assert disc is not None and disc.get("fill") == PALETTE[0]


def test_pyramid_levels_lie_side_by_side_as_the_terminal_draws_them() -> None:
    game = rulelang.load_game("spline")
    assert board_shape(game).levels[1] == (0.5, 0.5)  # stacked, for a geometry without `draw at`
    root = check_structure(game.new_initial_state(seed=0), 0)
    assert not [s for s in find(root, "site") if "upper" in classes(s)]

    def centre(site: str) -> tuple[float, float]:
        el = next(s for s in find(root, "site") if s.get("data-site") == site)
        c = el.find(NS + "circle") or el.find(NS + "rect")
        assert c is not None
        return float(c.get("x", c.get("cx", 0))), float(c.get("y", c.get("cy", 0)))
    assert centre("0a1")[1] > centre("0a2")[1] and centre("0a1")[0] < centre("0b1")[0]
    assert centre("0d1")[0] < centre("1a1")[0] < centre("2a1")[0] < centre("3a1")[0]
    assert centre("0a4")[1] == centre("1a3")[1] == centre("2a2")[1] == centre("3a1")[1]


@pytest.mark.parametrize("name,columns,rows", [
    ("hex", list("abcdefghijk"), [str(r) for r in range(1, 12)]),
    ("connect_four", list("abcdefg"), ["6", "5", "4", "3", "2", "1"]),
    ("tatara", list("abc") * 4, ["1", "2", "3"] * 4)])
def test_grids_carry_their_coordinates(name: str, columns: list[str], rows: list[str]) -> None:
    """Column names over each grid's top row and row names at each row's left, the parts
    of the site names that differ (as the terminal shows them), at least 12 px."""
    root = check_structure(rulelang.load_game(name).new_initial_state(seed=0), 0)
    marks = find(root, "coordinate")
    assert all(float(m.get("font-size") or 12) >= 12 for m in marks)
    columns_seen = [m.text for m in marks if m.get("text-anchor") == "middle"]
    rows_seen = [m.text for m in marks if m.get("text-anchor") == "end"]
    assert columns_seen == columns and rows_seen == rows


def test_joined_boards_lie_as_placed_and_tiles_show_edges() -> None:
    tatara = check_structure(at("tatara", 0), 0)
    titles = [t.text for t in tatara.iter(NS + "text") if "layer-title" in classes(t)]
    assert titles == ["board 1", "board 2", "board 3", "board 4"]
    _, moves = played("karesansui")
    garden = check_structure(at("karesansui", len(moves)), 0)
    tiles = [p for p in find(garden, "piece") if p.get("data-piece") == "tile"]
    assert tiles and all(len(find(t, "edge")) == 4 for t in tiles)
    assert {e.get("data-edge") for t in tiles for e in find(t, "edge")} - {None}


def test_hidden_zone_shows_only_its_count() -> None:
    state = at("muso_sakura", 3)
    obs = state.observation(0)
    root = check_structure(state, 0)
    hidden = [z for z in obs["zones"] if z["pieces"] is None]
    panel = " ".join(" ".join(g.itertext()) for g in find(root, "group"))
    assert hidden and all(f"{z['count']} hidden" in panel for z in hidden)
    names = [c["attrs"]["name"] for z in obs["zones"] if z["pieces"] is not None
             for c in z["pieces"] if "name" in c.get("attrs", {})]
    assert names and all(n in panel for n in names)  # the open cards, by name


def test_render_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.svg"
    assert main(["render", "tic_tac_toe", "-o", str(out)]) == 0
    assert len(find(ET.parse(out).getroot(), "site")) == 9
    record = tmp_path / "game.yaml"
    assert main(["play", "tic_tac_toe", "--agents", "random,random", "--record",
                 str(record)]) == 0
    assert main(["render", "--record", str(record), "--ply", "1", "--as", "2", "-o",
                 str(out)]) == 0
    root = ET.parse(out).getroot()
    assert len(find(root, "piece")) == 1 and len(find(root, "lastmove")) == 1
    capsys.readouterr()


@pytest.mark.parametrize(("argv", "message"), [
    (["render", "tic_tac_toe", "--as", "Z", "-o", "{tmp}/x.svg"], "no player 'Z'"),
    (["render", "tic_tac_toe", "-o", "{tmp}/none/x.svg"], "there is no folder"),
    (["render", "tic_tac_toe", "-o", "{tmp}"], "it is a folder"),
    (["render", "tic_tac_toe", "--ply", "2", "-o", "{tmp}/x.svg"], "--ply needs --record"),
    (["render", "-o", "{tmp}/x.svg"], "render needs a rulebook or a record"),
    (["render", "--record", "{tmp}/r.yaml", "--ply", "99", "-o", "{tmp}/x.svg"], "no ply 99"),
    (["render", "--record", "{tmp}/r.yaml", "--ply", "-1", "-o", "{tmp}/x.svg"], "no ply -1"),
    (["replay", "{tmp}/r.yaml", "--html", "{tmp}/none/x.html"], "there is no folder"),
    (["replay", "{tmp}/r.yaml", "--html", "{tmp}/x.html", "--as", "9"], "no player '9'"),
])
def test_render_mistakes_are_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      argv: list[str], message: str) -> None:
    assert main(["play", "tic_tac_toe", "--agents", "random,random", "--record",
                 str(tmp_path / "r.yaml")]) == 0
    capsys.readouterr()
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_svg_at_the_play_prompt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "now.svg"
    answers = iter([f"svg {out}", "q"])
    monkeypatch.setattr("builtins.input", lambda _prompt="": next(answers))
    monkeypatch.chdir(tmp_path)  # `q` keeps the stopped game in the working folder
    assert main(["play", "hex", "--agents", "human,random"]) == 0
    assert (tmp_path / "hex.stopped.yaml").is_file()
    assert f"position written to {out}" in capsys.readouterr().out
    assert len(find(ET.parse(out).getroot(), "site")) == 121


@pytest.mark.parametrize(("name", "options"), [("karesansui", {"players": 4}),
                                               ("tatara", {"players": 4}),
                                               ("muso_sakura", {"players": 5})])
def test_a_picture_reads_at_1200_by_900(name: str, options: dict[str, int]) -> None:
    """Shown whole on a 1200 x 900 screen, no text of a picture is under 12 px: the picture
    is no larger than that, and no text in it is smaller."""
    game = rulelang.load_game(name, options=options)
    state = game.new_initial_state(seed=1)
    rng = random.Random(1)
    while len(state.history()) < 80 and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    root = ET.fromstring(draw(state.observation(0), board_shape(game)))
    width, height = float(root.get("width", 0)), float(root.get("height", 0))
    scale = min(1.0, 1200 / width, 900 / height)
    sizes = [float(e.get("font-size") or 13) for e in root.iter(NS + "text")]
    assert sizes and min(sizes) * scale >= 12, (width, height, min(sizes))
