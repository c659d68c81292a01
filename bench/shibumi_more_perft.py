"""Perft of the further Shibumi rulebooks against the independent reference of
tests/games/shibumi_more/reference_impl.py (reference_moves.py for Spought and Spyramid,
reference_spice_spaniel.py for Spice and Spaniel), every node compared (legal action strings,
terminal flag, winners), deeper than the suite walks it. Prints the counts and times; exits 1
on a mismatch.

    python bench/shibumi_more_perft.py      # depth 4 compiled: Spava, Splade, Spao
    python bench/shibumi_more_perft.py --depth 3 spought spyramid
    python bench/shibumi_more_perft.py --depth 3 --mode interpreted spodd
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "games" / "shibumi_more"), str(ROOT)]

import reference_moves  # noqa: E402
import reference_spargo  # noqa: E402
import reference_spice_spaniel  # noqa: E402
import test_spargo  # noqa: E402
from reference_impl import MoreRef, perft  # noqa: E402
from test_shibumi_more_games import engine_perft, load  # noqa: E402

# game -> its independent reference's state (the others: MoreRef); one perft walks them all
OTHER_REFERENCES = {
    "spice": reference_spice_spaniel.make,
    "spaniel": reference_spice_spaniel.make,
    "spought": reference_moves.MoveRef,
    "spyramid": reference_moves.MoveRef,
}
# games whose test walks the engine its own way: name -> (new reference state, its perft,
# engine walk, engine loader by mode)
OWN = {"spargo": (reference_spargo.SpargoRef, perft, test_spargo.engine_perft,
                  test_spargo.load)}


def reference(name: str):
    """The independent reference of a game (a fresh state of it)."""
    return OTHER_REFERENCES.get(name, MoreRef)(name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--mode", choices=["compiled", "interpreted"], default="compiled")
    parser.add_argument("names", nargs="*", default=["spava", "splade", "spao"])
    args = parser.parse_args(argv)
    failed = 0
    for name in args.names:
        start = time.process_time()
        if name in OWN:
            new_ref, ref_perft, walk, loader = OWN[name]
            want = ref_perft(new_ref(), args.depth)
            mid = time.process_time()
            got = walk(loader(args.mode).new_initial_state(), new_ref(), args.depth, [])
        else:
            want = perft(reference(name), args.depth)
            mid = time.process_time()
            got = engine_perft(load(name, args.mode).new_initial_state(), reference(name),
                               args.depth, [])
        ok = got == want
        failed += not ok
        print(f"{name:8} depth {args.depth} {args.mode:11} {got:>8} leaves "
              f"(reference {want}, {mid - start:.1f} s)  {time.process_time() - mid:6.1f} s CPU  "
              f"{'ok' if ok else 'MISMATCH'}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
