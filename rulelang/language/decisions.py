"""What the statements of a checked rulebook may do, found from the tree (may a statement ask
for a decision, may it draw on chance), and the texts that say why an action is refused.
Both evaluators use them, so the two cannot disagree on them."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.errors import RulelangError
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.language.program import Program
from rulelang.language.refusals import Words, some, source_text
from rulelang.language.wording import fill
from rulelang.library.decision import Decision
from rulelang.model.values import action_words

Value = Callable[[ast.Expr, Any, dict[str, Any]], Any]  # (expression, context, locals) -> value
Run = Callable[[ast.Stmt, Any, dict[str, Any]], None]  # run a statement that cannot decide
__all__ = ["DecisionAnalysis", "explain", "later_refusal", "refusal", "requirement_failed",
           "source_text"]


def _decision(s: ast.Node) -> bool | None:
    """A statement that asks for a decision (True), one that cannot (False), else None."""
    if isinstance(s, ast.Choose):
        return s.mode != "random"
    return True if isinstance(s, ast.Do) else None


def _draw(s: ast.Node) -> bool | None:
    """A statement that draws on the random generator (True), one that cannot, else None."""
    if isinstance(s, ast.Choose):
        return s.mode == "random"
    return True if isinstance(s, ast.Shuffle) else None


class DecisionAnalysis:
    """Per program: which statements decide or draw on chance (remembered per node)."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self._decides: dict[ast.Node, bool] = {}
        self._chance: dict[ast.Node, bool] = {}

    def effect(self, s: ast.CallStmt) -> ast.Effect:
        return self.program.effects[self.program.refs[s.call.func][1]]

    def may_refuse(self, stmts: tuple[ast.Stmt, ...], j: int) -> bool:
        """May stmts[j:] refuse: a `require` or a `put` in them (a first `put` excepted)?"""
        first = stmts[j] if j < len(stmts) else None
        nested = [first] if first is not None and not isinstance(first, ast.Put) else []
        return any(self.refuses(s) for s in [*nested, *stmts[j + 1:]])

    def refuses(self, node: ast.Node) -> bool:
        """Is there a `require` or a `put` in node, or in an effect it calls?"""
        for n in walk(node):
            if isinstance(n, (ast.Require, ast.Put)):
                return True
            if isinstance(n, ast.CallStmt) and any(
                    isinstance(m, (ast.Require, ast.Put)) for m in walk(self.effect(n).body)):
                return True
        return False

    def decides(self, s: ast.Node) -> bool:
        """May this statement ask a player to decide? (A draw at random is no decision.)"""
        found = self._decides.get(s)
        if found is None:
            found = self._decides[s] = self._first(s, _decision, set()) is not None
        return found

    def chance(self, s: ast.Node) -> bool:
        """May this statement draw on the random generator?"""
        found = self._chance.get(s)
        if found is None:
            found = self._chance[s] = self._first(s, _draw, set()) is not None
        return found

    def result(self, s: ast.Node) -> ast.Node | None:
        """A result statement (`winner`, `draw` …) this statement may run, or None."""
        return self._first(s, lambda n: True if isinstance(n, ast.Result) else None, set())

    def _first(self, s: ast.Node, leaf: Callable[[ast.Node], bool | None],
               seen: set[ast.Block]) -> ast.Node | None:
        """The first statement for which leaf is true that s holds, inside its blocks or in
        the bodies of the effects it calls and the action it goes on as (None: none). Each
        body is looked into once per question (an effect may call itself), so only whole
        answers are remembered."""
        here = leaf(s)
        if here is not None:
            return s if here else None
        if isinstance(s, (ast.CallStmt, ast.Then)):
            body = self.effect(s).body if isinstance(s, ast.CallStmt) else \
                self.program.actions[s.action].body
            if body in seen:
                return None  # (being looked into already, by this question)
            seen.add(body)
            return self._first(body, leaf, seen)
        blocks: list[Any] = []
        if isinstance(s, ast.Block):
            blocks = list(s.stmts)
        elif isinstance(s, ast.If):
            blocks = [b for _, b in s.branches] + ([s.orelse] if s.orelse is not None else [])
        elif isinstance(s, (ast.ForEach, ast.Repeat, ast.While)):
            blocks = [s.body]
        for b in blocks:
            found = self._first(b, leaf, seen)
            if found is not None:
                return found
        return None

    def ends_option(self, s: ast.Stmt) -> bool:
        """Does the option of a `do` end before this statement of its action: another
        player's choice, chance, or a statement that may ask for a decision?"""
        return self.decides(s) or isinstance(s, ast.Choose)


# ---- why an action is refused (in plain words: language/refusals.py)
def explain(program: Program, d: Decision, text: str, c: Any, value: Value,
            run: Run | None = None) -> str:
    """Why `text` is not among the options of decision d, in the designer's words (a
    `require … else`, a `choose … else`) or in plain words, never a rule's text; `value`
    evaluates an expression, `run` (if given) runs a statement, to find a `require` after
    the action's effects."""
    words = action_words(text)
    plain = Words(program, c, value, run).explain(d, text)
    if d.menu is None:
        what = d.choose.kind or d.choose.var.replace("_", " ") if d.choose is not None \
            else "value"
        return f"'{text}' is not a choice here: " + (plain or _choices(d, what))
    names = d.menu.actions
    if not words or words[0] not in names:
        return f"'{words[0] if words else text}' is not an action now (actions: " \
               f"{', '.join(names)})"
    action = program.actions[words[0]]
    if not any(o[0] == words[0] for o in d.options):
        before = fallback_of(d.menu, words[0])
        if before and any(o[0] in before for o in d.options):
            return f"'{words[0]}' is offered only when {' or '.join(before)} cannot be taken"
        return f"'{words[0]}' is not possible now: " + (
            plain or first_failure(program, action, c, value))
    return f"'{text}' is not a legal way to {words[0]}: " + (
        plain or bad_value(program, action, words, d))


def _choices(d: Decision, what: str) -> str:
    labels = d.labels()
    return f"the {what} to choose is one of {some(labels)}" if labels else "there is none"


def later_refusal(program: Program, action: ast.Action, words: list[str], c: Any,
                  value: Value, run: Run) -> str | None:
    """The requirement that refuses these values of the action's chooses when the action runs
    on a scratch copy of the data (a `require` after its effects), if each value is one its
    choose offers; None when none is found."""
    return Words(program, c, value, run).later(action, words)


def fallback_of(menu: ast.Do, name: str) -> tuple[str, ...]:
    """The actions tried before `name` in a `do … otherwise …` (none without `otherwise`)."""
    before: tuple[str, ...] = ()
    for group in menu.groups():
        if name in group:
            return before
        before += group
    return ()


def first_failure(program: Program, action: ast.Action, c: Any, value: Value) -> str:
    """The first leading requirement of an action that fails now."""
    e: dict[str, Any] = {}
    words = Words(program, c, value)
    for s in action.body.stmts:
        if isinstance(s, ast.Require):
            try:
                ok = value(s.cond, c, e)
            except RulelangError:
                ok = False
            if not ok:
                return words.requirement(s, e)
        elif isinstance(s, ast.Let):
            for name, v in s.bindings:
                e[name] = value(v, c, e)
        else:
            break
    return "no way of taking it gets through its conditions, requirements and effects"


def bad_value(program: Program, action: ast.Action, words: list[str], d: Decision) -> str:
    """Which value of `words` no option of the action has."""
    chooses = _slots(program, action)
    labels = [action_words(lab) for o, lab in zip(d.options, d.labels(), strict=True)
              if o[0] == action.name]
    for k, s in enumerate(chooses):
        prefix = words[: k + 2]
        if k + 1 >= len(words) or not any(lab[: k + 2] == prefix for lab in labels):
            got = words[k + 1] if k + 1 < len(words) else "nothing"
            if isinstance(s, str):
                return f"expected '{s}' (the action goes on as '{s}'), found '{got}'"
            offered = sorted({lab[k + 1] for lab in labels
                              if lab[: k + 1] == prefix[: k + 1] and len(lab) > k + 1})
            what = s.kind or s.var.replace("_", " ")
            return f"'{got}' is not offered here" + (
                f" (the {what} offered: {some(offered)})" if offered else "")
    return "too many values"


def _slots(program: Program, action: ast.Action) -> list[ast.Choose | str]:
    """The words of an action's option after its name: the mover's chooses, and at a `then`
    the name of the action it goes on as, followed by that action's words."""
    out: list[ast.Choose | str] = []
    for s in action.body.stmts:
        if isinstance(s, ast.Choose) and s.mode == "mover":
            out.append(s)
        elif isinstance(s, ast.Then):
            out.append(s.action)
            out += _slots(program, program.actions[s.action])
    return out


def refusal(program: Program, s: ast.Require, value: Callable[[ast.Expr], Any]) -> str:
    """Why a `require` refuses, for a tool that has only its values: its `else` text filled
    in, else a plain sentence (language/refusals.py says more where it has the position)."""
    if s.reason is not None:
        return fill(s.reason, value)
    return "a requirement of the rules does not hold"


def requirement_failed(program: Program, s: ast.Require) -> str:
    """The message of a failed `require` outside a menu (for the rulebook's author)."""
    return f"requirement failed: {s.message or source_text(program, s.cond)}"
