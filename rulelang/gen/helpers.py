"""The reference's meaning, for the values whose form the writer does not know: each helper
does what reference/interpreter.py does for its node (errors at the node's span), reading
the flat state where the reference reads GameData. Generated code calls them through its
constants table."""
from __future__ import annotations

from typing import Any

from rulelang.errors import RulelangError, RuleRuntimeError
from rulelang.gen.bits import chunk_sites
from rulelang.gen.rt import charge
from rulelang.language.ast import Const
from rulelang.library.effects import chance_draw, clamp
from rulelang.library.effects import slot as slot_of
from rulelang.library.semantics import (
    _FOLD,
    BINOPS,
    COMPARES,
    ORDERS,
    RANKED,
    STEP_BUDGET,
    count_of,
    domain_items,
    get_attr,
    increased,
    iterate,
    local_of,
    negate,
    ordered,
    positioned,
    quant_error,
    runtime_error,
    stored_weight,
)
from rulelang.library.semantics import of_value as of_meaning
from rulelang.model.values import Piece, Player, Record, Site, ZoneRef
from rulelang.model.values import show as _show

__all__ = ["attr", "relation", "call_builtin", "binop", "compare", "items", "fold", "negate"]


class RuleName(str):
    """The name of a rule passed as a value, held by the function written for it (as a
    keyword-only default), so that a message shows the function as the reference shows a
    rule: `rule NAME`."""


def show(x: Any) -> str:
    """A value as the reference's messages show it."""
    named = getattr(x, "__kwdefaults__", None)
    if named:
        for v in named.values():
            if type(v) is RuleName:
                return f"rule {v}"
    return _show(x)


def attr(s: Any, obj: Any, name: str, span: Any) -> Any:
    kind = type(obj)
    if kind is Record:  # (a record's field read in place: get_attr's meaning)
        fields = obj.fields
        if name in fields:
            return tuple.__getitem__(obj, fields.index(name))
    elif kind is Site:  # (a site's coordinate, a player's number: in place too)
        coord = s.rt.coord_index.get(name)
        if coord is not None:
            return obj.coords[coord]
    elif kind is Player and (name == "index" or name == "name"):
        return obj.index if name == "index" else obj.name
    try:
        return get_attr(s.view(), obj, name, s.rt.coord_index)
    except RulelangError as exc:
        raise RuleRuntimeError(str(exc), span) from None


def piece_attr(s: Any, obj: Any, name: str, span: Any) -> Any:
    """`x.name`, name a piece attribute of the game: a piece's column read in place (a
    record's field of that name too, as `attr` reads it)."""
    kind = type(obj)
    if kind is Piece:
        return s.attrs[name][obj.id]
    if kind is Record and name in obj.fields:
        return tuple.__getitem__(obj, obj.fields.index(name))
    return attr(s, obj, name, span)


def kind_at(pile: tuple[Piece, ...], kind: str) -> Piece | None:
    """`pieces_at(s, kind)` of a site s: the topmost piece of the kind in its pile."""
    for piece in reversed(pile):
        if piece.kind == kind:
            return piece
    return None


def attr_of(piece: Piece | None, column: list[Any]) -> Any:
    """A piece's attribute (its column), none for none."""
    return None if piece is None else column[piece.id]


def kind_at_any(s: Any, impl: Any, key: str, span: Any, kind: str, where: Any,
                *args: Any) -> Any:
    """`pieces_at(x, kind)` or `attr_at(x, kind, name)` (args: the name) of anything: a
    site's pile read in place, anything else by the builtin."""
    if type(where) is not Site:
        return call_builtin(impl, key, span, s.view(), where, kind, *args)
    piece = kind_at(s.at[where.index], kind)
    return piece if piece is None or not args else s.attrs[args[0]][piece.id]


def at_site(s: Any, impl: Any, key: str, span: Any, where: Any) -> Any:
    """`pieces(x)`: a site's pile read in place, anything else by the builtin."""
    if type(where) is Site:
        return s.at[where.index]
    return call_builtin(impl, key, span, s.view(), where)


def occupied_at(s: Any, impl: Any, key: str, span: Any, where: Any) -> Any:
    """`occupied(x)`: a site's pile read in place, anything else by the builtin."""
    if type(where) is Site:
        return s.at[where.index] != ()
    return call_builtin(impl, key, span, s.view(), where)


def empty_at(s: Any, impl: Any, key: str, span: Any, where: Any) -> Any:
    """`empty(x)`: a site's pile read in place, anything else by the builtin."""
    if type(where) is Site:
        return s.at[where.index] == ()
    return call_builtin(impl, key, span, s.view(), where)


def moved_at(s: Any, impl: Any, key: str, span: Any, where: Any) -> Any:
    """`moved(x)`: a site's top piece (or a piece) looked up in place."""
    if type(where) is Site:
        pile = s.at[where.index]
        return bool(pile) and pile[-1].id in s.moved
    if type(where) is Piece:
        return where.id in s.moved
    return call_builtin(impl, key, span, s.view(), where)


def top_at(s: Any, impl: Any, key: str, span: Any, where: Any) -> Any:
    """`top(x)`: a site's top piece or a zone's of the game read in place, anything else
    by the builtin."""
    if type(where) is Site:
        pile = s.at[where.index]
        return pile[-1] if pile else None
    if type(where) is ZoneRef and where in s.zones:
        pile = s.zones[where]
        return pile[-1] if pile else None
    return call_builtin(impl, key, span, s.view(), where)


def kind_of(s: Any, impl: Any, key: str, span: Any, x: Any) -> Any:
    """`kind(x)`: a piece's kind read in place, anything else by the builtin."""
    if type(x) is Piece:
        return x.kind
    return call_builtin(impl, key, span, s.view(), x)


def owner_of(s: Any, impl: Any, key: str, span: Any, x: Any) -> Any:
    """`owner(x)`: a piece's (fixed) owner read in place, anything else by the builtin."""
    if type(x) is Piece:
        o = s.owner[x.id]
        return None if o is None else s.rt.players[o]
    return call_builtin(impl, key, span, s.view(), x)


def site_of(s: Any, impl: Any, key: str, span: Any, x: Any) -> Any:
    """`site(x)`: the site a piece is on read in place, anything else by the builtin."""
    if type(x) is Piece:
        where = s.loc[x.id]
        return where if type(where) is Site else None
    return call_builtin(impl, key, span, s.view(), x)


def relation(rel: Any, arg: Any, span: Any) -> Any:
    if not isinstance(arg, Site):
        raise RuleRuntimeError(f"relation '{rel.name}' takes one site, not {show(arg)}", span)
    return rel.table[arg.index]


def group_linked(s: Any, start: Any, table: Any, link: Any, impl: Any, rel: Any,
                 span: Any, bits: Any) -> Any:
    """`group(start, rel, link)` over the flat state (library/builtins.py group: the same
    search in the same order, its errors given the same way), for a site or a tuple of
    sites; anything else by the builtin. Its steps are not counted: it is written only
    where a game runs uncounted. With `bits` (the relation's neighbours as bits, each
    site's in board order, and the board's chunks: bits.chunk_sites), a player's pieces'
    neighbours are found among the owner bits the state keeps."""
    found = _searched(s, start, table, link, span, bits, False)
    if found is None:
        return call_builtin(impl, "group", span, s.view(), start, rel, link)
    return found


def group_bits(s: Any, start: Any, table: Any, link: Any, impl: Any, rel: Any,
               span: Any, bits: Any) -> int:
    """group_linked's sites as bits (each site's bit by its index): the same search, its
    errors the same, where the writer reads the group as bits (`x in g`, loops over it)."""
    found: int | None = _searched(s, start, table, link, span, bits, True)
    if found is None:
        return sum(1 << x.index for x in call_builtin(impl, "group", span, s.view(), start,
                                                       rel, link))
    return found


def _searched(s: Any, start: Any, table: Any, link: Any, span: Any, bits: Any,
              as_bits: bool) -> Any:
    """_group, its errors as the builtin's at the call."""
    try:
        return _group(s, start, table, link, bits, as_bits)
    except RulelangError as exc:
        raise _failed(exc, "group", span, (start, table, link)) from None
    except _PYTHON_ERRORS as exc:
        raise _failed(exc, "group", span, (start, table, link)) from exc


def _group(s: Any, start: Any, table: Any, link: Any, bits: Any,
           as_bits: bool) -> tuple[Site, ...] | int | None:
    """The search from a site, or from a tuple of sites (None for anything else: no site
    is searched from before each start is found a site)."""
    at, top, sites = s.at, s.top, s.rt.board.sites
    if type(start) is Site:  # (one start: no owners to sort the starts by)
        i = start.index
        if not at[i]:
            return 0 if as_bits else ()
        by_owner = {top[i]: [i]}
    elif type(start) is tuple:
        by_owner = {}
        for x in start:
            if type(x) is not Site:
                return None
            if at[x.index]:
                by_owner.setdefault(top[x.index], []).append(x.index)
    else:
        return None
    found: set[int] = set()
    mask = 0
    for who, first in by_owner.items():  # one search from all the starts of one owner
        if bits is not None and who is not None:
            mask |= _linked_bits(bits[0], s.own[who.index], sites, link, first)
        else:
            found |= _linked(at, top, sites, table, link, who, set(first), list(first))
    if as_bits:
        for i in found:
            mask |= 1 << i
        return mask
    if not found:  # (each search over bits, or none)
        return chunk_sites(bits[1], mask) if mask else ()
    found.update([i for i in range(len(sites)) if mask >> i & 1])
    return tuple([sites[i] for i in sorted(found)])


def _linked_bits(masks: Any, mine: int, sites: Any, link: Any, first: list[int]) -> int:
    """_linked over bits: each site's neighbours that hold the owner's pieces (`mine`) and
    are not found yet, in board order (each relation row's order), link asked of each."""
    seen, todo = 0, list(first)
    for i in first:
        seen |= 1 << i
    while todo:
        i = todo.pop()
        cand = masks[i] & mine & ~seen
        while cand:
            low = cand & -cand
            cand ^= low
            t = low.bit_length() - 1
            if link(sites[i], sites[t]):
                seen |= low
                todo.append(t)
    return seen


def _linked(at: Any, top: Any, sites: Any, table: Any, link: Any, who: Any, seen: set[int],
            todo: list[int]) -> set[int]:
    while todo:
        i = todo.pop()
        for t in table[i]:
            if t not in seen and at[t] and top[t] is who and link(sites[i], sites[t]):
                seen.add(t)
                todo.append(t)
    return seen


_PYTHON_ERRORS = (TypeError, AttributeError, IndexError, KeyError, ValueError)


def call_builtin(impl: Any, key: str, span: Any, c: Any, *args: Any) -> Any:
    """A builtin called as Runtime.call calls it: its errors positioned at the call."""
    try:
        return impl(c, *args)
    except RulelangError as exc:
        raise _failed(exc, key, span, args) from None
    except _PYTHON_ERRORS as exc:
        raise _failed(exc, key, span, args) from exc


def size_of(s: Any, impl: Any, key: str, span: Any, x: Any) -> Any:
    """`size(x)` of a value of unknown form: a list's or a zone's in place, else the
    builtin's (its error for anything else)."""
    if x.__class__ is tuple:
        return len(x)
    if x.__class__ is ZoneRef:
        pile = s.zones.get(x)
        if pile is not None:
            return len(pile)
    return call_builtin(impl, key, span, s.view(), x)


def distinct_of(s: Any, impl: Any, key: str, span: Any, x: Any) -> Any:
    """`distinct(x)`: a list's items without repeats, its items charged as the builtin
    charges them; anything else by the builtin (a zone's pieces, its error)."""
    if x.__class__ is tuple:
        charge(s, len(x), span)
        try:
            return tuple(dict.fromkeys(x))
        except TypeError:  # (an item that has no hash: the builtin's error)
            pass
    return call_builtin(impl, key, span, s.view(), x)


def first_of(s: Any, impl: Any, key: str, span: Any, x: Any) -> Any:
    """`first(x)`: a list's first item or none; anything else by the builtin."""
    if x.__class__ is tuple:
        return x[0] if x else None
    return call_builtin(impl, key, span, s.view(), x)


def _failed(exc: Exception, key: str, span: Any, args: tuple[Any, ...]) -> RuleRuntimeError:
    """A builtin's error as Runtime.call gives it: its own, positioned at the call where it
    has no position; a Python error of its arguments as what it cannot take."""
    if isinstance(exc, RuleRuntimeError):
        return positioned(exc, span)
    if isinstance(exc, RulelangError):
        return RuleRuntimeError(str(exc), span)
    return RuleRuntimeError(f"'{key}' cannot take {', '.join(map(show, args))}", span)


def not_callable(key: str, span: Any, *args: Any) -> Any:
    """Runtime.call of what is no rule, builtin or relation, its arguments evaluated."""
    raise RuleRuntimeError(f"'{key or '?'}' cannot be called here", span)


def binop(op: str, left: Any, right: Any, span: Any, s: Any) -> Any:
    """`left op right` as the reference computes it: a list or text made charges its
    length (in every game: a var's list may grow past any bound written)."""
    try:
        result = BINOPS[op](left, right)
    except (TypeError, ZeroDivisionError) as exc:
        raise RuleRuntimeError(f"cannot compute {show(left)} {op} {show(right)}: {exc}",
                               span) from None
    except OverflowError as exc:
        raise RuleRuntimeError(f"cannot compute {op}: {exc}", span) from None
    if type(result) is tuple or type(result) is str:
        charge(s, len(result), span)
    return result


def equal(left: Any, right: Any, span: Any, s: Any) -> bool:
    """`left == right` as the reference computes it: a list's length charged."""
    if left.__class__ is tuple:
        charge(s, len(left), span)
    return bool(left == right)


def unequal(left: Any, right: Any, span: Any, s: Any) -> bool:
    """`left != right` as the reference computes it: a list's length charged."""
    if left.__class__ is tuple:
        charge(s, len(left), span)
    return bool(left != right)


def compare(op: str, left: Any, right: Any, span: Any, s: Any) -> bool:
    """As the reference compares: `in` a list (or a zone's pieces) charges its items,
    `==` of a list its length."""
    if op in ("in", "not in"):
        if right is None or isinstance(right, ZoneRef):
            right = iterate(s.view(), right)  # (a zone's pieces, none's none)
        if type(right) is tuple:
            charge(s, len(right), span)
    elif type(left) is tuple and op in ("==", "!="):
        charge(s, len(left), span)
    try:
        return bool(COMPARES[op](left, right))
    except TypeError:
        if op in ORDERS:
            return ordered(left, op, right, span)
        raise RuleRuntimeError(f"cannot compare {show(left)} {op} {show(right)}",
                               span) from None


def items(s: Any, x: Any, span: Any) -> Any:
    if type(x) is tuple:  # (most domains: a pile, a relation's sites)
        return x
    return domain_items(s.view(), x, span)


def fold(kind: str, values: list[Any], span: Any) -> Any:
    try:
        return _FOLD[kind](values)
    except TypeError as exc:
        raise quant_error(kind, exc, span) from None


def ranked(kind: str, pairs: list[tuple[Any, Any]], span: Any) -> Any:
    """`best` / `sorted` over (item, key) pairs (semantics.quant)."""
    try:
        return RANKED[kind](pairs)
    except TypeError as exc:
        raise quant_error(kind, exc, span) from None


def add_points(total: Any, value: Any, term: Any) -> Any:
    """A score term's value added to a player's total as the reference's totals add it (an
    itemised term's points one by one, in order)."""
    if type(value) is int or type(value) is float:  # (points: _points's check)
        return total + value
    from rulelang.game.runtime import _points, _score_points
    if not isinstance(value, (tuple, list)):
        return total + _points(value, term)
    for item in value:
        total += _score_points(item, term)
    return total


def store(s: Any, cat: str, name: str, value: Any, span: Any) -> Any:
    """The value a `set` stores in a var or counter (EffectStatements.effect_Set; a list or
    text charged by its weight as semantics.stored charges it, on the state's own count)."""
    w = stored_weight(value, span)
    if w:
        steps = s.steps
        steps[0] += w
        if steps[0] > STEP_BUDGET:
            charge(s, 0, span)
    if cat == "counter":
        if type(value) is not int:
            raise RuleRuntimeError(f"counter '{name}' holds a whole number, not "
                                   f"{show(value)}", span)
        value = _clamped(s, name, value)
    return value


def increase(s: Any, cat: str, name: str, old: Any, sign: int, amount: Any, span: Any) -> Any:
    """A var or counter increased (or decreased) by an amount (effect_Increase)."""
    new = increased(old, sign, amount, span)
    return _clamped(s, name, new) if cat == "counter" else new


def _clamped(s: Any, name: str, value: int) -> int:
    """A counter's value within its bounds (their rules read through the reference)."""
    d = s.rt.program.counters[name]
    if d.lo is None and d.hi is None:
        return value
    if all(b is None or type(b) is Const for b in (d.lo, d.hi)):  # (written as numbers)
        return clamp((None if d.lo is None else d.lo.value,
                      None if d.hi is None else d.hi.value), value)
    return clamp(s.rt.counter_bounds(name, s.ctx), value)


def of_value(s: Any, cat: str, key: str, player: Any, span: Any) -> Any:
    """`X of p` for a player known only as the game runs (Interpreter.visit_Of)."""
    try:
        return of_meaning(s.view(), cat, key, player)
    except (RulelangError, KeyError) as exc:
        raise RuleRuntimeError(str(exc), span) from None


def of_local(s: Any, value: Any, player: Any, span: Any) -> Any:
    """`x of p`, x a local holding a piece kind's or a zone's name (Interpreter.visit_Of)."""
    view = s.view()
    cat, key = local_of(view, value)
    return of_value(s, cat, key, player, span)


def slot(s: Any, cat: str, key: str, player: Any, span: Any) -> tuple[Any, ...]:
    """The table and key of `V of p` set or increased, p known only as the game runs."""
    return slot_of(s, cat, key, player, True, span)


def loop_items(s: Any, value: Any, domain_span: Any, span: Any) -> tuple[Any, ...] | range:
    """The items of a turn's `for each` around a decision, found once and charged a step
    each (reference/statements.py run_ForEach)."""
    items = domain_items(s.view(), value, domain_span)
    values = items if type(items) is range else tuple(items)
    s.view().tick(span, count_of(values))
    return values


def chance(s: Any, values: list[Any], span: Any) -> Any:
    """`choose x in D at random`: the reference's draw (or stated outcome) over the flat
    state, which holds the generator and the outcomes stated as the data does."""
    return chance_draw(s, values, span)


def chooser(player: Any, span: Any) -> int:
    """The player a `choose … by p` asks (its index)."""
    if not isinstance(player, Player):
        raise RuleRuntimeError(f"a choice is made by a player, not {show(player)}", span)
    return player.index


def starter(player: Any, span: Any) -> int:
    """`set starter = p`: the index of the player who starts the next round."""
    if not isinstance(player, Player):
        raise RuleRuntimeError(f"a round starts with a player, not {show(player)}", span)
    return player.index


def index(obj: Any, i: Any, span: Any) -> Any:
    """`obj[i]` (reference/interpreter.py visit_Index)."""
    try:
        return obj[i]
    except (IndexError, KeyError, TypeError, RuleRuntimeError) as exc:  # (a table's)
        raise runtime_error(exc, span, "indexing") from None


def set_attr(s: Any, value: Any, piece: Any, name: str, span: Any) -> None:
    """`set p.side = 2`: a piece's changing attribute (effects.set_attribute); the kept
    structures test its site again."""
    if not isinstance(piece, Piece):
        raise RuleRuntimeError(f"only a piece's attributes can be set, not {show(piece)}'s",
                               span)
    decl = s.rt.program.pieces.get(piece.kind)
    if not any(n == name for n, _ in (decl.attrs if decl else ()) or ()):
        raise RuleRuntimeError(f"a {piece.kind} has no attribute '{name}'", span)
    s.attrs[name][piece.id] = value
    where = s.loc[piece.id]
    if type(where) is Site:
        s._touch(where.index, s.at[where.index])


def no_clause(rule: str, symbols: tuple[str, ...], value: Any, span: Any) -> Any:
    """A rule written as clauses, reached by a value none of them is for."""
    from rulelang.library.semantics import no_clause as error
    raise error(rule, symbols, value, span)


def _cannot_take(key: tuple[str, Any], sites: Any, f: Any, args: tuple[Any, ...],
                 span: Any) -> RuleRuntimeError:
    """R301 as the reference's Runtime.call_builtin says it: a rule given other arguments
    than its parameters (or no rule at all)."""
    shown = [] if sites is None else [show(sites)]
    shown.append(f"rule {key[1]}" if key[1] is not None else show(f))
    shown.extend(map(show, args))
    return RuleRuntimeError(f"'{key[0]}' cannot take {', '.join(shown)}", span)


def remembered(s: Any, key: tuple[str, Any], sites: Any, args: tuple[Any, ...],
               f: Any, span: Any) -> Any:
    """f(*args) (what `memo` and `cached` mean), kept in the game's content cache by the
    rule, the arguments and, for `cached`, the pieces on `sites` (runtime.content_cache:
    None where a rule sets a piece's attribute or owner)."""
    code = getattr(f, "__code__", None)
    if code is None or code.co_argcount != len(args):
        raise _cannot_take(key, sites, f, args, span)
    table = s.rt.content_cache if key[1] is not None else None
    if table is None:
        return f(*args)
    try:
        k = ("gen", key, args) if sites is None else \
            ("gen", key, args, tuple([s.at[x.index] for x in sites]))
        return table[k]
    except KeyError:
        pass
    except (TypeError, AttributeError):  # (values not compared by value: not kept)
        return f(*args)
    value = f(*args)
    if len(table) > 100_000:
        table.clear()
    table[k] = value
    return value
