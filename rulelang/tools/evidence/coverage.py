"""Rule coverage for `rulelang evaluate`: which parts of a rulebook the games never used.

The games' records are replayed by the reference evaluator with coverage on
(reference/statements.py records each action body and each `if` branch that runs for real,
not while a menu tries it on scratch data). Reported, each at its rulebook file:line:col:
actions never taken, effects of the rulebook's own file that no rule calls, `if`/`elif`/`else`
branches never entered (in `end`: end rules that never fired; each clause of an effect
written as clauses is a branch; only in effects some rule calls, so that a library's effect
the rulebook does not use is not reported), and score terms that never scored (zero for
every player at the end of every game, from all the records).
Replaying is slower than playing compiled, so at most `limit` games are replayed (the first
ones, by game index); the report says how many.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import rulelang
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.language.clauses import is_no_clause

DEFAULT_LIMIT = 100


def _where(span: Any) -> str:
    return f"{span.path}:{span.line}:{span.column}"


def _text(game: Any, node: ast.Node) -> str:
    """The node's source line, without its comment."""
    span = node.span
    src = game.runtime.program.loaded.sources.get(span.path)
    return without_comment(src.line(span.line)).strip() if src is not None else ""


def without_comment(line: str) -> str:
    """A source line up to its `#` comment (a `#` inside a text, `"..."` with no escapes
    as the grammar has them, is no comment)."""
    inside = False
    for i, ch in enumerate(line):
        if ch == '"':
            inside = not inside
        elif ch == "#" and not inside:
            return line[:i]
    return line


def used_effects(program: Any) -> set[str]:
    """The effects the rules can call: from the actions, the sections and the round, and
    from the effects these call (a library's effect no rule calls is not the rulebook's)."""
    todo: list[ast.Node] = [a.body for a in program.actions.values()]
    todo += program.sections.values()
    if program.round is not None:
        todo.append(program.round.body)
    used: set[str] = set()
    while todo:
        for n in walk(todo.pop()):
            ref = program.refs.get(n)
            if ref is not None and ref[0] == "effect" and ref[1] not in used:
                used.add(ref[1])
                todo.append(program.effects[ref[1]].body)
    return used


def _branches(program: Any, called: set[str]) -> Iterator[tuple[str, ast.Block, ast.Node]]:
    """(what, block, the node to show) for every `if` branch of the rules that run: actions,
    the effects they can call (`called`) and the setup/turn/round/end sections."""
    blocks: list[tuple[str, ast.Node]] = [
        *(("action", a.body) for a in program.actions.values()),
        *(("effect", f.body) for key, f in program.effects.items() if key in called),
        *((name, block) for name, block in program.sections.items()),
    ]
    if program.round is not None:
        blocks.append(("round", program.round.body))
    seen: set[int] = set()
    for where, root in blocks:
        for n in walk(root):
            if isinstance(n, ast.If) and id(n) not in seen:
                seen.add(id(n))
                kind = "end rule" if where == "end" else "branch"
                for cond, body in n.branches:
                    yield kind, body, cond
                if n.orelse is not None and not is_no_clause(n.orelse):
                    yield kind + " (else)", n.orelse, n.orelse


def rule_coverage(game: Any, path: str, options: dict[str, Any] | None,
                  records: list[dict[str, Any]], limit: int = DEFAULT_LIMIT) -> dict[str, Any]:
    """What the first `limit` records never used, as lists of {what, where, text}."""
    ref = rulelang.load_game(path, options, mode="interpreted")
    statements = ref.flow.statements  # type: ignore[attr-defined]  # the reference flow's
    program = ref.runtime.program
    covered: set[int] = set()
    scored = {t for rec in records for terms in rec["terms"] for t, v in terms.items() if v}
    replayed = records[:limit]
    statements.covered = covered
    try:
        for rec in replayed:
            state = ref.new_initial_state(seed=rec["seed"])
            for action in rec["actions"]:
                state.apply_action(action)
    finally:
        statements.covered = None
    unused: list[dict[str, str]] = []
    for name, action in program.actions.items():
        if id(action.body) not in covered:
            unused.append({"what": "action", "name": name, "where": _where(action.span),
                           "text": _text(game, action)})
    called = used_effects(program)
    for key, effect in program.effects.items():  # the rulebook's own (a module's: "m.name")
        if "." not in key and key not in called:
            unused.append({"what": "effect", "name": key, "where": _where(effect.span),
                           "text": _text(game, effect)})
    for kind, body, shown in _branches(program, called):
        if id(body) not in covered:
            unused.append({"what": kind, "name": "", "where": _where(shown.span),
                           "text": _text(game, shown)})
    for term in program.scores:
        if term.name not in scored:
            unused.append({"what": "score term", "name": term.name, "where": _where(term.span),
                           "text": _text(game, term)})
    home = program.loaded.game.source.path  # the rulebook's own lines first, in line order
    unused.sort(key=lambda u: _position(u["where"], home))
    return {"games": len(replayed), "of": len(records), "unused": unused}


def _position(where: str, home: str) -> tuple[bool, str, int, int]:
    path, line, column = where.rsplit(":", 2)
    return path != home, path, int(line), int(column)


def coverage_lines(cov: dict[str, Any]) -> list[str]:
    """The terminal summary's section."""
    head = f"rule coverage ({cov['games']} of {cov['of']} games replayed):"
    if not cov["unused"]:
        return [head + " every action, branch, end rule and score term was used"]
    out = [head + f" {len(cov['unused'])} never used"]
    for u in cov["unused"]:
        label = f"{u['what']} {u['name']}".strip()
        out.append(f"  {u['where']}: {label} never " + (
            verb(u["what"]))
            + (f"  ({u['text'][:60]})" if u["text"] else ""))
    return out


def verb(what: str) -> str:
    """What an unused part of that kind never did."""
    return {"score term": "scored", "action": "taken", "effect": "called"}.get(
        what, "fired" if "end" in what else "entered")
