"""`rules` at the prompt: the game's written rules wrapped at words to the terminal's width
(never cut at the edge), and Karesansui's tile notation explained there."""
from __future__ import annotations

import io
import re

from rich.console import Console

import rulelang
from rulelang.agents import HumanAgent
from rulelang.language.loader import read_rules_text
from rulelang.resources import rules_path
from rulelang.tools.terminal.session import Session


def test_rules_are_wrapped_at_words_and_explain_the_tile_notation() -> None:
    game = rulelang.load_game("karesansui")
    out = io.StringIO()
    session = Session(game, [HumanAgent(), HumanAgent()], 1, "karesansui",
                      console=Console(file=out, width=60, height=24, soft_wrap=True))
    session._rules()
    lines = out.getvalue().splitlines()
    assert len(lines) > 50 and all(len(x) <= 60 for x in lines)
    found = rules_path(game.path)
    assert found is not None
    source = read_rules_text(found)
    words = {w for x in lines for w in re.findall(r"[A-Za-z]{4,}", x)}
    assert words and all(w in source for w in words)  # no word broken in two
    text = " ".join(x.strip() for x in lines)
    assert "How a tile reads on the screen: [p / s QA s / aR]" in text
