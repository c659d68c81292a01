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

import rulelang
from rulelang.agents import make_agent
from rulelang.tools.cli import main
from rulelang.tools.record import record_game, write_record
from rulelang.tools.render import _value, _zone
from rulelang.tools.viewer import frames, page, replay_page


def _strings(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, out)
    elif value is not None:
        out.add(str(value))


def hidden_values(game: Any, seed: int,
                  moves: list[str]) -> tuple[list[list[set[str]]], list[str]]:
    """Per player and ply: the values hidden from them in that state that their observation
    of it does not show (the value may be shown at another ply: a card seen before)."""
    program = game.runtime.program
    n = game.num_players
    state = game.new_initial_state(seed=seed)
    result: list[list[set[str]]] = [[] for _ in range(n)]
    every: list[list[str]] = [[] for _ in range(n)]  # what each saw at any ply
    for ply in range(len(moves) + 1):
        hidden: list[set[str]] = [set() for _ in range(n)]
        shown: list[list[str]] = [[] for _ in range(n)]
        if ply:
            state.apply_action(moves[ply - 1])
        seen = [state.observation(p) for p in range(n)]
        data = state.ctx.data
        for player, mine in enumerate(seen):
            # the observation as data and its values as the pictures write them ("(a, b)")
            shown[player] += [json.dumps(mine, ensure_ascii=False)]
            shown[player] += [_value(v["value"]) for v in mine["vars"]]
            shown[player] += [_zone(z) for z in mine["zones"]]
            for ref, pile in data.zones.items():  # the state itself: every zone's pieces
                visible = program.zones[ref.name].visible
                if visible == "everyone" or (visible == "owner" and ref.owner == player):
                    continue
                for piece in pile:
                    hidden[player].add(piece.label)
                    for column in data.attrs.values():
                        if column[piece.id] is not None:
                            _strings(column[piece.id], hidden[player])
            for other, theirs in enumerate(seen):  # what the others see of it
                if other == player:
                    continue
                for z_mine, z_theirs in zip(mine["zones"], theirs["zones"], strict=True):
                    if z_mine["pieces"] is None and z_theirs["pieces"] is not None:
                        _strings(z_theirs["pieces"], hidden[player])
                for v_mine, v_theirs in zip(mine["vars"], theirs["vars"], strict=True):
                    if v_mine["value"] is None and v_theirs["value"] is not None:
                        _strings(v_theirs["value"], hidden[player])
            for d, i in data.history:  # the others' secret choices, as they made them
                if d.secret and d.player != player:
                    hidden[player].add(d.labels()[i])
        for player in range(n):
            text = "\n".join(shown[player])
            every[player].append(text)
            result[player].append({v for v in hidden[player]
                                   if len(v) >= 3 and v not in text and html.escape(v) not in text})
    return result, ["\n".join(texts) for texts in every]


def found(values: set[str], text: str) -> list[str]:
    return sorted(v for v in values if v in text or html.escape(v) in text
                  or json.dumps(v, ensure_ascii=False)[1:-1] in text)


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
        page = replay_page(game, seed, moves, player)
        assert page == pages(game, shots, player)
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
