"""Gardens of Karesansui laid by hand, for the scoring tests and the benchmark: the fixture
rulebook (tests/games/karesansui_fixture.rule) is copied beside the module and its data
files (rulebooks/karesansui_garden.rule, karesansui_tiles.yaml, karesansui_gardens.yaml),
then tiles and stones are put on a player's garden as a stated position is: an edit of the
data the turn starts from, the turn then started again (rulelang.game.position.restate)."""
from __future__ import annotations

import functools
import shutil
from pathlib import Path
from typing import Any

import rulelang
from rulelang.game.position import restate
from rulelang.library.semantics import Ctx
from rulelang.model.values import zone_ref

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
FILES = [ROOT / "rulebooks" / "karesansui_garden.rule",
         ROOT / "rulebooks" / "karesansui_tiles.yaml",
         ROOT / "rulebooks" / "karesansui_gardens.yaml",
         HERE / "karesansui_fixture.rule", HERE / "karesansui_stones.yaml"]
ITEMS = ["sand", "moss", "symmetry", "vortices", "ripples", "stone_kinds", "arrangements",
         "famous", "virtue"]


def fixture_book(folder: Path) -> Path:
    """The fixture rulebook with the module and the data beside it, in `folder`."""
    for f in FILES:
        shutil.copy(f, folder / f.name)
    return folder / "karesansui_fixture.rule"


def lay(state: Any, player: int, tiles: str, stones: str = "") -> Any:
    """A new state with a garden laid: `tiles` is 3 rows (top first) of 5 designs separated by
    spaces, rows by '/', '-' for an empty cell; `stones` is 3 rows of 5 letters ('.' none)
    separated by '/'. Each tile and stone is a free piece of that design / type from the box /
    the quarry."""
    return restate(state, lambda st, data: _lay(data, st.game.runtime.board, player, tiles,
                                                stones))


def _lay(data: Any, board: Any, player: int, tiles: str, stones: str) -> None:
    rows = [r.split() for r in tiles.split("/")]
    marks = [list(r.strip()) for r in stones.split("/")] if stones else [["."] * 5] * 3
    assert [len(r) for r in rows] == [5, 5, 5] and [len(r) for r in marks] == [5, 5, 5]
    for r in range(3):
        for c in range(5):
            site = board.by_coords[(player, r, c)]
            if rows[r][c] != "-":
                data.put(_free(data, "box", "design", rows[r][c]), site)
            if marks[r][c] != ".":
                data.put(_free(data, "quarry", "type", marks[r][c]), site)


def _free(data: Any, zone: str, attr: str, value: str) -> Any:
    pile = data.zones[zone_ref(zone, None)]
    for piece in pile:
        if data.attrs[attr][piece.id] == value:
            return piece
    raise AssertionError(f"no {value} left in {zone}")


def give_card(state: Any, player: int, name: str) -> Any:
    """A new state with the famous-garden card of that name dealt to the player's zone
    `famous`."""
    def edit(st: Any, data: Any) -> None:
        card = next(p for p in data.zones[zone_ref("cards", None)]
                    if data.attrs["name"][p.id] == name)
        data.to_zone(card, zone_ref("famous", player))
    return restate(state, edit)


def rule(state: Any, name: str, *args: Any) -> Any:
    """The value of one of the module's rules in this state."""
    rt = state.game.runtime
    key = f"karesansui_garden.{name}"
    return rt.call_def(key, list(args), Ctx(rt, state.data), rt.program.defs[key])


def new_state(book: Path, mode: str, players: int = 2) -> Any:
    return _game(book, mode, players).new_initial_state(seed=0)


@functools.cache
def _game(book: Path, mode: str, players: int) -> rulelang.Game:
    """Loaded once per process: load_game parses the rulebook again on every call (the runtime
    is cached, the parse is not), and a fixture book is written once and never changed."""
    return rulelang.load_game(book, {"players": players}, mode=mode)
