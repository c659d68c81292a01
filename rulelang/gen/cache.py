"""Generated modules kept between loads, in the user's private cache folder (the parse
cache's, language/cache.py): a game the generator wrote once loads again without writing.

An entry is the writer's `Generated` (the module's source, its constants table, origins),
keyed by the generator's code (every module the written code depends on, by content), the
rulebook's files (paths and contents: spans name the paths) and the options. The constants
hold the runtime's own objects — sites, players, relations, the program's AST nodes (kept
by identity: `Program.refs`), the builtins' singletons — which are stored as references
and found again in the new runtime; plain values (spans, zone names, tables) are copied.
A constant of any other rulelang type is not stored (the module is written each load).
RULELANG_NO_CACHE=1 turns it off, as for the parse cache."""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import pickle
from pathlib import Path
from typing import Any

from rulelang.gen.code import Generated
from rulelang.gen.helpers import RuleName
from rulelang.language import ast
from rulelang.language.cache import cache_folder, read_bytes, write_bytes
from rulelang.library.builtins import UNASKED
from rulelang.library.decision import NOTHING, ThenMark
from rulelang.model import values
from rulelang.source import CalledSpan, Span

_CODE = ("gen", "library", "model", "language", "game")  # what written modules depend on
_SINGLES = {"unasked": UNASKED, "nothing": NOTHING}
# rulelang types copied as values (no identity of theirs is read)
_COPIED = (Span, CalledSpan, values.ZoneRef, values.PieceSource, values.TableValue,
           values.SiteSet, values.LineSet, values.MapValue, values.ZoneFamily, RuleName,
           ThenMark,
           Generated)


@functools.cache
def _code_digest() -> bytes:
    package, digest = Path(__file__).resolve().parents[1], hashlib.sha256()
    for folder in _CODE:
        for file in sorted((package / folder).glob("*.py")):
            digest.update(file.name.encode() + b"\0" + file.read_bytes())
    return digest.digest()


def key(runtime: Any) -> str:
    digest = hashlib.sha256(_code_digest())
    for path, source in sorted(runtime.program.loaded.sources.items()):
        digest.update(f"{path}\0{source.sha256}\0".encode("utf-8", "surrogatepass"))
    digest.update(repr(sorted(runtime.options.items())).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def found(runtime: Any) -> Generated | None:
    """The module written before for this runtime's game, or None."""
    folder = cache_folder()
    if folder is None:
        return None
    data = read_bytes(folder / f"generated-{key(runtime)}.pickle")
    if data is None:
        return None
    try:
        found = _Unpickler(io.BytesIO(data), _Objects(runtime)).load()
    except Exception:  # noqa: BLE001 - stale, truncated or not this runtime's: written anew
        return None
    return found if isinstance(found, Generated) else None


def keep(runtime: Any, generated: Generated) -> None:
    """Keep the written module (when every constant can be kept)."""
    folder = cache_folder()
    if folder is None:
        return
    out = io.BytesIO()
    try:
        _Pickler(out, _Objects(runtime)).dump(generated)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
    write_bytes(folder / f"generated-{key(runtime)}.pickle", out.getvalue())


class _Objects:
    """The runtime's objects a module's constants refer to, by a name that finds them in
    another load of the same game."""

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime

    @functools.cached_property
    def nodes(self) -> list[ast.Node]:
        """Every AST node of the program, in a fixed order (its declarations' order, each
        node's fields in order)."""
        out: list[ast.Node] = []
        seen: set[int] = set()
        todo: list[Any] = [v for f in dataclasses.fields(self.runtime.program)
                           if f.name != "refs" for v in [getattr(self.runtime.program, f.name)]]
        todo.reverse()
        while todo:
            x = todo.pop()
            if isinstance(x, ast.Node):
                if id(x) in seen:
                    continue
                seen.add(id(x))
                out.append(x)
                todo.extend(reversed([getattr(x, f.name) for f in dataclasses.fields(x)]))
            elif isinstance(x, (list, tuple)):
                todo.extend(reversed(x))
            elif isinstance(x, dict):
                todo.extend(reversed([*x.keys(), *x.values()]))
        return out

    @functools.cached_property
    def numbers(self) -> dict[int, tuple[str, Any]]:
        rt = self.runtime
        out: dict[int, tuple[str, Any]] = {id(s): ("site", s.index) for s in rt.board.sites}
        out.update({id(p): ("player", p.index) for p in rt.players})
        out.update({id(r): ("relation", name) for name, r in rt.board.relations.items()})
        out.update({id(v): ("single", name) for name, v in _SINGLES.items()})
        out.update({id(n): ("node", i) for i, n in enumerate(self.nodes)})
        return out

    def name(self, obj: Any) -> tuple[str, Any] | None:
        found = self.numbers.get(id(obj))
        if found is None and type(obj).__module__.startswith("rulelang.") \
                and not isinstance(obj, _COPIED) and not isinstance(obj, type):
            raise pickle.PicklingError(f"a {type(obj).__name__} is not kept")
        return found

    def find(self, name: tuple[str, Any]) -> Any:
        what, which = name
        rt = self.runtime
        if what == "site":
            return rt.board.sites[which]
        if what == "player":
            return rt.players[which]
        if what == "relation":
            return rt.board.relations[which]
        if what == "single":
            return _SINGLES[which]
        if what == "node":
            return self.nodes[which]
        raise pickle.UnpicklingError(f"no {what}")


class _Pickler(pickle.Pickler):
    def __init__(self, out: io.BytesIO, objects: _Objects) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self.objects = objects

    def persistent_id(self, obj: Any) -> Any:
        return self.objects.name(obj)


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: io.BytesIO, objects: _Objects) -> None:
        super().__init__(data)
        self.objects = objects

    def persistent_load(self, pid: Any) -> Any:
        return self.objects.find(pid)
