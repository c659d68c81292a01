"""The checks of scenario files on what the position holds: the board (`at`, `pieces`), a
zone's contents, the round and the score terms, with the failure (expected against found) each
reports. rulelang/tools/scenario/scenarios.py runs them; docs/language.md, "Testing your rules",
lists
them."""
from __future__ import annotations

from typing import Any

import rulelang
from rulelang.game import position
from rulelang.tools.scenario.scenario_read import Mistake, Step


def player(state: rulelang.State, step: Step, name: str) -> int:
    names = state.game.player_names
    if name not in names:
        raise Mistake(step.span, f"no player '{name}' in this game",
                      f"the players: {', '.join(names)}")
    return names.index(name)


class Failed(Exception):
    """An expectation that does not hold: what was expected against what was found."""

    def __init__(self, step: Step, expected: str, found: str) -> None:
        super().__init__(found)
        self.step, self.expected, self.found = step, expected, found


def listed(items: list[str] | tuple[str, ...]) -> str:
    return "[" + ", ".join(f'"{s}"' for s in items) + "]"


def short(items: list[str]) -> str:
    return listed(items) if len(items) <= 12 else listed(items[:12])[:-1] + ", ...]"


def num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def as_list(v: Any) -> Any:
    """A value as a scenario writes it: lists (and tuples) as lists, records as dicts."""
    if isinstance(v, dict):
        return Fields((k, as_list(x)) for k, x in v.items())
    return [as_list(x) for x in v] if isinstance(v, (list, tuple)) else v


class Fields(dict):  # type: ignore[type-arg]
    """A record's fields as a scenario compares them: in order (`(a: 1, b: 2)` is not
    `(b: 2, a: 1)`)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, dict) and list(self.items()) == list(other.items())

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None


def shown_value(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(shown_value(x) for x in v) + "]"
    if isinstance(v, dict):  # a record
        return "(" + ", ".join(f"{k}: {shown_value(x)}" for k, x in v.items()) + ")"
    return str(v).lower() if isinstance(v, bool) else (f'"{v}"' if isinstance(v, str) else str(v))


def _board(state: rulelang.State) -> dict[str, list[dict[str, Any]]]:
    return {e["site"]: e["pieces"] for e in state.observation(0)["board"]}


def _piece_text(p: dict[str, Any]) -> str:
    return " ".join(x for x in (p["owner"], p["kind"]) if x)


def _at(state: rulelang.State, step: Step) -> None:
    board = _board(state)
    for site in step.args[0]:
        _at_site(state, step, board, site, step.args[1])


def _at_site(state: rulelang.State, step: Step, board: dict[str, list[dict[str, Any]]],
             site: str, what: tuple[Any, ...]) -> None:
    if site not in board:
        raise Mistake(step.span, f"no site '{site}' on this board",
                      f"sites are named like {', '.join(list(board)[:3])}")
    pieces = board[site]
    found = _piece_text(pieces[-1]) if pieces else "empty"
    if what[0] == "at_empty":
        if pieces:
            raise Failed(step, f"{site} empty", found)
        return
    attrs = {a[1]: a[2] for a in what[-1][1:]} if isinstance(what[-1], tuple) else {}
    names = [x for x in what[1:] if isinstance(x, str)]
    owner: str | None = names[0]
    kind = names[1] if len(names) > 1 else None
    if owner not in state.game.player_names and kind is None:  # `at "a1" ball`: any owner
        owner, kind = None, owner
    elif owner is not None and owner not in state.game.player_names:
        player(state, step, owner)
    def fits(p: dict[str, Any]) -> bool:
        return not ((owner and p["owner"] != owner) or (kind and p["kind"] != kind)
                    or any(as_list(p["attrs"].get(k)) != v for k, v in attrs.items()))
    with_ = ", ".join(f"{k} = {shown_value(v)}" for k, v in attrs.items())
    if what[0] == "has":  # any piece of the site
        if not any(fits(p) for p in pieces):
            raise Failed(step, f"{site} has " + " ".join(x for x in (owner, kind) if x)
                         + (f" with {with_}" if attrs else ""), f"{site}: " + (", ".join(
                             _piece_text(p) + "".join(f" {k} = {shown_value(as_list(v))}"
                                                      for k, v in p["attrs"].items()
                                                      if k in attrs) for p in pieces)
                             or "empty"))
        return
    top = pieces[-1] if pieces else None
    if top is None or not fits(top):
        shown = found + (" with " + ", ".join(f"{k} = {shown_value(as_list(top['attrs'].get(k)))}"
                                              for k in attrs) if top and attrs else "")
        raise Failed(step, " ".join(x for x in (site, owner, kind) if x)
                     + (f" with {with_}" if attrs else ""), f"{site} {shown}")


def _pieces(state: rulelang.State, step: Step) -> None:
    name, want = (step.args if len(step.args) == 2 else (None, step.args[0]))
    if name is not None:
        player(state, step, name)
    got = sum(1 for ps in _board(state).values() for p in ps
              if name is None or p["owner"] == name)
    if got != want:
        who = f" of {name}" if name else ""
        raise Failed(step, f"{want} pieces{who} on the board", str(got))


def _holds(state: rulelang.State, step: Step) -> None:
    (zone, owner), want = step.args[0], (step.args[1] if len(step.args) > 1 else ())
    found = _zone_labels(state, step, zone, owner)
    if list(want) != found:
        whose = f" of {owner}" if owner else ""
        raise Failed(step, f"zone {zone}{whose} holds {listed(want)}", short(found))


def _zone_count(state: rulelang.State, step: Step) -> None:
    (zone, owner), want, *kind = step.args
    found = _zone_labels(state, step, zone, owner, kind[0] if kind else None)
    if len(found) != want:
        whose = f" of {owner}" if owner else ""
        what = f"{kind[0]} pieces" if kind else "pieces"
        raise Failed(step, f"{want} {what} in zone {zone}{whose}", f"{len(found)}: "
                     + short(found))


def _zone_labels(state: rulelang.State, step: Step, zone: str, owner: str | None,
                 kind: str | None = None) -> list[str]:
    try:
        return position.zone_labels(state, zone, owner, kind)
    except position.PositionError as err:
        raise Mistake(step.span, str(err)) from None


def _round(state: rulelang.State, step: Step) -> None:
    if state.data.round != step.args[0]:
        raise Failed(step, f"round {step.args[0]}", f"round {state.data.round}")


def _terms(state: rulelang.State, step: Step) -> dict[str, float]:
    """The score terms of the player named, those starting with the prefix if one is given."""
    name, rest = step.args[0], step.args[1:]
    prefix = rest[0] if rest and isinstance(rest[0], str) else ""
    terms = state.score_breakdown(player(state, step, name))
    return {t: v for t, v in terms.items() if t.startswith(prefix)}


def _terms_text(terms: dict[str, float]) -> str:
    return "[" + ", ".join(f'"{t}": {num(v)}' for t, v in terms.items()) + "]"


def _terms_exactly(state: rulelang.State, step: Step) -> None:
    found = _terms(state, step)
    items = step.args[-1] if step.args and isinstance(step.args[-1], tuple) else ("",)
    want = {item[1]: item[2] for item in items[1:]}
    if want != found:
        starting = f' starting "{step.args[1]}"' \
            if len(step.args) > 1 and isinstance(step.args[1], str) else ""
        odd = [f'"{t}": {num(v)}' + (f", not {num(want[t])}" if t in want else
                                      " (not expected)")
               for t, v in found.items() if want.get(t) != v]
        odd += [f'"{t}" missing' for t in want if t not in found]
        raise Failed(step, f"score terms of {step.args[0]}{starting} exactly "
                     f"{_terms_text(want)}", f"{_terms_text(found)}: " + "; ".join(odd))


def _terms_total(state: rulelang.State, step: Step) -> None:
    found, want = _terms(state, step), step.args[-1]
    total = sum(found.values())
    if total != want:
        starting = f' starting "{step.args[1]}"' if len(step.args) == 3 else ""
        raise Failed(step, f"score terms of {step.args[0]}{starting} total {want}",
                     f"{num(total)}: {_terms_text(found)}")


CHECKS = {
    "e_at": _at,
    "e_at_has": lambda s, st: _at(s, Step(st.kind, st.span, st.text,
                                           (st.args[0], ("has", *st.args[1:])))),
    "e_pieces": _pieces, "e_holds": _holds, "e_zone_count": _zone_count,
    "e_round": _round, "e_terms": _terms_exactly, "e_terms_total": _terms_total,
}
