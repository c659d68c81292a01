"""`rulelang test --mutate [PATH…]`: how well a rulebook's scenario files pin its rules down.

Each single-point mutant of the rulebook (mutants.py; with `--stdlib`, of the library modules
it uses too) is written into a private temporary folder beside copies of the files it reads,
and the scenario files that name the rulebook are run on it, in parallel (`--jobs`), each
mutant within a time box (`--timeout` seconds). A mutant that does not load is invalid; one
that fails a scenario, or outruns its time box, is killed. A mutant no scenario kills is then
played in `--games` seeded random games against the original (the same seeds and agents as
`rulelang evaluate`): "changes play in k of N games" (another action list, result or a rule
error) or "no visible difference in N games". The report lists the survivors by
file:line:col with the changed text, worst first, and the kill rate; which mutants are made
(when there are more than `--max-mutants` per rulebook) and every figure depend on `--seed`
only. Exit 1 when a survivor changes play."""
from __future__ import annotations

import dataclasses
import json
import multiprocessing
import random
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import rulelang
from rulelang import limits
from rulelang.agents import make_agent
from rulelang.errors import RulebookError, RulelangError
from rulelang.resources import stdlib_dir
from rulelang.tools.common import cap_game
from rulelang.tools.evidence.playout import game_seed
from rulelang.tools.scenario import scenarios
from rulelang.tools.scenario.mutants import Mutant, data_mutants, mutants

_ORIGINALS: dict[tuple[Any, ...], list[Any]] = {}  # per process: the original's games


@dataclasses.dataclass(frozen=True)
class Settings:
    games: int = 20
    seed: int = 0
    timeout: float = 20.0
    max_plies: int = 300
    mode: str = "compiled"


@dataclasses.dataclass(frozen=True)
class Job:
    """One mutant to try: the files to copy (real path, path in the copy), which of them it
    changes, the rulebook's path in the copy and the scenario files."""
    mutant: Mutant
    files: tuple[tuple[str, str], ...]
    changed: str  # the path in the copy of the file the mutant changes
    book: str  # the original rulebook
    book_copy: str  # its path in the copy
    tests: tuple[str, ...]
    settings: Settings


@dataclasses.dataclass(frozen=True)
class Outcome:
    status: str  # killed | survived | invalid | timeout
    by: str  # what killed it (a scenario, an error), or why it is invalid
    changed: int | None = None  # a survivor: in how many random games play changed


class _TimeUp(BaseException):
    """The mutant's time box ran out (a BaseException: no `except Exception` swallows it)."""


# ---- one mutant (in a worker) ---------------------------------------------------------------

def try_mutant(job: Job) -> Outcome:
    folder = Path(tempfile.mkdtemp(prefix="rulelang-mutant-"))
    try:
        for real, copy in job.files:
            target = folder / copy
            target.parent.mkdir(parents=True, exist_ok=True)
            if copy == job.changed:
                target.write_text(job.mutant.text, encoding="utf-8")
            else:
                shutil.copyfile(real, target)
        return _judge(job, str(folder / job.book_copy))
    except Exception as exc:  # noqa: BLE001 - a fault of rulelang on this mutant: it
        return Outcome("killed", f"rulelang failed: {type(exc).__name__}")  # differs
    finally:
        scenarios.forget_games()
        shutil.rmtree(folder, ignore_errors=True)


def _judge(job: Job, book: str) -> Outcome:
    """Invalid, killed by a scenario or the time box, or survived (then played against the
    original in random games, in a time box of its own)."""
    s = job.settings
    try:
        with _time_box(s.timeout):
            game = rulelang.load_game(book, mode=s.mode)
            killed = _scenarios(job, book)
    except RulebookError as err:
        first = err.diagnostics[0] if err.diagnostics else None
        return Outcome("invalid", f"error[{first.code}]: {first.message}" if first else "")
    except RulelangError as err:
        return Outcome("killed", f"the game cannot start: {str(err).splitlines()[0]}")
    except _TimeUp:
        return Outcome("timeout", f"its scenarios took more than {s.timeout:g} s")
    if killed is not None:
        return Outcome("killed", killed)
    original = _originals(job.book, s)
    try:
        with _time_box(s.timeout):
            played = _games(game, s)
    except _TimeUp:
        return Outcome("survived", f"its random games took more than {s.timeout:g} s")
    return Outcome("survived", "", sum(a != b for a, b in zip(original, played, strict=True)))


def _scenarios(job: Job, book: str) -> str | None:
    """The first scenario that fails on the mutant, if one does."""
    for test in job.tests:
        file = dataclasses.replace(scenarios.read(test), rulebook=Path(book))
        for res in scenarios.run(file, (job.settings.mode,)):
            if not res.passed:
                at = res.scenario.span
                return f"{at.path}:{at.line}:{at.column} {res.scenario.name}"
    return None


def _originals(book: str, s: Settings) -> list[Any]:
    key = (book, s.games, s.seed, s.max_plies, s.mode)
    if key not in _ORIGINALS:
        _ORIGINALS[key] = _games(rulelang.load_game(book, mode=s.mode), s)
    return _ORIGINALS[key]


def _games(game: Any, s: Settings) -> list[tuple[Any, ...]]:
    """What a random game shows, for each of `s.games` seeds: its actions and result, or its
    rule error (code and message)."""
    cap_game(game, s.max_plies)
    out: list[tuple[Any, ...]] = []
    for i in range(s.games):
        seed = game_seed(s.seed, i)
        agents = [make_agent("random", seed + p + 1) for p in range(game.num_players)]
        state = game.new_initial_state(seed=seed)
        try:
            while not state.is_terminal():
                state.apply_action(agents[state.current_player()].choose(state))
            out.append((tuple(state.history()), tuple(state.winners()), state.capped()))
        except RulelangError as err:
            d = getattr(err, "diagnostic", None)
            out.append((tuple(state.history()), "error", d.code if d else "",
                        d.message if d else str(err)))
    return out


class _time_box:
    """SIGALRM after `seconds` raises _TimeUp (the worker's main thread; Unix)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.armed = hasattr(signal, "setitimer")

    def __enter__(self) -> None:
        if self.armed:
            self.old = signal.signal(signal.SIGALRM, _time_up)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *_: object) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.old)


def _time_up(*_: object) -> None:
    raise _TimeUp


# ---- the run ----------------------------------------------------------------------------------

def jobs_of(book: str, tests: list[str], library: bool, max_mutants: int,
            settings: Settings) -> list[Job]:
    """The mutants of one rulebook to try (at most max_mutants, chosen by the seed)."""
    game = rulelang.load_game(book, mode="interpreted")
    program = game.runtime.program
    home = Path(book).resolve().parent
    files: dict[str, str] = {}  # loaded path -> path in the copy
    real: dict[str, str] = {}
    for path in program.loaded.sources:
        where = _real(path)
        inside = _inside(where, home)
        if inside is not None:
            files[path], real[path] = inside, str(where)
        elif library:  # a library module: copied beside the rulebook, found there first
            files[path], real[path] = Path(where).name, str(where)
    data: dict[str, str] = {}
    for declaring, written in program.loaded.data:
        file = str((Path(declaring).parent / written).resolve())
        inside = _inside(file, home)
        if inside is not None:
            data[file] = inside
    modules = {m.source.path for m in program.loaded.modules.values()}
    own = {p for p in files if p == program.loaded.game.source.path
           or (p in modules and (library or _inside(real[p], home) is not None))}
    relations = sorted(game.runtime.board.relations) if game.runtime.board is not None else []
    found = mutants(program, own, relations)
    for where, copy in sorted(data.items()):
        found += [dataclasses.replace(m, path=str(Path(book).parent / copy))
                  for m in data_mutants(where, limits.read_checked(Path(where),
                                                                   limits.MAX_DATA_BYTES))]
    if len(found) > max_mutants:
        keep = sorted(random.Random(settings.seed).sample(range(len(found)), max_mutants))
        found = [found[i] for i in keep]
    copies = tuple(sorted({*((real[p], c) for p, c in files.items()),
                           *((w, c) for w, c in data.items())}))
    by_loaded = {**files, **{str(Path(book).parent / c): c for c in data.values()}}
    return [Job(m, copies, by_loaded[m.path], book, files[program.loaded.game.source.path],
                tuple(tests), settings) for m in found]


def _real(path: str) -> str:
    p = Path(path)
    if p.exists():
        return str(p.resolve())
    return str((stdlib_dir() / p.name).resolve())


def _inside(path: str, folder: Path) -> str | None:
    try:
        return str(Path(path).resolve().relative_to(folder))
    except ValueError:
        return None


def run_jobs(jobs: list[Job], workers: int) -> Iterator[Outcome]:
    if workers <= 1 or len(jobs) <= 1:
        yield from map(try_mutant, jobs)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if sys.platform == "linux"
                                          and "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield from pool.map(try_mutant, jobs)


def book_report(book: str, jobs: list[Job], outcomes: list[Outcome]) -> dict[str, Any]:
    rows: list[dict[str, Any]] = [
        {"where": j.mutant.where, "kind": j.mutant.kind, "before": j.mutant.before,
         "after": j.mutant.after, "status": o.status, "by": o.by, "changed": o.changed}
        for j, o in zip(jobs, outcomes, strict=True)]
    count = {s: sum(r["status"] == s for r in rows)
             for s in ("killed", "timeout", "survived", "invalid")}
    valid = count["killed"] + count["timeout"] + count["survived"]
    survivors = sorted((r for r in rows if r["status"] == "survived"),
                       key=lambda r: (-(r["changed"] or 0), r["where"], r["after"]))
    return {"rulebook": book, "tests": list(jobs[0].tests) if jobs else [],
            "mutants": len(rows), **count,
            "kill_rate": (count["killed"] + count["timeout"]) / valid if valid else None,
            "survivors": survivors, "all": rows}


def book_lines(r: dict[str, Any], games: int) -> list[str]:
    killed = r["killed"] + r["timeout"]
    valid = killed + r["survived"]
    rate = f"{100 * r['kill_rate']:.0f} %" if r["kill_rate"] is not None else "-"
    out = [f"{r['rulebook']}: {r['mutants']} mutants ({r['invalid']} invalid): {killed} "
           f"killed ({r['timeout']} by the time box), {r['survived']} survived; kill rate "
           f"{rate} ({killed} of {valid})"]
    if r["survivors"]:
        out.append("  survivors, worst first:")
    for s in r["survivors"]:
        said = (f"changes play in {s['changed']} of {games} games" if s["changed"]
                else f"no visible difference in {games} games")
        out.append(f"    {s['where']} {s['kind']}: `{_short(s['before'])}` -> "
                   f"`{_short(s['after'])}`: {said}")
    return out


def _short(text: str, most: int = 90) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"


def mutate_command(paths: list[str], library: bool, max_mutants: int, workers: int,
                   settings: Settings, as_json: bool, echo: Callable[[str], None]) -> int:
    """Mutation testing of the rulebooks of the scenario files named; 1 when a survivor
    changes play in the random games."""
    books: dict[str, list[str]] = {}
    for path in scenarios.files(paths or ["."]):
        book = str(scenarios.read(path).rulebook)
        books.setdefault(book, []).append(str(path))
    reports = []
    for book, tests in books.items():
        jobs = jobs_of(book, tests, library, max_mutants, settings)
        report = book_report(book, jobs, list(run_jobs(jobs, workers)))
        reports.append(report)
        if not as_json:
            echo("\n".join(book_lines(report, settings.games)))
    if as_json:
        echo(json.dumps({"seed": settings.seed, "games": settings.games,
                         "rulebooks": reports}, indent=1, sort_keys=True))
    weak = any(s["changed"] for r in reports for s in r["survivors"])
    return 1 if weak else 0
