"""Kept groups: `group(s, rel)` answered from components kept per state, in the compiled mode,
when the analysis proves that on the board pieces only arrive (analysis.pieces_only_arrive).

group(s, rel) is the set of sites reached from s through rel over sites whose top piece has
the owner of s's top piece. With a symmetric relation that is the component of s among the
sites of that owner: components only merge while pieces only arrive. Each state's data keeps,
per relation, a label per site (its component's representative, -1 for an empty site) and per
component its sites as a bitset (an int) and their owner, up to the last change it has seen
in GameData.changes. A query first reads the changes since: a site that became occupied
joins its neighbours of its owner; a site whose top piece's owner is unchanged changes
nothing; anything else (a piece gone, covered by another player's, an owner set) breaks the
invariant, and that state and its copies answer by the general search from then on. So the
kept answer is the search's answer whatever the analysis missed. A relation that is not
symmetric, a start that is not one site, or a `link` rule: the general search.

GameData.copy() copies the cache's dict, so a copy shares its parent's entries. An entry's
lists change in place only in the data whose era (GameData.era, renewed on both sides of
every copy) they were stored with; any other data, parent or copy, updates copies of them.
The reference evaluator always searches (library/builtins.py: group).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.model.values import Relation, Site

GENERAL = "general"  # the entry of a state whose groups are searched (the invariant broke)
_TAG = "kept groups"  # data.cache keys: (_TAG, relation)

# [changes seen, label per site: its component's representative or -1 for an empty site,
#  per representative: (the component's sites as a bitset, the owner of their top pieces),
#  the era of the data that may change the two lists in place (GameData.era)]
Entry = list[Any]


def symmetric(rel: Relation) -> bool:
    """Every step of rel can be taken back: its groups are components."""
    table = rel.indices
    return all(i in table[t] for i, row in enumerate(table) for t in row)


def kept_entries(data: Any) -> dict[Relation, Any]:
    """The kept groups of a state, by relation (GENERAL where searched): for tests."""
    return {k[1]: v for k, v in data.cache.items() if type(k) is tuple and k[:1] == (_TAG,)}


def build(data: Any, table: tuple[tuple[int, ...], ...]) -> Entry:
    """The components of the board now, from scratch."""
    at, owner = data.at, data.owner
    n = len(at)
    labels = [-1] * n
    comp: list[Any] = [None] * n
    for i in range(n):
        if not at[i] or labels[i] >= 0:
            continue
        k = owner[at[i][-1].id]
        labels[i], mask, todo = i, 1 << i, [i]
        while todo:
            for t in table[todo.pop()]:
                if labels[t] < 0 and at[t] and owner[at[t][-1].id] == k:
                    labels[t] = i
                    mask |= 1 << t
                    todo.append(t)
        comp[i] = (mask, k)
    return [len(data.changes), labels, comp, data.era]


def update(entry: Entry, data: Any, table: tuple[tuple[int, ...], ...]) -> Entry | None:
    """The entry brought up to date with the changes since it was made (in place when it is
    this data's own, else in a copy); None when a change is not a piece arriving on an empty
    site (the groups may have split), found before anything is changed."""
    seen, labels, comp, era = entry
    changes = data.changes
    at, owner = data.at, data.owner
    arrivals: list[int] = []  # sites that became occupied, in the order of the changes
    for t in changes[seen:]:
        st, r = at[t], labels[t]
        if not st:
            if r < 0:
                continue
            return None
        if r < 0:
            if t not in arrivals:
                arrivals.append(t)
        elif not comp[r][1] == owner[st[-1].id]:
            return None
    if not arrivals:  # the lists stay as they are: shared, unless they are this data's own
        return [len(changes), labels, comp, era]
    if era != data.era:  # made by another data, or shared by a copy since
        labels, comp = labels.copy(), comp.copy()
        entry = [0, labels, comp, data.era]
    entry[0] = len(changes)
    for t in arrivals:
        k = owner[at[t][-1].id]
        roots = {r for r in map(labels.__getitem__, table[t]) if r >= 0 and comp[r][1] == k}
        if not roots:
            labels[t], comp[t] = t, (1 << t, k)
            continue
        if len(roots) == 1:
            root = roots.pop()
            labels[t] = root
            comp[root] = (comp[root][0] | 1 << t, k)
            continue
        root = max(roots, key=lambda r: (comp[r][0].bit_count(), -r))  # relabel the smaller
        roots.discard(root)
        mask = comp[root][0] | 1 << t
        for r in roots:
            other = comp[r][0]
            comp[r] = None
            mask |= other
            while other:
                low = other & -other
                labels[low.bit_length() - 1] = root
                other ^= low
        labels[t], comp[root] = root, (mask, k)
    return entry


# The last group answered and its bitset: a loop over that very tuple (`any x in g: x in
# region`, right after `let g = group(s, rel)`) intersects bitsets (loops.member_loop).
LAST: list[Any] = [None, 0]
_CHUNK = 8  # bits per lookup when a bitset becomes a tuple of sites


class KeptGroup:
    """A kept group not made into its tuple of sites: what `let g = group(s, rel)` binds when
    every use of g is the domain of `any|all x in g: x in R` (calls._lazy_groups), which
    loops.member_loop answers from the bitset; anything else makes the tuple first."""

    __slots__ = ("mask", "make")

    def __init__(self, mask: int, make: Callable[[int], tuple[Site, ...]]) -> None:
        self.mask, self.make = mask, make

    def __len__(self) -> int:
        return self.mask.bit_count()

    def sites(self) -> tuple[Site, ...]:
        return self.make(self.mask)


def kept_group(rt: Any, search: Callable[[Any, Any, Any], Any], lazy: bool = False
               ) -> Callable[[Any, Any, Any], Any]:
    """group(x, rel) for values x and rel: kept for a site and a symmetric relation, else
    search(c, x, rel) (the builtin, with its errors). lazy: a group of more than one site is
    given as a KeptGroup."""
    keys: dict[Relation, Any] = {}  # the cache key of a symmetric relation, None for others
    sites = rt.board.sites
    per_position = found_group(search)
    # per chunk of _CHUNK site indices: its bits -> the sites they stand for
    chunks: list[dict[int, tuple[Site, ...]]] = [
        {} for _ in range(0, len(sites) + _CHUNK, _CHUNK)]
    full = (1 << _CHUNK) - 1

    def as_tuple(mask: int) -> tuple[Site, ...]:
        found: tuple[Site, ...]
        if not mask & (mask - 1):  # one site
            found = (sites[mask.bit_length() - 1],)
        elif mask.bit_count() <= _CHUNK:
            out, m = [], mask
            while m:
                low = m & -m
                out.append(sites[low.bit_length() - 1])
                m ^= low
            found = tuple(out)
        else:
            out, m, k = [], mask, 0
            while m:
                v = m & full
                if v:
                    part = chunks[k].get(v)
                    if part is None:
                        base = k * _CHUNK
                        part = chunks[k][v] = tuple(
                            sites[base + j] for j in range(_CHUNK) if v >> j & 1)
                    out += part
                m >>= _CHUNK
                k += 1
            found = tuple(out)
        LAST[0], LAST[1] = found, mask
        return found

    def group(c: Any, x: Any, rel: Any) -> Any:
        if type(x) is not Site or type(rel) is not Relation:
            return search(c, x, rel)
        key = keys.get(rel, _UNSEEN)
        if key is _UNSEEN:
            key = keys[rel] = (_TAG, rel) if symmetric(rel) else None
        if key is None:
            return search(c, x, rel)
        data = c.data
        entry = data.cache.get(key)
        if entry is None:
            entry = data.cache[key] = build(data, rel.indices)
        elif entry is GENERAL:
            return per_position(c, x, rel)
        elif entry[0] != len(data.changes):
            changes = data.changes
            seen = entry[0]
            t = changes[seen]
            labels, comp = entry[1], entry[2]
            st = data.at[t]
            if seen + 1 == len(changes) and st and labels[t] < 0 and entry[3] == data.era:
                # the common case: one piece arrived since, and the lists are this data's
                k = data.owner[st[-1].id]
                root, more = -1, False  # the components of k beside t: none, one, more
                for u in rel.indices[t]:
                    r = labels[u]
                    if r >= 0 and r != root and comp[r][1] == k:
                        if root >= 0:
                            more = True
                            break
                        root = r
                if not more:
                    entry[0] = seen + 1
                    if root < 0:
                        labels[t], comp[t] = t, (1 << t, k)
                        if x.index == t:
                            found = LAST[0] = (x,)
                            LAST[1] = 1 << t
                            return found
                    else:
                        labels[t] = root
                        comp[root] = (comp[root][0] | 1 << t, k)
                else:
                    entry = update(entry, data, rel.indices)
            else:
                entry = update(entry, data, rel.indices)
            if entry is None:
                data.cache[key] = GENERAL
                return search(c, x, rel)
            data.cache[key] = entry
        label = entry[1][x.index]
        if label < 0:
            return ()
        if lazy:
            return KeptGroup(entry[2][label][0], as_tuple)
        return as_tuple(entry[2][label][0])
    return group


_UNSEEN = object()
_FOUND = "found groups"  # data.cache keys: (_FOUND, relation)


def found_group(search: Callable[[Any, Any, Any], Any]) -> Callable[[Any, Any, Any], Any]:
    """group(x, rel) for values x and rel, by search(c, x, rel) (the builtin, with its
    errors); for a site and a symmetric relation, each group found is kept for the position
    (the data's version: every change of a site's pieces or of an owner renews it) under each
    of its sites, so that another site of it is answered from it."""
    keys: dict[Relation, Any] = {}  # the cache key of a symmetric relation, None for others

    def group(c: Any, x: Any, rel: Any) -> Any:
        data = c.data
        if type(x) is not Site or type(rel) is not Relation or data is None:
            return search(c, x, rel)
        key = keys.get(rel, _UNSEEN)
        if key is _UNSEEN:
            key = keys[rel] = (_FOUND, rel) if symmetric(rel) else None
        if key is None:
            return search(c, x, rel)
        entry = data.cache.get(key)
        if entry is None or entry[0] != data.version:  # (a copy at the same version is at
            # the same position: it may share the groups found in it)
            entry = data.cache[key] = (data.version, {})
        known = entry[1]
        g = known.get(x.index)
        if g is None:
            g = search(c, x, rel)
            for s in g:
                known[s.index] = g
            known[x.index] = g  # (an empty site's group is empty)
        return g
    return group
