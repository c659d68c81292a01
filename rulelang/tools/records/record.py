"""Game records (DESIGN.md section 5): write them, read them back, and replay them.

A record names the rulebook as it was given, the sha256 of the rulebook and everything it
uses, the options, the seed, the action strings and the result.  `result` is null for a game
that was stopped before its end; a game that reached its longest length (`end at most N
plies` or `--max-plies N`) has `capped: true` in its result, no winner, and replays capped
after its moves.  Replaying refuses a rulebook whose hash changed (R401).
"""
from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

import rulelang
from rulelang import limits
from rulelang.errors import Diagnostic, IllegalActionError, RecordError, RulebookError, render
from rulelang.limits import Refused, check_name, inside, shown
from rulelang.resources import bundled_dir, bundled_rulebook

VERSION = 1  # of the record format
_KEYS = ("rulelang", "rulebook", "sha256", "options", "seed", "actions", "result")
# `grammar` (optional: records made before it was written have none) is the language's
# version when the record was made (rulelang.GRAMMAR_VERSION); a record of another version
# still replays when it reproduces, and says which version made it when it does not.


@dataclass
class GameRecord:
    rulebook: str
    sha256: str
    options: dict[str, Any]
    seed: int
    actions: list[str]
    winners: list[int] | None = None  # None: the game was stopped before its end
    scores: list[Any] | None = None
    grammar: int | None = None  # the language version that made it (None: not recorded)
    capped: bool = False  # ended at its longest length, with no result

    @property
    def finished(self) -> bool:
        return self.winners is not None


def record_game(game: Any, state: Any, seed: int, rulebook: str | None = None) -> GameRecord:
    """The record of `state`, a game of `game` started with `seed`."""
    rec = GameRecord(rulebook or str(game.path), game.source_hash, dict(game.options), seed,
                     list(state.history()), grammar=rulelang.GRAMMAR_VERSION)
    if state.is_terminal():
        rec.winners, rec.scores = list(state.winners()), list(state.scores())
        rec.capped = bool(state.capped())
    return rec


def dump_record(rec: GameRecord, as_json: bool = False) -> str:
    """The record as YAML, or as JSON (for a file named *.json; JSON is YAML too, so either
    reads back)."""
    result: dict[str, Any] | None = None
    if rec.finished:
        result = {"winners": rec.winners, "scores": rec.scores}
        if rec.capped:
            result["capped"] = True
    data = {"rulelang": VERSION, "grammar": rec.grammar, "rulebook": rec.rulebook,
            "sha256": rec.sha256, "options": rec.options, "seed": rec.seed,
            "actions": rec.actions, "result": result}
    if rec.grammar is None:
        del data["grammar"]
    if as_json:
        return json.dumps(data, ensure_ascii=False, indent=1)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)


def write_record(path: str | Path, rec: GameRecord) -> None:
    try:
        limits.write_text(Path(path), dump_record(rec, Path(path).suffix.lower() == ".json"))
    except Refused as exc:
        raise _error("R410", f"cannot write the record to '{shown(str(path))}': {exc}") from None


def portable(rulebook: str, record_path: Path) -> str:
    """An absolute rulebook path as replay accepts it: relative to the record's folder, else
    to the working folder, when it lies in one of them (else as given: replay refuses it)."""
    given = Path(rulebook)
    if not given.is_absolute():
        return rulebook
    for base in (record_path.absolute().parent, Path.cwd()):
        if given.is_relative_to(base):
            return given.relative_to(base).as_posix()
    return rulebook


def read_record(path: str | Path) -> GameRecord:
    """Parse and validate a record file; every problem is a RecordError."""
    try:
        text = limits.read_checked(Path(path), limits.MAX_RECORD_BYTES)
    except Refused as exc:
        raise _error("R402", f"cannot read record '{shown(str(path))}': {exc}") from None
    return parse_record(text, str(path))


def parse_record(text: str, path: str = "<record>") -> GameRecord:
    try:
        data = limits.load_yaml(text, limits.MAX_RECORD_VALUES)
    except yaml.YAMLError as exc:
        raise _error("R402", f"record '{path}' is not valid YAML: {_yaml_reason(exc)}") from None
    except Refused as exc:
        at = f" (line {exc.line})" if exc.line else ""
        raise _error("R402", f"record '{path}' is refused: {exc}{at}") from None
    return _from_data(data, path)


def _yaml_reason(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or "syntax error"
    return f"{problem} at line {mark.line + 1}" if mark is not None else str(problem)


def _from_data(data: Any, path: str) -> GameRecord:
    if not isinstance(data, dict):
        raise _error("R402", f"record '{path}' is not a mapping of {', '.join(_KEYS)}")
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise _error("R402", f"record '{path}' lacks {_quoted(missing)}")
    _expect(path, "rulelang", data["rulelang"], int)
    if data["rulelang"] != VERSION:
        raise _error("R402", f"record '{path}' has unsupported version "
                     f"'{data['rulelang']}'", help=f"this rulelang reads version {VERSION}")
    _expect(path, "rulebook", data["rulebook"], str)
    _expect(path, "sha256", data["sha256"], str)
    _expect(path, "options", data["options"], dict)
    _expect_options(path, data["options"])
    _expect(path, "seed", data["seed"], int)
    if abs(data["seed"]) >= 10**limits.MAX_DIGITS:
        raise _error("R402", f"record '{path}': 'seed' has more than {limits.MAX_DIGITS} digits")
    _expect_list(path, "actions", data["actions"], str)
    if "grammar" in data:
        _expect(path, "grammar", data["grammar"], int)
    rec = GameRecord(data["rulebook"], data["sha256"], data["options"], data["seed"],
                     data["actions"], grammar=data.get("grammar"))
    _read_result(rec, data["result"], path)
    return rec


def _read_result(rec: GameRecord, result: Any, path: str) -> None:
    if result is None:
        return
    _expect(path, "result", result, dict)
    for key in ("winners", "scores"):
        if key not in result:
            raise _error("R402", f"record '{path}' lacks 'result.{key}'")
    _expect_list(path, "result.winners", result["winners"], int)
    _expect_list(path, "result.scores", result["scores"], (int, float))
    rec.winners, rec.scores = result["winners"], result["scores"]
    if "capped" in result:
        if not isinstance(result["capped"], bool):
            raise _error("R402", f"record '{path}': 'result.capped' must be true or false")
        rec.capped = result["capped"]


def _expect(path: str, key: str, value: Any, kind: type | tuple[type, ...]) -> None:
    if not isinstance(value, kind) or isinstance(value, bool):
        raise _error("R402", f"record '{path}': '{key}' must be {_kind_name(kind)}, "
                     f"not {_yaml_kind(value)}")


def _expect_options(path: str, options: dict[Any, Any]) -> None:
    """An option is a whole number (`players` always) or a word, as `--option` gives it."""
    for key, value in options.items():
        if not isinstance(key, str):
            raise _error("R402", f"record '{path}': option names must be words")
        kinds: tuple[type, ...] = (int,) if key == "players" else (int, str)
        if not isinstance(value, kinds) or isinstance(value, bool):
            what = "a whole number" if key == "players" else "a whole number or a word"
            raise _error("R402", f"record '{path}': option '{shown(key)}' must be {what}, "
                         f"not {_yaml_kind(value)}")


def _yaml_kind(value: Any) -> str:
    """What a YAML value is, in a record's error message (never the value itself but a
    number's: a string may hold anything)."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return f"the number {value:g}"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return "a date"
    return {str: "a string", list: "a list", dict: "a mapping", type(None): "null",
            bytes: "binary data", set: "a set"}.get(type(value), "a value of another kind")


def _expect_list(path: str, key: str, value: Any, kind: type | tuple[type, ...]) -> None:
    ok = isinstance(value, list) and all(
        isinstance(v, kind) and not isinstance(v, bool) for v in value)
    if not ok:
        raise _error("R402", f"record '{path}': '{key}' must be a list of {_kind_name(kind, True)}")


_KIND_NAMES = {str: ("a string", "strings"), dict: ("a mapping", "mappings"),
               int: ("a whole number", "whole numbers")}


def _kind_name(kind: type | tuple[type, ...], plural: bool = False) -> str:
    one, many = ("a number", "numbers") if isinstance(kind, tuple) else _KIND_NAMES[kind]
    return many if plural else one


def _quoted(keys: list[str]) -> str:
    return ", ".join(f"'{k}'" for k in keys)


# --- replay -------------------------------------------------------------------------------

@dataclass
class Replay:
    record: GameRecord
    game: Any
    state: Any


def replay(record_path: str | Path, mode: str = "compiled") -> Replay:
    """Replay a record; RecordError unless it reproduces exactly (moves, winners, scores)."""
    rec = read_record(record_path)
    game = _load(rec, Path(record_path), mode)
    if rec.capped:  # it was cut there (by the rulebook or by --max-plies)
        cap = len(rec.actions)
        game.max_plies = cap if game.max_plies is None else min(game.max_plies, cap)
    state = game.new_initial_state(seed=rec.seed)
    for number, text in enumerate(rec.actions, start=1):
        _apply(rec, state, number, text, str(record_path))
    _check_result(rec, state, str(record_path))
    return Replay(rec, game, state)


def resolve_rulebook(rulebook: str, record_path: Path) -> Path:
    """The rulebook a record names: a `.rule` file by a relative path without '..' (from the
    working folder, else beside the record), else the bundled rulebook of that name. A record
    is untrusted: any other name is refused before a file is opened (R405)."""
    bundled = bundled_rulebook(rulebook)
    given = Path(rulebook)
    if given.is_absolute() and rulebook.endswith(limits.RULEBOOK_SUFFIX) and "\0" not in \
            rulebook and given.is_file() and inside(given, [bundled_dir().resolve()]):
        return given  # a bundled rulebook by its full path (the shipped files are trusted)
    try:
        check_name(rulebook, (limits.RULEBOOK_SUFFIX,))
    except Refused as exc:
        if bundled is not None:
            return bundled
        raise _refused(rulebook, record_path, str(exc)) from None
    for base in (Path.cwd(), record_path.parent):
        candidate = base / rulebook
        if candidate.exists() or candidate.is_symlink():
            if not inside(candidate, [base.resolve()]):
                raise _refused(rulebook, record_path, "a symbolic link leads out of its folder")
            return candidate
    return bundled or Path(rulebook)


def _refused(rulebook: str, record_path: Path, reason: str) -> RecordError:
    return _error("R405", f"record '{shown(str(record_path))}' names rulebook "
                  f"'{shown(rulebook)}', which is refused: {reason}",
                  help="a record names its rulebook by a path relative to the working folder "
                  "or to the record's folder, or by a bundled rulebook's name")


def _load(rec: GameRecord, record_path: Path, mode: str) -> Any:
    path = resolve_rulebook(rec.rulebook, record_path)
    if not path.exists():
        raise _error("R405", f"record '{record_path}' names rulebook '{shown(rec.rulebook)}', "
                     "which does not exist")
    try:
        game = rulelang.load_game(str(path), dict(rec.options), mode=mode)
    except RulebookError as exc:
        raise RecordError(render(Diagnostic(
            "R401", f"rulebook '{rec.rulebook}' no longer loads with the recorded options",
            None)) + "\n" + exc.render()) from None
    _check_hash(rec, game, str(record_path))
    return game


def _check_hash(rec: GameRecord, game: Any, path: str) -> None:
    if game.source_hash != rec.sha256:
        raise _error("R401", f"record '{path}' was made with a different version of "
                     f"'{rec.rulebook}' (sha256 {rec.sha256[:12]}…, now "
                     f"{game.source_hash[:12]}…)",
                     help="the rulebook or a file it uses changed since; replay refused")


def _apply(rec: GameRecord, state: Any, number: int, text: str, path: str) -> None:
    if state.is_terminal():
        raise _error("R403", f"record '{path}': move {number} '{text}' comes after the end "
                     "of the game")
    try:
        state.apply_action(text)
    except IllegalActionError as exc:
        raise _error("R403", f"record '{path}': move {number} '{text}' is illegal: "
                     f"{exc}", _version_help(rec)) from None


def _check_result(rec: GameRecord, state: Any, path: str) -> None:
    if not rec.finished:
        if state.is_terminal():
            raise _error("R404", f"record '{path}' says the game was unfinished, but it ends")
        return
    if not state.is_terminal():
        raise _error("R404", f"record '{path}' ends before the game does "
                     f"({len(rec.actions)} moves)")
    if rec.capped != bool(state.capped()):
        said = "capped" if rec.capped else "ended with a result"
        raise _error("R404", f"record '{path}' says the game {said}, but replay "
                     + ("ends it with a result" if rec.capped else "caps it"))
    got = (list(state.winners()), list(state.scores()))
    if got != (rec.winners, rec.scores):
        raise _error("R404", f"record '{path}' does not reproduce: it says winners "
                     f"{rec.winners} scores {rec.scores}, replay gives winners {got[0]} "
                     f"scores {got[1]}", _version_help(rec))


def _error(code: str, message: str, help: str | None = None) -> RecordError:
    return RecordError(render(Diagnostic(code, message, None, help)))


def _version_help(rec: GameRecord) -> str | None:
    """Why a record may not reproduce: it was made by another version of the language."""
    if rec.grammar is None or rec.grammar == rulelang.GRAMMAR_VERSION:
        return None
    return (f"the record was made by language version {rec.grammar}; this rulelang is "
            f"version {rulelang.GRAMMAR_VERSION} (see CHANGELOG.md)")
