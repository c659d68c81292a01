"""`rulelang evaluate`: play many games of a rulebook and report what they show.

The games run on a process pool (playout.py; `--jobs`, default every core), the figures come
from report.py and stats.py, and with `--out DIR` the run is written as DIR/evaluation.json
(every figure and every game's record) and DIR/report.html (self-contained, offline).
Mistakes are diagnostics: R418 a bad number or agent list, R419 an unusable --out folder.
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
from rulelang.tools.choices import choice_lines
from rulelang.tools.choices import summary as choice_summary
from rulelang.tools.common import _user_error, parse_options
from rulelang.tools.coverage import coverage_lines, rule_coverage
from rulelang.tools.playout import Record, Setup, chunks, run
from rulelang.tools.report import rate_text, summarize, summary_lines
from rulelang.tools.report_html import page


def positive(value: int | None, flag: str) -> int:
    if value is None or value < 1:
        raise _user_error("R418", f"{flag} must be a positive whole number, not {value}")
    return value


def jobs(args: argparse.Namespace) -> int:
    return positive(os.cpu_count() or 1 if args.jobs is None else args.jobs, "--jobs")


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
                  args.mode)
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

            from rulelang.tools.tables import GamesProgress

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
    from rulelang.tools.cluster import ray_module
    ray_module()  # installed? (a clear mistake before any game is played)
    return args.address or ""


def evaluate(setup: Setup, games: int, workers: int, progress: Progress | None = None,
             cluster: str | None = None) -> list[Record]:
    """The records of games 0 .. games-1, ordered by index (on Ray with `cluster`)."""
    records: list[Record] = []
    tasks = chunks(setup, 0, games, chunk_size(games, workers))
    for done in run(tasks, workers, progress, cluster):
        records.extend(done)
    return records


def report(setup: Setup, game: Any, records: list[Record]) -> dict[str, Any]:
    """Everything the JSON file holds: the setup, the figures and every game's record."""
    summary = summarize(records, list(game.player_names), list(setup.agents))
    from rulelang.tools.heatmap import site_counts  # (with the pictures: not at start)

    summary["sites"] = site_counts(game, records)  # how often actions named each site
    summary["choices"] = choice_summary(game.runtime.program, records)
    return {"rulebook": setup.path, "game": game.name, "options": dict(setup.options),
            "players": list(game.player_names), "agents": list(setup.agents),
            "seed": setup.seed, "games": len(records), "max_plies": setup.max_plies,
            "mode": setup.mode, "summary": summary, "records": records}


def to_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def cmd_evaluate(args: argparse.Namespace) -> int:
    if args.coverage < 0:
        raise _user_error("R418", f"--coverage must be 0 or more, not {args.coverage}")
    workers = jobs(args)
    cluster = ray_address(args)
    where = out_dir(args.out)
    setup, game = make_setup(args, args.path, args.option)
    progress = Progress(args.games)
    cpu = time.process_time()
    records = evaluate(setup, args.games, workers, progress, cluster)
    progress.close()
    seconds = progress.elapsed()
    data = report(setup, game, records)
    lines = summary_lines(f"{game.name} ({setup.path})", data["summary"])
    lines += choice_lines(data["summary"]["choices"])
    if args.coverage:
        data["summary"]["coverage"] = rule_coverage(game, setup.path, dict(setup.options),
                                                    records, args.coverage)
        lines += coverage_lines(data["summary"]["coverage"])
    title = f"{game.name} ({setup.path})"
    show(lines, lambda: _view(title, data["summary"]))
    print(f"{len(records)} games in {seconds:.1f} s on {workers} "
          f"{'process' if workers == 1 else 'processes'}: "
          f"{rate_text(len(records) / seconds)} games/s"
          + (f", {time.process_time() - cpu:.1f} s CPU here" if workers == 1 else ""))
    if where is not None:
        (where / "evaluation.json").write_text(to_json(data), encoding="utf-8")
        info = {"rulebook": setup.path, "agents": ",".join(setup.agents),
                "seed": setup.seed, "games": len(records), "max plies": setup.max_plies,
                **{f"option {k}": v for k, v in setup.options}}
        from rulelang.tools.heatmap import heatmap_svg

        heat = heatmap_svg(game, data["summary"]["sites"])
        (where / "report.html").write_text(page(game.name, info, data["summary"], lines, heat),
                                           encoding="utf-8")
        print(f"written: {where / 'evaluation.json'}, {where / 'report.html'}")
    return 0


def _view(title: str, summary: dict[str, Any]) -> Any:
    from rulelang.tools.tables import evaluate_view

    return evaluate_view(title, summary)
