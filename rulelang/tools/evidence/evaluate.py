"""`rulelang evaluate`: play many games of a rulebook and report what they show.

The games run on a process pool (playout.py; `--jobs`, default every core), the figures come
from report.py and stats.py, and with `--out DIR` the run is written as DIR/evaluation.json
(every figure and every game's record) and DIR/report.html (self-contained, offline).
Mistakes are diagnostics: R418 a bad number or agent list, R419 an unusable --out folder.
A game that meets a rule error is reported as failed (tools/evidence/failures.py) and the command
exits 1; `--fail-fast` stops the run at the first such error instead.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from rulelang.agents import make_agent
from rulelang.tools.common import _user_error, parse_options
from rulelang.tools.evidence.choices import choice_lines
from rulelang.tools.evidence.choices import summary as choice_summary
from rulelang.tools.evidence.coverage import coverage_lines, rule_coverage
from rulelang.tools.evidence.failures import failure_lines, is_failed, listed
from rulelang.tools.evidence.playout import Record, Setup, chunks, play_one, run
from rulelang.tools.evidence.report import rate_text, summarize, summary_lines
from rulelang.tools.evidence.report_html import page


def positive(value: int | None, flag: str) -> int:
    if value is None or value < 1:
        raise _user_error("R418", f"{flag} must be a positive whole number, not {value}")
    return value


SHORT = 4.0  # CPU seconds: a run this short is played by one process (see auto_jobs)


def jobs(args: argparse.Namespace) -> int | None:
    """--jobs, or None: chosen by auto_jobs once the rulebook is loaded."""
    return None if args.jobs is None else positive(args.jobs, "--jobs")


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else os.cpu_count() or 1


def auto_jobs(setup: Setup, games: int, cluster: str | None = None) -> int:
    """The default number of workers, from measurement: a few of the run's games are timed
    here (their records are not kept: a game depends on its index only). A run estimated at
    less than SHORT CPU seconds is played by this process alone (a pool's start and its
    workers' cold caches would cost more than they save); a longer one by one worker per
    core left idle by the machine's other work (its load average), at least one. On a Ray
    cluster, one per CPU of this machine."""
    if cluster is not None:
        return cores()
    if cores() == 1:
        return 1
    begin, n = time.process_time(), 0
    while n < min(games, 50) and time.process_time() - begin < 0.25:
        play_one(setup, n)
        n += 1
    if (time.process_time() - begin) / n * games < SHORT:
        return 1
    busy = round(os.getloadavg()[0]) if hasattr(os, "getloadavg") else 0
    return max(1, min(cores(), cores() - busy))


def agent_list(spec: str) -> tuple[str, ...]:
    """The agents: one for every seat, one per seat, or a ladder (playout.seat_agents)."""
    names = tuple(s.strip().lower() for s in spec.split(","))
    for name in names:
        if make_agent(name).is_human:
            raise _user_error("R418", "no human can play in an evaluation",
                              help="use random, mcts or mcts:N")
    return names


def out_dir(path: str | None) -> Path | None:
    """The --out folder, made if need be (in a folder that exists: a mistyped path makes
    no tree of folders) and checked writable before any game is played."""
    if path is None:
        return None
    where = Path(path)
    if not where.is_dir() and not where.parent.is_dir():
        raise _user_error("R419", f"cannot write the reports to '{path}': there is no folder "
                          f"'{where.parent}'",
                          help="give a folder you may write to with --out DIR (its parent "
                          "must exist)")
    try:
        where.mkdir(exist_ok=True)
        probe = where / ".rulelang-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        raise _user_error("R419", f"cannot write the reports to '{path}': "
                          f"{exc.strerror or exc}",
                          help="give a folder you may write to with --out DIR") from None
    return where


def make_setup(args: argparse.Namespace, path: str, options: list[str]) -> tuple[Setup, Any]:
    """The setup of a run, validated in this process (so workers meet no user mistake)."""
    positive(args.games, "--games")
    positive(args.max_plies, "--max-plies")
    opts = parse_options(options, args.players)
    setup = Setup(path, tuple(sorted((opts or {}).items())), (), args.seed, args.max_plies,
                  args.mode, args.fail_fast)
    game = setup.game()  # loaded (and kept) here: workers forked from here have it
    setup = dataclasses.replace(setup, agents=agent_list(args.agents))
    return setup, game


class Progress:
    """games/s and the time left while the games run, when stderr is a terminal: a Rich
    progress bar (tables.GamesProgress)."""

    def __init__(self, total: int) -> None:
        self.done, self.start = 0, time.perf_counter()
        self.bar: Any = None
        if sys.stderr.isatty():
            from rich.console import Console

            from rulelang.tools.evidence.tables import GamesProgress

            self.bar = GamesProgress(total, Console(stderr=True))

    def __call__(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.advance(n, self.done / max(1e-9, self.elapsed()))

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def show(lines: list[str], view: Any) -> None:
    """The summary on stdout: `view()`'s Rich tables on a terminal, else the plain lines."""
    if sys.stdout.isatty():
        from rich.console import Console

        Console(highlight=False).print(view())
    else:
        print("\n".join(lines))


def chunk_size(games: int, workers: int) -> int:
    return max(1, min(200, games // (8 * workers) or 1))


def ray_address(args: argparse.Namespace) -> str | None:
    """None for the local pool, "" for a private Ray instance, else the cluster's address."""
    if args.address is not None and args.backend != "ray":
        raise _user_error("R418", "--address is for --backend ray")
    if args.backend == "local":
        return None
    from rulelang.tools.evidence import cluster
    cluster.ray_module()  # installed? (a clear mistake before any game is played)
    cluster.verbose[0] = args.verbose
    return args.address or ""


def ray_start(cluster: str | None) -> float:
    """The seconds the private Ray instance of this run took to start (0: none)."""
    if cluster != "":
        return 0.0
    from rulelang.tools.evidence import cluster as ray_cluster
    return ray_cluster.started[-1] if ray_cluster.started else 0.0


def evaluate(setup: Setup, games: int, workers: int, progress: Progress | None = None,
             cluster: str | None = None) -> list[Record]:
    """The records of games 0 .. games-1, ordered by index (on Ray with `cluster`)."""
    records: list[Record] = []
    tasks = chunks(setup, 0, games, chunk_size(games, workers))
    for done in run(tasks, workers, progress, cluster):
        records.extend(done)
    return records


def report(setup: Setup, game: Any, played: list[Record]) -> dict[str, Any]:
    """Everything the JSON file holds: the setup, the figures (of the games that did not
    fail), every game's record and the failed games, each with the command replaying it."""
    records = [r for r in played if not is_failed(r)]
    failed = listed([r for r in played if is_failed(r)], setup.path, dict(setup.options),
                    setup.max_plies, setup.mode)
    summary = summarize(records, list(game.player_names), list(setup.agents))
    from rulelang.tools.pictures.heatmap import site_counts  # (with the pictures: not at start)

    summary["sites"] = site_counts(game, records)  # how often actions named each site
    summary["choices"] = choice_summary(game.runtime.program, records)
    return {"rulebook": setup.path, "game": game.name, "options": dict(setup.options),
            "players": list(game.player_names), "agents": list(setup.agents),
            "seed": setup.seed, "games": len(played), "games_failed": len(failed),
            "max_plies": setup.max_plies, "mode": setup.mode, "summary": summary,
            "records": records, "failures": failed}


def to_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def cmd_evaluate(args: argparse.Namespace) -> int:
    if args.coverage < 0:
        raise _user_error("R418", f"--coverage must be 0 or more, not {args.coverage}")
    chosen = jobs(args)
    cluster = ray_address(args)
    where = out_dir(args.out)
    setup, game = make_setup(args, args.path, args.option)
    workers = chosen or auto_jobs(setup, args.games, cluster)
    progress = Progress(args.games)
    cpu = time.process_time()
    played = evaluate(setup, args.games, workers, progress, cluster)
    progress.close()
    seconds, start = progress.elapsed(), ray_start(cluster)
    data = report(setup, game, played)
    records = data["records"]
    lines = summary_lines(f"{game.name} ({setup.path})", data["summary"])
    lines += choice_lines(data["summary"]["choices"])
    if args.coverage:
        data["summary"]["coverage"] = rule_coverage(game, setup.path, dict(setup.options),
                                                    records, args.coverage)
        lines += coverage_lines(data["summary"]["coverage"])
    else:
        lines.append("rule coverage: not measured (--coverage 0)")
    lines += failure_lines(data["failures"], len(played))
    title = f"{game.name} ({setup.path})"
    show(lines, lambda: _view(title, data["summary"]))
    print(f"{len(played)} games in {seconds - start:.1f} s on {workers} "
          f"{'process' if workers == 1 else 'processes'}: "
          f"{rate_text(len(played) / max(1e-9, seconds - start))} games/s"
          + (f" (and {start:.1f} s to start Ray)" if start else "")
          + (f", {time.process_time() - cpu:.1f} s CPU here" if workers == 1 else ""))
    if where is not None:
        (where / "evaluation.json").write_text(to_json(data), encoding="utf-8")
        info = {"rulebook": setup.path, "agents": ",".join(setup.agents),
                "seed": setup.seed, "games": len(played), "failed": len(data["failures"]),
                "max plies": setup.max_plies,
                **{f"option {k}": v for k, v in setup.options}}
        from rulelang.tools.pictures.heatmap import heatmap_svg

        heat = heatmap_svg(game, data["summary"]["sites"])
        (where / "report.html").write_text(page(game.name, info, data["summary"], lines, heat,
                                                data["failures"]), encoding="utf-8")
        print(f"written: {where / 'evaluation.json'}, {where / 'report.html'}")
    return 1 if data["failures"] else 0


def _view(title: str, summary: dict[str, Any]) -> Any:
    from rulelang.tools.evidence.tables import evaluate_view

    return evaluate_view(title, summary)
