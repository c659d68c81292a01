"""Every bundled rulebook, under every option set that matters (player counts, variants, the
ends and default of a numeric option), ends: seeded random games played to their end under
a generous cap (tests/endings_tools.CAP plies) never reach it. A few games per option set
here; bench/every_game_ends.py plays many and prints their lengths."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import endings_tools as tools  # noqa: E402

GAMES = 6  # per option set
CASES = tools.cases()


def test_the_cases_cover_every_bundled_rulebook_and_its_variants() -> None:
    books = {book.stem for book, _ in CASES}
    assert books == {b.stem for b in tools.BOOKS} and len(books) >= 10
    muso = [o for b, o in CASES if b.stem == "muso_sakura"]
    assert len(muso) == 3 * 2 * 2                  # 3..5 players x mode x abilities
    karesansui = [o for b, o in CASES if b.stem == "karesansui"]
    assert {"players": 2, "variant": "duo"} in karesansui
    assert {"players": 3, "variant": "duo"} not in karesansui   # refused by its setup


@pytest.mark.parametrize(("book", "options"), CASES,
                         ids=[tools.label(b, o) for b, o in CASES])
def test_random_games_end_before_the_cap(book: Path, options: dict[str, Any]) -> None:
    game = tools.game_of(book, tuple(sorted(options.items())))
    for seed in range(GAMES):
        state = tools.random_game(game, seed)
        assert state.is_terminal()
        assert not state.capped(), f"{tools.label(book, options)} seed {seed} reached " \
                                   f"{tools.CAP} plies"
        assert len(state.history()) < tools.CAP
