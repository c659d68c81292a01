"""Site sets as int bitsets, groups as a union-find over site indices (gen/kept.py writes
their upkeep), and the position keys of the repetition rules over the flat state
(game/repetition.py's meaning): the helpers generated code calls for them."""
from __future__ import annotations

from typing import Any

from rulelang.model.values import Site


def bit_sites(sites: Any, bits: int) -> tuple[Site, ...]:
    """The sites of a bitset, in board order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(sites[low.bit_length() - 1])
        bits ^= low
    return tuple(out)


def uf_find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = i = parent[parent[i]]
    return i


def uf_union(parent: list[int], bits: list[int], i: int, j: int) -> None:
    a, b = uf_find(parent, i), uf_find(parent, j)
    if a != b:
        parent[b] = a
        bits[a] |= bits[b]


def uf_build(at: list[Any], top: list[Any], table: Any) -> tuple[list[int], list[int]]:
    """A union-find of the sites whose top pieces share an owner and touch through
    `table` (a symmetric relation), each root holding its group's sites as bits."""
    n = len(at)
    parent, bits = list(range(n)), [1 << i for i in range(n)]
    for i in range(n):
        if at[i]:
            who = top[i]
            for j in table[i]:
                if j < i and at[j] and top[j] is who:
                    uf_union(parent, bits, i, j)
    return parent, bits


def site_mask(sites: Any) -> int:
    """A collection of sites as bits (a region keeps its own)."""
    mask = getattr(sites, "mask", None)
    return mask if type(mask) is int else sum([1 << s.index for s in set(sites)])


# ---- repetition ---------------------------------------------------------------------------

_PILE_KEYS = 65_536  # the pile keys a game remembers at most (then it starts anew)


def board_key(s: Any) -> tuple[Any, ...]:
    """The board as the reference's repetition keys it: per site its pieces' kinds and
    owners. A pile's part is remembered by the pile itself (a tuple of pieces, each of a
    fixed kind and owner; the piles of one game's states are shared tuples)."""
    known, out = s.pile_keys, []
    for st in s.at:
        key = known.get(st)
        if key is None:
            if len(known) >= _PILE_KEYS:
                known.clear()
                known[()] = ()
            owner = s.owner
            key = known[st] = tuple([(p.kind, owner[p.id]) for p in st])
        out.append(key)
    return tuple(out)


def position_key(s: Any, to_move: int) -> tuple[Any, ...]:
    return (board_key(s), tuple(map(len, s.zones.values())), tuple(s.counters.values()),
            to_move)


def count_position(s: Any, to_move: int) -> None:
    """Count the position (for `repeated`) and its board (for `repeated_board`), each
    where the rulebook asks for it (RepetitionKeys.count_position)."""
    positions = s.positions
    if "repeated" in s.repetition:
        key = position_key(s, to_move)
        positions[key] = positions.get(key, 0) + 1
    if "repeated_board" in s.repetition:
        key = ("board", board_key(s))
        positions[key] = positions.get(key, 0) + 1


def repeated(s: Any, n: int) -> bool:
    """The current position occurred n times (builtin `repeated`)."""
    key = position_key(s, (s.mover + 1) % len(s.players))
    return bool(s.positions.get(key, 0) >= n)


def repeated_board(s: Any, n: int) -> bool:
    """The current board occurred n times (builtin `repeated_board`)."""
    return bool(s.positions.get(("board", board_key(s)), 0) >= n)
