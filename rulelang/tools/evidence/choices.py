"""How often each value of each `choose` was taken, for `rulelang evaluate`.

A game's counts come from its own history once it is over (no work per move): for each
decision of a `do` menu, the taken option's values belong, in order, to the mover's chooses
of its action (and, after a `then`, of the action it goes on as); a decision of its own
names its `choose`. Draws `at random` are no decisions: the engine's chance draws are
watched while the game is played (library/effects.chance_watch), keeping only those made
with the game's own state (a search agent's copies draw too, and are not counted).

Values are written as action strings write them (a site's name, a piece's kind or name, a
number, a symbol; `nothing` for an `optionally choose` that took none), so the counts hold
nothing a game's record (its seed and its actions) does not. A choose is identified by its
rulebook position `file:line:col`.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.language.loader import STDLIB
from rulelang.library import effects
from rulelang.library.decision import NOTHING
from rulelang.model.values import Site, show

Counts = dict[str, dict[str, int]]  # "file:line:col" -> value -> times taken


def value_text(v: Any) -> str:
    """How a choose's value is written in the counts."""
    return "nothing" if v is NOTHING else show(v)


def action_slots(program: Any, name: str, memo: dict[Any, Any]) -> list[Any]:
    """The mover's chooses of an action, in the order of an option's values (None where a
    `then` puts the name of the action it goes on as)."""
    out: list[Any] | None = memo.get(name)
    if out is None:
        out = []
        for s in program.actions[name].body.stmts:
            if isinstance(s, ast.Choose) and s.mode == "mover":
                out.append(s)
            elif isinstance(s, ast.Then):
                out.append(None)
                out += action_slots(program, s.action, memo)
        memo[name] = out
    return out


class Watch:
    """The chance draws of one game: `with Watch(has_chance) as w:` around making its
    initial state and playing it; `w.keep(state)` once the state exists."""

    def __init__(self, active: bool) -> None:
        self.active = active
        self.draws: list[tuple[Any, Any, Any]] = []
        self._watch: list[Any] = [None, self.draws]

    def __enter__(self) -> Watch:
        if self.active:
            effects.chance_watch = self._watch
        return self

    def keep(self, state: Any) -> None:
        """From now on, only the draws made with this state's data (its setup's included)."""
        data = state.live_data
        self.draws[:] = [d for d in self.draws if d[0] is data]
        self._watch[0] = data

    def __exit__(self, *exc: Any) -> None:
        if self.active:
            effects.chance_watch = None


def written_counts(program: Any, pairs: dict[tuple[Any, Any], int], draws: list[Any],
                   memo: dict[Any, Any]) -> Counts:
    """The values each choose took in one game: how often its decisions took each (choose,
    value) pair (a None choose: where a `then` goes on as another action; a value that is no
    key may be given as it is written), and its draws; each value written once. `memo`
    keeps, per loaded game, each action's chooses (by name, action_slots) and each choose's
    position."""
    out: Counts = {}
    last, counted = None, {}
    for (s, v), n in pairs.items():
        if s is not last:  # (the pairs of one choose mostly come together)
            if s is None:  # (where a `then` goes on as another action)
                continue
            last = s
            counted = out.setdefault(where_of(program, s, memo), {})
        text = v.name if type(v) is Site else value_text(v)
        counted[text] = counted.get(text, 0) + n
    for _, span, v in draws:
        where = memo.get(span)
        if where is None:
            where = memo[span] = place(program, span)
        counted = out.setdefault(where, {})
        text = value_text(v)
        counted[text] = counted.get(text, 0) + 1
    return out  # (in no order: the JSON file sorts its keys)


def where_of(program: Any, choose: Any, memo: dict[Any, Any]) -> str:
    """A choose's position (place), kept in `memo`."""
    where: str | None = memo.get(choose)
    if where is None:
        where = memo[choose] = place(program, choose.span)
    return where


def place(program: Any, span: Any) -> str:
    """span's file:line:col, the same in every process whatever its working folder: the
    file relative to the game's rulebook folder, or `stdlib/…` for a standard module."""
    path = Path(span.path).resolve()
    home = Path(program.loaded.game.source.path).resolve().parent
    for root, prefix in ((home, ""), (STDLIB.resolve(), "stdlib/")):
        if path.is_relative_to(root):
            return f"{prefix}{path.relative_to(root)}:{span.line}:{span.column}"
    return f"{path}:{span.line}:{span.column}"


def chooses(program: Any) -> Iterator[ast.Choose]:
    """Every choose of the rules, once each, in the order of the rulebook's sections."""
    blocks: list[Any] = [*(a.body for a in program.actions.values()),
                         *(f.body for f in program.effects.values()),
                         *program.sections.values()]
    if program.round is not None:
        blocks.append(program.round.body)
    seen: set[int] = set()
    for block in blocks:
        for n in walk(block):
            if isinstance(n, ast.Choose) and id(n) not in seen:
                seen.add(id(n))
                yield n


def summary(program: Any, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per choose of the rules (every one, in file:line:col order): its variable, kind word
    and mode, how often it was taken over all records and the count of each value, most
    taken first."""
    totals: dict[str, Counter[str]] = {}
    for r in records:
        for where, values in r.get("choices", {}).items():
            totals.setdefault(where, Counter()).update(values)
    rows = []
    nodes = sorted(chooses(program), key=lambda s: (s.span.path, s.span.line, s.span.column))
    for s in nodes:
        where = place(program, s.span)
        c = totals.get(where, Counter())
        rows.append({"where": where, "var": s.var, "kind": s.kind,
                     "mode": "chance" if s.mode == "random" else s.mode,
                     "taken": sum(c.values()),
                     "values": dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))})
    return rows


def choice_lines(rows: list[dict[str, Any]], chooses_shown: int = 8, values_shown: int = 5
                 ) -> list[str]:
    """The terminal summary's section: the most taken values of each choose."""
    if not rows:
        return []
    out = ["choices (values taken, most taken first):"]
    for row in rows[:chooses_shown]:
        kind = f"{row['kind']} " if row["kind"] else ""
        head = f"  {row['where']}: {kind}{row['var']}" + (
            " (at random)" if row["mode"] == "chance" else "")
        if not row["taken"]:
            out.append(f"{head}: never taken")
            continue
        top = list(row["values"].items())
        out.append(f"{head}: {row['taken']} times, " + ", ".join(
            f"{short(k)} {100 * n / row['taken']:.0f} %" for k, n in top[:values_shown])
            + (f" ... ({len(top)} values)" if len(top) > values_shown else ""))
    if len(rows) > chooses_shown:
        out.append(f"  ... {len(rows) - chooses_shown} more in the JSON report")
    return out


def short(text: str, most: int = 32) -> str:
    """A value's text cut to `most` characters (for a summary line or a plot's label)."""
    return text if len(text) <= most else text[: most - 3] + "..."
