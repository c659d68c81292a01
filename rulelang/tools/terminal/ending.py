"""What the players are told at the end, and the score so far: why the game ended (the end
rule that fired, in the rulebook's words: the comment above it), who won, and every player's
score by term."""
from __future__ import annotations

from typing import Any

from rich.text import Text

from rulelang.language.analysis import Analysis
from rulelang.library.registry import Reads


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
    if words:
        out.append("why: " + " ".join(words))
    rule = src.line(header).strip() if header else ""
    result = src.line(line).strip()
    name = span.path.rsplit("/", 1)[-1]
    out.append(f"rule: {rule} → {result}  ({name}:{line})" if rule else
               f"rule: {result}  ({name}:{line})")
    return out


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


def score_table(game: Any, state: Any, players: list[int] | None = None) -> list[Text]:
    """Each player's score by term (a row per term, a column per player), and the totals."""
    names = game.player_names
    seats = list(range(len(names))) if players is None else players
    program = program_of(game)
    if program is not None and not program.scores or \
            program is None and not any(state.scores()):
        return []
    terms: list[str] = []
    points: dict[int, dict[str, float]] = {}
    for i in seats:
        got: dict[str, float] = {}
        for key, value in state.score_breakdown(i).items():
            term = key.split(" ")[0]
            got[term] = got.get(term, 0) + value
            if term not in terms:
                terms.append(term)
        points[i] = got
    w = max([len(t) for t in terms] + [5])
    cols = [max(len(names[i]), 6) for i in seats]
    head = Text(" " * (w + 2))
    for i, cw in zip(seats, cols, strict=True):
        head.append(names[i].rjust(cw) + "  ", style="bold")
    rows = [head]
    for term in terms:
        rows.append(Text(term.ljust(w + 2) + "".join(
            f"{points[i].get(term, 0):g}".rjust(cw) + "  " for i, cw in zip(seats, cols,
                                                                           strict=True))))
    rows.append(Text("total".ljust(w + 2) + "".join(
        f"{sum(points[i].values()):g}".rjust(cw) + "  " for i, cw in zip(seats, cols,
                                                                        strict=True)),
        style="bold"))
    for r in rows:
        r.rstrip()
    return rows


def scores_open_to(game: Any, viewer: int) -> bool:
    """May the viewer be shown scores during the game? Only when the score terms read nothing
    the viewer might not see: no zones unless every zone's contents are open to the viewer,
    no vars unless none is secret (the analysis of what the terms read)."""
    program = program_of(game)
    if program is None or not program.scores:
        return False
    analysis = Analysis(program)
    reads = Reads.NOTHING
    for term in program.scores:
        reads |= analysis.expr_reads(term.expr)
    open_zones = all(z.visible == "everyone" for z in program.zones.values())
    no_secrets = not any(v.secret for v in program.vars.values())
    return (not reads & Reads.ZONES or open_zones) and (not reads & Reads.COUNTERS or
                                                        no_secrets)
