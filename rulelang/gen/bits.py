"""Site sets as int bitsets, groups as a union-find over site indices (gen/kept.py writes
their upkeep), and the position keys of the repetition rules over the flat state
(game/repetition.py's meaning): the helpers generated code calls for them."""
from __future__ import annotations

import functools
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


CHUNKED = 1024  # boards of at most this many sites: bitsets read by bytes (chunk_sites)


@functools.lru_cache(maxsize=16)
def site_chunks(sites: Any) -> tuple[tuple[tuple[Site, ...], ...], ...]:
    """For chunk_sites: per 8 sites of the board in order, per byte, its sites."""
    out = []
    for at in range(0, len(sites), 8):
        part = sites[at:at + 8]
        out.append(tuple(tuple(x for j, x in enumerate(part) if b >> j & 1)
                         for b in range(256)))
    return tuple(out)


def chunk_sites(chunks: Any, bits: int) -> tuple[Site, ...]:
    """The sites of a bitset, in board order, a byte at a time (chunks: site_chunks)."""
    out: tuple[Site, ...] = ()
    for chunk in chunks:
        if not bits:
            break
        out += chunk[bits & 255]
        bits >>= 8
    return out


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


def some_within(masks: Any, bits: int) -> bool:
    """`any m in masks: every site of m is in bits` (sites as bits)."""
    for m in masks:
        if m & bits == m:
            return True
    return False


def lanes(masks: tuple[int, ...], n: int) -> tuple[int, int, int, int]:
    """Masks of sites (each below 2 ** n) side by side in one number, a lane of n + 1 bits
    each, for within_lanes: the masks, a 1 at each lane's start, each lane's n low bits,
    each lane's top bit."""
    width, packed, ones, low, high = n + 1, 0, 0, 0, 0
    for k, m in enumerate(masks):
        packed |= m << (k * width)
        ones |= 1 << (k * width)
        low |= ((1 << n) - 1) << (k * width)
        high |= 1 << (k * width + n)
    return packed, ones, low, high


def within_lanes(lanes: tuple[int, int, int, int], bits: int) -> bool:
    """some_within of the masks `lanes` holds (site bits below 2 ** n): in each lane the
    sites of its mask not in bits (bits copied into every lane by the product), plus the
    lane's low bits, reaches the lane's top bit unless none is left: some lane short of it
    is a mask within bits. A few operations on one number instead of a loop."""
    packed, ones, low, high = lanes
    return ((packed & ~(bits * ones)) + low) & high != high


def relation_masks(rel: Any) -> tuple[int, ...]:
    """Per site index, the sites a relation gives for it as bits."""
    return tuple(sum(1 << j for j in set(row)) for row in rel.indices)


def site_mask(sites: Any) -> int:
    """A collection of sites as bits (a region keeps its own)."""
    mask = getattr(sites, "mask", None)
    return mask if type(mask) is int else sum([1 << s.index for s in set(sites)])


# ---- repetition ---------------------------------------------------------------------------

# The board's part of a position key is, per site, a number for its pile's kinds and owners
# (the reference's key: the kinds and owners themselves, `plain_key`), kept up to date site by
# site (`S.bk`, gen/kept.py). A game numbers at most _PILE_CODES piles' kinds and owners
# (past them, a pile's part is its kinds and owners: a key stays exact) and remembers the
# numbers of at most _PILE_KEYS piles (then it starts anew).
_PILE_KEYS = 65_536
_PILE_CODES = 65_536


def pile_code(s: Any, pile: tuple[Any, ...]) -> Any:
    """A pile's part of the board's key, remembered by the pile itself (a tuple of pieces,
    each of a fixed kind and owner; the piles of one game's states are shared tuples)."""
    known = s.pile_keys
    code = known.get(pile)
    if code is None:
        if len(known) >= _PILE_KEYS:
            known.clear()
        owner = s.owner
        code = known[pile] = _numbered(s, tuple([(p.kind, owner[p.id]) for p in pile]))
    return code


def _numbered(s: Any, part: tuple[Any, ...]) -> Any:
    """The number of a pile's kinds and owners (numbered when first met), or themselves."""
    codes = s.pile_codes
    code = codes.get(part)
    if code is None:
        if len(codes) >= _PILE_CODES:
            return part
        code = codes[part] = len(s.pile_parts)
        s.pile_parts.append(part)
    return code


def board_key(s: Any) -> tuple[Any, ...]:
    """The board as the repetition keys it (numbered: plain_key gives the reference's)."""
    return tuple(s.bk)


def plain_key(s: Any, key: Any) -> Any:
    """A position's or a board's key as the reference makes it (game/repetition.py)."""
    parts = s.pile_parts
    return _each_part(key, lambda c: parts[c] if type(c) is int else c)


def coded_key(s: Any, key: Any) -> Any:
    """A key the reference made, numbered as this game numbers it."""
    return _each_part(key, lambda part: _numbered(s, part))


def _each_part(key: Any, f: Any) -> Any:
    """The key with f of each pile's part of its board (a board's key, or a position's)."""
    if key[0] == "board":
        return ("board", tuple([f(c) for c in key[1]]))
    return (tuple([f(c) for c in key[0]]), *key[1:])


def position_key(s: Any, to_move: int) -> tuple[Any, ...]:
    return (board_key(s), tuple(map(len, s.zones.values())), tuple(s.counters.values()),
            to_move)


def count_position(s: Any, to_move: int) -> Any:
    """Count the position (for `repeated`) and its board (for `repeated_board`), each
    where the rulebook asks for it (RepetitionKeys.count_position); the position's key
    (None: not counted)."""
    positions, key = s.positions, None
    if "repeated" in s.repetition:
        key = position_key(s, to_move)
        positions[key] = positions.get(key, 0) + 1
    if "repeated_board" in s.repetition:
        board = ("board", board_key(s))
        positions[board] = positions.get(board, 0) + 1
    return key


def repeated(s: Any, n: int) -> bool:
    """The current position occurred n times (builtin `repeated`): its key as counted
    where the end section reads it right after (GenState.key_now), else made again."""
    key = s.key_now
    if key is None:
        key = position_key(s, (s.mover + 1) % len(s.players))
    return bool(s.positions.get(key, 0) >= n)


def repeated_board(s: Any, n: int) -> bool:
    """The current board occurred n times (builtin `repeated_board`)."""
    return bool(s.positions.get(("board", board_key(s)), 0) >= n)
