"""Kept values of the fast evaluator: `cached` (a value kept until the sites it depends on
change), `memo` (values remembered by rule and arguments) and the values of the position
(per_state: rules of no parameters, kept while the data's version holds). The reference
evaluator computes them every time (library/grids.py)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


def kept(c: Any, sites: Any, name: Any, args: tuple[Any, ...],
         compute: Callable[[Any, tuple[Any, ...]], Any]) -> Any:
    """`cached` in the compiled mode: compute(c, args) kept per state under `name` (checked
    against the log of changed sites) and, when sound, by the content of the sites."""
    data = c.data
    key = ("cached", name, args)
    n = len(data.changes)
    entry = data.cache.get(key)
    if entry is not None:
        seen, value, members = entry
        if seen == n:
            return value
        if not any(i in members[0] for i in data.changes[seen:]):
            data.cache[key] = (n, value, members)
            return value
    else:
        members = _MEMBERS.get(sites) if type(sites) is tuple else None
        if members is None:
            indices = frozenset(s.index for s in sites)
            members = (indices, tuple(sorted(indices)))
            if type(sites) is tuple and len(_MEMBERS) < 10_000:
                _MEMBERS[sites] = members
    content = c.game.content_cache
    if content is None:
        value = compute(c, args)
    else:
        at = data.at
        ckey = (key, tuple([at[i] for i in members[1]]))
        value = content.get(ckey, _NONE)
        if value is _NONE:
            value = compute(c, args)
            if len(content) > 100_000:
                content.clear()
            content[ckey] = value
    data.cache[key] = (n, value, members)
    return value


_NONE = object()
_MEMBERS: dict[tuple[Any, ...], tuple[frozenset[int], tuple[int, ...]]] = {}


def remembered(c: Any, name: Any, args: tuple[Any, ...],
               compute: Callable[[Any, tuple[Any, ...]], Any]) -> Any:
    """`memo` in the compiled mode: by (rule, arguments), in the game's content cache."""
    table = c.game.content_cache
    if table is None:
        return compute(c, args)
    key = ("memo", name, args)
    try:
        return table[key]
    except KeyError:
        pass
    except TypeError:  # arguments that cannot be compared by value: not remembered
        return compute(c, args)
    value = compute(c, args)
    if len(table) > 100_000:
        table.clear()
    table[key] = value
    return value


# tests: a list to note, for each value per_state finds kept, its rule's key once that value is
# computed again and found equal (a different one raises KeptValueChanged); None: no check
CHECK: list[str] | None = None


class KeptValueChanged(Exception):
    """A value kept for the position differs from the value computed anew (a bug)."""


def per_state(key: str, compute: Callable[[Any, dict[str, Any]], Any]) -> Callable[..., Any]:
    """A rule of no parameters that reads only the current position, not its history nor
    chance: its value kept in the data (its cache, copied with it) with the data's version
    (GameData.version, renewed by every change), so that it is computed at most once per
    position (a turn's `if any(moves)` and then its menu's `choose … in moves`). A value
    found costs none of the rule's steps (the reference evaluator counts them every time)."""
    tag = ("state", key)

    def rule(c: Any, e: dict[str, Any]) -> Any:
        data = c.data
        if data is None:  # (a value of the static game being computed)
            return compute(c, e)
        entry = data.cache.get(tag)
        if entry is not None and entry[0] == data.version:
            if CHECK is not None:
                again = compute(c, e)
                if again != entry[1]:
                    raise KeptValueChanged(f"{key}: kept {entry[1]!r}, now {again!r}")
                CHECK.append(key)
            return entry[1]
        value = compute(c, e)
        data.cache[tag] = (data.version, value)
        return value
    return rule
