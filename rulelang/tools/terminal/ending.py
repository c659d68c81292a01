"""What the players are told at the end, and the score so far: why the game ended (the end
rule that fired, in the rulebook's words: the comment above it), who won, and every player's
score by term."""
from __future__ import annotations

from typing import Any

from rich.text import Text

from rulelang.language.visibility import Visibility


def program_of(game: Any) -> Any:
    """The checked rulebook behind a game (None for a stand-in game without one)."""
    return getattr(getattr(game, "runtime", None), "program", None)


def end_reason(game: Any, state: Any) -> list[str]:
    """The rule that ended the game: its comment (the rulebook's words) and its condition."""
    program = program_of(game)
    if program is None or not state.is_terminal():
        return []
    if state.capped():
        return [f"why: the game reached its longest length ({len(state.history())} moves)"]
    span = getattr(state, "ended_by", None)
    if span is None:
        return ["why: nobody could do anything for a whole round"]
    src = program.loaded.sources.get(span.path)
    if src is None:
        return []
    line = span.line
    indent = _indent(src.line(line))
    header = None  # the `when`, `elif` or `if` the result statement belongs to
    for n in range(line - 1, 0, -1):
        text = src.line(n)
        if text.strip() and not text.strip().startswith("#") and _indent(text) < indent:
            header = n
            break
    words = _comment_above(src, header) if header else []
    if not words and header:  # the comment above the section (`end`) the rule is in
        for n in range(header - 1, 0, -1):
            text = src.line(n)
            if text.strip() and not text.startswith((" ", "#")):
                words = _comment_above(src, n)
                break
    out = []
    own = program.loaded.game.source.path
    if words and span.path != own and any(src.line(n).startswith("game ") for n in
                                          range(1, min(len(src.text.splitlines()), 80) + 1)):
        # a rule of the rulebook this variant extends: the variant's own words first (its
        # goal, else the comment that opens it), then the parent's, said so
        parent = span.path.rsplit("/", 1)[-1]
        mine = variant_words(game, state)
        if mine:
            out.append("why: " + mine)
        out.append(f"{'the rule' if mine else 'why'} (in the words of {parent}, which this "
                   f"variant extends): " + " ".join(words))
    elif words:
        out.append("why: " + " ".join(words))
    rule = src.line(header).strip() if header else ""
    result = src.line(line).strip()
    name = span.path.rsplit("/", 1)[-1]
    out.append(f"rule: {rule} → {result}  ({name}:{line})" if rule else
               f"rule: {result}  ({name}:{line})")
    return out


def variant_words(game: Any, state: Any | None = None) -> str:
    """A variant's own words for its aim: the `goal` its own `view` declares (the winner's,
    else everyone's), else the comment that opens its rulebook; "" when it has neither."""
    program = program_of(game)
    if program is None:
        return ""
    from rulelang.language import ast

    loaded = program.loaded
    own = loaded.game.source.path
    if any(isinstance(d, ast.View) and any(g[2].path == own for g in d.goals)
           for d in loaded.game.decls):
        goals = getattr(game.runtime, "view", {}).get("goals", {})
        winners = state.winners() if state is not None and state.is_terminal() else []
        names = [game.player_names[w] for w in winners]
        found = next((goals[n] for n in names if n in goals), goals.get("everyone"))
        if found:
            return str(found)
    return " ".join(opening_comment(loaded.game.source))


def opening_comment(src: Any) -> list[str]:
    """The comment lines that open a rulebook, before its first declaration."""
    found: list[str] = []
    for line in src.text.splitlines():
        if not line.strip():
            if found:
                break
            continue
        if not line.lstrip().startswith("#"):
            break
        found.append(line.strip().lstrip("#").strip())
    return [w for w in found if w]


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _comment_above(src: Any, line: int) -> list[str]:
    found: list[str] = []
    n = line - 1
    while n > 0 and src.line(n).strip().startswith("#"):
        found.insert(0, src.line(n).strip().lstrip("#").strip())
        n -= 1
    trailing = src.line(line).split("#", 1)
    if len(trailing) > 1 and not found:
        found = [trailing[1].strip()]
    return [w for w in found if w]


def winners_line(game: Any, state: Any) -> str:
    names, winners = game.player_names, state.winners()
    if getattr(state, "capped", lambda: False)():
        return f"result: capped after {len(state.history())} plies: no winner"
    if not winners:
        return "result: draw"
    if len(winners) == 1:
        return f"result: {names[winners[0]]} wins"
    return "result: " + " and ".join(names[w] for w in winners) + " win"


def score_table(game: Any, state: Any, players: list[int] | None = None,
                viewer: int | None = None) -> list[Text]:
    """Each player's score by term (a row per term, a column per player), and the totals.
    For a viewer during the game, the terms they may not know (`open_terms`) read
    "hidden" (they are not evaluated), and so does the total of a player with one."""
    names = game.player_names
    seats = list(range(len(names))) if players is None else players
    program = program_of(game)
    if program is not None and not program.scores or \
            program is None and not any(state.scores()):
        return []
    terms: list[str] = [] if program is None else [t.name for t in program.scores]
    points: dict[int, dict[str, float]] = {}
    shut: dict[int, set[str]] = {}
    for i in seats:
        known = None if viewer is None else open_terms(game, viewer, i)
        shut[i] = set() if known is None else set(terms) - known
        got: dict[str, float] = {}
        found = state.score_breakdown(i) if known is None else \
            state.score_breakdown(i, known)
        for key, value in found.items():
            term = key.split(" ")[0]
            got[term] = got.get(term, 0) + value
            if term not in terms:
                terms.append(term)
        points[i] = got
    w = max([len(t) for t in terms] + [5])
    cols = [max(len(names[i]), 6) for i in seats]

    def cell(i: int, term: str | None) -> str:
        if term is None:
            return "hidden" if shut[i] else f"{sum(points[i].values()):g}"
        return "hidden" if term in shut[i] else f"{points[i].get(term, 0):g}"
    head = Text(" " * (w + 2))
    for i, cw in zip(seats, cols, strict=True):
        head.append(names[i].rjust(cw) + "  ", style="bold")
    rows = [head]
    for term in terms:
        rows.append(Text(term.ljust(w + 2) + "".join(
            cell(i, term).rjust(cw) + "  " for i, cw in zip(seats, cols, strict=True))))
    rows.append(Text("total".ljust(w + 2) + "".join(
        cell(i, None).rjust(cw) + "  " for i, cw in zip(seats, cols, strict=True)),
        style="bold"))
    for r in rows:
        r.rstrip()
    return rows


def open_terms(game: Any, viewer: int, player: int) -> set[str]:
    """The score terms whose value for `player` the viewer may know during the game (what
    each reads, language/visibility.py: a static judgement, the same in every position)."""
    program = program_of(game)
    if program is None:
        return set()
    found = _VISIBILITY.get(id(program))
    if found is None or found[0] is not program:
        found = _VISIBILITY[id(program)] = (program, Visibility(program), {})
    own = viewer == player
    terms = found[2].get(own)  # (a static judgement: the same in every position)
    if terms is None:
        terms = found[2][own] = {t.name for t in program.scores
                                 if found[1].open_to(t, own=own)}
    return set(terms)


_VISIBILITY: dict[int, tuple[Any, Visibility, dict[bool, set[str]]]] = {}
