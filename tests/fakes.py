"""A tiny stand-in for rulelang's Game/State (DESIGN.md section 5), for unit tests only.

"Fake Three": n-in-a-row (3) on a size x size grid for 2 or 3 players.  Each player has a
public supply zone and a hand zone only its owner may see; a shared counter counts moves.
The rulebook file's text steers it: a line "error" makes load_game fail with a diagnostic;
"explode N" makes move N raise a RuleRuntimeError; "size" and "players" are options.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from rulelang.errors import Diagnostic, IllegalActionError, RulebookError, RuleRuntimeError
from rulelang.source import Source, Span

TERMINAL = -4
NAMES = ["Xena", "Oscar", "Pat"]
LINES = [(0, 1), (1, 0), (1, 1), (1, -1)]


class FakeGame:
    name = "Fake Three"
    player_range = (2, 3)
    option_specs = {"players": {"default": 2, "choices": [2, 3]},
                    "size": {"default": 3, "choices": [3, 4]}}

    def __init__(self, path: str, options: dict[str, Any], text: str) -> None:
        self.path = path
        self.options = options
        self.num_players = options["players"]
        self.size = options["size"]
        self.player_names = NAMES[: self.num_players]
        self.source_hash = hashlib.sha256(text.encode()).hexdigest()
        self.explode_at = _explode_at(text)
        self.max_plies: int | None = None  # as Game.max_plies: the moves after which it is capped

    def new_initial_state(self, seed: int = 0) -> FakeState:
        return FakeState(self, seed)


def _explode_at(text: str) -> int | None:
    for line in text.splitlines():
        if line.startswith("explode"):
            return int(line.split()[1])
    return None


class FakeState:
    def __init__(self, game: FakeGame, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.cells: list[int | None] = [None] * (game.size * game.size)
        self.moves: list[str] = []
        self.winner: int | None = None

    # -- the contract ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else len(self.moves) % self.game.num_players

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [i for i, owner in enumerate(self.cells) if owner is None]

    def action_to_string(self, action: int) -> str:
        r, c = divmod(action, self.game.size)
        return f"{'abcd'[c]}{r + 1}"

    def string_to_action(self, text: str) -> int:
        for a in range(len(self.cells)):
            if self.action_to_string(a) == text.strip():
                return a
        raise IllegalActionError(f"'{text}' is not a site")

    def apply_action(self, action: int | str) -> None:
        a = self.string_to_action(action) if isinstance(action, str) else action
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        if a not in self.legal_actions():
            raise IllegalActionError(f"site '{self.action_to_string(a)}' is taken")
        if self.game.explode_at == len(self.moves) + 1:
            raise RuleRuntimeError("division by zero in 'score'",
                                   Span(self.game.path, 1, 1, 1, 8))
        player = self.current_player()
        self.cells[a] = player
        self.moves.append(self.action_to_string(a))
        if self._line_through(a, player):
            self.winner = player

    def is_terminal(self) -> bool:
        return self.winner is not None or all(c is not None for c in self.cells) \
            or self.capped()

    def capped(self) -> bool:
        cap = self.game.max_plies
        return self.winner is None and cap is not None and len(self.history()) >= cap \
            and not all(c is not None for c in self.cells)

    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.winner is None:
            return [0.0] * n
        return [1.0 if p == self.winner else -1.0 for p in range(n)]

    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def scores(self) -> list[int]:
        return [self.cells.count(p) for p in range(self.game.num_players)]

    def score_breakdown(self, player: int) -> dict[str, int]:
        return {"stones": self.scores()[player]}

    def clone(self) -> FakeState:
        other = FakeState(self.game, self.seed)
        other.cells, other.moves, other.winner = list(self.cells), list(self.moves), self.winner
        return other

    def history(self) -> list[str]:
        return list(self.moves)

    def observation(self, player: int) -> dict[str, Any]:
        names = self.game.player_names
        return {"game": self.game.name, "player": player, "players": list(names),
                "current_player": self.current_player(), "terminal": self.is_terminal(),
                "board": [self._site(i) for i in range(len(self.cells))],
                "zones": [z for p in range(len(names)) for z in self._zones(p, player)],
                "counters": [{"counter": "moves", "owner": None, "value": len(self.moves)}],
                "history": list(self.moves),
                "scores": self.scores() if self.is_terminal() else None}

    # -- helpers --------------------------------------------------------------------------
    def _site(self, i: int) -> dict[str, Any]:
        owner = self.cells[i]
        pieces = [] if owner is None else [self._stone(owner)]
        return {"site": self.action_to_string(i), "coords": list(divmod(i, self.game.size)),
                "pieces": pieces}

    def _stone(self, owner: int) -> dict[str, Any]:
        return {"kind": "stone", "owner": self.game.player_names[owner], "attrs": {}}

    def _zones(self, owner: int, viewer: int) -> list[dict[str, Any]]:
        name = self.game.player_names[owner]
        left = self.game.size * self.game.size - self.cells.count(owner)
        card = {"kind": "card", "owner": name, "attrs": {"secret": owner * 7}}
        return [{"zone": "supply", "owner": name, "count": left,
                 "pieces": [self._stone(owner)] * left},
                {"zone": "hand", "owner": name, "count": 1,
                 "pieces": [card] if owner == viewer else None}]

    def _line_through(self, a: int, player: int) -> bool:
        size = self.game.size
        r, c = divmod(a, size)
        return any(self._run(r, c, dr, dc, player) + self._run(r, c, -dr, -dc, player) >= 2
                   for dr, dc in LINES)

    def _run(self, r: int, c: int, dr: int, dc: int, player: int) -> int:
        size, n = self.game.size, 0
        r, c = r + dr, c + dc
        while 0 <= r < size and 0 <= c < size and self.cells[r * size + c] == player:
            n, r, c = n + 1, r + dr, c + dc
        return n


def load_game(path: str, options: dict[str, Any] | None = None,
              mode: str = "compiled") -> FakeGame:
    """Same signature and errors as rulelang.load_game, for rulebook files written by tests."""
    text = Path(path).read_text(encoding="utf-8")
    source = Source(str(path), text)
    if "error" in text.splitlines():
        span = Span(str(path), 1, 1, 1, 2)
        raise RulebookError([Diagnostic("R201", "unknown zone 'hnad'", span, "did you mean "
                                        "'hand'?")], {str(path): source})
    chosen = {"players": 2, "size": 3, **(options or {})}
    for key, value in chosen.items():
        _check_option(key, value, str(path))
    return FakeGame(str(path), chosen, text)


def _check_option(key: str, value: Any, path: str) -> None:
    spec = FakeGame.option_specs.get(key)
    if spec is None:
        raise RulebookError([Diagnostic("R220", f"unknown option '{key}'", None)])
    if value not in spec["choices"]:
        raise RulebookError([Diagnostic("R221", f"option '{key}' must be one of "
                                        f"{spec['choices']}, not {value!r}", None)])
