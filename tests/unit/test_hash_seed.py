"""The same rulebook, options, seed and actions give the same game in every process: nothing
a game does may follow the order of a set or dict of strings, which Python changes from
process to process (PYTHONHASHSEED). Every bundled game, in both modes, is played from the
same seeds in processes of different hash seeds, which must see the same menus, the same
observations and the same results. (The pool of `rulelang evaluate` forks its workers, who
keep the parent's hash seed, so its own tests cannot see this.)"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Prints one digest per (game, mode): of each decision's option strings and the observation
# of the player to decide, as they come, and of the returns at the end.
PLAY = r"""
import hashlib, json, random, sys
import rulelang
from rulelang.resources import bundled_dir
out = {}
for path in sorted(bundled_dir().glob("*.rule")):
    if rulelang.is_library(path):
        continue
    for mode, plies in (("compiled", 150), ("interpreted", 25)):
        game = rulelang.load_game(path, mode=mode)
        digest = hashlib.sha256()
        state, rng = game.new_initial_state(seed=7), random.Random(7)
        for _ in range(plies):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            seen = state.observation(state.current_player())
            digest.update(repr([state.action_to_string(a) for a in actions]).encode())
            digest.update(json.dumps(seen, sort_keys=True, default=repr).encode())
            state.apply_action(rng.choice(actions))
        digest.update(repr(state.returns() if state.is_terminal() else None).encode())
        out[f"{path.stem} {mode}"] = digest.hexdigest()
print(json.dumps(out))
"""


def _digests(hash_seed: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", PLAY], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    found: dict[str, str] = json.loads(done.stdout)
    return found


def test_every_game_plays_the_same_whatever_the_hash_seed() -> None:
    first, second = _digests("1"), _digests("2")
    assert len(first) >= 2 * 20  # every bundled game, both modes
    differ = sorted(k for k in first if first[k] != second.get(k))
    assert not differ, f"played differently under another hash seed: {differ}"
