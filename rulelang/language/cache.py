"""Parsed files kept between loads: in memory, and on disk in the user's own cache folder.

A warm load re-reads every file but parses only what changed. Entries are keyed by the file's
path and text and by a digest of the code that turns text into an AST (grammar, parser,
builder, AST classes), so a changed rulebook or a changed rulelang never meets a stale
entry. The disk cache holds pickles, so it lives only in a folder the user alone may write
(never a shared temporary folder); RULELANG_NO_CACHE=1 turns it off.
"""
from __future__ import annotations

import functools
import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

_MEMORY: dict[str, Any] = {}
_MEMORY_FILES = 256
_DISK_FILES = 1000  # beyond this many entries, the older half is removed
_FRONT_END = ("grammar.lark", "parser.py", "builder.py", "ast.py")


def cache_folder() -> Path | None:
    """~/.cache/rulelang (or $XDG_CACHE_HOME/rulelang), made private; None when it cannot be
    made or someone else could write it."""
    if os.environ.get("RULELANG_NO_CACHE"):
        return None
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulelang"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError:
        return None
    getuid = getattr(os, "getuid", None)
    if (getuid is not None and info.st_uid != getuid()) or info.st_mode & 0o022:
        return None
    return folder


@functools.cache
def _front_end_digest() -> bytes:
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in _FRONT_END:
        digest.update((here / name).read_bytes())
    return digest.digest()


def cached(kind: str, path: str, text: str, make: Callable[[], Any], disk: bool = True) -> Any:
    """make() for this file's text, or the value it gave before (disk=False: kept in memory
    only, for a text that is being edited)."""
    digest = hashlib.sha256(_front_end_digest())
    for part in (kind, path, text):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    key = digest.hexdigest()
    if key in _MEMORY:
        return _MEMORY[key]
    folder = cache_folder() if disk else None
    file = folder / f"{kind}-{key}.pickle" if folder is not None else None
    value = _read(file) if file is not None else None
    if value is None:
        value = make()
        if file is not None:
            _write(file, value)
    if len(_MEMORY) >= _MEMORY_FILES:
        _MEMORY.pop(next(iter(_MEMORY)))
    _MEMORY[key] = value
    return value


def _read(file: Path) -> Any:
    data = read_bytes(file)
    try:
        return None if data is None else pickle.loads(data)
    except Exception:  # truncated or from another Python: parse again
        return None


def _write(file: Path, value: Any) -> None:
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, RecursionError, TypeError):
        return
    write_bytes(file, data)


def read_bytes(file: Path) -> bytes | None:
    """A cache file's bytes (None: missing or unreadable)."""
    try:
        return file.read_bytes()
    except OSError:
        return None


def write_bytes(file: Path, data: bytes) -> None:
    """A cache file written whole (atomically: parallel loads never see half a file), the
    folder pruned past its size."""
    temporary = file.with_suffix(f".{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, file)
    except OSError:
        temporary.unlink(missing_ok=True)
        return
    _prune(file.parent)


def _prune(folder: Path) -> None:
    try:
        entries = list(folder.glob("*.pickle"))
        if len(entries) <= _DISK_FILES:
            return
        entries.sort(key=lambda f: f.stat().st_mtime)
        for old in entries[:len(entries) // 2]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # another process pruned first
