"""What rules and expressions read, derived once from the facts each builtin declares in the
registry (library.registry.Facts) and from the categories of the names they use
(program.Category), through the rules they call and the rules they pass as functions.

Every consumer asks here instead of keeping its own list of builtins: the checker's R211 (what
a rule given to `memo` or `cached` may read) and the pictures remembered per piece
(game.engine).
"""
from __future__ import annotations

from dataclasses import dataclass

from rulelang.language import ast
from rulelang.language.astwalk import nodes, walk
from rulelang.language.program import Category, Program, Ref
from rulelang.library.registry import Facts, Reads, facts_of
from rulelang.source import Span

# What the values kept by `memo` follow: the static game, and the attributes and owners of
# pieces (the compiled mode remembers nothing once a rule sets one). A site given to the
# rule stands for itself, not for its pieces: attr_at and pieces_at, made for grids of
# pieces, read the pieces on a site when given one, which the checker cannot tell from a
# piece (GIVEN_SITES); `cached` is for the pieces on sites.
KEPT_BY_MEMO = Reads.GAME | Reads.PIECES | Reads.GIVEN_SITES
KEPT_BY_CACHED = KEPT_BY_MEMO | Reads.BOARD  # … and the pieces on sites: it watches them
# Statements a rule's block may hold that neither change the game nor decide
_PLAIN_STATEMENTS = (ast.Let, ast.If, ast.ForEach, ast.Repeat, ast.While, ast.Return,
                     ast.Require)


@dataclass(frozen=True)
class Read:
    """One thing a rule reads beyond its arguments: what (for a message), where, and which."""
    what: str
    span: Span
    reads: Reads


def builtin_facts(name: str) -> Facts:
    return facts_of(name)


def category_reads(cat: str) -> Reads:
    """What naming something of this category reads (everything when unknown)."""
    try:
        reads = Category(cat).reads
    except ValueError:
        return Reads.EVERYTHING
    return Reads.EVERYTHING if reads is None else reads


def fixed(cat: str) -> bool:
    """A name of this category has the same value throughout a game (a relation, a player …)."""
    return category_reads(cat) == Reads.GAME


def needs_only_arguments(f: Facts) -> bool:
    """The builtin's value follows from its arguments and the static game alone."""
    return f.reads & ~Reads.GAME == Reads.NOTHING and not f.calls and not f.decides


def reads_board_at_its_site(f: Facts) -> bool:
    """Reads the board only at the site given as its first argument (occupied(s), owner(s)),
    besides that site's pieces' attributes and owners and the static game."""
    return f.at_site and not f.calls and not f.decides and \
        f.reads & ~(Reads.BOARD | Reads.PIECES | Reads.GAME) == Reads.NOTHING


class Analysis:
    """The reads of the rules and expressions of one checked program (refs: the checker's
    resolution, Program.refs once checked)."""

    def __init__(self, program: Program, refs: dict[ast.Node, Ref] | None = None) -> None:
        self.program = program
        self.refs = program.refs if refs is None else refs
        self._direct: dict[str, tuple[list[Read], list[str]]] = {}
        self._rules: dict[str, Reads] = {}
        self._first: dict[tuple[str, Reads], Read | None] = {}

    # ---- one node
    def node(self, node: ast.Node) -> tuple[Read | None, str | None]:
        """(what this node reads itself, the rule it calls or passes), either may be None."""
        if isinstance(node, ast.Stmt) and not isinstance(node, _PLAIN_STATEMENTS):
            return Read(f"a '{type(node).__name__.lower()}' statement", node.span,
                        Reads.EVERYTHING), None
        if isinstance(node, ast.Call):
            return self._call(node), None
        ref = self.refs.get(node)
        if ref is None:
            return None, None
        cat, name = ref
        if cat in (Category.DEF, Category.FUNCTION):
            return None, name if name in self.program.defs else None
        if cat == Category.BUILTIN:
            reads = facts_of(name).reads
            what = f"'{name}'"
        else:
            reads = category_reads(cat)
            what = f"the {cat} '{name}'"
        return (Read(what, node.span, reads) if reads != Reads.NOTHING else None), None

    def _call(self, node: ast.Call) -> Read | None:
        """A builtin that calls a function given as something other than a rule's name (a
        parameter): what that function reads is not known here."""
        ref = self.refs.get(node.func)
        if ref is None or ref[0] != Category.BUILTIN:
            return None
        for at in facts_of(ref[1]).calls:
            if at < len(node.args):
                f = node.args[at]
                fref = self.refs.get(f)
                if fref is None or fref[0] != Category.FUNCTION:
                    return Read(f"the function '{_written(f)}' given to '{ref[1]}'", f.span,
                                Reads.EVERYTHING)
        return None

    def _rule(self, key: str) -> tuple[list[Read], list[str]]:
        """What rule `key` reads itself and the rules it uses, in source order."""
        found = self._direct.get(key)
        if found is None:
            reads: list[Read] = []
            calls: list[str] = []
            for n in nodes(self.program.defs[key], ast.Node):
                read, rule = self.node(n)
                if read is not None:
                    reads.append(read)
                if rule is not None:
                    calls.append(rule)
            found = self._direct[key] = (reads, calls)
        return found

    # ---- rules and expressions
    def rule_reads(self, key: str) -> Reads:
        """Everything rule `key` reads beyond its arguments, through the rules it calls."""
        if key not in self._rules:
            total, seen, todo = Reads.NOTHING, {key}, [key]
            while todo:
                reads, calls = self._rule(todo.pop())
                for r in reads:
                    total |= r.reads
                for k in calls:
                    if k not in seen:
                        seen.add(k)
                        todo.append(k)
            self._rules[key] = total
        return self._rules[key]

    def expr_reads(self, expr: ast.Node) -> Reads:
        """Everything an expression (or a statement) reads beyond its local names."""
        total = Reads.NOTHING
        for n in walk(expr):
            read, rule = self.node(n)
            if read is not None:
                total |= read.reads
            if rule is not None:
                total |= self.rule_reads(rule)
        return total

    def pure(self, key: str) -> bool:
        """Rule `key`'s value depends on its arguments only."""
        return self.rule_reads(key) == Reads.NOTHING

    def first_read(self, key: str, allowed: Reads) -> Read | None:
        """The first thing rule `key` (or a rule it uses, depth first in source order) reads
        beyond its arguments that is not among `allowed`; None if there is none."""
        if (key, allowed) not in self._first:
            self._first[(key, allowed)] = self._search(key, allowed)
        return self._first[(key, allowed)]

    def _search(self, key: str, allowed: Reads) -> Read | None:
        """first_read's depth-first search, with a stack of its own (a chain of rules is
        as long as the rulebook writes it)."""
        seen = {key}
        stack = [iter(nodes(self.program.defs[key], ast.Node))]
        while stack:
            n = next(stack[-1], None)
            if n is None:
                stack.pop()
                continue
            read, rule = self.node(n)
            if read is not None and read.reads & ~allowed:
                return read
            if rule is not None and rule not in seen:
                seen.add(rule)
                stack.append(iter(nodes(self.program.defs[rule], ast.Node)))
        return None

    def reads_only_its_piece(self, expr: ast.Expr, param: str) -> bool:
        """The expression reads nothing but the piece named `param` (its attributes and
        owner) and the static game: its values may be remembered per piece's attributes and
        owner for a game."""
        piece_at: set[ast.Node] = set()  # builtins reading "the site" given the piece: owner(p)
        for n in walk(expr):
            if isinstance(n, (ast.Quant, ast.Generator, ast.ForEach)) and n.var == param or \
                    isinstance(n, ast.Let) and any(name == param for name, _ in n.bindings):
                return False  # another value under the piece's name
            if isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name) and \
                    n.args[0].id == param and \
                    self.refs.get(n.args[0], ("local", param)) == ("local", param):
                piece_at.add(n.func)
        allowed = Reads.GAME | Reads.PIECES
        for n in walk(expr):
            read, rule = self.node(n)
            if rule is not None and self.rule_reads(rule) & ~allowed:
                return False
            if read is None or not read.reads & ~allowed:
                continue
            ref = self.refs.get(n)
            if n in piece_at and ref is not None and ref[0] == Category.BUILTIN and \
                    reads_board_at_its_site(facts_of(ref[1])):
                continue  # on a piece, not a site: only the piece's owner or attributes
            return False
        return True


def _written(e: ast.Expr) -> str:
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attr):
        return f"{_written(e.obj)}.{e.name}"
    return "…"
