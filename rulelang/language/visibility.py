"""Who may know a score term's value before the end: what the term reads (its zones, vars
and counters by name, through the rules it calls, and whether each is read `of` the scored
player), judged against what each zone and var shows to whom.

A term's value for player P is open to viewer V when everything it reads is shown to V: the
board, the pieces' attributes and owners, the turn and the static game are shown to all; a
zone by its `visible to` (everyone; its owner: only when read as `zone of P` and V is P;
nobody); a var unless it is `secret` (then only `var of P`, to P); counters to all; the last
action too, unless some choice is secret. A read the
analysis cannot attribute to a name (a builtin that reads every zone, or the history, or
chance; a rule given as a function to a parameter) counts as secret, and so does a var read
by a term that reads pieces' attributes, since a var may hold a piece that lies hidden. The
judgement is static: it follows from the rulebook alone, never from the position, so that
whether a value is shown tells nothing either.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulelang.language import ast
from rulelang.language.analysis import Analysis, category_reads
from rulelang.language.astwalk import walk
from rulelang.language.program import Category, Program
from rulelang.library.registry import Reads, facts_of

_NAMED = (Category.ZONE, Category.VAR, Category.COUNTER)
_SHOWN = Reads.GAME | Reads.BOARD | Reads.GIVEN_SITES | Reads.PIECES | Reads.MOVER | Reads.TURN


@dataclass(frozen=True)
class Named:
    """A zone, var or counter read by name; `own`: read as `name of P`, P the scored player."""
    category: str
    name: str
    own: bool


@dataclass(frozen=True)
class TermReads:
    named: frozenset[Named]
    other: Reads  # what is read but not by name


class Visibility:
    """What the score terms of one checked program read, and who may see their values."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.analysis = Analysis(program)
        self._defs: dict[tuple[str, frozenset[int]], TermReads] = {}
        self._busy: set[tuple[str, frozenset[int]]] = set()
        self._cuts = 0  # how often a rule was met again while being read
        self._secret: bool | None = None  # does any `choose … secret` exist
        self._open: dict[ast.Expr, bool] = {}  # open_to_all, per expression

    def term(self, score: ast.Score) -> TermReads:
        return self._reads(score.expr, frozenset({score.param}))

    def open_to(self, score: ast.Score, own: bool) -> bool:
        """May a viewer know the term's value for a player: their own (own) or another's."""
        reads = self.term(score)
        shown = _SHOWN if not self._secret_choices() else _SHOWN & ~Reads.TURN
        if reads.other & ~shown:  # the last action may be another's secret choice
            return False
        if reads.other & Reads.PIECES and any(n.category == Category.VAR for n in reads.named):
            return False
        return all(self._shown(n, own) for n in reads.named)

    def open_to_all(self, expr: ast.Expr) -> bool:
        """May every player know the value of this expression (what a refusal in plain
        words reads: language/refusals.py)? Only the board, the pieces, counters, the zones
        shown to everyone and the vars that are not secret."""
        found = self._open.get(expr)
        if found is None:
            reads = self._reads(expr, frozenset())
            shown = _SHOWN if not self._secret_choices() else _SHOWN & ~Reads.TURN
            found = not reads.other & ~shown and not (
                reads.other & Reads.PIECES and any(n.category == Category.VAR
                                                   for n in reads.named)) and \
                all(self._shown(n, False) for n in reads.named)
            self._open[expr] = found
        return found

    def _secret_choices(self) -> bool:
        if self._secret is None:
            loaded = self.program.loaded
            self._secret = any(isinstance(n, ast.Choose) and n.mode == "secret"
                               for m in [loaded.game, *loaded.modules.values()]
                               for n in walk(m.decls))
        return self._secret

    def _shown(self, n: Named, own: bool) -> bool:
        program = self.program
        if n.category == Category.ZONE:
            zone = program.zones[n.name]
            return zone.visible == "everyone" or \
                zone.visible == "owner" and zone.each and n.own and own
        if n.category == Category.VAR:
            var = program.vars[n.name]
            return not var.secret or var.each and n.own and own
        return True  # counters are shown to all

    # ---- what an expression or a rule's body reads
    def _reads(self, node: ast.Node, bound: frozenset[str]) -> TermReads:
        refs = self.program.refs
        for n in walk(node):  # a name given a new value is no longer the scored player's
            if isinstance(n, (ast.Quant, ast.Generator, ast.ForEach, ast.Choose)):
                bound -= {n.var}
            elif isinstance(n, ast.Let):
                bound -= {name for name, _ in n.bindings}
            elif isinstance(n, ast.Put) and n.name is not None:
                bound -= {n.name}
        named: set[Named] = set()
        other = Reads.NOTHING
        done: set[int] = set()  # nodes read as part of their parent (`x of p`, a call's rule)

        def player(e: ast.Node) -> bool:
            ref = refs.get(e)
            return isinstance(e, ast.Name) and ref is not None and \
                ref[0] == Category.LOCAL and e.id in bound

        for n in walk(node):
            if id(n) in done:
                continue
            if isinstance(n, ast.Stmt) and not isinstance(n, (ast.Let, ast.If, ast.ForEach,
                                                              ast.Repeat, ast.While,
                                                              ast.Return, ast.Require)):
                other |= Reads.EVERYTHING  # a statement that changes the game
                continue
            if isinstance(n, ast.Of):
                ref = refs.get(n.left)
                if ref is not None and ref[0] in _NAMED:
                    named.add(Named(ref[0], ref[1], player(n.right)))
                    done.add(id(n.left))
                continue
            if isinstance(n, ast.Call):
                ref = refs.get(n.func)
                if ref is not None and ref[0] == Category.DEF:
                    given = frozenset(i for i, a in enumerate(n.args) if player(a))
                    found = self._rule(ref[1], given)
                    named |= found.named
                    other |= found.other
                    done.add(id(n.func))
                    continue
                read = self.analysis._call(n)  # a function given that is not a rule's name
                if read is not None:
                    other |= read.reads
                continue
            ref = refs.get(n)
            if ref is None:
                continue
            cat, key = ref
            if cat in _NAMED:
                named.add(Named(cat, key, False))
            elif cat in (Category.DEF, Category.FUNCTION):
                if key in self.program.defs:
                    found = self._rule(key, frozenset())
                    named |= found.named
                    other |= found.other
            elif cat == Category.BUILTIN:
                other |= facts_of(key).reads
            else:
                other |= category_reads(cat)
        return TermReads(frozenset(named), other)

    def _rule(self, key: str, given: frozenset[int]) -> TermReads:
        """What rule `key` reads, its parameters at the positions `given` being the scored
        player; a rule that calls itself again counts what it reads once."""
        found = self._defs.get((key, given))
        if found is not None:
            return found
        if (key, given) in self._busy:
            self._cuts += 1
            return TermReads(frozenset(), Reads.NOTHING)  # its reads are counted where it began
        self._busy.add((key, given))
        cuts = self._cuts
        d = self.program.defs[key]
        params = d.params or ()
        found = self._reads(d.body, frozenset(params[i] for i in given if i < len(params)))
        self._busy.discard((key, given))
        if cuts == self._cuts or not self._busy:  # complete: not cut short by a cycle
            self._defs[(key, given)] = found
        return found
