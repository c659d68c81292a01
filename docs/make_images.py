"""Regenerate the pictures in docs/images/ with the code that draws positions (rulelang
render): `python docs/make_images.py`. tests/tools/test_doc_images.py checks that the files
are what this script makes now."""
from __future__ import annotations

import sys
from pathlib import Path

import rulelang
from rulelang.agents import make_agent
from rulelang.tools.pictures.viewer import position

HERE = Path(__file__).resolve().parent / "images"
# (file, bundled rulebook, seed, moves played by two random agents of that seed)
IMAGES = [("spline.svg", "spline", 3, 14), ("karesansui.svg", "karesansui", 1, 60),
          ("hex.svg", "hex", 2, 30)]


def images() -> dict[str, str]:
    out = {}
    for file, name, seed, moves in IMAGES:
        game = rulelang.load_game(name)
        state = game.new_initial_state(seed=seed)
        agent = make_agent("random", seed=seed)
        before = None
        for _ in range(moves):
            if state.is_terminal():
                break
            before = state.observation(0)
            state.apply_action(agent.choose(state))
        # (no glyphs embedded: the same file on every machine, whatever its fonts)
        out[file] = position(state, 0, before, fonts=False) + "\n"
    return out


def main() -> int:
    HERE.mkdir(exist_ok=True)
    for file, text in images().items():
        (HERE / file).write_text(text, encoding="utf-8")
        print(f"wrote {HERE / file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
