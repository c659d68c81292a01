"""Helpers the commands share: user mistakes as diagnostics, finding and loading a rulebook,
and `--option KEY=VALUE` lists.  cli.py and evaluate.py both use them (neither imports the
other's internals)."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import rulelang
from rulelang import limits
from rulelang.errors import Diagnostic, RulelangError, render
from rulelang.resources import bundled_dir, bundled_rulebook

__all__ = ["bundled_dir", "bundled", "load", "parse_options"]


def _user_error(code: str, message: str, help: str | None = None) -> RulelangError:
    return RulelangError(render(Diagnostic(code, message, None, help)))


def write_file(path: str, text: str, what: str) -> None:
    """Write a file the user named; a failure (a full disk, no permission) names the file."""
    try:
        limits.write_text(Path(path), text)
    except limits.Refused as exc:
        raise _user_error("R410", f"cannot write {what} to '{limits.shown(path)}': {exc}"
                          ) from None


def number_typed(text: str) -> int | None:
    """A whole number from 0 typed by a user (ASCII digits, at most MAX_DIGITS of them), or
    None: `3` is a number, a 100,000-digit string or `²` is not."""
    if text.isascii() and text.isdigit() and len(text) <= limits.MAX_DIGITS:
        return int(text)
    return None


def load(path: str, options: dict[str, Any] | None = None, mode: str = "compiled") -> Any:
    """rulelang.load_game, with a missing file reported as a user mistake."""
    path = _rulebook(path)
    if _library(Path(path)):
        raise _user_error("R416", f"'{path}' has no `game` line: it is a module of rules, "
                          "not a game", help=f"a game uses it with `use {Path(path).stem}`; to "
                          "play it, give it `game \"Name\"`, `players` and a `turn`")
    return rulelang.load_game(path, options, mode=mode)


def _rulebook(path: str) -> str:
    """The file as given (when it exists, whatever it is: the loader says what is wrong with
    a folder or a pipe), else the bundled rulebook of that name (`play NAME`)."""
    if Path(path).exists():
        return path
    found = bundled_rulebook(path, bundled_dir())
    if found is not None:
        return _shown(found)
    if Path(path).name != path:  # a path was meant: no list of names
        raise _user_error("R410", f"no such rulebook '{path}'")
    names = ", ".join(p.stem for p in bundled()) or "none"
    raise _user_error("R410", f"no such rulebook '{path}'",
                      help=f"give a path or a bundled rulebook's name: {names}")


def bundled() -> list[Path]:
    """The bundled games (library modules beside them are not games)."""
    return [p for p in sorted(bundled_dir().glob("*.rule")) if not _library(p)]


def _library(path: Path) -> bool:
    try:
        return rulelang.is_library(path)
    except RulelangError:  # a broken rulebook is listed, with its errors
        return False


def _shown(path: Path) -> str:
    rel = os.path.relpath(path)
    return str(path) if rel.startswith("..") else rel


def parse_options(items: list[str], players: int | None) -> dict[str, Any] | None:
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise _user_error("R411", f"bad option '{item}'", help="write --option KEY=VALUE")
        options[key.strip()] = _option_value(value.strip())
    if players is not None:
        options["players"] = players
    return options or None


def _option_value(text: str) -> int | str:
    """A number when it is one (of at most MAX_DIGITS digits: a longer one stays text, and
    the option's check refuses it), else the text."""
    if re.fullmatch(r"[+-]?[0-9]+", text) and len(text.lstrip("+-")) <= limits.MAX_DIGITS:
        return int(text)
    return text




def cap_game(game: Any, max_plies: int | None, flag: str = "--max-plies") -> None:
    """`--max-plies N`: the game's states end capped after N plies (or the rulebook's own
    `end at most` length, if shorter)."""
    if max_plies is None:
        return
    if max_plies < 1:
        raise _user_error("R418", f"{flag} must be a positive whole number, not {max_plies}")
    game.max_plies = max_plies if game.max_plies is None else min(game.max_plies, max_plies)
