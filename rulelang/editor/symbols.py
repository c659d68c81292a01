"""Where each name of a checked program is declared and where it is used: the checker's
resolution (Program.refs) turned into positions, for hover, go to definition, find
references and rename. A name's identity is its declaration's place (file, line, column),
so that the same rule seen from two programs (a module checked alone, and a game that uses
it) is one name."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from rulelang.editor import attributes, scenario_names
from rulelang.editor.typed import Typed
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.language.program import Category, Program, Ref
from rulelang.source import Source, Span

# categories whose names a rulebook declares (and may rename); the others are builtins
_LOCAL_BINDERS = re.compile(
    r"\b(?:let|each|choose(?:\s+[A-Za-z_]\w*)?|all|any|count|first|max|min|sum|best|sorted|for"
    r")\s+([A-Za-z_]\w*)\s+(?:in\b|=)|\bas\s+([A-Za-z_]\w*)|,\s*([A-Za-z_]\w*)\s*=(?!=)")
@lru_cache(maxsize=4096)
def resolved(path: str) -> Path:
    """A file's place as a resolved path (the spans' paths are few, their uses many)."""
    return Path(path).resolve()


_RULE_HEAD = re.compile(r"(?:def|effect)\s+([A-Za-z_]\w*)")


@dataclass(frozen=True)
class Target:
    """What a name stands for: its category, its name and where it is declared (None for a
    builtin)."""
    category: str
    name: str
    at: Span | None
    node: ast.Node | None = field(default=None, compare=False)

    @property
    def key(self) -> tuple[str, str, str, int, int]:
        at = self.at
        if at is None:
            return (self.category, self.name, "", 0, 0)
        return (self.category, self.name, str(resolved(at.path)), at.line, at.column)


@dataclass(frozen=True)
class Use:
    span: Span  # the name as written (the last part of `module.name`)
    target: Target
    sure: bool = True  # False: `x.points` where x may be a piece or a record (not known)


class Index:
    """Every declaration and every use of a name in one checked program."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.sources = program.loaded.sources
        self.uses: list[Use] = []
        self._targets: dict[tuple[str, str], Target] = {}
        self._typed: Typed | None = None
        self._clauses: dict[str, dict[str, list[Span]]] = {}  # a file's rules' lines
        self._scenarios: dict[Path, str] = {}  # scenario files read for their names: texts
        self._unread: set[str] = set()  # attributes whose reads are still to be found
        self._collect()

    def typed(self) -> Typed:
        """The type checker's types of the program's expressions (made on the first ask)."""
        if self._typed is None:
            self._typed = Typed(self.program)
        return self._typed

    # ---- lookups
    def at(self, path: Path, line: int, column: int) -> Use | None:
        """The use (or declaration) of a name at a place (1-based line and column)."""
        self._reads()
        best: Use | None = None
        for use in self.uses:
            s = use.span
            if s.line == line and s.column <= column <= s.end_column \
                    and resolved(s.path) == path:
                if best is None or s.end_column - s.column < best.span.end_column \
                        - best.span.column:
                    best = use
        return best

    def uses_of(self, target: Target) -> list[Use]:
        self._reads()
        return [u for u in self.uses if u.target.key == target.key]

    def scenario(self, path: Path, text: str) -> None:
        """The uses of the program's names in a scenario file that tests it (again when its
        text changed)."""
        if self._scenarios.get(path) == text:
            return
        if path in self._scenarios:
            self.uses = [u for u in self.uses if resolved(u.span.path) != path]
        self._scenarios[path] = text
        game = str(Path(self.program.loaded.game.source.path).resolve())
        by_name: dict[tuple[str, str], Target] = {}
        for t in self._targets.values():
            if t.at is not None and (str(resolved(t.at.path)) == game
                                     or t.category == "attribute"):
                by_name.setdefault((t.category, t.name), t)
        for kinds, name, span in scenario_names.names(Source(str(path), text)):
            found = [by_name[(k, name)] for k in kinds if (k, name) in by_name]
            self._use(span, found[0] if found else None)

    def target(self, ref: Ref) -> Target | None:
        return self._targets.get((str(ref.category), ref.key))

    # ---- building
    def _collect(self) -> None:
        loaded = self.program.loaded
        for module in [loaded.game, *loaded.modules.values()]:
            for decl in module.decls:
                self._declaration(decl, module.name)
        for name, module in loaded.modules.items():
            span = Span(module.source.path, 1, 1, 1, 1)
            self._targets[(Category.MODULE, name)] = Target("module", name, span)
        for module in [loaded.game, *loaded.modules.values()]:
            for decl in module.decls:
                self._uses(decl)
        self._attributes()
        self._view()

    def _attributes(self) -> None:
        """Piece attributes: declared by piece kinds (the first declaration is the name's),
        read as `x.name`, given by the data files' columns."""
        pieces = attributes.declared(self.program)
        for name, kinds in pieces.items():
            for piece in kinds:
                at = attributes.in_piece(self.sources.get(piece.span.path), piece, name)
                target = self._targets.get(("attribute", name))
                if at is not None and target is None:
                    self._declare("attribute", name, name, piece, at)
                elif at is not None:
                    self._use(at, target)
        self._unread = set(pieces)

    def _reads(self) -> None:
        """The attributes' reads and data columns, found when first asked for (they need the
        program typed: completion, which asks for none, does not wait for it)."""
        pieces, self._unread = self._unread, set()
        if not pieces:
            return
        for name, span, sure in attributes.reads(self.program, self.typed(), pieces):
            target = self._targets.get(("attribute", name))
            if target is not None:
                self.uses.append(Use(span, target, sure))
        for name, span in attributes.columns(self.program):
            self._use(span, self._targets.get(("attribute", name)))

    def _view(self) -> None:
        """The names a `view` hides or shows: vars, counters, zones, attributes."""
        for decl in self.program.loaded.game.decls:
            if not isinstance(decl, ast.View):
                continue
            for name, span in [*decl.hidden, *((n, s) for n, _, s in decl.labels)]:
                self._use(span, next((t for c in ("var", "counter", "zone", "zones",
                                                  "attribute")
                                      if (t := self._targets.get((c, name))) is not None),
                                     None))

    def _declare(self, category: str, key: str, name: str, decl: ast.Node, at: Span) -> None:
        target = Target(category, name, at, decl)
        self._targets[(category, key)] = target
        self.uses.append(Use(at, target))

    def _declaration(self, decl: ast.Decl, module: str) -> None:
        qual = f"{module}.{{}}" if module else "{}"
        named = {ast.Def: "def", ast.Effect: "effect", ast.Geometry: "geometry",
                 ast.Enum: "enum", ast.Table: "table"}
        own = getattr(decl, "name", None)
        for cls, cat in named.items():
            if isinstance(decl, cls) and isinstance(own, str):
                self._name(cat, qual.format(own), own, decl)
                if cat == "def":
                    self._targets[(Category.FUNCTION, qual.format(own))] = \
                        self._targets[("def", qual.format(own))]
        if isinstance(decl, ast.Enum):
            spans = decl.spans or (decl.span,) * len(decl.symbols)
            for symbol, span in zip(decl.symbols, spans, strict=True):
                at = self._find(span, symbol) or span
                self._declare("symbol", qual.format(symbol), symbol, decl, at)
        if isinstance(decl, ast.Geometry):
            for item in decl.items:
                item_name = getattr(item, "name", None)
                kind = {ast.GeoRelation: "relation", ast.GeoAlias: "relation",
                        ast.GeoRegion: "region", ast.GeoLines: "lines"}.get(type(item))
                if kind is not None and isinstance(item_name, str):
                    self._name(kind, item_name, item_name, item)
        if module:
            return
        game = {ast.Action: "action", ast.Piece: "kind", ast.Counter: "counter",
                ast.Var: "var", ast.Option: "option"}
        for game_cls, cat in game.items():
            if isinstance(decl, game_cls) and isinstance(own, str):
                self._name(cat, own, own, decl)
        if isinstance(decl, ast.Zone):
            self._name("zones" if decl.indices else "zone", decl.name, decl.name, decl)
        if isinstance(decl, ast.Players):
            for i, player in enumerate(decl.names):
                place = self._find(decl.span, player)
                if place is not None:
                    self._declare("player", str(i), player, decl, place)

    def _name(self, category: str, key: str, name: str, decl: ast.Node) -> None:
        at = self._find(decl.span, name, skip_first=True)
        if at is not None:
            self._declare(category, key, name, decl, at)

    def _find(self, span: Span, name: str, skip_first: bool = False) -> Span | None:
        """The place of `name` as a word in a node's text (after its keyword)."""
        source = self.sources.get(span.path)
        if source is None:
            return None
        word = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)")
        for line in range(span.line, span.end_line + 1):
            text = source.line(line)
            start = span.column - 1 if line == span.line else 0
            if skip_first and line == span.line:
                start = text.find(" ", start) + 1 or start
            m = word.search(_blank_strings(text), start)
            if m is not None:
                return Span(span.path, line, m.start() + 1, line, m.end() + 1)
        return None

    def _uses(self, decl: ast.Decl) -> None:
        refs = self.program.refs
        locals_seen: set[str] = set()
        in_texts: dict[str, list[Span]] = {}  # a local's `{name}` in a text for the players
        for node, text in _nodes(decl):
            if isinstance(node, ast.Do):
                for name, span in zip(node.actions, node.spans, strict=True):
                    self._use(span, self.target(Ref(Category.ACTION, name)))
            elif isinstance(node, ast.Then):
                then = self._find(node.span, node.action, skip_first=True)
                if then is not None:
                    self._use(then, self.target(Ref(Category.ACTION, node.action)))
            ref = refs.get(node)
            if ref is None or not isinstance(node, (ast.Name, ast.Attr)):
                continue
            span = node.span
            if isinstance(node, ast.Attr):
                span = Span(span.path, span.end_line, span.end_column - len(node.name),
                            span.end_line, span.end_column)
            if ref.category == Category.LOCAL:
                locals_seen.add(ref.key)
                if text and isinstance(node, ast.Name):
                    in_texts.setdefault(ref.key, []).append(span)
                continue
            if ref.category == Category.BUILTIN:
                self.uses.append(Use(span, Target("builtin", ref.key, None)))
                continue
            self._use(span, self.target(ref))
        if not locals_seen:
            return
        source = self.sources.get(decl.span.path)
        for region in self._regions(decl):
            words = _words(source, region, locals_seen)
            for name in sorted(locals_seen):
                self._locals(decl, region, name, words.get(name, []),
                             [t for t in in_texts.get(name, []) if _inside(t, region)])

    def _use(self, span: Span, target: Target | None) -> None:
        if target is not None:
            self.uses.append(Use(span, target))

    def _regions(self, decl: ast.Decl) -> list[Span]:
        """Where a declaration's locals are: its text; a rule written as clauses (merged into
        one declaration by the checker, spanning its first clause): each clause's lines."""
        if not isinstance(decl, (ast.Def, ast.Effect)):
            return [decl.span]
        path = decl.span.path
        if path not in self._clauses:
            self._clauses[path] = _rules_lines(self.sources.get(path), path)
        found = self._clauses[path].get(decl.name, [])
        return found if len(found) > 1 else [decl.span]

    def _locals(self, decl: ast.Decl, region: Span, name: str, spans: list[Span],
                in_texts: list[Span]) -> None:
        """A local's uses: its name as a word in the declaration's text (not after a dot, not
        in a text), and as a `{…}` of a text that names it; it is declared where it first
        appears; a rule's parameter with its written type (`def f(c: card)`) is declared
        in the rule's first line."""
        source = self.sources.get(decl.span.path)
        spans = list(spans)
        if isinstance(decl, (ast.Def, ast.Effect)) and name in (decl.params or ()) \
                and source is not None:
            head = source.line(region.line)
            m = re.search(rf"[(,]\s*({re.escape(name)})\s*:", _blank_strings(head))
            if m is not None and not any(s.line == region.line and s.column == m.start(1) + 1
                                         for s in spans):
                spans.insert(0, Span(region.path, region.line, m.start(1) + 1, region.line,
                                     m.end(1) + 1))
        if spans:
            target = Target("local", name, spans[0], decl)
            self.uses.extend(Use(s, target) for s in [*spans, *in_texts])


_TEXT_FIELDS: dict[type, tuple[str, ...]] = {}  # a node class's fields that hold a text


def _nodes(decl: ast.Decl) -> Iterator[tuple[ast.Node, bool]]:
    """Every node of a declaration, with whether it is inside a text for the players (the
    `{…}` of an `ask` or `else` text: resolved by the checker as the rules around it)."""
    for node in walk(decl):
        yield node, False
        cls = type(node)
        names = _TEXT_FIELDS.get(cls)
        if names is None:
            names = _TEXT_FIELDS[cls] = tuple(n for n, f in cls.__dataclass_fields__.items()
                                              if "Words" in str(f.type))
        for name in names:
            value = getattr(node, name)
            if isinstance(value, ast.Words):
                for part in value.parts:
                    if isinstance(part, ast.Expr):
                        yield from ((n, True) for n in walk(part))


def _rules_lines(source: Source | None, path: str) -> dict[str, list[Span]]:
    """Each rule of a file (`def`, `effect`): the lines of each of its declarations (a rule
    written as clauses has several), from its first line to the next declaration."""
    out: dict[str, list[Span]] = {}
    lines = source.text.splitlines() if source is not None else []
    for n, text in enumerate(lines, 1):
        m = _RULE_HEAD.match(text)
        if m is None:
            continue
        end = n
        while end < len(lines) and (not lines[end].strip() or lines[end][0].isspace()
                                    or lines[end].startswith("#")):
            end += 1
        out.setdefault(m.group(1), []).append(Span(path, n, 1, end, len(lines[end - 1]) + 1))
    return out


def _inside(s: Span, region: Span) -> bool:
    return (region.line, region.column) <= (s.line, s.column) and (
        s.end_line, s.end_column) <= (region.end_line, region.end_column)


def _blank_strings(text: str) -> str:
    """A line with its strings and comment blanked (their words are not names)."""
    out = re.sub(r'"[^"\n]*"', lambda m: " " * len(m.group()), text)
    cut = out.find("#")
    return out if cut < 0 else out[:cut] + " " * (len(out) - cut)


def _words(source: Source | None, span: Span, names: set[str]) -> dict[str, list[Span]]:
    """Where each of these names is a word of a span's text (not after a dot, not a field's
    name before `:`, not in a string or a comment)."""
    out: dict[str, list[Span]] = {}
    if source is None:
        return out
    either = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    word = re.compile(rf"(?<![\w.])(?:{either})(?!\w)(?!\s*:[^=])")
    for line in range(span.line, span.end_line + 1):
        text = _blank_strings(source.line(line))
        for m in word.finditer(text):
            out.setdefault(m.group(), []).append(
                Span(span.path, line, m.start() + 1, line, m.end() + 1))
    return out


def bound_names(text: str) -> set[str]:
    """The locals a declaration's text binds (for completion): let, choose, for each,
    quantifiers, comprehensions, `put … as t`, and a rule's parameters."""
    found = {n for m in _LOCAL_BINDERS.finditer(_blank_strings(text)) for n in m.groups() if n}
    header = re.match(r"\s*(?:def|effect|score|picture)\s+\w+\s*\(([^)]*)\)", text)
    if header:
        found.update(p.split(":")[0].strip() for p in header.group(1).split(",") if p.strip())
    return found


def outline(decls: tuple[ast.Decl, ...], path: str) -> list[tuple[str, str, Span]]:
    """A file's declarations as (what, name, span), for the editor's outline."""
    out: list[tuple[str, str, Span]] = []
    for d in decls:
        if d.span.path != path:
            continue
        name = getattr(d, "name", None)
        if isinstance(d, ast.Section):
            out.append(("section", d.kind, d.span))
        elif isinstance(d, ast.Round):
            out.append(("section", "round", d.span))
        elif isinstance(d, ast.Score):
            out.append(("score", d.name, d.span))
        elif isinstance(d, ast.Players):
            out.append(("players", "players", d.span))
        elif isinstance(d, ast.Use):
            out.append(("module", d.module, d.span))
        elif isinstance(d, ast.View):
            out.append(("view", "view", d.span))
        elif isinstance(d, ast.Board):
            out.append(("board", "board", d.span))
        elif isinstance(name, str):
            out.append((type(d).__name__.lower(), name, d.span))
    return out
