"""`picture KIND(x) = expr`: how a piece is drawn, in observations and terminal pictures."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.game.position import restate
from rulelang.model.state import GameData
from rulelang.tools.pictures.render import cell_lines, render_observation

BOOK = """\
game "Pictures"
players A, B
geometry strip(n)
  sites (r, c) for r in 0..0, c in 0..n-1
  name letter(c) + "1"
board strip(3)
piece card with rank = 0, suit = ""
piece pawn
zone deck visible to nobody: 1 card
zone hand each player visible to owner: 1 card
zone supply each player: 1 pawn
picture card(x) = (x.suit + str(x.rank), "--")
picture pawn(p) = "pawn of " + str(owner(p))
setup
  for each x in pieces(deck)
    set x.rank = 7
  for each p in players
    set top(hand of p).suit = "H"
action play
  choose site s in sites where empty(s)
  move top(hand of mover) to s
  put pawn of mover at s
turn
  do play
end
  when turn > 2
    draw
"""


@pytest.fixture(params=["interpreted", "compiled"])
def state(request: pytest.FixtureRequest, tmp_path: Path) -> rulelang.State:
    path = tmp_path / "pictures.rule"
    path.write_text(BOOK, encoding="utf-8")
    return rulelang.load_game(path, mode=request.param).new_initial_state()


def test_visible_pieces_carry_their_picture_lines(state: rulelang.State) -> None:
    obs = state.observation(0)
    zones = {(z["zone"], z["owner"]): z for z in obs["zones"]}
    assert zones[("hand", "A")]["pieces"][0]["picture"] == ["H0", "--"]
    assert zones[("hand", "B")]["pieces"] is None           # hidden: no picture either
    assert zones[("deck", None)]["pieces"] is None
    assert zones[("supply", "A")]["pieces"][0]["picture"] == ["pawn of A"]


def test_cells_stack_the_pictures_bottom_first(state: rulelang.State) -> None:
    state.apply_action("play b1")
    site = next(s for s in state.observation(1)["board"] if s["site"] == "b1")
    assert cell_lines(site["pieces"], {"A": "A", "B": "B"}) == ["H0", "--", "pawn of A"]
    text = render_observation(state.observation(1))
    assert "| pawn of A |" in text and "|     H0    |" in text
    assert "hand (B): H0" not in text and "[H0 / --]" in text   # B's own card, a zone line


def test_a_picture_for_an_unknown_kind_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "bad.rule"
    path.write_text(BOOK.replace("picture pawn(p)", "picture pwn(p)"), encoding="utf-8")
    with pytest.raises(rulelang.RulebookError) as err:
        rulelang.load_game(path)
    assert "unknown piece kind 'pwn'" in err.value.render()
    assert ":13:1:" in err.value.render()


def test_a_picture_that_reads_the_state_is_drawn_afresh(tmp_path: Path) -> None:
    # `site(p)` is not the piece's own data: the picture must follow the pawn as it moves
    path = tmp_path / "where.rule"
    path.write_text(BOOK.replace('picture pawn(p) = "pawn of " + str(owner(p))',
                                 'picture pawn(p) = "pawn at " + str(site(p))'),
                    encoding="utf-8")
    for mode in ("interpreted", "compiled"):
        state = rulelang.load_game(path, mode=mode).new_initial_state()
        zones = {(z["zone"], z["owner"]): z for z in state.observation(0)["zones"]}
        assert zones[("supply", "A")]["pieces"][0]["picture"] == ["pawn at none"]
        state.apply_action("play c1")
        site = next(s for s in state.observation(0)["board"] if s["site"] == "c1")
        assert site["pieces"][-1]["picture"] == ["pawn at c1"]


def test_equal_pieces_share_a_remembered_picture(state: rulelang.State) -> None:
    # a picture of the piece's own attributes: set an attribute, the picture follows
    first = state.observation(0)
    hand = next(z for z in first["zones"] if z["zone"] == "hand" and z["owner"] == "A")
    assert hand["pieces"][0]["picture"] == ["H0", "--"]

    def nine(st: rulelang.State, data: GameData) -> None:
        card = data.zones[next(z for z in data.zones if z.name == "hand" and z.owner == 0)][0]
        data.attrs["rank"][card.id] = 9
    state = restate(state, nine)  # a position stated as a scenario's `given` is
    hand = next(z for z in state.observation(0)["zones"]
                if z["zone"] == "hand" and z["owner"] == "A")
    assert hand["pieces"][0]["picture"] == ["H9", "--"]
