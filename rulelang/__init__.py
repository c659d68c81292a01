"""rulelang: a declarative rules language for board and card games.

>>> import random, rulelang
>>> path = sorted(rulelang.BUNDLED.glob("*.rule"))[0]
>>> game = rulelang.load_game(path)
>>> state = game.new_initial_state(seed=0)
>>> rng = random.Random(0)
>>> while not state.is_terminal():
...     state.apply_action(rng.choice(state.legal_actions()))
>>> sum(state.returns()) <= 0
True
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from rulelang.errors import (
    Diagnostic,
    IllegalActionError,
    RecordError,
    RulebookError,
    RulelangError,
    RuleRuntimeError,
)
from rulelang.game.callchain import note_calls
from rulelang.game.engine import TERMINAL, Game, State, too_deep
from rulelang.game.runtime import Runtime
from rulelang.gen import GenGame, Unsupported, generate
from rulelang.language import ast
from rulelang.language.checker import check
from rulelang.language.loader import load
from rulelang.language.parser import GRAMMAR_VERSION, parse
from rulelang.language.program import Loaded, Program
from rulelang.limits import MAX_DIGITS, shown
from rulelang.reference.flow import ReferenceFlow
from rulelang.reference.statements import Reference
from rulelang.resources import bundled_dir, rulebook_path
from rulelang.source import Source

COMPILER_VERSION = 1
BUNDLED = bundled_dir()
_PROGRAMS: dict[tuple[str, tuple[str, ...]], Program] = {}  # (hash, the files' paths)
_RUNTIMES: dict[tuple[Any, ...], Runtime] = {}
# The modes: "interpreted", the reference evaluator (the meaning of the language), and
# "compiled" (also named "generated"), one Python module per game over a flat state
# (rulelang/gen) written from the reference's runtime and proven equal to it by the tests; a
# rulebook the generator does not take runs on the reference (`rulelang compile --explain`).
MODES = ("compiled", "interpreted", "generated")
_GENERATED: dict[Runtime, Any] = {}

__all__ = ["load_game", "check_file", "is_library", "parse", "check", "compile_rulebook", "Game",
           "State", "TERMINAL", "RulelangError", "RulebookError", "RuleRuntimeError",
           "IllegalActionError", "RecordError", "Diagnostic", "Source", "BUNDLED",
           "GRAMMAR_VERSION"]


def source_hash(loaded: Loaded) -> str:
    """sha256 of the rulebook and everything it uses, by content only: the same files give
    the same hash whatever the folder a record is made or replayed from."""
    h = hashlib.sha256()
    for digest in sorted(src.sha256 for src in loaded.sources.values()):
        h.update(digest.encode())
    return h.hexdigest()


def load_game(path: str | Path, options: dict[str, Any] | None = None,
              mode: str = "compiled") -> Game:
    """Read, check and compile a rulebook (a path, or a bundled rulebook's name); RulebookError
    lists every mistake."""
    if mode not in MODES:
        raise RulelangError(f"unknown mode '{mode}' (use 'compiled', 'interpreted' or "
                            "'generated')")
    path, program, digest = _checked(path)
    runtime = compile_rulebook(program, resolve_options(program, options or {}), digest)
    made = generated_state(runtime) if mode != "interpreted" else None
    if made is not None:
        return GenGame(runtime, str(path), digest, made)
    return Game(runtime, str(path), digest)


def generated_state(runtime: Runtime) -> Any:
    """The generated State class of a game (made once per runtime), or None when the
    generator does not take the game (gen.explain says why)."""
    if runtime not in _GENERATED:
        try:
            _GENERATED[runtime] = generate(runtime)
        except Unsupported:
            _GENERATED[runtime] = None
        except RulelangError as err:
            note_calls(err, runtime.program.loaded)
            raise
        except Exception:  # noqa: BLE001 - a fault of the generator (gen.explain says it):
            _GENERATED[runtime] = None  # the game runs on the reference
    return _GENERATED[runtime]


def _checked(given: str | Path) -> tuple[str | Path, Program, str]:
    """The rulebook's path, its checked program (kept per source hash) and that hash."""
    path = rulebook_path(given)
    loaded = load(path)
    digest = source_hash(loaded)
    key = (digest, tuple(sorted(loaded.sources)))  # the same text elsewhere: its own positions
    program = _PROGRAMS.get(key)
    if program is None:
        program = _PROGRAMS[key] = check(loaded)
    return path, program, digest


def declares_nothing(loaded: Any) -> Diagnostic | None:
    """R204 for a file of nothing but blank lines and comments (not even a library)."""
    if loaded.game.decls:
        return None
    return Diagnostic("R204", "the file declares nothing", loaded.game.source.span_at_end(),
                      'a game starts with `game "Name"` and `players …`; a library with its '
                      "`def`s")


def check_file(path: str | Path) -> Program:
    """What `rulelang check` does: a game is loaded with its default options (so that its
    board is built too); a file without a `game` line is checked as a library module."""
    loaded = load(path)
    empty = declares_nothing(loaded)
    if empty is not None:
        raise RulebookError([empty], {loaded.game.source.path: loaded.game.source})
    if not any(isinstance(d, ast.Game) for d in loaded.game.decls):
        return check(loaded, library=True)
    return load_game(path).runtime.program


def is_library(path: str | Path) -> bool:
    """A rulebook without a `game` line: a module of definitions that games `use` (it is
    checked, but not listed or played as a game)."""
    return not any(isinstance(d, ast.Game) for d in load(path).game.decls)


def compile_rulebook(program: Program, options: dict[str, Any],
                     digest: str | None = None) -> Runtime:
    """The runtime for one set of options (the reference's, which the generated module of the
    game is written from), cached by source hash, versions and options."""
    key = (digest or source_hash(program.loaded), tuple(sorted(program.loaded.sources)),
           GRAMMAR_VERSION, COMPILER_VERSION, tuple(sorted(options.items())))
    runtime = _RUNTIMES.get(key)
    if runtime is None:
        try:
            runtime = _RUNTIMES[key] = Runtime(program, options, Reference, ReferenceFlow)
        except RulelangError as err:
            note_calls(err, program.loaded)
            raise
        except RecursionError as exc:  # a rule the board or a table calls, calling itself
            deep = too_deep(exc)
            note_calls(deep, program.loaded)
            raise deep from None
    return runtime


def resolve_options(program: Program, given: dict[str, Any]) -> dict[str, Any]:
    """Defaults completed by the given values; an impossible value is a positioned error."""
    diags: list[Diagnostic] = []
    players = program.players
    chosen: dict[str, Any] = {"players": players.lo if not players.names else len(players.names)}
    for name, opt in program.options.items():
        chosen[name] = opt.default
    for name, value in given.items():
        if name == "players":
            n = _as_int(value)
            if n is None or not players.lo <= n <= players.hi:
                diags.append(Diagnostic("R205", f"impossible option: players="
                                        f"{shown(str(value))} (this game has "
                                        f"{_count_text(players.lo, players.hi)})", players.span))
            else:
                chosen["players"] = n
        elif name not in program.options:
            known = ", ".join(["players", *program.options]) or "players"
            diags.append(Diagnostic("R205", f"unknown option '{shown(str(name))}' (options: "
                                    f"{known})", None))
        else:
            value = _check_option(program.options[name], value, diags)
            chosen[name] = value
    if diags:
        raise RulebookError(diags, program.loaded.sources)
    return chosen


def _check_option(opt: ast.Option, value: Any, diags: list[Diagnostic]) -> Any:
    if opt.choices:
        if str(value) not in opt.choices:
            diags.append(Diagnostic("R205", f"impossible option: {opt.name}="
                                    f"{shown(str(value))} (choose {', '.join(opt.choices)})",
                                    opt.span))
        return str(value)
    n = _as_int(value)
    if n is None or not opt.lo <= n <= opt.hi:
        diags.append(Diagnostic("R205", f"impossible option: {opt.name}={shown(str(value))} "
                                f"(from {opt.lo} to {opt.hi})", opt.span))
    return n


def _as_int(value: Any) -> int | None:
    """A whole number, or text of one (as --option gives it); not 2.7, not true."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit() \
            and len(value.strip()) <= 2 * MAX_DIGITS:
        return int(value)
    return None


def _count_text(lo: int, hi: int) -> str:
    return f"{lo} players" if lo == hi else f"{lo} to {hi} players"
