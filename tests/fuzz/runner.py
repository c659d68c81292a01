"""Runs fuzz cases in worker processes (tests/fuzz/worker.py) under a per-case time limit,
and sorts the outcomes: ok, diagnostic, crash, hang, memory, outside read.

A worker that does not answer within the limit (plus a grace, for a hang inside a single C
operation that the worker's own alarm cannot interrupt) is killed and replaced: the case is a
hang at the last stage the worker announced.

Each problem is also given an owner: `load` for the classes that belong to loading a
rulebook (file access, YAML and parse limits, option bounds, board geometry and relation
targets: the loader's work), `run` for everything else (checking, building the evaluators'
code, playing, observing). The suite asserts zero `run` problems.
"""
from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .mutate import Case, make_case, write_case

WORKER = Path(__file__).with_name("worker.py")
PROBLEMS = ("crash", "hang", "memory", "outside read")
# where a problem is the loader's: innermost project frames of loading
_LOAD_FRAMES = ("rulelang/language/loader.py", "rulelang/language/parser.py",
                "rulelang/language/builder.py", "rulelang/model/topology.py",
                "rulelang/library/grids.py", "rulelang/source.py")
_LOAD_FUNCTIONS = (":resolve_options", ":_check_option")


@dataclass
class Outcome:
    case: Case
    result: dict[str, Any]
    seconds: float = 0.0  # wall time of the case
    limit: float = 5.0

    @property
    def outcome(self) -> str:
        return str(self.result["outcome"])

    @property
    def owner(self) -> str:
        """`load` or `run` (see the module's docstring); `-` for ok and diagnostics."""
        r = self.result
        if self.outcome not in PROBLEMS:
            return "-"
        if self.outcome == "outside read" or r.get("stage") in ("load", "options"):
            return "load"
        frame = str(r.get("frame", ""))
        if frame.startswith(_LOAD_FRAMES) or frame.endswith(_LOAD_FUNCTIONS):
            return "load"
        if r.get("stage") == "build" and self.outcome in ("hang", "memory"):
            return "load"  # a board too large to build
        if self.outcome == "hang" and r.get("loaded", 0.0) > 0.4 * self.limit:
            return "load"  # most of the time went into reading the files
        return "run"

    @property
    def problem(self) -> str:
        """What identifies a distinct problem: outcome, exception type, innermost frame."""
        r = self.result
        if self.outcome == "crash":
            return f"crash {r['type']} at {r['frame']} ({r['stage']})"
        if self.outcome == "outside read":
            return f"outside read ({r.get('stage')})"
        return f"{self.outcome} ({r.get('stage')})"


@dataclass
class _Worker:
    proc: subprocess.Popen[str]
    buf: str = ""
    stage: str = "?"
    loaded: float = 0.0  # seconds the current case took to load
    lines: list[str] = field(default_factory=list)

    @classmethod
    def start(cls) -> _Worker:
        proc = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                bufsize=1)
        w = cls(proc)
        if w.read(60.0) is None:
            raise RuntimeError("the fuzz worker did not start")
        return w

    def read(self, timeout: float) -> dict[str, Any] | None:
        """The next message, or None when none came within timeout (or the worker died)."""
        end = time.monotonic() + timeout
        while True:
            while self.lines:
                msg = json.loads(self.lines.pop(0))
                if "stage" in msg:
                    self.stage = msg["stage"]
                    continue
                if "loaded" in msg:
                    self.loaded = float(msg["loaded"])
                    continue
                return msg
            left = end - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536).decode()  # type: ignore[union-attr]
            if not chunk:
                return None
            self.buf += chunk
            *done, self.buf = self.buf.split("\n")
            self.lines.extend(d for d in done if d.strip())

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


def _cpu_of_children() -> float:
    t = os.times()
    return t.children_user + t.children_system


def run(seeds: Iterable[int], limit: float = 5.0, plies: int = 6,
        progress: Any = None, quick: bool = False) -> list[Outcome]:
    """Every case of these seeds, one after another in one worker (replaced after a hang or
    a death); a generator of seeds may stop giving them (a run for a given time)."""
    return run_cases((make_case(seed, quick) for seed in seeds), limit, plies, progress)


def run_cases(cases: Iterable[Case], limit: float = 5.0, plies: int = 6,
              progress: Any = None) -> list[Outcome]:
    """These cases, as `run` runs the cases of its seeds."""
    out: list[Outcome] = []
    base = Path(tempfile.mkdtemp(prefix="rulelang-fuzz-"))
    worker = _Worker.start()
    try:
        for case in cases:
            seed = case.seed
            folder = base / f"case{seed}"
            write_case(case, folder)
            worker.stage, worker.loaded = "?", 0.0
            start = time.monotonic()
            worker.proc.stdin.write(json.dumps(  # type: ignore[union-attr]
                {"folder": str(folder), "entry": case.entry, "seed": seed, "plies": plies,
                 "limit": limit}) + "\n")
            worker.proc.stdin.flush()  # type: ignore[union-attr]
            msg = worker.read(4 * limit + 5.0)  # a worker blocked (no CPU used) is killed
            if msg is None:
                dead = worker.proc.poll() is not None
                stage = worker.stage
                worker.stop()
                result = {"outcome": "memory" if dead else "hang", "stage": stage,
                          "modes": {}, "seed": seed, "killed": True}
                worker = _Worker.start()
            else:
                result = msg["result"]
            result["loaded"] = worker.loaded
            out.append(Outcome(case, result, time.monotonic() - start, limit))
            shutil.rmtree(folder, ignore_errors=True)
            if progress is not None:
                progress(out[-1])
    finally:
        worker.stop()
        shutil.rmtree(base, ignore_errors=True)
    return out


def table(outcomes: list[Outcome]) -> str:
    """Counts per outcome class, then the distinct problems with an example seed each."""
    counts = Counter(o.outcome for o in outcomes)
    lines = [f"{'outcome':14} {'cases':>7}"]
    for name in ("ok", "diagnostic", *PROBLEMS):
        lines.append(f"{name:14} {counts.get(name, 0):>7}")
    lines.append(f"{'total':14} {len(outcomes):>7}")
    problems: dict[tuple[str, str], list[Outcome]] = {}
    for o in outcomes:
        if o.outcome in PROBLEMS:
            problems.setdefault((o.owner, o.problem), []).append(o)
    if problems:
        lines.append("")
        lines.append("distinct problems (owner, problem, cases, example seed: target; mutation)")
        for (owner, problem), os_ in sorted(problems.items(), key=lambda kv: -len(kv[1])):
            ex = os_[0]
            seeds = ", ".join(str(o.case.seed) for o in os_[1:12]) + (
                ", …" if len(os_) > 12 else "")
            lines.append(f"  [{owner}] {problem}: {len(os_)} case(s), e.g. seed {ex.case.seed}: "
                         f"{ex.case.target}; {ex.case.mutation}"
                         + (f" (also seeds {seeds})" if seeds else "")
                         + (f" -- {ex.result.get('message', '')[:100]!r}"
                            if ex.outcome == "crash" else "")
                         + (f" -- {ex.result['outside'][0]!r}" if "outside" in ex.result
                            else ""))
    timed = sorted((o for o in outcomes if o.result.get("cpu")),
                   key=lambda o: -sum(o.result["cpu"].values()))
    if timed:
        total = [sum(o.result["cpu"].values()) for o in timed]
        lines.append("")
        lines.append(f"CPU s per case (the limit: {timed[0].limit:g}): median "
                     f"{total[len(total) // 2]:.2f}, 99th percentile "
                     f"{total[len(total) // 100]:.2f}, most {total[0]:.2f}; the slowest:")
        for o in timed[:5]:
            cpu = o.result["cpu"]
            top = ", ".join(f"{k} {v:.2f}" for k, v in sorted(cpu.items(), key=lambda kv: -kv[1])
                            [:3])
            lines.append(f"  seed {o.case.seed} ({o.outcome}): {sum(cpu.values()):.2f} ({top}); "
                         f"{o.case.target}; {o.case.mutation}")
    mismatch = [o for o in outcomes if _modes_differ(o.result.get("modes", {}))]
    lines.append("")
    lines.append(f"cases where the modes ended differently: {len(mismatch)}"
                 + (f" (e.g. seeds {', '.join(str(o.case.seed) for o in mismatch[:8])})"
                    if mismatch else ""))
    return "\n".join(lines)


def _modes_differ(modes: dict[str, str]) -> bool:
    """Whether the modes a case ran in played differently ("ok", the plies played and the
    digest of what the game showed at each: worker._playout; or the stage and the codes)."""
    return len(set(modes.values())) > 1
