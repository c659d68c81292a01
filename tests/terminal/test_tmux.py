"""Tatara, Karesansui and Muso Sakura played at 80 x 24 in tmux, as a new user would, for
20 decisions each (issue 48): after every screen the header and the prompt are in sight, no
line is longer than the terminal (tmux would wrap it), and neither a question nor a refused
move shows rule code. The other seats are random agents; the human types a listed move's
number, and every few decisions first a move that is refused."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"tatara": ("Tatara and the Forest", 2, []), "karesansui": ("Karesansui", 2, []),
         "muso_sakura": ("Muso Sakura", 3, ["--option", "mode=long"])}  # (20 decisions)
# rule code a player should never read: a quantifier, a filter, a call on a bound name, a
# rule's name with an underscore called, a question ending in ':'
CODE = re.compile(r"\beach \w+ in\b|\bwhere \w+\(|\(s\)|\b[a-z]+_[a-z_]+\(|\bin sites\b")


class Tmux:
    def __init__(self, command: list[str], cwd: Path) -> None:
        self.name = f"rl-{uuid.uuid4().hex[:8]}"
        self.socket = f"rl-test-{self.name}"  # a server of its own: no other session touched
        self._tmux("new-session", "-d", "-s", self.name, "-x", "80", "-y", "24", "-c", str(cwd),
                   "env", f"PYTHONPATH={ROOT}", "PROMPT_TOOLKIT_NO_CPR=1", *command)

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=30, check=False)
        return done.stdout

    def screen(self) -> list[str]:
        """The rows on screen, wrapped rows joined (-J), so a too long line shows whole."""
        return self._tmux("capture-pane", "-p", "-J", "-t", self.name).rstrip("\n") \
            .split("\n")

    def send(self, text: str) -> None:
        self._tmux("send-keys", "-t", self.name, "-l", text)
        self._tmux("send-keys", "-t", self.name, "Enter")

    def wait_prompt(self, prompt: str, after: str = "", seconds: float = 40) -> list[str]:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            rows = self.screen()
            last = [r for r in rows if r.strip()]
            if last and last[-1].rstrip() == prompt.rstrip() and after in "\n".join(rows):
                return rows
            time.sleep(0.05)
        raise AssertionError("no prompt:\n" + "\n".join(self.screen()))

    def close(self) -> None:
        self._tmux("kill-server")


@pytest.mark.parametrize("book", sorted(GAMES))
def test_a_game_at_80x24_keeps_header_and_prompt_and_shows_no_rule_code(book: str,
                                                                         tmp_path: Path) -> None:
    title, players, options = GAMES[book]
    agents = ",".join(["human"] + ["random"] * (players - 1))
    tmux = Tmux([sys.executable, "-m", "rulelang", "play", book, "--agents", agents,
                 "--seed", "3", *options], tmp_path)
    try:
        for decision in range(20):
            rows = tmux.wait_prompt("Player1>")
            text = "\n".join(rows)
            assert rows[0].startswith(title), text  # the header, at the top
            assert len(rows) <= 24 and all(len(r) <= 80 for r in rows), text  # none cut
            assert not CODE.search(text), text
            moves = next(i for i, r in enumerate(rows) if re.match(r"\d+ moves|1\. ", r))
            assert not rows[moves - 1].rstrip().endswith(":"), text  # the question
            if decision % 4 == 1:  # a refused move first: said in words
                tmux.send("build zz9 zz9")
                rows = tmux.wait_prompt("Player1>", after="not allowed")
                at = max(i for i, r in enumerate(rows) if r.startswith("not allowed: "))
                said = "\n".join(rows[at:-1])
                assert len(said) > len("not allowed: ") and not CODE.search(said), said
                assert all(len(r) <= 80 for r in rows), said
            tmux.send("1")
            if decision < 19:
                _until_new_screen(tmux, rows)
    finally:
        tmux.close()


def _until_new_screen(tmux: Tmux, before: list[str], seconds: float = 40) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        rows = tmux.screen()
        if rows != before and "Player1>" not in (rows[-1] if rows else ""):
            return
        if rows and rows[-1].rstrip() == "Player1>" and rows != before:
            return
        time.sleep(0.05)
