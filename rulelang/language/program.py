"""Plain data handed from the front end (loader, checker) to the runtime: the runtime imports
this module and never the parser, the builder or the checker."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulelang.language import ast
from rulelang.source import Source

Ref = tuple[str, str]  # (category, key): how the checker resolved a name


@dataclass
class Module:
    name: str  # "" for the game itself
    source: Source
    decls: tuple[ast.Decl, ...]
    uses: dict[str, str] = field(default_factory=dict)  # local name -> module key


@dataclass
class Loaded:
    game: Module
    modules: dict[str, Module]  # key: module name
    sources: dict[str, Source]
    # data files: (path of the declaring file, path as written) -> rows (one dict per row)
    data: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)


@dataclass
class Program:
    """A checked rulebook: its declarations by name and the resolution of every name."""
    loaded: Loaded
    game: ast.Game
    players: ast.Players
    options: dict[str, ast.Option]
    board: ast.Board | None
    pieces: dict[str, ast.Piece]
    zones: dict[str, ast.Zone]
    counters: dict[str, ast.Counter]
    vars: dict[str, ast.Var]
    defs: dict[str, ast.Def] = field(default_factory=dict)  # key: "module.name" or "name"
    effects: dict[str, ast.Effect] = field(default_factory=dict)
    geometries: dict[str, ast.Geometry] = field(default_factory=dict)
    actions: dict[str, ast.Action] = field(default_factory=dict)
    sections: dict[str, ast.Block] = field(default_factory=dict)
    scores: list[ast.Score] = field(default_factory=list)
    pictures: dict[str, ast.Picture] = field(default_factory=dict)  # key: piece kind
    refs: dict[int, Ref] = field(default_factory=dict)
    uses_repetition: bool = False
    round: ast.Round | None = None
