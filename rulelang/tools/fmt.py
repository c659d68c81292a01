"""`rulelang fmt [--check] [PATH...]`: rulebooks (*.rule) and scenario files (*.test) in the
canonical layout (rulelang/editor/formatter.py). A folder: every such file below it (hidden
folders skipped); no PATH: the current folder. `--check` writes nothing, prints the diff of
each file that would change and exits 1 if any would (for CI). A file that does not parse is
reported with its syntax errors and left alone (exit 1)."""
from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Callable
from pathlib import Path

from rulelang import limits
from rulelang.editor.formatter import format_text
from rulelang.errors import Diagnostic, RulelangError, render
from rulelang.source import printable
from rulelang.tools.common import write_file

_SUFFIXES = (".rule", ".test")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    fmt = sub.add_parser("fmt", help="lay out rulebooks and scenario files in the one canonical "
                         "layout")
    fmt.add_argument("paths", nargs="*", metavar="PATH",
                     help="*.rule and *.test files or folders of them (default: this folder)")
    fmt.add_argument("--check", action="store_true",
                     help="write nothing: print the diff of each file that would change and "
                     "exit 1 if any would")
    fmt.set_defaults(run=cmd_fmt)


def cmd_fmt(args: argparse.Namespace) -> int:
    return fmt_command(args.paths or ["."], args.check, print)


def fmt_command(paths: list[str], check: bool, out: Callable[[str], None]) -> int:
    files = _files(paths)
    failed = changed = 0
    for path in files:
        try:
            text = limits.read_checked(path, limits.MAX_RULEBOOK_BYTES)
            new = format_text(text, str(path))
        except limits.Refused as exc:
            _err(render(Diagnostic("R421", f"cannot read '{limits.shown(str(path))}': {exc}",
                                   None)))
            failed += 1
            continue
        except RulelangError as exc:
            _err(exc.render())
            failed += 1
            continue
        if new == text:
            continue
        changed += 1
        if check:
            out("".join(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                             str(path), f"{path} (formatted)")).rstrip("\n"))
        else:
            write_file(str(path), new, "the formatted file")
            out(f"formatted {path}")
    verb = "would be reformatted" if check else "reformatted"
    _err(f"{changed} of {len(files)} files {verb}" + (f", {failed} not formatted (errors above)"
                                                       if failed else ""))
    return 1 if failed or (check and changed) else 0


def _files(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found.extend(p for p in sorted(path.rglob("*"))
                         if p.suffix in _SUFFIXES and p.is_file() and not _hidden(p, path))
        elif path.is_file() or path.is_symlink():
            found.append(path)
        else:
            raise RulelangError(render(Diagnostic(
                "R421", f"no such file or folder '{limits.shown(given)}'", None,
                "give *.rule or *.test files, or folders holding them")))
    return list(dict.fromkeys(found))


def _hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts[:-1])


def _err(text: str) -> None:
    print(printable(text), file=sys.stderr)
