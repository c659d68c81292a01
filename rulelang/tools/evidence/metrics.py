"""The per-game figures `rulelang compare` pairs, each read from one game's record: every
seat's sole win, draws, shared wins, games cut by the cap, each agent's win (when the seats
hold different agents), the length in plies, turns and rounds, the branching, the share of
single-option decisions, and in scored games the final margin and the lead changes.

A figure is a share (a rate: shown in percentage points) or a number with its unit; a share
that is 0 or 1 in every game (`binary`) can be tested by `--sprt`."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulelang.tools.evidence.playout import Record


@dataclass(frozen=True)
class Metric:
    read: Callable[[Record], float]
    share: bool = False  # a rate: B - A in percentage points
    binary: bool = False  # 0 or 1 in every game (a share --sprt can test)
    unit: str = ""  # of a figure that is not a share


def _won(seat: int) -> Callable[[Record], float]:
    return lambda r: float(r["winners"] == [seat])


def _agent_won(name: str) -> Callable[[Record], float]:
    return lambda r: float(any(r["winners"] == [s] for s, a in enumerate(r["agents"])
                               if a == name))


def _per_decision(key: str) -> Callable[[Record], float]:
    def read(r: Record) -> float:
        b = r["branching"]
        return b[key] / b["decisions"] if b["decisions"] else 0.0
    return read


def _margin(r: Record) -> float:
    top = sorted(r["scores"], reverse=True)
    return float(top[0] - top[1]) if len(top) > 1 else 0.0


def paired_metrics(players: int, agents: Sequence[str], scored: bool, rounds: bool,
                   lead_changes: bool) -> dict[str, Metric]:
    """The figures of a comparison, by name (`p0-win`: seat 1's win, `p1-win`: seat 2's …).
    `scored`, `rounds`, `lead_changes`: whether both sides have them."""
    found = {f"p{seat}-win": Metric(_won(seat), share=True, binary=True)
             for seat in range(players)}
    found["draw"] = Metric(lambda r: float(not r["capped"] and not r["winners"]), share=True,
                           binary=True)
    if players > 2:
        found["shared-win"] = Metric(lambda r: float(len(r["winners"]) > 1), share=True,
                                     binary=True)
    found["capped"] = Metric(lambda r: float(r["capped"]), share=True, binary=True)
    names = list(dict.fromkeys(agents))
    if len(names) > 1:
        for name in names:
            found[f"{name}-win"] = Metric(_agent_won(name), share=True, binary=True)
    found["length"] = Metric(lambda r: float(r["plies"]), unit=" plies")
    found["turns"] = Metric(lambda r: float(r["turns"]), unit=" turns")
    if rounds:
        found["rounds"] = Metric(lambda r: float(r["rounds"]), unit=" rounds")
    found["branching"] = Metric(_per_decision("options"), unit=" options")
    found["single-option"] = Metric(_per_decision("single"), share=True)
    if scored:
        found["margin"] = Metric(_margin, unit=" score")
    if lead_changes:
        found["lead-changes"] = Metric(lambda r: float(r["lead_changes"]), unit=" changes")
    return found


def binary_names(metrics: dict[str, Metric]) -> list[str]:
    return [name for name, m in metrics.items() if m.binary]
