"""Rule tracebacks: the chain of rule calls that led to a runtime error, from the designer's
rulebook through the `use`d modules to the error's own position.

Named once, where the engine attaches the sources to an error (`note_calls`), from the
Python traceback the error went through and nothing else, so the evaluators keep no call
stack of their own:
* the interpreter evaluates each node in a frame that holds it (a local `n`, `node`, `s` or
  `span`): the frames' nodes, outermost first, pass from the caller's rule to the callee's
  where a rule is called;
* generated code (gen/) has no node in its frames: a rule's body written in place of its
  call holds its positions as CalledSpans that name the calls it was written for, and a
  frame of a generated function is placed by the origins table of its module (the rule it
  was written from, and where that rule is called when only one place calls it).

Consecutive positions in the same rule are one entry (the innermost); the chain starts at
the caller of the first `def` or `effect` entered, so an error in the designer's own action
has no chain. Frames hold positions and rule names only, never a value: nothing hidden
from a player can appear in one."""
from __future__ import annotations

from types import TracebackType
from typing import Any

from rulelang.errors import RulelangError, RuleRuntimeError
from rulelang.language import ast
from rulelang.source import Span

# the key, in the globals of a generated game module (gen/), of its origins:
# function name -> (the span of the rule it was written from, the spans that call it)
ORIGINS = "__rulelang_origins__"
_NODE_LOCALS = ("n", "node", "s", "span")
def note_calls(err: RulelangError, loaded: Any) -> None:
    """Attach the rulebook's sources to an error and, to a runtime error, its rule calls
    (once: an error re-raised through another guard keeps the chain it was given)."""
    err.sources = loaded.sources
    if isinstance(err, RuleRuntimeError) and err.calls is None:
        err.calls = rule_calls(err, loaded)
        if err.calls:
            err.add_note("rule calls (innermost last): "
                         + " > ".join(f"{span} in {name}" for span, name in err.calls))


def rule_calls(err: RuleRuntimeError, loaded: Any) -> tuple[tuple[Span, str], ...]:
    at = err.diagnostic.span
    if at is None:
        return ()
    spans = _frame_spans(err.__traceback__)
    if not spans or spans[-1] != at:  # (a helper's frame holds the error's own position)
        spans.extend(_with_calls(at))
    rules = _Rules(loaded)
    runs: list[tuple[ast.Decl, Span]] = []
    for span in spans:
        decl = rules.enclosing(span)
        if decl is None:
            continue
        if runs and runs[-1][0] is decl:
            runs[-1] = (decl, span)
        else:
            runs.append((decl, span))
    if len(runs) < 2 or runs[-1][0] is not rules.enclosing(at):
        return ()
    runs[-1] = (runs[-1][0], at)
    first = next((i for i, (d, _) in enumerate(runs) if isinstance(d, (ast.Def, ast.Effect))),
                 None)
    if first is None:
        return ()
    return tuple((_plain(span), rules.name(decl)) for decl, span in runs[max(0, first - 1):])


def _plain(span: Span) -> Span:
    plain = getattr(span, "plain", None)
    return plain() if plain is not None else span


def _frame_spans(tb: TracebackType | None) -> list[Span]:
    out: list[Span] = []
    caller_origin: Span | None = None
    while tb is not None:
        frame = tb.tb_frame
        origins = frame.f_globals.get(ORIGINS)
        if origins is not None:  # a function of a generated game module
            origin, callers = origins.get(frame.f_code.co_name, (None, ()))
            if caller_origin is not None and len(set(callers)) == 1:
                out.extend(_with_calls(callers[0]))
            if origin is not None:
                out.append(origin)
                caller_origin = origin
        else:
            found = _frame_node_span(frame.f_locals)
            if found is not None:
                out.extend(_with_calls(found))
        tb = tb.tb_next
    return out


def _with_calls(span: Span) -> tuple[Span, ...]:
    """A span of generated code, after the calls it was written for."""
    return (*getattr(span, "calls", ()), span)


def _frame_node_span(local: dict[str, Any]) -> Span | None:
    for name in _NODE_LOCALS:
        value = local.get(name)
        span = value if isinstance(value, Span) else getattr(value, "span", None)
        if isinstance(span, Span) and not isinstance(value, ast.Rulebook):
            return span
    return None


class _Rules:
    """The top-level declarations of every file of a loaded rulebook, by path."""

    def __init__(self, loaded: Any) -> None:
        self.module: dict[int, str] = {}
        self.by_path: dict[str, list[ast.Decl]] = {}
        for module in [loaded.game, *loaded.modules.values()]:
            decls = self.by_path.setdefault(module.source.path, [])
            for d in module.decls:
                decls.append(d)
                self.module[id(d)] = module.name

    def enclosing(self, span: Span) -> ast.Decl | None:
        for d in self.by_path.get(span.path, ()):
            s = d.span
            if (s.line, s.column) <= (span.line, span.column) \
                    and (span.end_line, span.end_column) <= (s.end_line, s.end_column):
                return d
        return None

    def name(self, d: ast.Decl) -> str:
        module = self.module.get(id(d), "")
        if isinstance(d, ast.Def):
            return f"{module}.{d.name}" if module else d.name
        if isinstance(d, ast.Section):
            return d.kind
        own = getattr(d, "name", None)
        kind = type(d).__name__.lower()
        if own is None:
            return kind
        return f"{kind} {module}.{own}" if module else f"{kind} {own}"
