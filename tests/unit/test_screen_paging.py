"""A screen taller than the terminal (Karesansui for 4 at 80 x 24) is shown a page at a
time: the header, a page of the board and the panels, a note saying so, then the question
and the moves, so that the prompt's row is the terminal's last; `more` turns the page."""
from __future__ import annotations

import io
import random

from rich.console import Console

import rulelang
from rulelang.agents import HumanAgent
from rulelang.tools.terminal.session import Session


def _session(rows: int) -> Session:
    game = rulelang.load_game("karesansui", options={"players": 4})
    console = Console(file=io.StringIO(), width=80, height=rows)
    session = Session(game, [HumanAgent() for _ in range(4)], 1, "karesansui",
                      console=console)
    rng = random.Random(1)
    for _ in range(60):  # gardens with tiles in them
        labels = session._labels()
        session._apply(labels[rng.randrange(len(labels))])
    return session


def test_a_tall_screen_is_paged_with_header_question_and_prompt_in_sight() -> None:
    session = _session(24)
    player = session.state.current_player()
    obs = session.state.observation(player)
    tall = Session(session.game, session.agents, 1, "karesansui",
                   console=Console(file=io.StringIO(), width=80, height=200))
    tall.state = session.state
    whole = [t.plain for t in tall.screen(player, obs, set())]
    assert len(whole) >= 24  # it does not fit: paging is needed
    pages = []
    for page in range(3):
        session.page = page
        lines = [t.plain for t in session.screen(player, obs, set())]
        assert len(lines) <= 23 and all(len(x) <= 80 for x in lines)
        assert lines[0] == whole[0]  # the header
        assert lines[-1] == whole[-1]  # the moves (the question above them)
        note = next(x for x in lines if x.startswith("— page "))
        assert f"needs {len(whole) + 1} rows, the terminal has 24" in note
        pages.append(lines)
    assert pages[0] != pages[1]
    shown = {x for p in pages for x in p}
    body = [x for x in whole if x not in (whole[0], whole[-1]) and x.strip()]
    assert sum(x in shown for x in body) >= len(body) * 0.6  # the pages show the board


def test_the_first_page_is_the_part_that_matters_and_parts_stay_whole() -> None:
    """The page shown first holds the viewer's own garden (the board's part that matters to
    them); no page begins in the middle of a garden or a group of the panel."""
    session = _session(24)
    player = session.state.current_player()
    obs = session.state.observation(player)
    name = obs["players"][player]
    first = [t.plain for t in session.screen(player, obs, set())]
    assert first[1] == f"garden of {name}", first  # right under the header
    seen = []
    for page in range(6):
        session.page = page
        lines = [t.plain for t in session.screen(player, obs, set())]
        body = lines[1:lines.index(next(x for x in lines if x.startswith("— page ")))]
        # a part's head (or the legend), never a group's second line or a garden's row
        assert body and not body[0].startswith(("    ", "  +", "  |", "|")), body[:2]
        assert not body[0][:1].isdigit(), body[:2]
        seen.append(tuple(body))
    pages = len(set(seen))
    assert 3 <= pages < 6 and seen[pages] == seen[0]  # `more` goes round every page
