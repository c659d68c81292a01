"""The rulebooks a server offers: each by a short id (its file's stem), with its name,
player counts and options, and its games loaded once per set of options."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulelang.tools.common import bundled, load
from rulelang.tools.serve.protocol import ClientError


@dataclass
class Entry:
    """One served rulebook."""
    id: str
    path: str
    name: str
    players: tuple[int, int]
    options: dict[str, dict[str, Any]]  # name -> {"default", "choices"} (players aside)
    games: dict[str, Any] = field(default_factory=dict, repr=False)  # options key -> Game

    def describe(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "players": list(self.players),
                "options": self.options}


class Catalog:
    """The served rulebooks, by id; `paths` empty: every bundled rulebook."""

    def __init__(self, paths: list[str]) -> None:
        self.entries: dict[str, Entry] = {}
        for path in paths or [str(p) for p in bundled()]:
            game = load(path)
            stem, n = Path(str(game.path)).stem, 2
            key = stem
            while key in self.entries:  # two rulebooks of one name: the second is NAME-2
                key, n = f"{stem}-{n}", n + 1
            low, high = game.player_range
            specs = {k: dict(v) for k, v in game.option_specs.items() if k != "players"}
            self.entries[key] = Entry(key, str(game.path), str(game.name),
                                      (low, high), specs)
            self.entries[key].games[_key(dict(game.options))] = game

    def entry(self, rulebook: str) -> Entry:
        found = self.entries.get(rulebook)
        if found is None:
            raise ClientError(f"no rulebook '{rulebook}' is served here",
                             "the lobby lists the served rulebooks")
        return found

    def game(self, rulebook: str, options: dict[str, Any]) -> Any:
        """The game of a served rulebook with these options (checked: players in range,
        every option one of its choices); loaded once."""
        entry = self.entry(rulebook)
        options = self.checked(entry, options)
        key = _key(options)
        if key not in entry.games:
            entry.games[key] = load(entry.path, options)
        return entry.games[key]

    @staticmethod
    def checked(entry: Entry, options: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        low, high = entry.players
        players = options.get("players", low)
        if not isinstance(players, int) or isinstance(players, bool) or \
                not low <= players <= high:
            raise ClientError(f"'{entry.name}' is played by {low} to {high} players, "
                             f"not {str(players)[:20]}")
        out["players"] = players
        for name, value in options.items():
            if name == "players":
                continue
            spec = entry.options.get(name)
            if spec is None:
                raise ClientError(f"'{entry.name}' has no option '{str(name)[:40]}'",
                                 f"its options: {', '.join(entry.options) or 'none'}")
            if value not in spec["choices"]:
                raise ClientError(f"option '{name}' cannot be '{str(value)[:40]}'",
                                 "choose one of " + ", ".join(map(str, spec["choices"])))
            out[name] = value
        for name, spec in entry.options.items():
            out.setdefault(name, spec["default"])
        return out


def _key(options: dict[str, Any]) -> str:
    return repr(sorted(options.items()))
