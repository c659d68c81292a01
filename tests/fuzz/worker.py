"""The fuzzer's worker process: reads cases as JSON lines on stdin, runs each (load and check,
then a short seeded random playout in each mode: the reference's, and the module the game
generator writes for the case where it takes it) and writes one JSON line per case.

Before each phase it writes `{"stage": ...}`, so that the parent, which kills a worker that
overruns a case's time limit, knows where the case hung. A case's file opens are audited
(sys.addaudithook): an open outside the case's folder, the standard library and Python's
own files is an outside read. The worker's memory is capped (RLIMIT_AS), so that runaway
growth ends as a MemoryError instead of filling the machine. The objects earlier cases left
(kept parses) are frozen while a case runs, so that its CPU time is its own work.

    python tests/fuzz/worker.py  (started by tests/fuzz/runner.py)
"""
from __future__ import annotations

import gc
import hashlib
import json
import os
import random
import resource
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
import rulelang.language.cache  # noqa: E402
from rulelang.errors import (  # noqa: E402
    Refusal,
    RulebookError,
    RulelangError,
    RuleRuntimeError,
)
from rulelang.game.engine import Game  # noqa: E402
from rulelang.gen import GenGame, Unsupported, generate  # noqa: E402
from rulelang.gen.bridge import canonical  # noqa: E402
from rulelang.gen.facts import hides  # noqa: E402
from rulelang.language.checker import check  # noqa: E402
from rulelang.language.loader import load  # noqa: E402

PACKAGE = Path(rulelang.__file__).resolve().parent
# networkx (the reference's meaning of `group` and `reach`) looks for its backends among
# every installed package's entry points on its first graph call: made here, before any
# case's opens are audited (no rulebook reads those files)
import networkx  # noqa: E402

networkx.descendants(networkx.DiGraph([(0, 1)]), 0)
MEMORY = int(os.environ.get("RULELANG_FUZZ_MEMORY", str(1536 << 20)))


class Timeout(BaseException):
    """The case ran over its time limit (a BaseException: rules code may catch Exception)."""


class _Audit:
    def __init__(self) -> None:
        self.allowed: tuple[str, ...] = ()
        self.active = False
        self.outside: list[str] = []

    def __call__(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.active or event != "open":
            return
        path = args[0]
        if isinstance(path, int):
            return
        if isinstance(path, bytes):
            path = path.decode("utf-8", "replace")
        try:
            full = os.path.realpath(str(path))
        except (ValueError, OSError):
            full = str(path)
        if not full.startswith(self.allowed):
            self.outside.append(str(path)[:200])


AUDIT = _Audit()


def _alarm(signum: int, frame: Any) -> None:
    raise Timeout


def _say(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _frame(exc: BaseException) -> str:
    """The innermost frame of the project (rulelang/) in the exception's traceback."""
    found = "?"
    for fs in traceback.StackSummary.extract(traceback.walk_tb(exc.__traceback__),
                                             lookup_lines=False):
        if fs.filename.startswith(str(PACKAGE)):
            rel = Path(fs.filename).relative_to(PACKAGE.parent)
            found = f"{rel}:{fs.name}"
    return found


def _codes(err: RulelangError) -> list[str]:
    if isinstance(err, RulebookError):
        return sorted({d.code for d in err.diagnostics})
    if isinstance(err, RuleRuntimeError):
        return [err.diagnostic.code]
    return [type(err).__name__]


class ResampleBroken(Exception):
    """An option of a player's resample refused when applied (its menu was made from other
    cards than the copy's): a crash, not a diagnostic."""


def _resamples(state: Any, rng: random.Random) -> None:
    """Each player's resample offers options that apply (one drawn at random, tried)."""
    for p in range(state.game.num_players):
        copy = state.resample(p, rng.randrange(1 << 30))
        if copy.is_terminal():
            continue
        action = rng.choice(copy.legal_actions())
        try:
            copy.apply_action(action)
        except Refusal as err:  # an option offered, then refused: the menu is not the copy's
            label = copy.action_to_string(action)
            if not _refused_too(state, label):
                raise ResampleBroken(f"player {p}'s resample: option {label!r}: {err}") \
                    from None
        except RulelangError:  # a mutated rule failing on these cards, as it may in the truth
            pass


def _refused_too(state: Any, label: str) -> bool:
    """Does the game itself offer this option and refuse it as it is taken (a mutated rule
    offering what its effects cannot do: the rulebook's refusal, not a broken resample)?"""
    truth = state.clone()
    if label not in [truth.action_to_string(a) for a in truth.legal_actions()]:
        return False
    try:
        truth.apply_action(label)
    except Refusal:
        return True
    except RulelangError:
        return False
    return False


def _playout(game: Game, seed: int, plies: int) -> tuple[int, str]:
    """The plies played, and a digest of what the game showed: at each ply the mover, the
    number of options, the string of the one taken and every player's observation; at the
    end the returns and the whole state (where the pieces came from too, in a game that
    hides). The modes must agree on it. (Every option's string and the whole state at every
    ply doubled the CPU time of the largest cases.)"""
    state = game.new_initial_state(seed=seed)
    rng, trail = random.Random(seed), hashlib.sha256()
    came = hides(game.runtime.program)
    done = 0
    for _ in range(plies):
        if state.is_terminal():
            break
        if game.has_hidden_information:
            _resamples(state, rng)
        seen = [state.observation(p) for p in range(game.num_players)]
        actions = state.legal_actions()
        action = rng.choice(actions)
        trail.update(repr((state.current_player(), len(actions), seen,
                           state.action_to_string(action))).encode())
        state.apply_action(action)
        done += 1
    trail.update(repr((state.returns(), canonical(state.data, came))).encode())
    str(state)
    return done, trail.hexdigest()[:12]


class _Stages:
    """Announces each stage to the parent and counts the CPU seconds spent in each (a mode's
    stages as "<mode> <stage>")."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.name, self.since = "", time.process_time()
        self.mode = ""

    def enter(self, stage: str) -> str:
        self.stop()
        self.name = f"{self.mode} {stage}".strip()
        _say({"stage": stage})
        return stage

    def stop(self) -> dict[str, float]:
        now = time.process_time()
        if self.name:
            self.cpu[self.name] = round(self.cpu.get(self.name, 0.0) + now - self.since, 3)
        self.name, self.since = "", now
        return self.cpu


def run_case(entry: str, seed: int, plies: int) -> dict[str, Any]:
    """Load, check and play the case; the outcome, per mode what happened, and the CPU
    seconds of each stage."""
    out = _run_case(entry, seed, plies, stages := _Stages())
    out["cpu"] = stages.stop()
    return out


def _run_case(entry: str, seed: int, plies: int, stages: _Stages) -> dict[str, Any]:
    rulelang._PROGRAMS.clear()
    rulelang._RUNTIMES.clear()
    modes: dict[str, str] = {}
    generated = False
    start = time.monotonic()
    stage = "load"
    try:
        stages.enter(stage)
        loaded = load(entry)
        _say({"loaded": time.monotonic() - start})
        stage = stages.enter("check")
        program = check(loaded)
        stage = "options"
        chosen = rulelang.resolve_options(program, {})
        digest = rulelang.source_hash(loaded)
        for mode in ("compiled", "interpreted"):
            stages.mode = mode
            try:
                stage = stages.enter("build")
                runtime = rulelang.compile_rulebook(program, chosen, digest)
                game = Game(runtime, entry, digest)
                if mode == "compiled":  # a fault of the generator is a crash here (a
                    stage = stages.enter("generate")  # player would meet the reference)
                    try:
                        game = GenGame(runtime, entry, digest, generate(runtime))
                        generated = True
                    except Unsupported:
                        pass
                stage = stages.enter("play")
                plies_done, digest = _playout(game, seed, plies)
                modes[mode] = f"ok {plies_done} {digest}"
            except RulelangError as err:
                modes[mode] = f"{stage} {','.join(_codes(err))}"
                if stage != "play":
                    raise
        return {"outcome": "ok" if all(v.startswith("ok") for v in modes.values())
                else "diagnostic", "stage": stage, "modes": modes, "generated": generated}
    except RulelangError as err:
        text = err.render() if hasattr(err, "render") else str(err)
        return {"outcome": "diagnostic", "stage": stage, "codes": _codes(err),
                "message": text[:300], "modes": modes}
    except Timeout:
        return {"outcome": "hang", "stage": stage, "modes": modes}
    except MemoryError:
        return {"outcome": "memory", "stage": stage, "modes": modes}
    except Exception as exc:  # noqa: BLE001 - what the fuzzer is looking for
        return {"outcome": "crash", "stage": stage, "type": type(exc).__name__,
                "frame": _frame(exc), "message": str(exc)[:200], "modes": modes}


def main() -> int:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    signal.signal(signal.SIGPROF, _alarm)  # the limit is CPU time: a loaded machine is no hang
    # warm up: the grammar and lazily imported modules are read before any case
    game = rulelang.load_game(ROOT / "rulebooks" / "tic_tac_toe.rule")
    _playout(game, 0, 2)
    python = tuple({os.path.realpath(p) + os.sep for p in
                    (sys.prefix, sys.base_prefix, sys.exec_prefix, str(PACKAGE))})
    kept = rulelang.language.cache.cache_folder()  # parsed files kept between loads
    python += (os.path.realpath(kept) + os.sep,) if kept is not None else ()
    sys.addaudithook(AUDIT)
    _say({"ready": True})
    for n, line in enumerate(sys.stdin):
        job = json.loads(line)
        if n % 50 == 0:  # the earlier cases' garbage (unfrozen below): before the timer
            gc.collect()
        # what the earlier cases left in the parse caches (language/cache.py, astwalk.py: up
        # to some 500,000 objects) is not this case's work: the collector's passes during the
        # case skip it (they took 1.7x the CPU of a fresh process's on seed 9467)
        gc.freeze()
        folder = os.path.realpath(job["folder"]) + os.sep
        AUDIT.allowed = (folder, str(rulelang.language.loader.STDLIB.resolve()) + os.sep,
                         *python)
        AUDIT.outside = []
        os.chdir(folder)
        signal.setitimer(signal.ITIMER_PROF, job["limit"])
        AUDIT.active = True
        try:
            result = run_case(str(Path(folder) / job["entry"]), job["seed"], job["plies"])
        except Timeout:
            result = {"outcome": "hang", "stage": "?", "modes": {}}
        finally:
            AUDIT.active = False
            signal.setitimer(signal.ITIMER_PROF, 0)
            gc.unfreeze()
        if AUDIT.outside:
            result["outside"] = AUDIT.outside[:5]
            result["outcome"] = "outside read"
        result["seed"] = job["seed"]
        _say({"result": result})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
