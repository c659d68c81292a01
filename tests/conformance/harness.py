"""The conformance corpus: small cases of the language, each with what it means, run under both
evaluators (the reference interpreter and the compiled closures).

A corpus file (`cases/*.cases`) holds, line by line:

* `# …` comments and blank lines;
* `decl: DECLARATION` — a declaration (a `def`, `effect`, `counter`, `var` …) added to the
  rulebook of the whole file (every case of the file sees it); it may go on over lines
  indented by six spaces (an effect's statements);
* `before: STATEMENT` — a statement run before each case of the file (pieces put on the
  board for the builtins that read it);
* `EXPR => EXPECTED` — an expression case: `set out = EXPR` is run and `out` compared;
* `block: TITLE`, then indented statement lines, then `=> EXPECTED` — a statement case: the
  statements are run (they usually `set out = …` at the end);
* EXPECTED is one of
  - a JSON value: the value of `out`, made plain (see `plain`): a tuple, list or range is a
    JSON list, a player `{"player": "A"}`, a site `{"site": "a1"}`, a piece
    `{"piece": "stone"}`, a zone `{"zone": "hand of A"}`, a map `{"map": [[key, value], …]}`,
    a record `{"record": {"name": …, "card": …}}`;
  - `!CODE` or `!CODE "fragment"`: an error of that code (R1xx/R2xx when the rulebook is
    loaded and checked, R3xx when the case runs) whose message contains the fragment;
  - `effect {JSON}`: the observable state after the case: any of `out` (as above), `board`
    (every occupied site: the kinds of its pieces, bottom first), `zones` (the number of
    pieces of the zones named, e.g. `"hand of A"`) and `counters` (the values of the
    counters named, `"score of A"` for a per-player one) and `winners` (the winners'
    numbers once the game is over: [] for a draw);
  - `perm [JSON list]`: the value of `out` is an ordering of these items, the same in both
    modes and for the same seed each time (what a shuffle promises).

The prelude's `hidden(x)` is x with a type the checker cannot know: a case of a runtime
error that the type checker would find first (`1 + hidden("a") => !R301`) reaches the
evaluators through it; its twin without `hidden` states the check error (`1 + "a" => !R230`).

A case written `exact: EXPR => EXPECTED` (or `block: exact: TITLE`) counts the steps of the
reference to the budget's last one; it is judged in mode interpreted only (the generated code
charges each loop's items as the loop starts, a bound per item, and may stop a few steps
apart at that edge).

A case written `known: EXPR => EXPECTED` (or `block: known: TITLE`) states the meaning where
the code is known to be wrong in a file outside the evaluators (a bug left for its owner): it
must fail, and the test says so once it holds.

Each file becomes one rulebook (two loads: one per mode). Its setup asks for one decision,
`choose case_number in 1..N`, and runs the case of that number; each case runs from a copy of
the initial state, so cases do not see each other's effects and each has the step budget to
itself. Cases expecting a check error get a rulebook of their own.
"""
from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rulelang
from rulelang.gen import GenGame
from rulelang.model.values import LineSet, MapValue, Piece, Player, Record, Site, ZoneRef

CASES = Path(__file__).resolve().parent / "cases"
MODES = ("interpreted", "compiled")
GENERATED: dict[str, bool] = {}  # per corpus file: was its compiled rulebook generated?

PRELUDE = """game "Conformance"
players A, B
use square
board square.grid(3, 3, 3)
piece stone with points = 1, name = ""
piece card with points = 0, name = "", tags = ()
zone bag: 5 stone
zone deck ordered: card from "cards.yaml"
zone hand each player
zone supply each player: 3 stone
counter n from 0 to 10 = 0
counter free = 0
counter score each player from -5 to 5 = 0
var out = none
var mark each player = 0
def hidden(x) = x
"""

CARDS = """- {name: ace, points: 1, tags: [red]}
- {name: bell, points: 2, tags: [red, blue]}
- {name: crow, points: 3}
- {name: dove, points: 4, tags: [blue]}
"""

FINISH = """end
  when true
    draw
"""


@dataclass
class Case:
    path: Path
    line: int
    kind: str               # "expr" or "block"
    text: str               # the expression, or the statement lines (unindented)
    expect: tuple[str, Any, str | None]  # ("value"|"error"|"effect"|"perm", value, fragment)
    decls: list[str] = field(default_factory=list)
    before: list[str] = field(default_factory=list)
    known: bool = False  # a known bug: the case must fail
    # the reference's exact count of steps at the budget's edge: the generated code charges
    # each loop's items as it starts, a bound per item, so it may stop a few steps apart
    exact: bool = False

    @property
    def where(self) -> str:
        return f"{self.path.name}:{self.line}"

    @property
    def statements(self) -> str:
        own = f"set out = {self.text}" if self.kind == "expr" else self.text
        return "\n".join([*self.before, own])

    def __str__(self) -> str:
        return f"{self.where}: {self.text if self.kind == 'expr' else self.text.splitlines()[0]}"


_ERROR = re.compile(r'^!(R\d{3})(?:\s+"(.*)")?$')


def _expectation(text: str, where: str) -> tuple[str, Any, str | None]:
    text = text.strip()
    m = _ERROR.match(text)
    if m:
        return ("error", m.group(1), m.group(2))
    for kind in ("effect", "perm"):
        if text.startswith(kind + " "):
            return (kind, json.loads(text[len(kind) + 1:]), None)
    try:
        return ("value", json.loads(text), None)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: the expected value is not JSON: {text!r} ({exc})") from None


def parse(path: Path) -> list[Case]:
    """The cases of a corpus file, in order, each with its position."""
    lines = path.read_text(encoding="utf-8").splitlines()
    decls: list[str] = []
    before: list[str] = []
    cases: list[Case] = []
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        number = i + 1
        i += 1
        if not line or line.startswith("#"):
            continue
        if line.startswith("decl:"):
            decls.append(line[len("decl:"):].strip())
            # a declaration may go on over indented lines (a def with a block)
            while i < len(lines) and lines[i].startswith("      "):
                decls.append(lines[i][4:])
                i += 1
            continue
        if line.startswith("before:"):
            before.append(line[len("before:"):].strip())
            continue
        known = False
        if line.startswith("known:"):
            known, line = True, line[len("known:"):].strip()
        elif line.startswith("block: known:"):
            known = True
        exact = line.startswith(("block: exact:", "exact:"))
        if line.startswith("exact:"):
            line = line[len("exact:"):].strip()
        if line.startswith("block:"):
            body: list[str] = []
            while i < len(lines) and not lines[i].strip().startswith("=>"):
                if lines[i].strip() and not lines[i].startswith("  "):
                    raise ValueError(f"{path.name}:{i + 1}: a block ends with '=> expected'")
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise ValueError(f"{path.name}:{number}: a block without '=> expected'")
            expect = _expectation(lines[i].strip()[2:], f"{path.name}:{i + 1}")
            i += 1
            text = textwrap.dedent("\n".join(b for b in body if b.strip()))
            cases.append(Case(path, number, "block", text, expect, known=known, exact=exact))
            continue
        if " => " not in line:
            raise ValueError(f"{path.name}:{number}: neither a case nor a declaration: {line!r}")
        expr, _, expected = line.partition(" => ")
        cases.append(Case(path, number, "expr", expr.strip(),
                          _expectation(expected, f"{path.name}:{number}"), known=known,
                          exact=exact))
    for case in cases:
        case.decls, case.before = decls, before
    return cases


def corpus() -> list[Path]:
    return sorted(CASES.glob("*.cases"))


# ---- rulebooks --------------------------------------------------------------------------
def rulebook(cases: list[Case], decls: list[str]) -> str:
    """One rulebook running case number k (from 1) after the decision `choose`, the first of
    the first turn (a turn with a decision: the game generator takes it)."""
    out = [PRELUDE, *decls, "", "turn", f"  choose case_number in 1..{len(cases)}"]
    for k, case in enumerate(cases, 1):
        out.append(f"  {'if' if k == 1 else 'elif'} case_number == {k}")
        out.extend("    " + ln for ln in case.statements.splitlines())
    out.append(FINISH)
    return "\n".join(out)


def load(folder: Path, name: str, text: str, mode: str) -> Any:
    path = folder / f"{name}.rule"
    path.write_text(text, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return rulelang.load_game(path, mode=mode)


def code_of(error: Exception) -> tuple[str, str]:
    """(code, message) of a rule error; the first diagnostic of a check error."""
    if isinstance(error, rulelang.RulebookError):
        d = error.diagnostics[0]
        return d.code, d.message
    d = error.diagnostic  # type: ignore[attr-defined]
    return d.code, d.message


# ---- values -----------------------------------------------------------------------------
def plain(v: Any, data: Any = None) -> Any:
    """A value in a plain JSON-able form (see the module's docstring)."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, MapValue):
        return {"map": [[plain(k), plain(x)] for k, x in v.items()]}
    if isinstance(v, Record):
        return {"record": {k: plain(x) for k, x in zip(v.fields, v, strict=True)}}
    if isinstance(v, (tuple, list, range, LineSet)):
        return [plain(x) for x in v]
    if isinstance(v, Player):
        return {"player": v.name}
    if isinstance(v, Site):
        return {"site": v.name}
    if isinstance(v, Piece):
        return {"piece": v.kind}
    if isinstance(v, ZoneRef):
        return {"zone": v.name}
    return {"other": repr(v)}


def _zone_names(state: Any) -> dict[Any, str]:
    players = state.game.runtime.players
    return {ref: ref.name if ref.owner is None else f"{ref.name} of {players[ref.owner].name}"
            for ref in state.ctx.data.zones}


def summary(state: Any) -> dict[str, Any]:
    """The observable state after a case: `out`, the board, the zones' sizes, the counters
    (from the public observation; `out` from the state's variables, for its exact type)."""
    obs = state.observation(0)
    out = state.ctx.data.vars[("out", None)]
    v = plain(out)
    if isinstance(out, ZoneRef):
        v = {"zone": _zone_names(state)[out]}
    board = {cell["site"]: [p["kind"] for p in cell["pieces"]]
             for cell in obs["board"] if cell["pieces"]}
    zones = {z["zone"] if z["owner"] is None else f"{z['zone']} of {z['owner']}": z["count"]
             for z in obs["zones"]}
    counters = {c["counter"] if c["owner"] is None else f"{c['counter']} of {c['owner']}":
                c["value"] for c in obs["counters"]}
    return {"out": v, "board": board, "zones": zones, "counters": counters,
            "winners": obs["winners"]}


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON (so true is not 1)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


# ---- running ------------------------------------------------------------------------------
def outcomes(cases: list[Case], mode: str, folder: Path, seed: int = 0
             ) -> list[tuple[str, Any]]:
    """Each case's outcome in one mode: ("value", summary) or ("error", (code, message))."""
    checked = [c for c in cases if c.expect[0] == "error" and c.expect[1] < "R3"]
    runs = [c for c in cases if c not in checked]
    results: dict[int, tuple[str, Any]] = {}
    for k, case in enumerate(checked):  # a check error: a rulebook of its own
        try:
            load(folder, f"check{k}", rulebook([case], case.decls), mode)
            results[id(case)] = ("loaded", None)
        except rulelang.RulebookError as exc:
            results[id(case)] = ("error", code_of(exc))
    if runs:
        try:
            game = load(folder, "cases", rulebook(runs, runs[0].decls), mode)
        except rulelang.RulebookError as exc:
            raise AssertionError(f"{runs[0].path.name}: the rulebook of its cases does not "
                                 f"load: {[str(d) for d in exc.diagnostics]}") from None
        if mode == "compiled":
            GENERATED[runs[0].path.name] = isinstance(game, GenGame)
        start = game.new_initial_state(seed)
        actions = start.legal_actions()
        assert len(actions) == len(runs)
        for case, action in zip(runs, actions, strict=True):
            state = start.clone()
            try:
                state.apply_action(action)
                results[id(case)] = ("value", summary(state))
            except rulelang.RuleRuntimeError as exc:
                results[id(case)] = ("error", code_of(exc))
            except Exception as exc:  # noqa: BLE001 - a rule error must be a RuleRuntimeError
                results[id(case)] = ("crash", f"{type(exc).__name__}: {exc}")
    return [results[id(c)] for c in cases]


def failures(cases: list[Case], folder: Path, modes: Iterable[str] = MODES) -> list[str]:
    """What differs from the expected outcomes, case by case and mode by mode ([] if all
    hold): each line starts with the case's position."""
    modes = tuple(modes)
    found: list[str] = []
    seen: dict[int, list[Any]] = {}
    known_ok: dict[int, int] = {}
    for mode in modes:
        for case, (kind, got) in zip(cases, outcomes(cases, mode, folder), strict=True):
            if case.exact and mode != "interpreted":
                continue
            problem = judge(case, kind, got)
            if case.known:
                known_ok[id(case)] = known_ok.get(id(case), 0) + (problem is None)
            elif problem is not None:
                found.append(f"{case.where} [{mode}] {case.text.splitlines()[0]!r}: {problem}")
            if case.expect[0] == "perm" and kind == "value":
                seen.setdefault(id(case), []).append(got["out"])
    for case in cases:
        if case.known and known_ok.get(id(case)) == len(modes):
            found.append(f"{case.where}: a known bug is fixed: remove its 'known:'")
    for case in cases:  # a shuffle: the same order in both modes, and again with the seed
        if case.expect[0] == "perm":
            again = outcomes([case], "interpreted", folder)[0][1]
            orders = seen.get(id(case), []) + [again["out"] if again else None]
            if any(not _same(o, orders[0]) for o in orders):
                found.append(f"{case.where}: not the same order each time: {orders}")
    return found


def judge(case: Case, kind: str, got: Any) -> str | None:
    want, value, fragment = case.expect
    if want == "error":
        if kind != "error":
            return f"expected error {value}, got {_show(kind, got)}"
        code, message = got
        if code != value or (fragment is not None and fragment not in message):
            return f"expected error {value} {fragment or ''}, got {code}: {message}"
        return None
    if kind != "value":
        return f"expected {want} {json.dumps(value)}, got {_show(kind, got)}"
    if want == "value":
        return None if _same(got["out"], value) else \
            f"expected {json.dumps(value)}, got {json.dumps(got['out'])}"
    if want == "perm":
        ok = isinstance(got["out"], list) and sorted(map(json.dumps, got["out"])) == \
            sorted(map(json.dumps, value))
        return None if ok else f"expected an ordering of {value}, got {got['out']}"
    for key, expected in value.items():  # an effect: the parts named
        actual = got[key]
        if key in ("zones", "counters"):
            actual = {k: actual.get(k, "(none)") for k in expected}
        if not _same(actual, expected):
            return f"expected {key} {json.dumps(expected)}, got {json.dumps(actual)}"
    return None


def _show(kind: str, got: Any) -> str:
    if kind == "error":
        return f"error {got[0]}: {got[1]}"
    if kind == "value":
        return f"value {json.dumps(got['out'])}"
    return f"{kind} {got}"
