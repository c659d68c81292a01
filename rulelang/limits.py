"""Every limit on loading untrusted input, and the one place that opens a file named by a
rulebook or a record (docs/limits.md lists each limit with its message).

A rulebook, its data files and a game record may come from anyone. Reading them must not
hang, exhaust memory, recurse past Python's stack or read a file the rulebook has no business
reading. The limits below are checked before the work they bound (before a file is opened,
before Lark's transformer or PyYAML recurses, before a board's sites are made); each refusal
is a diagnostic built by the caller from the reason given here, which never quotes the file.
"""
from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from rulelang.source import unprintable

# ---- files ---------------------------------------------------------------------------------
MAX_NAME_BYTES = 255          # one part of a file name (the usual file system limit)
MAX_PATH_BYTES = 1024         # a whole file name written in a rulebook or a record
MAX_RULEBOOK_BYTES = 100_000  # a rulebook or module (the largest bundled one: 20 KB; ~1 s to parse)
MAX_DATA_BYTES = 1_000_000    # a YAML data file of a zone
MAX_RECORD_BYTES = 20_000_000  # a game record
RULEBOOK_SUFFIX = ".rule"     # `extends` and a record's `rulebook:` name only rulebooks
DATA_SUFFIXES = (".yaml", ".yml")  # a zone's data file is YAML

# ---- parsing -------------------------------------------------------------------------------
MAX_NESTING = 100             # levels of the syntax tree: nested expressions and blocks
MAX_SYNTAX_ERRORS = 20        # syntax errors reported for one file (each costs a re-parse)
MAX_PARSE_WORK = 1_000_000    # characters parsed for one file, re-parses after errors included

# ---- YAML (data files and records) -----------------------------------------------------------
MAX_YAML_DEPTH = 20           # nested lists and mappings
MAX_DATA_VALUES = 100_000     # values of a data file, as if every alias were written out in full
MAX_RECORD_VALUES = 1_000_000  # values of a record, counted the same way
MAX_DATA_ROWS = 5_000         # rows of one data file
MAX_DIGITS = 20               # digits of a seed, a seat or a move number typed or recorded

# ---- building a game -----------------------------------------------------------------------
MAX_SITES = 10_000            # sites of a board (a 100 x 100 grid: about 1 s to build)
MAX_SITE_CANDIDATES = 40_000  # places a geometry's `sites ... for ... where` tries, kept or not
MAX_OPTION_BOUND = 10**9      # the bounds of an option's range, `option n: lo..hi`
MAX_PLAYERS = 100             # `players lo..hi`
MAX_NUMBER_DIGITS = 100       # a number written in a rulebook
MAX_RULE_DEPTH = 100          # rules called one inside another (`def a0 = a1`, `def a1 = a2` …)

SHOWN_NAME_CHARS = 80         # a file name quoted in a message is cut to this many characters


class Refused(Exception):
    """A file that may not be read, or input over a limit: str() says why, in words that
    never quote the file's contents; `line` (1-based) is where in the file, when known."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.line = line


def shown(name: str) -> str:
    """A name as a message may quote it: control characters escaped, cut to a sane length."""
    text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in name)
    return text if len(text) <= SHOWN_NAME_CHARS else text[:SHOWN_NAME_CHARS] + "…"


def check_name(name: str, suffixes: tuple[str, ...] = ()) -> None:
    """A file name written in a rulebook or a record: relative, without '..', NUL bytes or
    over-long parts, ending in one of `suffixes` (when given). Checked on the text alone."""
    if not name:
        raise Refused("the name is empty")
    if "\0" in name:
        raise Refused("the name contains a NUL byte")
    size = len(name.encode("utf-8", "surrogatepass"))
    if size > MAX_PATH_BYTES:
        raise Refused(f"the name is {size:,} bytes long (at most {MAX_PATH_BYTES:,})")
    path = PurePosixPath(name)
    if path.is_absolute() or name.startswith("~"):
        raise Refused("an absolute path may lead outside the rulebook's folder")
    if ".." in path.parts:
        raise Refused("'..' leads outside the rulebook's folder")
    for part in path.parts:
        if len(part.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
            raise Refused(f"a part of the name is longer than {MAX_NAME_BYTES} bytes")
    if suffixes and not name.endswith(suffixes):
        raise Refused(f"only {' or '.join(suffixes)} files may be named here")


def inside(path: Path, roots: Iterable[Path]) -> bool:
    """Whether `path`, symbolic links followed, lies in one of the (resolved) `roots`."""
    real = path.resolve()
    return any(real.is_relative_to(root) for root in roots)


def read_checked(path: Path, max_bytes: int, roots: Iterable[Path] | None = None) -> str:
    """The UTF-8 text of a regular file of at most `max_bytes`, inside `roots` (symbolic
    links followed) when given. Every check comes before the file is opened; a FIFO, a
    device or a folder is refused without opening it, so nothing blocks."""
    if roots is not None and not inside(path, roots):
        raise Refused("it lies outside the rulebook's folder (through a symbolic link)"
                      if path.is_symlink() or path.resolve() != path.absolute()
                      else "it lies outside the rulebook's folder")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise Refused("no such file") from None
    except (OSError, ValueError) as exc:
        raise Refused(_reason(exc)) from None
    _regular(info, max_bytes)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise Refused(_reason(exc)) from None
    with os.fdopen(fd, "rb") as handle:
        _regular(os.fstat(handle.fileno()), max_bytes)  # the same file as checked
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise Refused(f"it is larger than {max_bytes:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(f"it is not UTF-8 text (byte {exc.start + 1:,})") from None


def write_text(path: Path, text: str) -> None:
    """Write a file the user named (a record, a picture); Refused says why it failed."""
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise Refused(_reason(exc)) from None


def silence_stdout() -> None:
    """After a broken pipe (`rulelang ... | head`): point stdout at the null device, so that
    the interpreter's last flush at exit does not fail again on the closed pipe."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):  # no stdout to redirect
        pass


def _regular(info: os.stat_result, max_bytes: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise Refused("it is a folder")
    if not stat.S_ISREG(info.st_mode):
        raise Refused("it is not a regular file (a device, a pipe or a socket)")
    if info.st_size > max_bytes:
        raise Refused(f"it is larger than {max_bytes:,} bytes ({info.st_size:,})")


def _reason(exc: BaseException) -> str:
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return text[:1].lower() + text[1:]


def whole_number(text: str, what: str) -> int:
    """A whole number typed or written by a user, of at most MAX_DIGITS digits."""
    digits = text.strip().lstrip("+-")
    if not digits.isdigit() or not digits.isascii():
        raise Refused(f"{what} must be a whole number")
    if len(digits) > MAX_DIGITS:
        raise Refused(f"{what} has {len(digits):,} digits (at most {MAX_DIGITS})")
    return int(text)


# ---- YAML ------------------------------------------------------------------------------------

def load_yaml(text: str, max_values: int) -> Any:
    """yaml.safe_load, after a first pass over PyYAML's events (which does not recurse) has
    checked the nesting depth and the number of values with every alias written out in full
    (a "billion laughs" file of 900 bytes is refused at once). Malformed YAML raises
    yaml.YAMLError; a number too long for Python's int() raises Refused."""
    depth, total = 0, 0
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when installed
    sizes: dict[str, int] = {}  # an anchor's node: its values, aliases written out
    opened: list[tuple[str | None, int]] = []  # each open collection: its anchor, total at start
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.AliasEvent):
            total += sizes.get(str(event.anchor), 1)
        elif isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent)):
            total += 1
            if isinstance(event, yaml.ScalarEvent):
                if event.anchor is not None:
                    sizes[event.anchor] = 1
                if unprintable(event.value):  # "\e[2J" would be sent to the terminal
                    raise Refused(f"a value holds a control character (U+"
                                  f"{ord(event.value[unprintable(event.value)[0]]):04X})",
                                  _line(event))
            else:
                depth += 1
                if depth > MAX_YAML_DEPTH:
                    raise Refused(f"it nests lists and mappings more than {MAX_YAML_DEPTH} "
                                  "deep", _line(event))
                opened.append((event.anchor, total - 1))
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
            anchor, start = opened.pop()
            if anchor is not None:
                sizes[anchor] = total - start
        if total > max_values:
            raise Refused(f"it holds more than {max_values:,} values (aliases written out "
                          "in full)", _line(event))
    try:
        return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader
    except ValueError as exc:  # int() of a number of more than 4,300 digits
        if isinstance(exc, yaml.YAMLError):
            raise
        raise Refused("a number in it is too long to read (more than 4,300 digits)") from None


def _line(event: Any) -> int | None:
    mark = getattr(event, "start_mark", None)
    return mark.line + 1 if mark is not None else None
