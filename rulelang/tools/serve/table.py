"""One table: a game in progress, its seats, and the rules of who may do what.

Every action is checked here before it touches the game: the link's seat must be the one to
move, the move must have been offered for the current position (`turn`, a fresh random word
each time the position changes, so a repeated or late frame is refused) and be legal now.
A refused action changes nothing. Each applied move is written to the store at once, so
that the table replays to the same position after a restart.

Undo takes back the last move made by a person (and the agents' moves after it) once every
person at the table agrees: with one person, at once.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from rulelang.errors import IllegalActionError
from rulelang.resources import bundled_rulebook
from rulelang.tools.records.record import dump_record, record_game
from rulelang.tools.serve.protocol import ClientError
from rulelang.tools.serve.store import Saved, Store, digest

SPECTATOR = -1  # the seat of a spectator link: sees what every player sees


@dataclass
class Undo:
    by: int
    agreed: set[int] = field(default_factory=set)


class Table:
    def __init__(self, saved: Saved, game: Any, store: Store) -> None:
        self.saved, self.game, self.store = saved, game, store
        self.id = saved.id
        self.names: list[str] = [str(n) for n in game.player_names]
        self.agents = [s["agent"] for s in saved.seats]
        self.humans = [i for i, a in enumerate(self.agents) if a == "human"]
        self.state = game.new_initial_state(seed=saved.seed)
        self.movers: list[int] = []
        self.moves: list[str] = []
        self.undo: Undo | None = None
        self.notice = ""  # the last event every seat is told of (an undo asked, refused)
        self.error = ""  # an agent that failed
        self.epoch = 0  # counts changes: an agent's answer for an older position is dropped
        self.asking = -1  # the epoch an agent was last asked about
        self.turn = secrets.token_urlsafe(9)
        self.last_sites: set[str] = set()
        for move in saved.moves:
            self._apply(move)
        self._board_now = self._board()

    # --- who is who
    def seat_of(self, token: str) -> int:
        key = digest(token)
        for i, seat in enumerate(self.saved.seats):
            if seat["agent"] == "human" and secrets.compare_digest(seat["token"], key):
                return i
        if secrets.compare_digest(self.saved.spectator, key):
            return SPECTATOR
        raise ClientError("this link opens no seat of this table",
                          "ask whoever made the table for your seat's link")

    def to_move(self) -> int:
        return int(self.state.current_player())

    def agent_to_move(self) -> str | None:
        """The agent's name when an agent seat must decide now."""
        p = self.to_move()
        if p < 0 or self.agents[p] == "human":
            return None
        return self.agents[p]

    @property
    def over(self) -> bool:
        return bool(self.state.is_terminal())

    # --- moves
    def act(self, seat: int, label: str, turn: str) -> None:
        """A person's move; ClientError (nothing changed) unless it is theirs to make now."""
        if self.over:
            raise ClientError("the game is over: no move can be made")
        if seat == SPECTATOR:
            raise ClientError("a spectator cannot move")
        if seat != self.to_move():
            raise ClientError(f"it is not your turn: {self._whose()} to move")
        if not secrets.compare_digest(turn, self.turn):
            raise ClientError("this move was made for a position that has changed since; "
                              "the table shows the position now")
        try:
            action = self.state.string_to_action(label)
        except IllegalActionError as exc:
            raise ClientError(f"'{label[:60]}' is not a legal move now: {exc}") from None
        self.play(self.state.action_to_string(action))

    def agent_move(self, label: str, epoch: int) -> bool:
        """An agent's answer, applied when the position is still the one it was asked about."""
        if epoch != self.epoch or self.over or self.agent_to_move() is None:
            return False
        self.play(label)
        return True

    def play(self, label: str) -> None:
        if self.undo is not None:
            self.undo, self.notice = None, "the undo request was dropped: a move was made"
        else:
            self.notice = ""
        before = self._board_now
        self._apply(label)
        self.store.push(self.id, len(self.moves) - 1, label)
        self._board_now = self._board()
        self.last_sites = {s for s, pieces in self._board_now.items()
                           if before.get(s) != pieces}

    def _apply(self, label: str) -> None:
        self.movers.append(self.to_move())
        self.state.apply_action(label)
        self.moves.append(label)
        self._changed()

    def _changed(self) -> None:
        self.epoch += 1
        self.turn = secrets.token_urlsafe(9)
        self.error = ""

    def _board(self) -> dict[str, Any]:
        """The pieces of every site (the board is the same for every player)."""
        if not self.game.runtime.board.sites:
            return {}
        return {s["site"]: s["pieces"] for s in self.state.observation(SPECTATOR)["board"]}

    def _whose(self) -> str:
        p = self.to_move()
        return self.names[p] if p >= 0 else "nobody"

    # --- undo by agreement
    def ask_undo(self, seat: int) -> None:
        if seat not in self.humans:
            raise ClientError("only a player at the table may ask to undo")
        target = self._undo_target()
        if target is None:
            raise ClientError("nothing to undo: no person has moved yet")
        if self.undo is not None:
            raise ClientError(f"{self.names[self.undo.by]} already asked to undo")
        self.undo = Undo(seat, {seat})
        self.notice = f"{self.names[seat]} asks to undo the last move of a person"
        self._settle_undo()

    def answer_undo(self, seat: int, agree: bool) -> None:
        if self.undo is None:
            raise ClientError("nobody asked to undo")
        if seat not in self.humans:
            raise ClientError("only a player at the table may answer")
        if not agree:
            self.notice = f"{self.names[seat]} refused to undo"
            self.undo = None
            return
        self.undo.agreed.add(seat)
        self._settle_undo()

    def waiting_undo(self) -> list[int]:
        return [] if self.undo is None else [h for h in self.humans
                                             if h not in self.undo.agreed]

    def _undo_target(self) -> int | None:
        mine = [i for i, m in enumerate(self.movers) if m in self.humans]
        return mine[-1] if mine else None

    def _settle_undo(self) -> None:
        if self.undo is None or self.waiting_undo():
            return
        keep = self._undo_target()
        self.undo = None
        if keep is None:
            return
        moves = self.moves[:keep]
        self.store.cut(self.id, keep)
        self.state = self.game.new_initial_state(seed=self.saved.seed)
        self.movers, self.moves = [], []
        for move in moves:
            self._apply(move)
        self.last_sites, self._board_now = set(), self._board()
        self.notice = f"undone: back to before move {keep + 1}"

    # --- records
    def record(self) -> str:
        """The game record (DESIGN.md section 5) once the game is over: it holds the true
        history, secret choices included, so it is never given out before the end."""
        if not self.over:
            raise ClientError("the record can be downloaded once the game is over")
        stem = self.saved.path.rsplit("/", 1)[-1].removesuffix(".rule")
        bundled = bundled_rulebook(stem)
        name = stem if bundled is not None and str(bundled) == self.saved.path \
            else self.saved.path
        return dump_record(record_game(self.game, self.state, self.saved.seed, rulebook=name))

