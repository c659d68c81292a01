"""The reference menus: the options of a `do`.

For each action in the order written, every complete way of taking it is one option: the
values of the mover's chooses of its body, up to the option's end — the first statement that
another player or chance decides, or that may ask for a decision. The body is walked in
order: each choose tries each of its values, a `require` that fails refuses the way, an
effect runs on a scratch copy of the data (a way whose effect cannot happen is refused).
Only a Refusal refuses a way (errors.py: a failed `require`, a `put` with no piece, a piece
moved or sent to none); any other rule error met while trying one is reported.
After the last choose and requirement the rest of the option is tried on a scratch copy when
it may still refuse (a `require` or a `put`, also inside an `if`, a loop or an effect; a
`put` that comes first is only asked for its piece).

One detail is kept as the language has always had it (the fast menus agree): an effect
called after the last choose is looked into for a `require` or a `put`, but not the effects
it calls. In the scratch run of the rest a `let` binds for the rest of the action, as
when the action is taken.
"""
from __future__ import annotations

from typing import Any

from rulelang.errors import Refusal
from rulelang.language import ast
from rulelang.library.decision import Option, ThenMark, bound
from rulelang.library.semantics import Ctx


class Menus:
    def __init__(self, statements: Any) -> None:
        self.st = statements
        self.analysis = statements.analysis

    def options(self, s: ast.Do, c: Ctx) -> list[Option]:
        """The ways of the first group of actions that has any (`do a otherwise b`: b's
        only when a has none)."""
        out: list[Option] = []
        c.data.begin_action()
        for group in s.groups():
            for name in group:
                ways: list[tuple[Any, ...]] = []
                self.walk(self.st.program.actions[name].body.stmts, 0, c, {}, (), ways)
                out.extend((name, way) for way in ways)
            if out:
                break
        return out

    def walk(self, stmts: tuple[ast.Stmt, ...], i: int, c: Ctx, e: dict[str, Any],
             values: tuple[Any, ...], out: list[tuple[Any, ...]]) -> None:
        """Every way of taking stmts[i:], having chosen `values`, appended to out."""
        if not any(isinstance(s, (ast.Choose, ast.Require, ast.Then)) for s in stmts[i:]):
            if i < len(stmts) and isinstance(put := stmts[i], ast.Put) and \
                    not self.has_piece(put, c, e):
                return
            if self.analysis.may_refuse(stmts, i) and not self.runs(stmts, i, c, e):
                return
            out.append(values)
            return
        s = stmts[i]
        if isinstance(s, ast.Choose) and s.mode == "mover":
            for v in self.st.choices(s, c, e):
                e[s.var] = bound(v)
                self.walk(stmts, i + 1, c, e, values + (v,), out)
        elif isinstance(s, ast.Then):  # the action goes on as another: its ways follow
            then = self.st.program.actions[s.action].body.stmts
            self.walk(then, 0, c, {}, values + (ThenMark(s.action),), out)
        elif isinstance(s, ast.Require):
            if self.st.value(s.cond, c, e):
                self.walk(stmts, i + 1, c, e, values, out)
        elif isinstance(s, ast.Let):
            self.st.run_Let(s, c, e)
            self.walk(stmts, i + 1, c, e, values, out)
        elif self.analysis.ends_option(s):
            out.append(values)  # another player or chance decides next: the option ends here
        else:
            saved = c.data
            c.data = saved.copy()
            try:
                self.st.run_through(s, c, e)
                self.walk(stmts, i + 1, c, e, values, out)
            except Refusal:
                pass  # an effect that cannot happen makes this way of acting illegal
            finally:
                c.data = saved

    def has_piece(self, s: ast.Put, c: Ctx, e: dict[str, Any]) -> bool:
        try:
            self.st.piece_of(s, c, e)
            return True
        except Refusal:
            return False

    def runs(self, stmts: tuple[ast.Stmt, ...], j: int, c: Ctx, e: dict[str, Any]) -> bool:
        """Does the rest of the option get through on a scratch copy, up to the first
        statement that may ask for a decision?"""
        saved, scratch = c.data, dict(e)
        c.data = saved.copy()
        try:
            for s in stmts[j:]:
                if self.analysis.decides(s):
                    break
                self.st.run_through(s, c, scratch)
            return True
        except Refusal:
            return False
        finally:
            c.data = saved
