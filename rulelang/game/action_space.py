"""The fixed action space of a game (one per rulebook and options), for the tools that need
every action numbered once and for all (OpenSpiel, PettingZoo: rulelang/openspiel.py,
rulelang/pettingzoo.py). The engine's own actions stay indices into the current menu; this
module converts (docs/action_space.md describes the numbering).

It is derived from the rulebook alone, never by playing: a block of ids for each action (the
values of the chooses its option holds, `then` included: the product of their domains) and
then one for each `choose` that may be asked on its own (its domain). A domain is numbered
from the type the checker gave its values (Program.choice_types): sites, players, pieces,
zones, the symbols of an enumeration, kinds, truth values, tuples of those, whole numbers of
a range written with constant ends; a value of no known type is one of the game's plain
values (sites, players, zones, the texts the rulebook and its data write, pieces). A choose
over anything else (lists, records, numbers of no known range) has no finite numbering: a
RulebookError names it at its file:line:col.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulelang.errors import Diagnostic, IllegalActionError, RulebookError, RulelangError
from rulelang.game.choice_values import ChoiceValues
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.language.decisions import DecisionAnalysis
from rulelang.language.types import plural
from rulelang.library.decision import NOTHING, Decision, Option, ThenMark, label
from rulelang.model.values import Piece, Player, Site, ZoneRef

_CODE = "R270"
_VAGUE = frozenset({"unknown", "text", "none", "list", "tuple", "record"})  # read the domain
_MAX_ACTIONS = 1 << 24  # a space larger than this is refused (a mask of it is 16 MB)


def key(v: Any) -> Any:
    """A value's identity in the space, whatever its type (True is not 1, a site not its
    index)."""
    if isinstance(v, Site):
        return ("site", v.index)
    if isinstance(v, Player):
        return ("player", v.index)
    if isinstance(v, Piece):
        return ("piece", v.id)
    if isinstance(v, ZoneRef):
        return ("zone", v.name, v.owner)
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, (tuple, list)):
        return ("tuple", *(key(x) for x in v))
    return (type(v).__name__, v)


class Universe:
    """The values one choose may offer, numbered 0 … size-1."""

    def __init__(self, values: list[Any]) -> None:
        self.values = values
        self.size = len(values)
        self._index = {key(v): i for i, v in enumerate(values)}

    def index(self, v: Any) -> int | None:
        try:
            return self._index.get(key(v))
        except TypeError:  # (a value that cannot be a key, a map: none of these)
            return None

    def value(self, i: int) -> Any:
        return self.values[i]


class Product(Universe):
    """Tuples of a fixed length, item by item (the first item most significant)."""

    def __init__(self, parts: list[Universe]) -> None:
        self.parts = parts
        self.size = 1
        for p in parts:
            self.size *= p.size

    def index(self, v: Any) -> int | None:
        if not isinstance(v, (tuple, list)) or len(v) != len(self.parts):
            return None
        out = 0
        for part, x in zip(self.parts, v, strict=True):
            i = part.index(x)
            if i is None:
                return None
            out = out * part.size + i
        return out

    def value(self, i: int) -> Any:
        items = []
        for part in reversed(self.parts):
            i, r = divmod(i, part.size)
            items.append(part.value(r))
        return tuple(reversed(items))


class Sequences(Universe):
    """Lists of at most `most` items of `item`: by length, then item by item (the first
    most significant)."""

    def __init__(self, item: Universe, most: int) -> None:
        self.item, self.most = item, most
        self.starts = [0]
        for k in range(most + 1):
            self.starts.append(self.starts[-1] + item.size ** k)
        self.size = self.starts[-1]

    def index(self, v: Any) -> int | None:
        if not isinstance(v, (tuple, list)) or len(v) > self.most:
            return None
        out = 0
        for x in v:
            i = self.item.index(x)
            if i is None:
                return None
            out = out * self.item.size + i
        return self.starts[len(v)] + out

    def value(self, i: int) -> Any:
        k = next(k for k in range(self.most + 1) if i < self.starts[k + 1])
        i -= self.starts[k]
        items = []
        for _ in range(k):
            i, r = divmod(i, self.item.size)
            items.append(self.item.value(r))
        return tuple(reversed(items))


class Union(Universe):
    """The values of several universes, one after the other (a value in two of them has
    the number of the first)."""

    def __init__(self, parts: list[Universe]) -> None:
        self.parts = parts
        self.size = sum(p.size for p in parts)

    def index(self, v: Any) -> int | None:
        at = 0
        for p in self.parts:
            i = p.index(v)
            if i is not None:
                return at + i
            at += p.size
        return None

    def value(self, i: int) -> Any:
        for p in self.parts:
            if i < p.size:
                return p.value(i)
            i -= p.size
        raise IndexError(i)


class Universes:
    """Universes made for one game (choice_values.py builds with these)."""

    def __init__(self, space: ActionSpace) -> None:
        self.space = space

    def listed(self, values: list[Any]) -> Universe:
        return Universe(values)

    def pieces(self) -> Universe:
        return Universe(list(self.space.runtime.pieces))

    def plain(self) -> Universe:
        return self.space.plain

    def sequences(self, item: Universe, most: int) -> Universe:
        return Sequences(item, most)

    def product(self, parts: list[Universe]) -> Universe:
        return Product(parts)

    def of_type(self, t: Any) -> Universe | None:
        try:
            return self.space._of_type(t, None)
        except _NoNumbering:
            return None

    def union(self, parts: list[Universe | None]) -> Universe | None:
        if any(p is None for p in parts):
            return None
        known = [p for p in parts if p is not None]
        if all(type(p) is Universe for p in known):
            return Universe(list({key(v): v for p in known for v in p.values}.values()))
        return Union(known)

    def item_of(self, u: Universe | None) -> Universe | None:
        """The items of a list of u's values."""
        if isinstance(u, Sequences):
            return u.item
        if isinstance(u, Product):
            return self.union(list(u.parts))
        return None

    def longest(self, u: Universe | None) -> int | None:
        if isinstance(u, Sequences):
            return u.most
        if isinstance(u, Product):
            return len(u.parts)
        return None


@dataclass
class Block:
    """The ids start … start+size-1: the options of one action, or the values of one choose
    asked on its own. `slots` is the option's values in order: a choose's universe, or the
    ThenMark a `then` puts there."""
    start: int
    size: int
    action: str | None
    choose: ast.Choose | None
    slots: list[Universe | ThenMark]

    def encode(self, values: tuple[Any, ...]) -> int | None:
        if len(values) != len(self.slots):
            return None
        out = 0
        for slot, v in zip(self.slots, values, strict=True):
            if isinstance(slot, ThenMark):
                if v != slot:
                    return None
                continue
            i = slot.index(v)
            if i is None:
                return None
            out = out * slot.size + i
        return self.start + out

    def decode(self, i: int) -> Option:
        i -= self.start
        values: list[Any] = []
        for slot in reversed(self.slots):
            if isinstance(slot, ThenMark):
                values.append(slot)
                continue
            i, r = divmod(i, slot.size)
            values.append(slot.value(r))
        return (self.action, tuple(reversed(values)))


class ActionSpace:
    """The numbered actions of one game (a Runtime: a rulebook with its options)."""

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime
        program = runtime.program
        self.program = program
        self.analysis = DecisionAnalysis(program)
        self.plain = Universe(_plain_values(runtime))
        self.universes = Universes(self)
        self.values = ChoiceValues(self)
        self.blocks: list[Block] = []
        self.by_action: dict[str, Block] = {}
        self.by_choose: dict[ast.Choose, Block] = {}
        diags: list[Diagnostic] = []
        prefixes = {name: self._option_slots(a) for name, a in program.actions.items()}
        for name, slots in prefixes.items():
            block = self._block(name, None, slots, diags)
            if block is not None:
                self.by_action[name] = block
        for s in self._asked_alone(prefixes):
            block = self._block(None, s, [s], diags)
            if block is not None:
                self.by_choose[s] = block
        if diags:
            raise RulebookError(diags, program.loaded.sources)
        self.size = sum(b.size for b in self.blocks)
        if self.size > _MAX_ACTIONS:
            raise RulebookError([Diagnostic(_CODE, f"the game has {self.size:,} numbered "
                                            f"actions, more than {_MAX_ACTIONS:,}",
                                            program.game.span)], program.loaded.sources)

    # ---- the blocks
    def _option_slots(self, action: ast.Action) -> list[ast.Choose | ThenMark]:
        """The values an option of `action` holds, as the menus collect them
        (reference/menus.py): its mover's chooses, in order, up to the first statement
        that ends the option, through `then`."""
        out: list[ast.Choose | ThenMark] = []
        stmts, i, seen = action.body.stmts, 0, {action.name}
        while i < len(stmts):
            s = stmts[i]
            if isinstance(s, ast.Choose) and s.mode == "mover":
                out.append(s)
            elif isinstance(s, ast.Then):
                if s.action in seen:  # a cycle of `then`s: the checker refuses them
                    break
                seen.add(s.action)
                out.append(ThenMark(s.action))
                stmts, i = self.program.actions[s.action].body.stmts, 0
                continue
            elif not isinstance(s, (ast.Require, ast.Let)) and self.analysis.ends_option(s):
                break
            i += 1
        return out

    def _asked_alone(self, prefixes: dict[str, list[Any]]) -> list[ast.Choose]:
        """The chooses that may ask on their own (not as part of an option): all but those
        of the options' prefixes, unless their action may also run outside an option (a
        `then` that comes after the option has ended)."""
        in_options = {id(s) for slots in prefixes.values() for s in slots
                      if isinstance(s, ast.Choose)}
        alone_actions = set()
        for name, action in self.program.actions.items():
            marks = {s.action for s in prefixes[name] if isinstance(s, ThenMark)}
            for node in walk(action.body):
                if isinstance(node, ast.Then) and node.action not in marks:
                    alone_actions.add(node.action)
        alone = {id(n) for name in alone_actions
                 for n in walk(self.program.actions[name].body) if isinstance(n, ast.Choose)}
        return [s for s in self.program.choice_types if s.mode != "random"
                and (id(s) not in in_options or id(s) in alone)]

    def _block(self, action: str | None, choose: ast.Choose | None,
               slots: list[ast.Choose | ThenMark], diags: list[Diagnostic]) -> Block | None:
        made: list[Universe | ThenMark] = []
        size = 1
        for s in slots:
            if isinstance(s, ThenMark):
                made.append(s)
                continue
            u = self._universe(s, diags)
            if u is None:
                return None
            made.append(u)
            size *= u.size
        start = sum(b.size for b in self.blocks)
        block = Block(start, size, action, choose, made)
        self.blocks.append(block)
        return block

    def _universe(self, s: ast.Choose, diags: list[Diagnostic]) -> Universe | None:
        t = self.program.choice_types.get(s)
        try:
            found = self.values.of_choose(s) if t is None or t.tag in _VAGUE else None
            u = found if found is not None else self._of_type(t, s.domain)
        except _NoNumbering as why:
            diags.append(Diagnostic(
                _CODE, f"the values of '{s.var}' cannot be numbered: {why}", s.span,
                "a fixed action space (OpenSpiel, PettingZoo) needs each choose's values "
                "drawn from sites, players, pieces, zones, symbols, kinds, texts, truth "
                "values, tuples of those, lists of a bounded length ('subsets(x, 4)') or "
                "a range with constant ends"))
            return None
        if s.optional:
            u = Universe([NOTHING, *u.values]) if type(u) is Universe else \
                _WithNothing(u)
        return u

    def _of_type(self, t: Any, domain: ast.Expr | None) -> Universe:
        rt = self.runtime
        tag = "unknown" if t is None else t.tag
        if tag == "site":
            return Universe(list(rt.board.sites))
        if tag == "player":
            return Universe(list(rt.players))
        if tag == "piece":
            return Universe(list(rt.pieces))
        if tag == "zone":
            return Universe(_zones(rt))
        if tag == "bool":
            return Universe([False, True])
        if tag == "symbol" and t.name in self.program.enums:
            return Universe(list(self.program.enums[t.name].symbols))
        if tag == "kind":
            return Universe(list(self.program.pieces))
        if tag == "option" and self.program.options.get(t.name) is not None:
            return Universe(list(self.program.options[t.name].choices))
        if tag == "tuple":
            return Product([self._of_type(a, None) for a in t.args])
        if tag == "number":
            return Universe(list(range(*self._range(domain))))
        if tag in ("unknown", "text", "none"):
            return self.plain
        raise _NoNumbering(f"they are {plural(t)}, of no bounded number")

    def _range(self, domain: ast.Expr | None) -> tuple[int, int]:
        if isinstance(domain, ast.Range):
            lo, hi = self._constant(domain.lo), self._constant(domain.hi)
            if lo is not None and hi is not None:
                return lo, max(lo, hi + 1)
        raise _NoNumbering("numbers, and not of a range with constant ends ('1..6')")

    def _constant(self, e: ast.Expr) -> int | None:
        if isinstance(e, ast.Const) and type(e.value) is int:
            return e.value
        ref = self.program.refs.get(e)
        if ref is not None and ref[0] == "option":
            value = self.runtime.options.get(ref[1])
            return value if type(value) is int else None
        return None

    def chance_outcomes(self) -> int:
        """A bound on the outcomes of one draw: a shuffle draws among the places of its
        zone (no more than the pieces), `choose … at random` among its values."""
        diags: list[Diagnostic] = []
        most = max(1, len(self.runtime.pieces))
        for s in self.program.choice_types:
            if s.mode == "random":
                u = self._universe(s, diags)
                most = max(most, 0 if u is None else u.size)
        if diags:
            raise RulebookError(diags, self.program.loaded.sources)
        return most

    # ---- converting
    def block_of(self, d: Decision, option: Option) -> Block:
        if option[0] is not None:
            block = self.by_action.get(option[0])
        else:
            block = self.by_choose.get(d.choose) if d.choose is not None else None
        if block is None:
            raise RulelangError(f"the option '{label(option)}' has no number in the "
                                "action space")
        return block

    def encode(self, d: Decision, option: Option) -> int:
        """The id of one option of decision d."""
        block = self.block_of(d, option)
        i = block.encode(tuple(option[1]))
        if i is None:
            where = block.choose or next((s for s in self._chooses(block)), None)
            at = f" ({_at(where.span)})" if where is not None else ""
            raise RulelangError(f"the option '{label(option)}' has a value outside the "
                                f"numbered values of its choose{at}")
        return i

    def _chooses(self, block: Block) -> list[ast.Choose]:
        if block.choose is not None:
            return [block.choose]
        action = self.program.actions[block.action] if block.action else None
        return [] if action is None else [n for n in walk(action.body)
                                          if isinstance(n, ast.Choose)]

    def block_at(self, i: int) -> Block:
        if not isinstance(i, int) or not 0 <= i < self.size:
            raise RulelangError(f"{i} is not an action id (0..{self.size - 1})")
        lo, hi = 0, len(self.blocks) - 1
        while lo < hi:  # the last block starting at or before i
            mid = (lo + hi + 1) // 2
            if self.blocks[mid].start <= i:
                lo = mid
            else:
                hi = mid - 1
        return self.blocks[lo]

    def describe(self, i: int) -> str:
        """The string of action id i, as a menu would print it (whether legal now or not)."""
        return label(self.block_at(i).decode(i))


class _NoNumbering(Exception):
    pass


class _WithNothing(Universe):
    """`optionally choose` over a product: NOTHING is 0, the product's values follow."""

    def __init__(self, inner: Universe) -> None:
        self.inner = inner
        self.size = inner.size + 1

    def index(self, v: Any) -> int | None:
        if v is NOTHING:
            return 0
        i = self.inner.index(v)
        return None if i is None else i + 1

    def value(self, i: int) -> Any:
        return NOTHING if i == 0 else self.inner.value(i - 1)


def _zones(rt: Any) -> list[ZoneRef]:
    return sorted(rt.template.zones, key=lambda z: (z.name, -1 if z.owner is None else z.owner))


def _plain_values(rt: Any) -> list[Any]:
    """Every plain value a game may offer whose type the checker does not know: none, the
    sites, players and zones, truth values, the texts written in the rulebook and its
    modules, its symbols, kinds and option values, the texts its pieces' data hold, and the
    pieces."""
    program = rt.program
    texts: set[str] = set(program.pieces)
    for e in program.enums.values():
        texts.update(e.symbols)
    for o in program.options.values():
        texts.update(o.choices or ())
    for module in [program.loaded.game, *program.loaded.modules.values()]:
        for node in walk(module.decls):
            if isinstance(node, ast.Const) and isinstance(node.value, str):
                texts.add(node.value)
    for column in rt.template.attrs.values():
        texts.update(v for v in column if isinstance(v, str))
    texts.update(p.name for p in rt.players)
    return [None, *rt.board.sites, *rt.players, *_zones(rt), False, True, *sorted(texts),
            *rt.pieces]


def _at(span: Any) -> str:
    return f"{span.path}:{span.line}:{span.column}"


def space_of(game: Any) -> ActionSpace:
    """The game's action space, made once per game."""
    space: ActionSpace | None = game.__dict__.get("_action_space")
    if space is None:
        try:
            space = game._action_space = ActionSpace(game.runtime)
        except RulelangError as err:
            err.sources = game.runtime.program.loaded.sources
            raise
    return space


class NumberedActions:
    """The fixed action space seen from a state (engine.State and a generated State both
    take these methods): the legal ids, and the conversions between an id and the index of
    the menu that `legal_actions()` lists."""

    __slots__ = ()

    def _space(self) -> ActionSpace:
        return space_of(self.game)  # type: ignore[attr-defined]

    def _numbered(self) -> list[int]:
        """The id of each option of the open decision, in the menu's order."""
        d: Decision | None = self._decision  # type: ignore[attr-defined]
        if d is None:
            return []
        space = self._space()
        ids = [space.encode(d, o) for o in d.options]
        if len(set(ids)) != len(ids):
            raise RulelangError("two options of this decision have the same action id: "
                                f"{', '.join(d.labels())}")
        return ids

    def legal_action_ids(self) -> list[int]:
        """The legal actions as ids of the game's fixed action space, sorted."""
        return sorted(self._numbered())

    def legal_actions_mask(self) -> list[int]:
        """1 at each legal id, 0 elsewhere (num_distinct_actions() entries)."""
        mask = [0] * self._space().size
        for i in self._numbered():
            mask[i] = 1
        return mask

    def action_id(self, action: int) -> int:
        """The id of legal action `action` (an index of legal_actions())."""
        ids = self._numbered()
        if type(action) is not int or not 0 <= action < len(ids):
            raise IllegalActionError(f"{action} is not a legal action now")
        return ids[action]

    def action_from_id(self, action_id: int) -> int:
        """The legal action (an index of legal_actions()) whose id is `action_id`;
        IllegalActionError says why when none is."""
        ids = self._numbered()
        if action_id in ids:
            return ids.index(action_id)
        space = self._space()
        if type(action_id) is not int or not 0 <= action_id < space.size:
            raise IllegalActionError(f"{action_id} is not an action id "
                                     f"(0..{space.size - 1})")
        raise IllegalActionError(f"action {action_id} ('{space.describe(action_id)}') is "
                                 "not legal now")
