"""`rulelang compare`: two rulebooks, or one with two option sets, played on the same seeds
with the same seat rotation, so that game i of side A and game i of side B form a pair.

It reports each side's figures and the paired differences (B - A) with 95 % intervals for
every per-game figure of metrics.py (each seat's win rate, draws, the cap, the length in
plies, turns and rounds, the branching, the margin …); with `--sprt METRIC` it plays pairs in index
order until a sequential probability ratio test shows a difference in that metric or rules
one out (stats.Sprt), so the games played, like every figure, are the same for every --jobs.
With `--out DIR` it writes DIR/compare.json and DIR/report.html (report_compare.py).
A pair in which a game met a rule error is left out of the differences, and its failed
game listed with the command replaying it (tools/evidence/failures.py); the command then exits 1.
"""
from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterator
from typing import Any

from rulelang.tools.common import _user_error
from rulelang.tools.evidence.evaluate import (
    Progress,
    auto_jobs,
    jobs,
    make_setup,
    out_dir,
    ray_address,
    report,
    show,
    to_json,
)
from rulelang.tools.evidence.failures import failure_lines, is_failed
from rulelang.tools.evidence.metrics import Metric, binary_names, paired_metrics
from rulelang.tools.evidence.playout import Record, Setup, Task, chunks, run
from rulelang.tools.evidence.report_compare import compare_page
from rulelang.tools.evidence.stats import Sprt, paired


def metrics_of(a: tuple[Setup, Any], b: tuple[Setup, Any]) -> dict[str, Metric]:
    """The figures both sides have (metrics.paired_metrics)."""
    programs = [side[1].runtime.program for side in (a, b)]
    scored = all(bool(p.scores) for p in programs)
    return paired_metrics(a[1].num_players, a[0].agents, scored,
                          all(p.round is not None for p in programs), scored)


def _sides(args: argparse.Namespace) -> tuple[tuple[Setup, Any], tuple[Setup, Any]]:
    b_path = args.b or args.a
    if args.b is None and sorted(args.option_a) == sorted(args.option_b):
        raise _user_error("R418", "compare needs two rulebooks or two option sets",
                          help="rulelang compare A.rule B.rule, or rulelang compare A.rule "
                          "--option-a K=V --option-b K=W")
    a = make_setup(args, args.a, args.option + args.option_a)
    b = make_setup(args, b_path, args.option + args.option_b)
    if a[1].num_players != b[1].num_players:
        raise _user_error("R418", f"the sides have {a[1].num_players} and "
                          f"{b[1].num_players} players", help="give --players N")
    return a, b


def _check_sprt(args: argparse.Namespace, metrics: dict[str, Metric]) -> Sprt | None:
    if args.sprt is None:
        return None
    if args.sprt not in binary_names(metrics):
        raise _user_error("R418", f"--sprt cannot test '{args.sprt}'",
                          help="a rate that is 0 or 1 in each game: "
                          + ", ".join(binary_names(metrics)))
    if not 0.5 < args.q1 < 1:
        raise _user_error("R418", f"--q1 must lie between 0.5 and 1, not {args.q1}")
    for flag, value in (("--alpha", args.alpha), ("--beta", args.beta)):
        if not 0 < value < 0.5:
            raise _user_error("R418", f"{flag} must lie between 0 and 0.5, not {value}")
    return Sprt(args.q1, args.alpha, args.beta, args.sprt)


def _tasks(a: Setup, b: Setup, games: int, size: int) -> Iterator[Task]:
    for task_a, task_b in zip(chunks(a, 0, games, size), chunks(b, 0, games, size),
                              strict=True):
        yield task_a
        yield task_b


def play_pairs(a: Setup, b: Setup, games: int, workers: int, sprt: Sprt | None,
               progress: Progress | None = None, cluster: str | None = None,
               read: Callable[[Record], float] | None = None
               ) -> tuple[list[Record], list[Record]]:
    """The records of both sides, pair by pair; with an SPRT (on the figure `read` reads),
    up to the pair that decides."""
    size = max(1, min(100 if sprt is None else 20, games // (8 * workers) or 1))
    side_a: list[Record] = []
    side_b: list[Record] = []
    pending: list[Record] | None = None
    for done in run(_tasks(a, b, games, size), workers, progress, cluster):
        if pending is None:
            pending = done
            continue
        for ra, rb in zip(pending, done, strict=True):
            side_a.append(ra)
            side_b.append(rb)
            if sprt is not None and read is not None and not (is_failed(ra) or is_failed(rb)):
                sprt.add(read(ra), read(rb))
                sprt.path.append((sprt.llr(sprt.q1), sprt.llr(1 - sprt.q1)))
                if sprt.decision() is not None:
                    return side_a, side_b
        pending = None
    return side_a, side_b


def whole_pairs(side_a: list[Record], side_b: list[Record]
                ) -> tuple[list[Record], list[Record]]:
    """The pairs in which neither game failed (a failed game has no figures)."""
    pairs = [(a, b) for a, b in zip(side_a, side_b, strict=True)
             if not (is_failed(a) or is_failed(b))]
    return [a for a, _ in pairs], [b for _, b in pairs]


def differences(side_a: list[Record], side_b: list[Record],
                metrics: dict[str, Metric]) -> dict[str, Any]:
    side_a, side_b = whole_pairs(side_a, side_b)
    return {name: paired([m.read(r) for r in side_a], [m.read(r) for r in side_b])
            for name, m in metrics.items()}


def sprt_figures(sprt: Sprt, pairs: int) -> dict[str, Any]:
    discordant = sprt.a_higher + sprt.b_higher
    share = discordant / pairs if pairs else 0.0
    fixed = math.ceil(sprt.fixed_pairs() / share) if share else None
    return {"metric": sprt.metric, "decision": sprt.decision(), "pairs": pairs,
            "discordant": discordant, "b_higher": sprt.b_higher, "a_higher": sprt.a_higher,
            "q1": sprt.q1, "alpha": sprt.alpha, "beta": sprt.beta,
            "llr": max(sprt.llr(sprt.q1), sprt.llr(1 - sprt.q1)),
            "bounds": [sprt.lower, sprt.upper], "fixed_size_pairs": fixed,
            "path": [list(p) for p in sprt.path]}


def _line(name: str, d: dict[str, float], m: Metric) -> str:
    k, unit = (100, " points") if m.share else (1, m.unit)
    verdict = "differ" if d["low"] > 0 or d["high"] < 0 else "no clear difference"
    return (f"  {name:<13} A {k * d['a']:.2f}  B {k * d['b']:.2f}  B-A {k * d['diff']:+.2f}"
            f"{unit} [{k * d['low']:+.2f}, {k * d['high']:+.2f}]: {verdict}")


def cmd_compare(args: argparse.Namespace) -> int:
    chosen = jobs(args)
    cluster = ray_address(args)
    where = out_dir(args.out)
    sides = _sides(args)
    (a, game_a), (b, game_b) = sides
    workers = chosen or auto_jobs(a, 2 * args.games, cluster)
    metrics = metrics_of(*sides)
    shares = {name for name, m in metrics.items() if m.share}
    sprt = _check_sprt(args, metrics)
    progress = Progress(2 * args.games)
    side_a, side_b = play_pairs(a, b, args.games, workers, sprt, progress, cluster,
                                metrics[sprt.metric].read if sprt is not None else None)
    progress.close()
    diffs = differences(side_a, side_b, metrics)
    whole = len(whole_pairs(side_a, side_b)[0])
    heads = [f"A: {game_a.name} ({a.path}{_opts(a)})", f"B: {game_b.name} ({b.path}{_opts(b)})"]
    data: dict[str, Any] = {"pairs": len(side_a), "pairs_failed": len(side_a) - whole,
                            "differences": diffs, "shares": sorted(shares)}
    reports = report(a, game_a, side_a), report(b, game_b, side_b)
    failed = [*failure_lines(reports[0]["failures"], len(side_a), "A: "),
              *failure_lines(reports[1]["failures"], len(side_b), "B: ")]
    sprt_lines: list[str] = []
    if sprt is not None:
        figures = sprt_figures(sprt, len(side_a))
        data["sprt"] = figures
        said = {"H1": "a difference is shown", "H0": "a difference is ruled out",
                None: "undecided: the --games limit came first"}[figures["decision"]]
        fixed = figures["fixed_size_pairs"]
        sprt_lines.append(f"SPRT on {args.sprt}: {said} after {len(side_a)} pairs "
                          f"({figures['b_higher']} pairs B higher, {figures['a_higher']} A "
                          f"higher; LLR {figures['llr']:.2f}, bounds "
                          f"{figures['bounds'][0]:.2f}..{figures['bounds'][1]:.2f})")
        if fixed is not None:
            sprt_lines.append(f"  a fixed-size test at the same error rates needs about "
                              f"{fixed} pairs")
    lines = [*heads,
             f"{len(side_a)} pairs (same seeds, same seat rotation)"
             + (f", {len(side_a) - whole} with a failed game left out" if whole < len(side_a)
                else "") + "; B - A, 95 % intervals:",
             *(_line(name, d, metrics[name]) for name, d in diffs.items()), *sprt_lines,
             *failed]
    units = {name: m.unit for name, m in metrics.items()}
    show(lines, lambda: _view(heads, len(side_a), diffs, shares, units, sprt_lines))
    if where is not None:
        data["a"], data["b"] = reports
        (where / "compare.json").write_text(to_json(data), encoding="utf-8")
        (where / "report.html").write_text(compare_page(data, lines), encoding="utf-8")
        print(f"written: {where / 'compare.json'}, {where / 'report.html'}")
    return 1 if whole < len(side_a) else 0


def _opts(setup: Setup) -> str:
    return "".join(f", {k}={v}" for k, v in setup.options)


def _view(heads: list[str], pairs: int, diffs: dict[str, Any], shares: set[str],
          units: dict[str, str], sprt_lines: list[str]) -> Any:
    from rulelang.tools.evidence.tables import compare_view

    return compare_view(heads, pairs, diffs, shares, units, sprt_lines)
