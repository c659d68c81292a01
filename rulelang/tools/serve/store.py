"""Tables and their moves in SQLite, so that a server restarted later resumes every table.

A table row holds what makes its game (rulebook id and path, options, seed, the rulebook's
sha256) and its seats; the moves are rows of their own, one per ply, written as each is
played (and deleted by an undo). Seat links are kept only as sha256 digests of their tokens:
the database alone opens no seat. The default file lies in the user's data folder
($XDG_DATA_HOME/rulelang, else ~/.local/share/rulelang), made private (mode 0700).
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
  id TEXT PRIMARY KEY, rulebook TEXT NOT NULL, path TEXT NOT NULL, sha256 TEXT NOT NULL,
  options TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL, spectator TEXT NOT NULL,
  created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS moves (
  table_id TEXT NOT NULL REFERENCES tables(id), ply INTEGER NOT NULL, action TEXT NOT NULL,
  PRIMARY KEY (table_id, ply));
"""


def default_db() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rulelang" / "serve.sqlite3"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Saved:
    """A table as stored: `seats` are {"agent": "human" or an agent's name, "token": digest}."""
    id: str
    rulebook: str
    path: str
    sha256: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, str]]
    spectator: str  # digest of the spectator's token
    moves: list[str]


class Store:
    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)

    def add(self, t: Saved) -> None:
        self.db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (t.id, t.rulebook, t.path, t.sha256, json.dumps(t.options), t.seed,
                         json.dumps(t.seats), t.spectator, time.time()))

    def get(self, table_id: str) -> Saved | None:
        row = self.db.execute("SELECT id, rulebook, path, sha256, options, seed, seats, "
                              "spectator FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        moves = [m for (m,) in self.db.execute(
            "SELECT action FROM moves WHERE table_id = ? ORDER BY ply", (table_id,))]
        return Saved(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5],
                     json.loads(row[6]), row[7], moves)

    def ids(self) -> list[str]:
        return [i for (i,) in self.db.execute("SELECT id FROM tables ORDER BY created")]

    def push(self, table_id: str, ply: int, action: str) -> None:
        self.db.execute("INSERT INTO moves VALUES (?, ?, ?)", (table_id, ply, action))

    def cut(self, table_id: str, keep: int) -> None:
        """Forget the moves from ply `keep` on (an undo)."""
        self.db.execute("DELETE FROM moves WHERE table_id = ? AND ply >= ?", (table_id, keep))

    def close(self) -> None:
        self.db.close()
