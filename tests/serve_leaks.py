"""The leak search over what a web table sent each seat (tests/serve/): every view frame
and page a seat received is searched for the values hidden from that seat at the positions
the frame can show (the search of the replay viewer's test, tests/hidden_search.py)."""
from __future__ import annotations

import html
import json
import re
from typing import Any

from hidden_search import found, hidden_values

SPECTATOR = -1


def check_frames(game: Any, seed: int, moves: list[str],
                 received: dict[int, list[dict[str, Any]]], pages: dict[int, str]) -> int:
    """Assert that no frame or page a seat received shows what that seat may not see; the
    frames' moves (`options`) must be that seat's legal moves at that position. A frame is
    matched to the positions whose observed history is the frame's (a run of another's
    secret choices is one entry): what is hidden at all of them must not appear.
    A page is searched without its rules (`<details id="rules">`: the game's written rules,
    the same for every seat, name every card); the caller checks that the pages of the seats
    differ in nothing else than the seat's name. Returns the number of frames searched."""
    pages = {seat: re.sub(r'<details id="rules">.*?</details>', "", text, flags=re.S)
             for seat, text in pages.items()}
    per_player, seen = hidden_values(game, seed, moves)
    n = game.num_players
    plies = range(len(moves) + 1)
    spectator = [set().union(*(per_player[p][i] for p in range(n))) for i in plies]
    histories: dict[int, list[list[str]]] = {p: [] for p in [*range(n), SPECTATOR]}
    legal: list[tuple[int, list[str]]] = []
    state = game.new_initial_state(seed=seed)
    for ply in plies:
        if ply:
            state.apply_action(moves[ply - 1])
        for p, hs in histories.items():
            hs.append(state.observation(p)["history"])
        legal.append((state.current_player(),
                      [state.action_to_string(a) for a in state.legal_actions()]))
    searched = 0
    for seat, frames in received.items():
        per_ply = per_player[seat] if seat >= 0 else spectator
        assert frames, f"seat {seat} received no view"
        texts = []
        for frame in frames:
            at = [i for i, h in enumerate(histories[seat]) if h == frame["history"]]
            assert at, f"seat {seat} got a view of no position of the game: {frame['history']}"
            hidden = set.intersection(*(per_ply[i] for i in at))
            shown = {k: v for k, v in frame.items() if k not in ("options", "turn")}
            text = json.dumps(shown, ensure_ascii=False) + html.unescape(frame["svg"])
            texts.append(text)
            leaked = found(hidden, text)
            assert not leaked, f"seat {seat} was sent {leaked[:10]} in {frame['history'][-3:]}"
            if "options" in frame:
                assert any(legal[i] == (seat, frame["options"]) for i in at), frame["options"]
            searched += 1
        if seat >= 0:  # values hidden at some position that the seat never saw at any
            never = {v for v in set().union(*per_ply) if v not in seen[seat]}
            everything = "\n".join(texts) + html.unescape(pages.get(seat, ""))
            assert not found(never, everything), found(never, everything)[:10]
        assert not found(set().union(*per_ply), html.unescape(pages.get(seat, "")))
    return searched
