"""Scenario files (*.test) and `rulelang test`: a designer's tests, in the rules' own names.

A file names its rulebook and holds scenarios; each scenario reaches a position (moves from the
start, a seed), plays actions by their strings and states what must hold then. The file is read
by the same front end as a rulebook (language/scenario.lark, parser.parse_scenarios), so a
syntax error is an R1xx diagnostic with its position. A scenario file's other mistakes (a
rulebook that is not there, an unknown player, site or score term, impossible options) are R420;
they are reported at their position like a failure, never as a traceback.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rulelang
from rulelang.errors import (
    Diagnostic,
    IllegalActionError,
    RulebookError,
    RulelangError,
    StatedChanceError,
    render,
)
from rulelang.game import position
from rulelang.resources import bundled_rulebook
from rulelang.tools.scenario.scenario_checks import (
    CHECKS,
    Failed,
    as_list,
    listed,
    num,
    player,
    short,
    shown_value,
)
from rulelang.tools.scenario.scenario_read import MODES, Mistake, Scenario, ScenarioFile, Step, read
from rulelang.tools.terminal.ending import end_reason

__all__ = ["MODES", "Scenario", "ScenarioFile", "Step", "read", "run", "run_one",
           "test_command", "perft"]


@dataclass(frozen=True)
class Result:
    scenario: Scenario
    mode: str
    failure: str | None  # None: passed; else the report's lines under the header

    @property
    def passed(self) -> bool:
        return self.failure is None


# ---- running -----------------------------------------------------------------------------

_GAMES: dict[tuple[str, str, tuple[tuple[str, Any], ...]], rulelang.Game] = {}


def forget_games() -> None:
    """Drop the games loaded for scenarios (a mutant's is never asked for again)."""
    _GAMES.clear()


def run(file: ScenarioFile, modes: tuple[str, ...] = ("compiled",)) -> Iterator[Result]:
    """Each scenario in each of `modes` (a scenario's own `mode` line narrows them)."""
    for sc in file.scenarios:
        for mode in modes:
            if sc.mode is None or sc.mode == mode:
                yield Result(sc, mode, run_one(file, sc, mode))


def run_one(file: ScenarioFile, sc: Scenario, mode: str) -> str | None:
    """None when the scenario holds, else what failed (positioned, expected against found)."""
    sources = {file.path: file.source}
    try:
        game = _game(file, sc, mode)
        state = game.new_initial_state(seed=sc.seed)
        for step in sc.steps:
            state = _CHECKS[step.kind](state, step) or state  # a stated fact: a new state
    except Failed as f:
        return (f"  {f.step.span}: {f.step.text}\n    expected: {f.expected}\n"
                f"    found:    {f.found}")
    except Mistake as m:
        return _indent(render(m.diagnostic, sources))
    except StatedChanceError as err:  # positioned at the `chance` line that stated it
        at = err.diagnostic.span
        return _indent(render(Diagnostic(
            "R420", f"impossible position: {err.diagnostic.message}"
            + (f" (the draw at {at.path}:{at.line}:{at.column})" if at else ""),
            err.stated_at, "state an outcome the draw has"), sources))
    except RulelangError as err:  # a rule failed while the scenario played
        return _indent(err.render())
    return None


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def _game(file: ScenarioFile, sc: Scenario, mode: str) -> rulelang.Game:
    key = (str(file.rulebook), mode, tuple(sorted(sc.options.items())))
    if key not in _GAMES:
        try:
            _GAMES[key] = rulelang.load_game(file.rulebook, sc.options or None, mode=mode)
        except RulebookError as err:
            if not sc.options or not all(d.code == "R205" for d in err.diagnostics):
                raise
            raise Mistake(sc.options_span or sc.span,
                          "; ".join(d.message for d in err.diagnostics)) from None
    return _GAMES[key]


def legal(state: rulelang.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def outcome(state: rulelang.State) -> str:
    names = state.game.player_names
    if not state.is_terminal():
        return f"not over, {names[state.current_player()]} to move" \
            if 0 <= state.current_player() < len(names) else "not over"
    winners = state.winners()
    if not winners:
        return "draw"
    return ("winner " if len(winners) == 1 else "winners ") + ", ".join(names[w] for w in winners)


def _play(state: rulelang.State, step: Step) -> None:
    texts = step.args[0]
    for n, text in enumerate(texts, start=1):
        which = f"'{text}'" + (f" (action {n} of {len(texts)})" if len(texts) > 1 else "")
        if state.is_terminal():
            raise Failed(step, f"{which} playable", f"the game is over ({outcome(state)})")
        try:
            state.apply_action(text)
        except IllegalActionError as exc:
            raise Failed(step, f"{which} legal", f"illegal: {exc}") from None


def _refusal(state: rulelang.State, text: str) -> str | None:
    """None when `text` is legal now, else the engine's reason."""
    if state.is_terminal():
        return "the game is over"
    try:
        state.string_to_action(text)
    except IllegalActionError as exc:
        return str(exc)
    return None


def _legal(state: rulelang.State, step: Step) -> None:
    for text in step.args[0]:
        why = _refusal(state, text)
        if why is not None:
            raise Failed(step, f"'{text}' legal", f"illegal: {why}")


def _illegal(state: rulelang.State, step: Step) -> None:
    texts, because = step.args[0], (step.args[1] if len(step.args) > 1 else None)
    for text in texts:
        why = _refusal(state, text)
        if why is None:
            raise Failed(step, f"'{text}' illegal", "legal")
        if because is not None and because.lower() not in why.lower():
            raise Failed(step, f"'{text}' illegal because \"{because}\"", f"illegal: {why}")


def _exactly(state: rulelang.State, step: Step) -> None:
    want = step.args[0] if step.args else ()
    found = legal(state)
    if sorted(want) != sorted(found):
        missing = [s for s in want if s not in found]
        extra = [s for s in found if s not in want]
        raise Failed(step, f"options exactly {listed(want)}",
                     f"{listed(found)} (missing {listed(missing)}, not expected "
                     f"{listed(extra)})")


def _contain(state: rulelang.State, step: Step) -> None:
    found = legal(state)
    missing = [s for s in step.args[0] if s not in found]
    if missing:
        raise Failed(step, f"options contain {listed(step.args[0])}",
                     f"{listed(missing)} not among the {len(found)} options {short(found)}")


def _lack(state: rulelang.State, step: Step) -> None:
    found = legal(state)
    there = [s for s in step.args[0] if s in found]
    if there:
        raise Failed(step, f"options lack {listed(step.args[0])}", f"{listed(there)} legal")


def _no_prefix(state: rulelang.State, step: Step) -> None:
    there = [s for s in legal(state) if s.startswith(step.args[0])]
    if there:
        raise Failed(step, f"no option starting with \"{step.args[0]}\"", short(there))


def _prefix_exactly(state: rulelang.State, step: Step) -> None:
    prefix, want = step.args[0], (step.args[1] if len(step.args) > 1 else ())
    found = [s for s in legal(state) if s.startswith(prefix)]
    if sorted(want) != sorted(found):
        missing = [s for s in want if s not in found]
        extra = [s for s in found if s not in want]
        raise Failed(step, f"options starting \"{prefix}\" exactly {listed(want)}",
                     f"{listed(found)} (missing {listed(missing)}, not expected "
                     f"{listed(extra)})")


def _named(state: rulelang.State, step: Step, field_: str, key: str) -> None:
    """`counter NAME [of P]: n` and `var NAME [of P]: v`, as the observation shows them."""
    name, owner, want = step.args if len(step.args) == 3 else (step.args[0], None, step.args[1])
    if owner is not None:
        player(state, step, owner)
    obs = state.observation(player(state, step, owner) if owner else 0)
    rows = [r for r in obs[field_] if r[key] == name]
    if not rows:
        raise Mistake(step.span, f"no {key} '{name}' in this game", "the names: " + ", ".join(
            sorted({r[key] for r in obs[field_]})))
    row = next((r for r in rows if r["owner"] == owner), None)
    if row is None:
        raise Mistake(step.span, f"'{name}' is " + ("per player: say `of` whose"
                                                    if owner is None else "not per player"))
    got = as_list(row["value"])
    if got != want or isinstance(got, bool) != isinstance(want, bool):
        whose = f" of {owner}" if owner else ""
        raise Failed(step, f"{key} {name}{whose}: {shown_value(want)}", shown_value(got))


def _count(state: rulelang.State, step: Step) -> None:
    found = legal(state)
    if len(found) != step.args[0]:
        raise Failed(step, f"{step.args[0]} options", f"{len(found)}: {short(found)}")


def _result(want: Callable[[rulelang.State, Step], str]) -> Callable[[rulelang.State, Step],
                                                                      None]:
    def check(state: rulelang.State, step: Step) -> None:
        expected, got = want(state, step), outcome(state)
        if (got.split(",")[0] if expected == "not over" else got) != expected:
            raise Failed(step, expected, outcome(state))
    return check


def _winners_text(state: rulelang.State, step: Step) -> str:
    names = [state.game.player_names[player(state, step, n)] for n in step.args]
    return ("winner " if len(names) == 1 else "winners ") + ", ".join(names)


def _to_move(state: rulelang.State, step: Step) -> None:
    i = player(state, step, step.args[0])
    if state.current_player() != i:
        raise Failed(step, f"{step.args[0]} to move", outcome(state))


def _scores(state: rulelang.State, step: Step) -> None:
    scores = state.scores()
    for item in step.args:
        _, name, want = item
        got = scores[player(state, step, name)]
        if got != want:
            every = ", ".join(f"{n}: {num(s)}"
                              for n, s in zip(state.game.player_names, scores, strict=True))
            raise Failed(step, f"{name}: {want}", f"{name}: {num(got)} (scores: {every})")


def _score_term(state: rulelang.State, step: Step) -> None:
    term, name, want = step.args
    terms = state.score_breakdown(player(state, step, name))
    if term not in terms:
        raise Mistake(step.span, f"no score term '{term}' in this game",
                      f"the terms: {', '.join(terms) or 'none'}")
    if terms[term] != want:
        raise Failed(step, f"score {term} of {name}: {want}",
                     f"{num(terms[term])} (" + ", ".join(f"{t}: {num(v)}"
                                                          for t, v in terms.items()) + ")")


def _values(x: Any) -> Iterator[Any]:
    if isinstance(x, dict):
        for v in x.values():
            yield from _values(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _values(v)
    else:
        yield x


def _seen(state: rulelang.State, step: Step) -> tuple[str, bool]:
    name, value = step.args
    obs = state.observation(player(state, step, name))
    if isinstance(value, str):
        found = any(isinstance(v, str) and v == value for v in _values(obs))
    else:
        found = any(isinstance(v, (int, float)) and not isinstance(v, bool) and v == value
                    for v in _values(obs))
    return name, found


def _sees(state: rulelang.State, step: Step) -> None:
    name, found = _seen(state, step)
    if not found:
        raise Failed(step, f"{name} sees {step.args[1]!r}", "nowhere in what they see")


def _not_sees(state: rulelang.State, step: Step) -> None:
    name, found = _seen(state, step)
    if found:
        raise Failed(step, f"{name} does not see {step.args[1]!r}", "seen")


def perft(state: rulelang.State, depth: int) -> int:
    """The positions reached by exactly `depth` actions (an ended game reaches none beyond)."""
    if depth == 0:
        return 1
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += perft(child, depth - 1)
    return total


def _perft(state: rulelang.State, step: Step) -> None:
    depth, want = step.args
    got = perft(state, depth)
    if got != want:
        raise Failed(step, f"perft {depth} = {want}", f"perft {depth} = {got}")


def _stated(make: Callable[[rulelang.State, Step], rulelang.State]
            ) -> Callable[[rulelang.State, Step], rulelang.State]:
    """A `given` fact stated directly: the new state, or a positioned mistake."""
    def state_it(state: rulelang.State, step: Step) -> rulelang.State:
        try:
            return make(state, step)
        except position.PositionError as err:
            raise Mistake(step.span, f"impossible position: {err}",
                          "state a position the rules allow, at the start of a turn") from None
    return state_it


def _put(state: rulelang.State, step: Step) -> rulelang.State:
    *names, sites = step.args
    attr = source = None
    if isinstance(names[-1], tuple) and names[-1][0] == "put_from":  # `from ZONE`
        source = names[-1][1]
        names = names[:-1]
    if isinstance(names[-1], tuple):  # `with NAME = value`
        attr = (names[-1][1], names[-1][2])
        names = names[:-1]
    if names[0] in state.game.player_names:
        return position.put_pieces(state, names[0], names[1] if len(names) > 1 else None,
                                   sites, attr, source)
    if len(names) > 1:
        raise Mistake(step.span, f"no player '{names[0]}' in this game",
                      f"the players: {', '.join(state.game.player_names)}")
    return position.put_pieces(state, None, names[0], sites, attr, source)


_STATED = {
    "g_put": _put,
    "g_turn": lambda s, st: position.set_mover(s, st.args[0]),
    "g_round": lambda s, st: position.set_round(s, st.args[0]),
    "g_chance": lambda s, st: position.state_chance(s, list(st.args[0]), st.span),
    "g_counter": lambda s, st: position.set_value(s, "counter", st.args[0][0], st.args[0][1],
                                                  st.args[1]),
    "g_var": lambda s, st: position.set_value(s, "var", st.args[0][0], st.args[0][1],
                                              st.args[1]),
    "g_move": lambda s, st: position.move_pieces(s, st.args[0], st.args[-1][0], st.args[-1][1],
                                                 st.args[1] if len(st.args) > 2 else None),
    "g_move_with": lambda s, st: position.move_matching(
        s, st.args[0], (st.args[1][1], st.args[1][2]), st.args[-1][0], st.args[-1][1],
        st.args[2] if len(st.args) > 3 else None),
    "g_move_all": lambda s, st: position.move_all(s, st.args[0] if len(st.args) > 1 else None,
                                                  st.args[-1]),
    "g_order": lambda s, st: position.order_zone(s, st.args[0][0], st.args[0][1],
                                                 list(st.args[1])),
}

_CHECKS: dict[str, Callable[[rulelang.State, Step], rulelang.State | None]] = {
    **{kind: _stated(make) for kind, make in _STATED.items()},
    "g_play": _play, "when": _play,
    "e_legal": _legal, "e_illegal": _illegal, "e_exactly": _exactly, "e_contain": _contain,
    "e_lack": _lack, "e_count": _count, "e_no_prefix": _no_prefix,
    "e_prefix_exactly": _prefix_exactly,
    "e_counter": lambda s, st: _named(s, st, "counters", "counter"),
    "e_var": lambda s, st: _named(s, st, "vars", "var"),
    "e_winner": _result(_winners_text), "e_winners": _result(_winners_text),
    "e_draw": _result(lambda s, st: "draw"), "e_live": _result(lambda s, st: "not over"),
    "e_to_move": _to_move, "e_scores": _scores, "e_score_term": _score_term,
    "e_sees": _sees, "e_not_sees": _not_sees, "e_perft": _perft, **CHECKS,
}


def _ended_by(state: rulelang.State, step: Step) -> None:
    """The game is over, and the end rule that ended it (its comment, or its line) says the
    text, in any case; a game capped by its longest length says "longest length"."""
    want = step.args[0]
    if not state.is_terminal():
        raise Failed(step, f"the game ended by {want!r}", outcome(state))
    why = " ".join(end_reason(state.game, state))
    if want.lower() not in why.lower():
        raise Failed(step, f"the game ended by {want!r}", why or "no end rule ended it")


def _over(state: rulelang.State, step: Step) -> None:
    if not state.is_terminal():
        raise Failed(step, "the game over", outcome(state))


_CHECKS["e_over"] = _over
_CHECKS["e_ended_by"] = _ended_by


# ---- the command ---------------------------------------------------------------------------

def files(paths: list[str]) -> list[Path]:
    """The scenario files named: a folder stands for every *.test in it."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(path.glob("*.test")))
        elif path.is_file():
            out.append(path)
        elif (book := bundled_rulebook(p)) is not None:  # a bundled name: its .test
            tests = book.with_suffix(".test")
            if not tests.is_file():
                raise RulelangError(render(Diagnostic(
                    "R420", f"the bundled rulebook '{p}' has no scenario file", None)))
            out.append(tests)
        else:
            raise RulelangError(render(Diagnostic("R420", f"no such scenario file or folder "
                                                  f"'{p}'", None)))
    return out


def _why(err: RulebookError) -> str:
    paths = {d.span.path for d in err.diagnostics if d.span is not None}
    return "its rulebook does not load" if paths and all(p.endswith(".rule") for p in paths) \
        else "the file cannot be read"


def test_command(paths: list[str], modes: tuple[str, ...], echo: Callable[[str], None]) -> int:
    """Run every scenario; print one line per scenario (and what failed); 1 on any failure."""
    found = files(paths or ["."])
    if not found:
        raise RulelangError(render(Diagnostic("R420", "no *.test files in "
                                              + ", ".join(paths or ["."]), None)))
    passed = failed = 0
    for path in found:
        try:
            file = read(path)
            rulelang.load_game(file.rulebook, mode=modes[0])
        except RulebookError as err:
            echo(f"FAIL {path}: {_why(err)}\n{_indent(err.render())}")
            failed += 1
            continue
        for res in run(file, modes):
            where = f"{res.scenario.span.path}:{res.scenario.span.line}:" \
                f"{res.scenario.span.column}"
            tag = f" [{res.mode}]" if len(modes) > 1 else ""
            if res.passed:
                passed += 1
                echo(f"ok   {where} {res.scenario.name}{tag}")
            else:
                failed += 1
                echo(f"FAIL {where} {res.scenario.name}{tag}\n{res.failure}")
    echo(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
