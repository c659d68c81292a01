"""The command-line arguments of `rulelang evaluate` and `rulelang compare`, apart from the
commands themselves, so that the command line starts without importing what only they use
(the pool, the reports, the statistics): each command is imported when it is run."""
from __future__ import annotations

import argparse
from typing import Any

import rulelang
from rulelang.tools.evidence.coverage import DEFAULT_LIMIT

DEFAULT_GAMES = 1000
DEFAULT_CAP = 2000


def add_arguments(p: argparse.ArgumentParser, games: int = DEFAULT_GAMES) -> None:
    """The options evaluate and compare share."""
    p.add_argument("--players", type=int, metavar="N")
    p.add_argument("--games", type=int, default=games, metavar="N",
                   help=f"how many games (default {games})")
    p.add_argument("--agents", default="random", metavar="A,B,...",
                   help="random, mcts, mcts:N; one for every seat, one per seat (rotated "
                   "through the seats game by game), or a ladder of any other number "
                   "(neighbours in the list play each other; default random)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the master seed")
    p.add_argument("--jobs", type=int, default=None, metavar="J",
                   help="worker processes (default: one for a run of a few seconds, else "
                   "one per idle core)")
    p.add_argument("--max-plies", type=int, default=DEFAULT_CAP, metavar="M",
                   help=f"cut a game after M moves (default {DEFAULT_CAP})")
    p.add_argument("--mode", choices=rulelang.MODES,
                   default="compiled")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local: a process pool here (default); ray: a Ray cluster")
    p.add_argument("--address", metavar="ADDR",
                   help="with --backend ray: the cluster to join (default: start a private "
                   "one, listening on 127.0.0.1 only)")
    p.add_argument("--out", metavar="DIR", help="write the JSON and HTML reports here")
    p.add_argument("--verbose", action="store_true",
                   help="with --backend ray: show Ray's own log lines")
    p.add_argument("--fail-fast", action="store_true",
                   help="stop at the first game that meets a rule error (default: play "
                   "every game, report the failed ones with their seeds and exit 1)")


def add_evaluate_parser(sub: Any) -> None:
    ev = sub.add_parser("evaluate", help="play many games and report balance, length, ...")
    ev.add_argument("path", metavar="PATH", help="rulebook file or bundled name")
    ev.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    add_arguments(ev)
    ev.add_argument("--coverage", type=int, default=DEFAULT_LIMIT, metavar="N",
                    help="replay the first N games for rule coverage (default "
                    f"{DEFAULT_LIMIT}; 0: none)")
    ev.set_defaults(run=_evaluate)


def add_compare_parser(sub: Any) -> None:
    cp = sub.add_parser("compare", help="play two rulebooks (or option sets) on the same seeds "
                        "and report the differences")
    cp.add_argument("a", metavar="A", help="rulebook file or bundled name")
    cp.add_argument("b", nargs="?", metavar="B", help="the other rulebook (default: A again, "
                    "with --option-a/--option-b)")
    cp.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="an option of both sides")
    cp.add_argument("--option-a", action="append", default=[], metavar="KEY=VALUE")
    cp.add_argument("--option-b", action="append", default=[], metavar="KEY=VALUE")
    cp.add_argument("--sprt", metavar="METRIC",
                    help="stop as soon as a difference in METRIC (a rate of games: p0-win, "
                    "p1-win, ..., draw, capped, AGENT-win) is shown or ruled out; --games is "
                    "then the most pairs played")
    cp.add_argument("--q1", type=float, default=0.6, metavar="Q",
                    help="SPRT: under H1, the share of discordant pairs in which one side "
                    "is higher (default 0.6; H0: one half)")
    cp.add_argument("--alpha", type=float, default=0.05, help="SPRT false alarm rate")
    cp.add_argument("--beta", type=float, default=0.05, help="SPRT miss rate")
    add_arguments(cp, games=2000)
    cp.set_defaults(run=_compare)


def _evaluate(args: argparse.Namespace) -> int:
    from rulelang.tools.evidence.evaluate import cmd_evaluate
    return cmd_evaluate(args)


def _compare(args: argparse.Namespace) -> int:
    from rulelang.tools.evidence.compare import cmd_compare
    return cmd_compare(args)


def add_mutate_arguments(test: argparse.ArgumentParser) -> None:
    """`rulelang test --mutate`: mutation testing of the rulebooks by their scenario files."""
    m = test.add_argument_group("mutation testing (--mutate)")
    m.add_argument("--mutate", action="store_true",
                   help="run the scenarios on single-point mutants of their rulebooks and "
                   "list the mutants no scenario kills")
    m.add_argument("--stdlib", action="store_true",
                   help="mutate the library modules the rulebook uses too")
    m.add_argument("--games", type=int, default=20, metavar="N",
                   help="random games that compare a surviving mutant with the original "
                   "(default 20)")
    m.add_argument("--seed", type=int, default=0, metavar="S",
                   help="the seed of the random games and of the choice of mutants")
    m.add_argument("--jobs", type=int, default=None, metavar="J",
                   help="worker processes (default: every core)")
    m.add_argument("--max-mutants", type=int, default=200, metavar="N",
                   help="at most N mutants per rulebook, chosen by the seed (default 200)")
    m.add_argument("--timeout", type=float, default=20.0, metavar="SECONDS",
                   help="the time box of one mutant (default 20 s)")
    m.add_argument("--json", action="store_true", help="the report as JSON")


def cmd_mutate(args: argparse.Namespace, mode: str) -> int:
    import os

    from rulelang.tools.common import _user_error
    from rulelang.tools.scenario.mutate import Settings, mutate_command
    for flag, value in (("--games", args.games), ("--max-mutants", args.max_mutants),
                        ("--jobs", args.jobs or 1)):
        if value < 1:
            raise _user_error("R418", f"{flag} must be a positive whole number, not {value}")
    if not args.timeout > 0:
        raise _user_error("R418", f"--timeout must be more than 0, not {args.timeout}")
    settings = Settings(args.games, args.seed, args.timeout, mode=mode)
    return mutate_command(args.paths, args.stdlib, args.max_mutants,
                          args.jobs or os.cpu_count() or 1, settings, args.json, print)
