"""Reading a Tatara and the Forest state through the public API (observations only)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / "rulebooks" / "tatara.rule"
ORDERED = Path(__file__).resolve().parent / "tatara_ordered.rule"
TREES = ("pine", "cedar", "sawtooth", "oak", "beech")
BUILDINGS = ("tatara", "eitai")


def board(state: Any) -> dict[str, list[dict[str, Any]]]:
    """site name -> its pieces (kind, owner, attrs), bottom first; every site listed."""
    return {s["site"]: s["pieces"] for s in state.observation(0)["board"]}


def tree(state: Any, site: str) -> tuple[str, str | None, bool, int] | None:
    """(kind, owner, standing, side) of the tree on a site, or None."""
    for p in board(state)[site]:
        if p["kind"] in TREES:
            return p["kind"], p["owner"], p["attrs"]["standing"], p["attrs"]["side"]
    return None


def kinds(state: Any, site: str) -> list[tuple[str, str | None]]:
    return [(p["kind"], p["owner"]) for p in board(state)[site]]


def counter(state: Any, name: str, player: str) -> int:
    for c in state.observation(0)["counters"]:
        if c["counter"] == name and c["owner"] == player:
            return int(c["value"])
    raise KeyError((name, player))


def var(state: Any, name: str, player: str | None = None) -> Any:
    for v in state.observation(0)["vars"]:
        if v["var"] == name and v["owner"] == player:
            return v["value"]
    raise KeyError((name, player))


def zone_count(state: Any, name: str, owner: str | None = None, kind: str | None = None) -> int:
    """Pieces in a zone (of a kind); a hidden zone counts all its pieces."""
    for z in state.observation(0)["zones"]:
        if z["zone"] == name and z["owner"] == owner:
            if kind is None or z["pieces"] is None:
                return int(z["count"])
            return sum(p.get("count", 1) for p in z["pieces"] if p["kind"] == kind)
    raise KeyError((name, owner))
