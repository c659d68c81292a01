"""The mutable data of one game state, laid out for cheap copies: lists indexed by site index
or piece id, one list per zone. Effects change it only through these methods."""
from __future__ import annotations

from typing import Any, NamedTuple

from rulelang.model.rng import Rng
from rulelang.model.values import Piece, Site, ZoneRef

# What every player may know of where a piece is (GameData.came, read by resample): the
# place it last came from (a site or zone: whoever saw that place saw it go where it is),
# REVEALED (a revealed value names it, where it lies), Mixed(...) (its zone was shuffled
# since it came: it is known to be in that zone, not where in it), or None (nothing).
REVEALED = "revealed"


class Mixed(NamedTuple):
    source: Any  # what `came` was before the shuffle


class GameData:
    __slots__ = ("at", "loc", "zones", "owner", "attrs", "counters", "vars", "last", "mover",
                 "turn", "result", "history", "positions", "rng", "revealed", "idle", "changes",
                 "cache", "round", "starter", "round_turns", "capped", "came", "stated_chance",
                 "moved", "fixed")

    def __init__(self, n_sites: int, seed: int) -> None:
        self.at: list[tuple[Piece, ...]] = [()] * n_sites
        self.loc: list[Site | ZoneRef | None] = []
        self.zones: dict[ZoneRef, list[Piece]] = {}
        self.owner: list[int | None] = []
        self.attrs: dict[str, list[Any]] = {}
        self.counters: dict[tuple[str, int | None], int] = {}
        self.vars: dict[tuple[str, int | None], Any] = {}
        self.last: dict[str, Any] = {"action": None, "player": None, "site": None, "piece": None}
        self.mover = 0
        self.turn = 1
        self.result: list[int] | None = None  # winners, once the game is over
        self.history: list[tuple[Any, int]] = []  # (decision, index of the chosen option)
        self.positions: dict[Any, int] = {}
        self.rng = Rng(seed)
        self.revealed: set[tuple[str, int | None]] = set()  # secret values shown to all
        self.idle = 0  # consecutive turns in which nobody could decide
        self.changes: list[int] = []  # indices of the sites changed so far, in order
        self.cache: dict[Any, Any] = {}  # values kept for this data (game/repetition.py)
        self.round, self.starter, self.round_turns = 1, 0, 0  # rounds of turns
        # outcomes of the next draws, as stated, each with where it was stated (or None)
        self.stated_chance: tuple[tuple[str, Any], ...] = ()
        self.capped = False  # the game was cut at its longest length, without a result
        self.came: list[Any] = []  # per piece id: where it came from (see REVEALED above)
        self.moved: set[int] = set()  # ids of the pieces moved since the action began
        # the piece attributes no rule sets: their columns are shared by every copy
        self.fixed: frozenset[str] = frozenset()

    def own_zones(self) -> None:
        """Its zones' piles are its own already (a generated state's may be shared with its
        copies until it changes them: gen/rt.py)."""

    def copy(self) -> GameData:
        new = GameData.__new__(GameData)
        new.at = self.at.copy()
        new.loc = self.loc.copy()
        new.zones = {k: v.copy() for k, v in self.zones.items()}
        new.owner = self.owner.copy()
        fixed = new.fixed = self.fixed
        new.attrs = {k: v if k in fixed else v.copy() for k, v in self.attrs.items()}
        new.counters = self.counters.copy()
        new.vars = self.vars.copy()
        new.last = self.last.copy()
        new.mover, new.turn, new.result = self.mover, self.turn, self.result
        new.history, new.positions = self.history.copy(), self.positions.copy()
        new.rng = self.rng.copy()
        new.revealed = self.revealed.copy()
        new.idle = self.idle
        new.changes = self.changes.copy()
        new.cache = self.cache.copy()
        new.round, new.starter, new.round_turns = self.round, self.starter, self.round_turns
        new.stated_chance = self.stated_chance
        new.capped = self.capped
        new.came = self.came.copy()
        new.moved = self.moved.copy()
        return new

    # ---- pieces
    def new_piece(self, piece: Piece, owner: int | None, attrs: dict[str, Any]) -> None:
        assert piece.id == len(self.loc)
        self.loc.append(None)
        self.came.append(None)
        self.owner.append(owner)
        for name, value in attrs.items():
            column = self.attrs.get(name)
            if column is None:  # (a default made only when needed: one per piece was
                column = self.attrs[name] = [None] * piece.id  # quadratic in pieces)
            column.append(value)
        for column in self.attrs.values():
            if len(column) <= piece.id:
                column.append(None)

    def lift(self, piece: Piece) -> None:
        """Take a piece from wherever it is; it is then nowhere until put somewhere."""
        where = self.loc[piece.id]
        self.moved.add(piece.id)
        if where is None:
            return
        self.came[piece.id] = where
        if type(where) is Site:
            stack = self.at[where.index]
            self.at[where.index] = tuple(p for p in stack if p is not piece)
            self.changes.append(where.index)
        elif isinstance(where, ZoneRef):
            pile = self.zones[where]
            if pile and pile[-1] is piece:
                pile.pop()
            else:
                pile.remove(piece)
        self.loc[piece.id] = None

    def put(self, piece: Piece, site: Site) -> None:
        self.lift(piece)
        self.at[site.index] = self.at[site.index] + (piece,)
        self.loc[piece.id] = site
        self.changes.append(site.index)

    def to_zone(self, piece: Piece, zone: ZoneRef) -> None:
        self.lift(piece)
        self.zones[zone].append(piece)
        self.loc[piece.id] = zone

    def put_from(self, zone: ZoneRef, kind: str | None, site: Site) -> Piece | None:
        """Put the top piece of a kind from a zone on a site, or None if there is none (the
        hot path of `put ball of mover at s`: one call instead of take, lift and put)."""
        pile = self.zones.get(zone)
        if not pile or (kind is not None and pile[-1].kind != kind):
            return None
        piece = pile.pop()
        self.came[piece.id] = zone
        self.moved.add(piece.id)
        i = site.index
        self.at[i] = self.at[i] + (piece,)
        self.loc[piece.id] = site
        self.changes.append(i)
        return piece

    def begin_action(self) -> None:
        """An action begins (its options are enumerated, or it is taken): `moved` forgets
        (the set is this data's own: copy() copies it)."""
        if self.moved:
            self.moved.clear()

    def shuffle(self, zone: ZoneRef) -> None:
        """Shuffle a zone with the game's generator: where in it each piece lies is then
        unknown to all (that it is in the zone stays known to those who knew it)."""
        pile = self.zones[zone]
        self.rng.shuffle(pile)
        came = self.came
        for piece in pile:
            was = came[piece.id]
            if was is not None and type(was) is not Mixed:
                came[piece.id] = Mixed(was)

    def reveal(self, name: str) -> None:
        """Show every player's value of the secret var `name` to all, until it is set again;
        the pieces those values name are then known to all where they lie."""
        keys = [k for k in self.vars if k[0] == name]
        self.revealed.update(keys)
        for key in keys:
            for piece in pieces_in(self.vars[key]):
                self.came[piece.id] = REVEALED

    def take_from(self, zone: ZoneRef, kind: str | None) -> Piece | None:
        """The last piece of a kind in a zone (the top of a pile), or None."""
        pile = self.zones.get(zone)
        if not pile:
            return None
        if kind is None or pile[-1].kind == kind:
            return pile[-1]
        for piece in reversed(pile):
            if kind is None or piece.kind == kind:
                return piece
        return None


def pieces_in(value: Any) -> list[Piece]:
    """The pieces a value names: itself, or those inside its tuples and lists."""
    if isinstance(value, Piece):
        return [value]
    if isinstance(value, (tuple, list)):
        return [p for v in value for p in pieces_in(v)]
    return []
