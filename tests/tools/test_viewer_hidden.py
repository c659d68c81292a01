"""A replay page made `--as P` holds nothing P may not see, at any ply: for Muso Sakura and
Karesansui records, every value hidden from P in some state (the pieces of the zones P does
not see, the secret variables' values and the secret choices of the others, as the state
and the other players' observations hold them) that P never sees in any observation is
searched for in the page, and none is found."""
from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest
from hidden_search import found, hidden_values  # noqa: E402

import rulelang
from rulelang.agents import make_agent
from rulelang.tools.cli import main
from rulelang.tools.pictures.viewer import frames, page, replay_page
from rulelang.tools.records.record import record_game, write_record


def pages(game: Any, shots: list[dict[str, Any]], player: int) -> str:
    return page(str(game.name), str(game.player_names[player]), shots)


def played(name: str, seed: int, options: dict[str, Any] | None = None) -> tuple[Any, list[str]]:
    game = rulelang.load_game(name, options)
    state = game.new_initial_state(seed=seed)
    agent = make_agent("random", seed=seed)
    while not state.is_terminal() and len(state.history()) < PLIES:
        state.apply_action(agent.choose(state))
    return game, list(state.history())


PLIES = 90  # a game's first plies: its first rounds, with hands dealt, played and scored


@pytest.mark.parametrize(("name", "seed", "options"), [
    ("muso_sakura", 2, {"players": 3}),
    ("karesansui", 3, {"players": 2}),
])
def test_page_as_a_player_holds_nothing_hidden_from_them(name: str, seed: int,
                                                         options: dict[str, Any]) -> None:
    game, moves = played(name, seed, options)
    per_player, seen = hidden_values(game, seed, moves)
    for player, per_ply in enumerate(per_player):
        assert any(per_ply), "the test must have hidden values to look for"
        shots = frames(game, seed, moves, player)
        for ply, shot in zip(frame_plies(game, seed, moves, player), shots, strict=True):
            leaked = found(per_ply[ply], json.dumps(shot, ensure_ascii=False) +
                           html.unescape(shot["svg"]))
            assert not leaked, f"{name} as player {player} at ply {ply} shows {leaked[:10]}"
        page = pages(game, shots, player)
        if player == 0:  # (the replay page is made of the frames: once is enough)
            assert replay_page(game, seed, moves, player) == page
        never = {v for v in set.union(*per_ply) if v not in seen[player]}  # at no ply
        assert not found(never, page), f"{name} as player {player}: {found(never, page)[:10]}"


def frame_plies(game: Any, seed: int, moves: list[str], player: int) -> list[int]:
    """The ply (of the true game) each frame shows: one per entry of the player's observed
    history, the last ply of a run of another's secret choices for that run's entry."""
    state = game.new_initial_state(seed=seed)
    plies, lengths = [0], [0]
    for ply, text in enumerate(moves, start=1):
        state.apply_action(text)
        n = len(state.observation(player)["history"])
        if n == lengths[-1] and len(lengths) > 1:
            plies[-1] = ply
        else:
            plies.append(ply)
            lengths.append(n)
    return plies


def test_frames_hold_a_picture_and_a_move_per_ply() -> None:
    """One frame per ply and nothing else in it; the scores only once the game is over."""
    game, moves = played("muso_sakura", 2, {"players": 3})
    shots = frames(game, 2, moves, 0)
    assert len(shots) == len(moves) + 1          # abilities=best: no run of secret choices
    assert all(set(f) == {"ply", "move", "svg", "scores", "mover"} for f in shots)
    assert shots[0]["mover"] is None  # who moved; not said of others' secret choices
    assert all(f["mover"] in game.player_names if not f["move"].startswith("(secret")
               else f["mover"] is None for f in shots[1:])
    assert shots[-1]["scores"] is not None and all(f["scores"] is None for f in shots[:-1])


def test_a_run_of_secret_choices_is_one_frame() -> None:
    """abilities=by_hand: a player's role and its abilities are a run of secret choices,
    one entry of another player's history and one frame of their page, whatever its
    length; the frames' moves are that history."""
    game, moves = played("muso_sakura", 2, {"players": 3, "abilities": "by_hand"})
    for player in range(3):
        shots = frames(game, 2, moves, player)
        state = game.new_initial_state(seed=2)
        for m in moves:
            state.apply_action(m)
        history = state.observation(player)["history"]
        assert len(shots) == len(history) + 1 < len(moves) + 1
        assert [f["move"] for f in shots[1:]] == history


def test_replay_html_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game, moves = played("muso_sakura", 2, {"players": 3})
    state = game.new_initial_state(seed=2)
    for m in moves:
        state.apply_action(m)
    record = tmp_path / "m.yaml"
    write_record(record, record_game(game, state, 2, rulebook="muso_sakura"))
    out = tmp_path / "m.html"
    name = game.player_names[1]
    assert main(["replay", str(record), "--html", str(out), "--as", "2"]) == 0
    assert f"as {name} saw it" in capsys.readouterr().out
    text = out.read_text(encoding="utf-8")
    assert text == replay_page(game, 2, moves, 1)
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in text and "<script src" not in text
