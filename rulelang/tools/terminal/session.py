"""A game at the terminal: agents move, each human sees one screen of what they may see and
types moves or commands at the prompt.

Commands: help (?), rules, moves, undo, hint, score, svg [FILE], q (quit). Tab completes moves
and commands. q, Ctrl-C and the end of input stop the game; the caller then writes its record
(`rulelang play --resume FILE` continues it). Between two humans (hot-seat) the screen and
the terminal's scrollback are wiped, so nothing one may not see is left for the other.
"""
from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from rulelang import limits
from rulelang.agents import HumanAgent, MCTSAgent, QuitGame
from rulelang.errors import IllegalActionError, RulelangError
from rulelang.language.loader import read_rules_text
from rulelang.resources import rules_path
from rulelang.tools.terminal.board import BoardPainter, player_colours
from rulelang.tools.terminal.ending import (
    end_reason,
    program_of,
    score_table,
    variant_words,
    winners_line,
)
from rulelang.tools.terminal.explain import question, why_illegal
from rulelang.tools.terminal.prompt import Reader
from rulelang.tools.terminal.screen import Screen, wrap, wrap_items

WIPE = "\033[H\033[2J\033[3J"  # cursor home, clear the screen, clear the scrollback
_LISTED = 9  # at most this many moves are listed on the screen; more: `moves` lists them
HELP = """commands at the prompt:
  a move, as listed (Tab completes it), or its number from `moves`
  moves          list every legal move, numbered
  more           the next page of a screen taller than the terminal
  undo           take back your last move (and the other players' moves since)
  hint           what the AI would play here
  score          the score so far, by term ("hidden": what you may not see)
  rules          the rules of the game
  svg [FILE]     write the position as a picture (default position.svg)
  help, ?        this list
  q, quit        stop the game (Ctrl-C and Ctrl-D too); its record is written"""



class _Console(Console):
    """Rich's console, but a closed stdout (`rulelang play ... | head`) ends the game the way
    every command ends on a closed pipe (cli.main: quietly, exit 0), not with Rich's exit 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError

class Session:
    def __init__(self, game: Any, agents: list[Any], seed: int, rulebook: str = "",
                 actions: list[str] | None = None, console: Console | None = None,
                 reader: Reader | None = None) -> None:
        self.game, self.agents, self.seed, self.rulebook = game, agents, seed, rulebook
        self.out = console or _Console(highlight=False, soft_wrap=True)  # lines fit already
        self.reader = reader or Reader()
        self.names: list[str] = list(game.player_names)
        self.humans = [i for i, a in enumerate(agents) if isinstance(a, HumanAgent)]
        self.actions: list[str] = []
        self.numbers: list[int] = []  # the same moves, as action numbers (quick to replay)
        self.movers: list[int] = []
        self.state = game.new_initial_state(seed=seed)
        for text in actions or []:
            self._apply(text)
        self.seen: dict[int, Any] = {}  # per human: the board when they last looked
        self.last_human: int | None = None
        self.stopped = False
        self.page = 0  # of a screen taller than the terminal: the part shown (`more`)
        self._shown_last: set[str] = set()

    @property
    def tty(self) -> bool:
        return sys.stdout.isatty()

    # -- the game -------------------------------------------------------------------------
    def run(self) -> bool:
        """Play to the end (True), or until a human stops (False)."""
        if not self.humans:
            self.out.print(f"{self.game.name}: " + ", ".join(
                f"{n} ({a.name})" for n, a in zip(self.names, self.agents, strict=True)))
        try:
            while not self.state.is_terminal():
                player = self.state.current_player()
                agent = self.agents[player]
                if isinstance(agent, HumanAgent):
                    text = self._human_turn(player)
                else:
                    text = self._think(player, agent)
                self._apply(text)
                if isinstance(agent, HumanAgent):  # what changes from here on is highlighted
                    self.seen[player] = self.state.observation(player)["board"]
                if not self.humans:
                    self.out.print(f"{len(self.actions)}. {self.names[player]}: {text}")
        except (QuitGame, KeyboardInterrupt):
            self.stopped = True
            self.out.print("\ngame stopped")
            return False
        self._finish()
        return True

    def _apply(self, move: str | int) -> None:
        """Play a move (its text, or its action number in this position)."""
        player = self.state.current_player()
        action = self.state.string_to_action(move) if isinstance(move, str) else move
        text = move if isinstance(move, str) else str(self.state.action_to_string(move))
        self.state.apply_action(action)
        self.actions.append(text)
        self.numbers.append(action)
        self.movers.append(player)

    def _rebuild(self, keep: int) -> None:
        actions, numbers = self.actions[:keep], self.numbers[:keep]
        self.state = self.game.new_initial_state(seed=self.seed)
        for action in numbers:
            self.state.apply_action(action)
        self.actions, self.numbers, self.movers = actions, numbers, self.movers[:keep]

    # -- the AI ---------------------------------------------------------------------------
    def _think(self, player: int, agent: Any, who: str | None = None) -> str:
        """The agent's move; while it thinks, its name, the time and its playouts."""
        label = who or f"{self.names[player]} ({agent.name})"
        start = time.monotonic()
        shown = [0.0]

        stop = [False]  # a ctrl-c came while it thought (even if its exception was lost)

        def interrupted(signum: int, frame: Any) -> None:
            stop[0] = True
            raise KeyboardInterrupt

        def progress(playouts: int, seconds: float) -> None:
            if stop[0]:
                raise KeyboardInterrupt
            if self.tty and seconds - shown[0] >= 0.1:
                shown[0] = seconds
                print(f"\r\033[K{label} is thinking… {seconds:4.1f} s, {playouts} playouts",
                      end="", flush=True)
        if isinstance(agent, MCTSAgent):
            agent.progress = progress
        if self.humans and self.tty:
            print(f"\r\033[K{label} is thinking…", end="", flush=True)
        # a ctrl-c stops the game however the search was busy (an exception raised while
        # Python frees an object is printed and lost) and whatever the process inherited
        previous = _catch_sigint(interrupted)
        try:
            action = agent.choose(self.state)
            if stop[0]:
                raise KeyboardInterrupt
        finally:
            _catch_sigint(previous)
            if isinstance(agent, MCTSAgent):
                agent.progress = None
            if self.humans and self.tty:
                print("\r\033[K", end="", flush=True)
        text = str(self.state.action_to_string(action))
        if self.humans and who is None and len(self.humans) == 1 and not self.tty:
            spent = time.monotonic() - start
            self.out.print(f"{label} plays {text} ({spent:.1f} s)")
        return text

    # -- a human's turn -------------------------------------------------------------------
    def _human_turn(self, player: int) -> str:
        self._hand_over(player)
        self.page = 0
        self._draw(player)
        while True:
            line = self.reader.read(f"{self.names[player]}> ", lambda: self._labels())
            if line is None:
                raise QuitGame
            text = " ".join(line.split())
            result = self._command(player, text)
            if isinstance(result, str):
                return result

    def _labels(self) -> list[str]:
        return [str(self.state.action_to_string(a)) for a in self.state.legal_actions()]

    def _hand_over(self, player: int) -> None:
        previous, self.last_human = self.last_human, player
        if len(self.humans) < 2 or previous in (None, player):
            return
        self._wipe()
        if self.reader.read(f"pass the device to {self.names[player]} — press Enter ") is None:
            raise QuitGame
        self._wipe()

    def _wipe(self) -> None:
        if self.tty:
            print(WIPE, end="", flush=True)
        else:
            print("\n" + "-" * 40)

    def _draw(self, player: int, keep_last: bool = False) -> None:
        obs = self.state.observation(player)
        before = self.seen.get(player)
        last = _changed(before, obs["board"]) if before is not None else \
            self._last_move_sites(player)
        if keep_last:  # the same screen again (another page): the same highlights
            last = self._shown_last
        self._shown_last = last
        self.seen[player] = obs["board"]
        if self.tty and len(self.humans) == 1:
            print("\033[H\033[2J", end="", flush=True)  # one player: keep the scrollback
        for line in self.screen(player, obs, last):
            self.out.print(line, overflow="ignore", crop=False)

    def screen(self, player: int, obs: Any, last: set[str]) -> list[Text]:
        """All a human's turn shows above the prompt: the screen of the observation, the
        moves since their last one, what is asked and the legal moves."""
        width, height = min(self.out.width, 120), min(self.out.height, 50)
        screen = Screen(obs, last, width, height)
        screen.page = self.page
        return screen.lines(
            lambda w: self._recap(player, obs["history"], w),
            [self._moves_summary, lambda w: self._moves_summary(w, brief=True)])

    def _last_move_sites(self, player: int) -> set[str]:
        if not self.actions:
            return set()
        state = self.game.new_initial_state(seed=self.seed)
        for action in self.numbers[:-1]:
            state.apply_action(action)
        return _changed(state.observation(player)["board"],
                        self.state.observation(player)["board"])

    def _recap(self, player: int, history: list[str], width: int) -> list[Text]:
        """The moves since this player's last one (as they may see them), at most 3."""
        mine = [i for i, m in enumerate(self.movers) if m == player]
        start = mine[-1] + 1 if mine else 0
        if len(history) != len(self.movers):
            start = max(0, len(history) - 3)
        items = []
        for i in range(start, len(history)):
            who = self.names[self.movers[i]] if len(history) == len(self.movers) else ""
            items.append(f"{who} {history[i]}".strip())
        if not items:
            return []
        skipped = "… " if len(items) > 3 else ""
        shown = [Text(skipped + items[-3])] + [Text(x) for x in items[-2:]] \
            if len(items) >= 3 else [Text(x) for x in items]
        return wrap_items(Text("last: ", style="bold"), shown, width, sep="; ")

    def _moves_summary(self, width: int, brief: bool = False) -> list[Text]:
        """What is asked and the moves: listed when few (brief: when on one line), else
        their number and how to see them."""
        out: list[Text] = []
        asked = self._question()
        if asked:
            out += wrap(Text(asked, style="bold"), width)
        labels = self._labels()
        listed = self._move_lines(labels, width)
        if len(labels) <= _LISTED and (not brief or len(listed) <= 1):
            return out + listed
        sample = ", ".join(labels[:2])
        sample = f" ({sample} …)" if len(sample) <= 30 else ""
        text = Text(f"{len(labels)} moves{sample}: Tab completes, `moves` lists them, `help`",
                    style="dim")
        return out + wrap(text, width)

    def _question(self) -> str:
        """What is asked: the `ask "…"` of the choose or the `do`, filled in, else the value
        asked for in words ("Choose dest, a site"), never the rule's code."""
        return question(self.game, self.state)

    def _print_moves(self, labels: list[str]) -> None:
        for line in self._move_lines(labels):
            self.out.print(line)

    def _move_lines(self, labels: list[str], width: int | None = None) -> list[Text]:
        items = [f"{i}. {t}" for i, t in enumerate(labels, start=1)]
        if not items:
            return []
        width = width or min(self.out.width, 120)
        colw = max(map(len, items)) + 2
        ncols = max(1, width // colw)
        nrows = -(-len(items) // ncols)
        return [Text("".join(x.ljust(colw) for x in items[r::nrows]).rstrip())
                for r in range(nrows)]

    # -- commands -------------------------------------------------------------------------
    def _command(self, player: int, text: str) -> str | None:
        """A move's text, or None after a command or a refused move (said why)."""
        word = text.split(" ")[0].lower() if text else ""
        if word in ("q", "quit", "exit"):
            raise QuitGame
        if word in ("help", "?"):
            self.out.print(HELP)
        elif word == "rules":
            self._rules()
        elif word == "more":
            self.page += 1
            self._draw(player, keep_last=True)
        elif word == "moves" or not text:
            self._print_moves(self._labels())
        elif word == "undo":
            self._undo(player)
        elif word == "hint":
            self._hint(player)
        elif word == "score":
            self._score(player)
        elif word == "svg":
            self._svg(player, text[3:].strip() or "position.svg")
        elif text.isascii() and text.isdigit():
            labels = self._labels()
            if len(text) <= 9 and 1 <= int(text) <= len(labels):
                return labels[int(text) - 1]
            self.out.print(f"there is no move {limits.shown(text)}: `moves` numbers them 1 to "
                           f"{len(labels)}")
        else:
            return self._move(text)
        return None

    def _move(self, text: str) -> str | None:
        try:
            action = self.state.string_to_action(text)
        except IllegalActionError as exc:
            self._refuse(why_illegal(self.game, self.state, text, str(exc)))
            return None
        if action not in self.state.legal_actions():
            self._refuse(f"{text} is not legal now")
            return None
        return str(self.state.action_to_string(action))

    def _refuse(self, why: str) -> None:
        """Why a move is refused, wrapped to the terminal's width (never cut)."""
        text = Text("not allowed: ", style="bold red") + Text(why)
        for line in wrap(text, min(self.out.width, 120)):
            self.out.print(line, overflow="ignore", crop=False)

    def _rules(self) -> None:
        found = rules_path(self.rulebook or self.game.path)
        parent = None if found is not None else self._parent_rules()
        if found is None and parent is None:
            self.out.print("no written rules for this game beside its rulebook "
                           f"({self.game.path})")
            return
        if parent is not None:  # a variant without rules of its own: its own words, then
            found, name = parent  # its parent's rules, said so
            mine = variant_words(self.game)
            if mine:
                self.out.print(Text(f"{self.game.name}: ", style="bold") + Text(mine))
            self.out.print(Text(f"no written rules for {self.game.name} itself: these are "
                                f"the rules of {name}, which it changes (what differs is in "
                                f"{self.game.path})", style="bold"), soft_wrap=False)
        assert found is not None
        try:
            from rich.markdown import Markdown  # (only when asked: a slow import)

            text = Markdown(read_rules_text(found))
            width = min(self.out.width, 120)
            if self.tty:  # a pager (less): the rules are longer than a screen
                with self.out.pager(styles=True):
                    self.out.print(text, width=width, soft_wrap=False)
            else:
                self.out.print(text, width=width, soft_wrap=False)  # wrapped at words
        except OSError as exc:
            self.out.print(f"cannot read the rules in '{found}': {exc.strerror or exc}")

    def _parent_rules(self) -> tuple[Path, str] | None:
        """The written rules of the rulebook this one extends (the nearest that has some)."""
        program = program_of(self.game)
        if program is None:
            return None
        own = program.loaded.game.source.path
        for path, source in program.loaded.sources.items():
            if path != own and source.text.lstrip().startswith(("#", "game", "use")) and \
                    any(x.startswith("game ") for x in source.text.splitlines()):
                found = rules_path(path)
                if found is not None:
                    return found, Path(path).name
        return None

    def _undo(self, player: int) -> None:
        mine = [i for i, m in enumerate(self.movers) if m == player]
        if not mine:
            self.out.print("nothing to undo: you have not moved yet")
            return
        since = self.movers[mine[-1] + 1:]
        if any(m in self.humans and m != player for m in since):
            self.out.print("cannot undo: another player at this terminal has moved since")
            return
        self._rebuild(mine[-1])
        self.seen[player] = None
        self.out.print(f"undone: back to before your move {mine[-1] + 1}")
        if self.state.current_player() != player:  # a move of another player came first
            return
        self._draw(player)

    def _hint(self, player: int) -> None:
        adviser = MCTSAgent(400, seed=len(self.actions), name="hint", seconds=2.0)
        text = self._think(player, adviser, who="the hint")
        self.out.print(f"hint: {text}")

    def _score(self, player: int) -> None:
        program = program_of(self.game)
        if program is not None and not program.scores:
            self.out.print("this game has no score: it is won by its end rule")
            return
        rows = score_table(self.game, self.state, viewer=player)
        for line in rows:
            self.out.print(line)
        if any("hidden" in r.plain for r in rows):
            self.out.print(Text("hidden: a term that reads what you may not see (a secret "
                                "zone or var); all are given at the end", style="dim"))

    def _svg(self, player: int, path: str) -> None:
        from rulelang.tools.pictures.viewer import position
        try:
            Path(path).write_text(position(self.state, player) + "\n", encoding="utf-8")
        except (OSError, RulelangError) as exc:
            self.out.print(f"cannot write '{path}': {exc}")
            return
        self.out.print(f"position written to {path}")

    # -- the end --------------------------------------------------------------------------
    def _finish(self) -> None:
        ending = self.ending
        width, height = min(self.out.width, 120), min(self.out.height, 50)
        if self.humans:
            if len(self.humans) == 1:
                if self.tty:
                    print("\033[H\033[2J", end="", flush=True)
                shown = self.end_screen(self.humans[0], ending)
            else:  # hot-seat: the board only, which every player sees
                self._wipe()
                obs = self.state.observation(self.humans[0])
                end = ending(width)
                shown = BoardPainter(obs).lines(width, height - 2 - len(end)) + end
        else:
            shown = ending(width)
        for line in shown:
            self.out.print(line, overflow="ignore", crop=False)

    def end_screen(self, player: int, ending: Callable[..., list[Text]]) -> list[Text]:
        """The last screen of a player: the position, then the ending (in the height but a
        row, for "record written to …")."""
        width, height = min(self.out.width, 120), min(self.out.height, 50)
        obs = self.state.observation(player)
        before = self.seen.get(player)  # what changed since the player last looked
        last = _changed(before, obs["board"]) if before is not None else \
            self._last_move_sites(player)
        return Screen(obs, last, width, height).lines(tails=[ending, lambda w: ending(w, True)])

    def ending(self, width: int | None = None, brief: bool = False) -> list[Text]:
        """Why the game ended, the scores by term and who won (in `width` columns). Brief,
        for a screen with no room: why, and the scores (the header says who won)."""
        width = width or min(self.out.width, 120)
        reasons = end_reason(self.game, self.state)
        if brief and len(reasons) > 1:
            reasons = reasons[:1]  # the rulebook's words, not the rule's source line
        out = [t for reason in reasons for t in wrap(Text(reason), width, 4)]
        scores = list(self.state.scores())
        if not self.humans and any(scores):  # the agents' games: the totals on one line
            out.append(Text("scores: " + ", ".join(f"{n} {v:g}" for n, v in zip(
                self.names, scores, strict=False))))
        out += score_table(self.game, self.state)
        if brief:
            return out
        winners = self.state.winners()
        colours = player_colours(self.names)
        line = Text(winners_line(self.game, self.state), style="bold")
        if len(winners) == 1:
            line.stylize(colours[self.names[winners[0]]])
        return out + [line]


def _changed(before: list[Any], after: list[Any]) -> set[str]:
    """The sites whose pieces differ between two views of the board."""
    old = {s["site"]: s["pieces"] for s in before}
    return {s["site"] for s in after if old.get(s["site"]) != s["pieces"]}


def _catch_sigint(handler: Any) -> Any:
    """Install a SIGINT handler (in the main thread only; elsewhere nothing); the one before."""
    try:
        return signal.signal(signal.SIGINT, handler)
    except (ValueError, TypeError):  # not the main thread, or no handler to put back
        return None
