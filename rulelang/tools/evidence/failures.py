"""Games that meet a rule error are results: `evaluate`, `compare` and `check --simulate` play
every game, count a failed one with its seed, the error (code, message, file:line:col and the
rule calls that led to it) and the command that replays it, and report the figures of the
others. `--fail-fast` stops at the first, as an error of `rulelang play` does."""
from __future__ import annotations

import shlex
from typing import Any

from rulelang.errors import RuleRuntimeError

Record = dict[str, Any]
SHOWN = 5  # failed games listed on the terminal (every one is in the JSON and the page)


def error_fields(err: RuleRuntimeError) -> dict[str, Any]:
    """What a failed game's record says of its error (JSON-able; no value of the game)."""
    d = err.diagnostic
    return {"code": d.code, "message": d.message, "at": str(d.span) if d.span else None,
            "calls": [[str(span), name] for span, name in err.calls or ()],
            "text": err.render()}


def failed_record(err: RuleRuntimeError, index: int, seed: int, agents: list[str],
                  plies: int) -> Record:
    return {"index": index, "seed": seed, "agents": agents, "plies": plies,
            "failed": error_fields(err)}


def is_failed(record: Record) -> bool:
    return "failed" in record


def replay_command(path: str, record: Record, options: dict[str, Any],
                   max_plies: int | None, mode: str) -> str:
    """`rulelang play` of the failed game: its seed, its agents seat by seat (each gets the
    seed evaluate gave it: the game's seed + seat + 1), the options, the cap and the mode."""
    words = ["rulelang", "play", path, "--seed", str(record["seed"]),
             "--agents", ",".join(record["agents"])]
    for key, value in sorted(options.items()):
        words += ["--option", f"{key}={value}"]
    if max_plies is not None:
        words += ["--max-plies", str(max_plies)]
    if mode != "compiled":
        words += ["--mode", mode]
    return shlex.join(words)


def listed(failed: list[Record], path: str, options: dict[str, Any], max_plies: int | None,
           mode: str) -> list[dict[str, Any]]:
    """The failed games for the JSON report, each with its replay command."""
    return [{**r, "replay": replay_command(path, r, options, max_plies, mode)}
            for r in failed]


def failure_lines(failures: list[dict[str, Any]], games: int, side: str = "") -> list[str]:
    """The terminal's lines: how many games failed, then the first SHOWN of them."""
    if not failures:
        return []
    out = [f"{side}{len(failures)} of {games} games failed with a rule error (their figures "
           f"are left out; every one is in the JSON report):"]
    for r in failures[:SHOWN]:
        err = r["failed"]
        out.append(f"  game {r['index']}, seed {r['seed']}, after {r['plies']} plies: "
                   f"{err['at'] or ''}{': ' if err['at'] else ''}error[{err['code']}]: "
                   f"{err['message']}")
        if err["calls"]:
            out.append("    rule calls: " + " > ".join(f"{at} in {name}"
                                                       for at, name in err["calls"]))
        out.append(f"    replay: {r['replay']}")
    if len(failures) > SHOWN:
        out.append(f"  … and {len(failures) - SHOWN} more")
    return out
