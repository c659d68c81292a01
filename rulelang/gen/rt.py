"""What every generated game shares: `GenState`, the public State of a generated game (the
contract of game/engine.py's State), and the few general helpers its generated functions
call over the flat state.

The flat state keeps the reference's values (sites, players and pieces are the runtime's
own objects, so a value means in generated code what it means to the reference) in plain
lists and dicts named as `GameData` names them where the builtins read them (`at`, `loc`,
`owner`, `zones`, `last`, `mover`): a builtin the writer does not inline is called on the
state itself. Nothing else: no change log, no versions, no cache. One kept list, `top`,
holds the owner (a Player, or None) of each site's top piece.

A generated subclass (gen/__init__.py) adds the game's functions, each written for one
mover (`menus`, `acts`, `ends`, `draws`: see GenState), and the kept structures' upkeep.
"""
from __future__ import annotations

import os
from typing import Any

from rulelang.errors import IllegalActionError, RulelangError, RuleRuntimeError
from rulelang.game.callchain import ORIGINS, note_calls
from rulelang.game.engine import recurring_span
from rulelang.gen.bits import count_position
from rulelang.gen.playout import SETUP, TURN, TurnOver
from rulelang.gen.playout import play as play_randomly
from rulelang.library.decision import bound, label, unique_labels
from rulelang.library.semantics import STEP_BUDGET, count_of, domain_items, times
from rulelang.model.rng import Rng
from rulelang.model.values import Piece, Player, ZoneRef, show

TERMINAL = -4
# the debug switch: after each apply_action, compare the kept structures with ones made anew
CHECK_KEPT = os.environ.get("RULELANG_CHECK_KEPT", "") not in ("", "0")


def zone_bits(zones: Any) -> dict[ZoneRef, int]:
    """Each of the game's zones' bit in GenState.zown (by its template's order)."""
    return {zone: 1 << k for k, zone in enumerate(zones)}


def own_zone(s: GenState, zone: ZoneRef) -> list[Piece]:
    """A zone's list to change: the state's own (a copy of it, where the state shares it
    with a copy of the state: GenState.zones)."""
    pile = s.zones[zone]
    bit = s.zone_bit.get(zone, 0)  # (a zone not numbered: copied each time)
    if not s.zown & bit:
        pile = s.zones[zone] = pile.copy()
        s.zown |= bit
    return pile


class GenState:
    __slots__ = ("game", "at", "loc", "owner", "zones", "attrs", "counters", "vars", "last",
                 "mover", "turn", "result", "hist", "rng", "idle", "was_capped", "top",
                 "menu", "_labels", "ended_by", "moved", "steps", "positions", "pc", "point",
                 "decided", "came", "revealed", "round", "starter", "round_turns", "tl",
                 "chooser", "stated_chance", "_checkpoint", "_trail", "_views", "_defer", "phase",
                 "_made", "key_now", "zown")
    game: Any
    at: list[tuple[Piece, ...]]
    loc: list[Any]
    owner: list[int | None]
    # each zone's pile: a copy shares its parent's lists until one of them changes a zone,
    # which makes that zone's list its own first (own_zone: a clone copies no pile)
    zones: dict[ZoneRef, list[Piece]]
    zown: int  # the zones whose lists are this state's own, as bits (zone_bit)
    attrs: dict[str, list[Any]]
    counters: dict[tuple[str, int | None], int]
    vars: dict[tuple[str, int | None], Any]
    last: dict[str, Any]
    mover: int
    turn: int
    result: list[int] | None
    hist: list[tuple[Any, ...]]  # (who, menu, k[, the decision point: turns.py])
    rng: Rng
    idle: int
    was_capped: bool
    top: list[Any]
    menu: list[Any] | None
    _labels: list[str] | None
    ended_by: Any
    moved: set[int]  # the pieces moved since the action began (builtin `moved`)
    steps: list[int]  # the steps charged this action (one cell its scratch copies share)
    positions: dict[Any, int]  # how often each position was counted (repetition)
    pc: int  # a turn of several decisions: the block it resumes at (gen/turns.py)
    point: int  # … and the `do` whose menu is open
    decided: bool  # … and whether a decision was taken in this turn
    # games with hidden zones or secret vars (`hides`): per piece where it came from
    # (GameData.came, read by resample; None in the others), the secret values revealed
    came: list[Any] | None
    revealed: frozenset[tuple[str, int | None]]  # (replaced, never changed: copies share it)
    round: int  # rounds of turns: the round, its first player, the turns played in it
    starter: int
    round_turns: int
    tl: list[Any]  # a turn of several decisions: its locals and loops' positions (turns.py)
    chooser: int | None  # … and who takes its open decision (None: the mover)
    stated_chance: tuple[tuple[str, Any], ...]  # the outcomes stated for the next draws
    # a turn of a game that hides (`keeps_segment`): the state at the turn's start, the
    # actions taken since, the resamples' views (game/resample.py replays the turn)
    _checkpoint: GenState | None
    _trail: list[int]
    _views: Any
    # … in a playout, the state it began with and the history's length at the turn's start:
    # the checkpoint is made again from them where it is asked for (_segment_start)
    _defer: tuple[GenState, int | None] | None
    _made: list[Any]  # the reference's Decisions of the first entries of hist (bridge.py)
    key_now: Any  # the position's key as counted, while the end section reads it (bits.py)
    phase: int  # TURN, ROUND (the round section after a turn) or SETUP (turns.py writes all)
    # set on each generated subclass: the runtime, the players, per piece its owner (a
    # Player or None), the `do` statement of the turn
    rt: Any = None
    players: tuple[Any, ...] = ()
    piece_owner: list[Any] = []
    # a pile's part of a board key: by pile, by its kinds and owners, and back (bits.py)
    pile_keys: dict[tuple[Any, ...], Any] = {}
    pile_codes: dict[tuple[Any, ...], int] = {}
    pile_parts: list[tuple[Any, ...]] = []
    do_node: Any = None
    zone_bit: dict[ZoneRef, int] = {}  # each zone's bit in zown

    # ---- the game's own functions (the generated subclass gives them), one per mover:
    # menus[m](S) the options of the turn's decision (a list of (action, values) in the
    # reference's order), acts[m](S, option) the action's effects, ends[m](S) the winners
    # when the game ends (else None), draws[m](S, randrange) one option of the menu drawn
    # without listing it (or None: no draws for this game)
    menus: tuple[Any, ...] = ()
    acts: tuple[Any, ...] = ()
    ends: tuple[Any, ...] = ()
    draws: tuple[Any, ...] | None = None
    repetition: frozenset[str] = frozenset()  # the repetition rules the game reads
    # a turn of several decisions: per mover, turn(S, pc) -> the next menu or None (the
    # turn is over) (gen/turns.py); the turn's `do`s
    steppers: tuple[Any, ...] | None = None
    do_nodes: tuple[Any, ...] = ()
    # … its chooses by a player (decision points after the `do`s), each with its slot
    chooses: tuple[tuple[Any, int], ...] = ()
    choose_locals: tuple[dict[str, int], ...] = ()  # … and the slots of the locals there
    turn_slots = 0
    keeps_segment = False
    # rounds: per mover, round(S, pc) the round section as a machine; until(S) whether the
    # round ends after this turn
    rounders: tuple[Any, ...] | None = None
    untils: tuple[Any, ...] = ()
    option_slot: int | None = None  # … the slot of a `do`'s option it performs itself
    setupper: Any = None  # a setup that decides or draws by chance: setup(S, pc), a machine
    changing: tuple[str, ...] = ()  # the piece attributes a rule sets (the others shared)
    counting = False  # are steps counted (gen/facts: a bound too near the budget)?
    hides = False  # does the game hide anything (its states then keep `came`)?
    adopts = False  # may its draws give a copy an action ran on (playout.Tried)?
    one_kind: tuple[tuple[Any, str], ...] = ()  # zones its code takes to hold one kind

    @property
    def live_data(self) -> GenState:
        """What the state's rules read and change: the flat state itself (its zones, places
        and pieces' origins as GameData names them; its draws at random are made with it)."""
        return self

    def totals(self) -> list[Any]:
        """Each player's points (the generated subclass gives its score terms)."""
        raise NotImplementedError

    # kept structures (gen/kept.py): none unless the game's layout keeps some
    def _touch(self, i: int, was: tuple[Piece, ...]) -> None:
        pass

    def _init_kept(self) -> None:
        pass

    def _copy_kept(self, new: GenState) -> None:
        pass

    def own_zones(self) -> None:
        """Every zone's list this state's own (before something changes them in place:
        a resample's deal)."""
        for zone in self.zones:
            own_zone(self, zone)

    def _kept_now(self) -> list[Any]:
        return []

    def _verify_kept(self) -> None:
        """The debug check (RULELANG_CHECK_KEPT=1): the kept structures mean what ones made
        anew from the board mean (the generated State class gives it)."""

    # ---- flow: one decision per turn
    def _advance(self, decided: bool) -> None:
        """After a turn's action (decided) or a turn nobody could decide in: the end
        section, the next player, and that player's menu (skipping turns without one)."""
        if self.steppers is not None:
            self._resume()
            return
        while self._next_turn(decided):
            menu = self.menus[self.mover](self)
            if menu:
                self.menu = menu
                return
            decided = False

    def _next_turn(self, decided: bool) -> bool:
        """A turn is over (decided: someone took a decision in it): its position counted,
        the end section, the next player's turn (False: the game is over)."""
        players = len(self.players)
        if self.repetition:  # (the position's key, while the end section reads it)
            self.key_now = count_position(self, (self.mover + 1) % players)
        winners = self.ends[self.mover](self)
        self.key_now = None
        if winners is not None:
            self._over(winners)
            return False
        self.idle = 0 if decided else self.idle + 1
        if self.idle >= players:  # nobody could do anything for a whole round
            self._over([])
            return False
        self.turn += 1
        if self.rounders is not None:
            self.round_turns += 1
            if self.untils[self.mover](self):  # the round ends: its section runs next
                self.phase = 1
                return True
        self.mover = (self.mover + 1) % players
        return True

    def _resume(self) -> None:
        """A turn of several decisions goes on after one (or begins, at pc 1): to its next
        decision, or to its end, the end section, and the next turns'."""
        steppers = self.steppers
        assert steppers is not None
        try:
            while True:
                if self.phase == SETUP:
                    if self.keeps_segment and self.pc == 1 and not self.decided:
                        self._segment_begins()  # (the setup's start: a resample's)
                    menu = self.setupper(self, self.pc)
                    if menu:
                        self.menu = menu
                        return
                    self.phase = TURN  # the setup is over: the first turn
                    if self.repetition:
                        count_position(self, self.mover)
                    self.pc, self.point, self.decided = 1, 0, False
                    continue
                if self.phase:
                    menu = self.rounders[self.mover](self, self.pc)  # type: ignore[index]
                else:
                    if self.keeps_segment and self.pc == 1 and not self.decided:
                        self._segment_begins()  # (a turn's start: a resample's)
                    menu = steppers[self.mover](self, self.pc)
                if menu:
                    self.menu = menu
                    return
                if not self._block_ends():
                    return
        except TurnOver as over:  # a result statement of the turn
            self._over(over.winners)

    def _block_ends(self) -> bool:
        """The turn (or the round section) has no decision left: the next one begins
        (False: the game is over)."""
        if self.phase:  # the round section is over: the end section, a new round
            self.phase = 0
            winners = self.ends[self.mover](self)
            if winners is not None:
                self._over(winners)
                return False
            self.round, self.round_turns, self.mover = self.round + 1, 0, self.starter
        elif not self._next_turn(self.decided):
            return False
        elif self.phase:  # (the round ends: its section from its start)
            self.pc = 1
            return True
        self.pc, self.point, self.decided = 1, 0, False
        return True

    def _segment_begins(self) -> None:
        """A turn (or the setup) of a game that hides begins: its start is kept, for
        resample; in a playout (`_defer`), only where it began."""
        self._checkpoint, self._trail, self._views = None, [], None
        if self._defer is not None:
            self._defer = (self._defer[0], len(self.hist))
        else:
            self._checkpoint = self.clone()

    def _segment_start(self) -> GenState | None:
        """The state the current turn (or setup) began with: the checkpoint, made again
        where a playout deferred it (its start's copy played on to the turn's start)."""
        if self._defer is not None:
            origin, turn_at = self._defer
            self._defer = None
            if turn_at is not None:
                again = origin.clone()
                for entry in self.hist[len(again.hist):turn_at]:
                    again.apply_action(entry[2])
                self._checkpoint = again._checkpoint
        return self._checkpoint

    def _over(self, winners: list[int]) -> None:
        self.result = winners
        self.menu = None

    def _start(self) -> None:
        """The first turn's menu (the setup has run)."""
        if self.steppers is not None:
            self.pc, self.point, self.decided = 1, 0, False
            self._resume()
            return
        menu = self.menus[self.mover](self)
        self.menu = menu if menu else None
        if not menu:
            self._guarded(self._advance, False)

    def _guarded(self, step: Any, arg: Any) -> None:
        self._labels = None
        try:
            step(arg)
        except RecursionError as exc:
            err = too_deep(exc)
            note_calls(err, self.rt.program.loaded)
            raise err from None
        except RulelangError as err:
            note_calls(err, self.rt.program.loaded)
            raise

    def _play(self, option: Any) -> None:
        point = self.point - len(self.do_nodes)
        if point >= 0 and self.steppers is not None:  # a choose of the turn: its value
            self.tl[self.chooses[point][1]] = bound(option[1][0])
        elif self.option_slot is not None:  # a `do`'s option, performed by the machine
            self.tl[self.option_slot] = option
        else:
            self.acts[self.mover](self, option)
        self.decided = True
        self._advance(True)

    # ---- OpenSpiel-shaped API
    def current_player(self) -> int:
        if self.menu is None:
            return TERMINAL
        return self.mover if self.chooser is None else self.chooser

    def is_terminal(self) -> bool:
        return self.menu is None

    def legal_actions(self) -> list[int]:
        menu = self.menu
        return [] if menu is None else list(range(len(menu)))

    def _menu_labels(self) -> list[str]:
        if self._labels is None:
            self._labels = unique_labels([label(o) for o in self.menu or ()])
        return self._labels

    def action_to_string(self, action: int) -> str:
        menu = self.menu
        if menu is None or type(action) is not int or not 0 <= action < len(menu):
            raise IllegalActionError(f"{action} is not a legal action now")
        return self._menu_labels()[action]

    def string_to_action(self, text: str) -> int:
        if self.menu is None:
            raise IllegalActionError("the game is over")
        key = " ".join(str(text).split())
        labels = self._menu_labels()
        if key in labels:
            return labels.index(key)
        raise IllegalActionError(self._explain(key))

    def _explain(self, text: str) -> str:
        """Why `text` is not an option now (the generated State says it in the reference's
        words)."""
        raise NotImplementedError

    def apply_action(self, action: int | str) -> None:
        if isinstance(action, str):
            action = self.string_to_action(action)
        menu = self.menu
        if menu is None:
            raise IllegalActionError("the game is over: no action can be applied")
        if type(action) is not int or not 0 <= action < len(menu):
            raise IllegalActionError(f"{action} is not a legal action now "
                                     f"(legal: 0..{len(menu) - 1})")
        if self.steppers is None:
            self.hist.append((self.mover, menu, action))
        else:  # (with the decision point: a choose's secrecy, the `do`'s actions)
            self.hist.append((self.current_player(), menu, action, self.point))
            if self.keeps_segment:
                self._trail.append(action)
                self._views = None
        self.steps[0] = 0  # (the reference's budget: per action applied)
        self._guarded(self._play, menu[action])
        if CHECK_KEPT:
            self._verify_kept()
        cap = self.game.max_plies
        if cap is not None and len(self.hist) >= cap and self.menu is not None:
            self.was_capped, self.result, self.menu = True, None, None

    def play_out(self, rng: Any, limit: int) -> None:
        """Uniformly random legal actions until the game ends or `limit` are applied, drawn
        as `apply_action(rng.choice(legal_actions()))` draws them (gen/playout.py)."""
        self._labels = None
        if self.keeps_segment and self.menu is not None:  # (no turn's start copied)
            self._segment_start()
            self._defer = (self.clone(), None)
        try:
            play_randomly(self, rng, limit)
            if self.keeps_segment and self.menu is not None:  # (it goes on from here)
                self._segment_start()
        except (RulelangError, RecursionError) as exc:
            self.menu, self._defer = None, None  # (its data is partly played: it cannot go on)
            err = too_deep(exc) if isinstance(exc, RecursionError) else exc
            note_calls(err, self.rt.program.loaded)
            raise err from None

    def capped(self) -> bool:
        return bool(self.was_capped)

    def returns(self) -> list[float]:
        n, winners = len(self.players), self.result
        if not winners:
            return [0.0] * n
        if len(winners) == 1:
            return [1.0 if i in winners else -1.0 for i in range(n)]
        return [0.0 if i in winners else -1.0 for i in range(n)]

    def winners(self) -> list[int]:
        return list(self.result or [])

    def history(self) -> list[str]:
        return [unique_labels([label(o) for o in e[1]])[e[2]] for e in self.hist]

    def clone(self) -> GenState:
        new = self._copy(self.hist.copy(), self.positions.copy())
        new.steps = self.steps.copy()
        return new

    def scratch(self) -> GenState:
        """A copy to try effects on (a menu's walk): its history and position counts are
        this state's own (effects write neither)."""
        return self._copy(self.hist, self.positions)

    def _own_attrs(self, attrs: dict[str, list[Any]]) -> dict[str, list[Any]]:
        """A copy's attributes: its own columns of those a rule sets, the others shared."""
        if not self.changing:
            return attrs
        out = attrs.copy()
        for name in self.changing:
            out[name] = attrs[name].copy()
        return out

    def _copy(self, hist: list[Any], positions: dict[Any, int]) -> GenState:
        new = self.__class__.__new__(self.__class__)
        new.game, new.owner = self.game, self.owner  # (never set)
        new.attrs = self._own_attrs(self.attrs)
        new.at, new.loc, new.top = self.at.copy(), self.loc.copy(), self.top.copy()
        new.counters, new.vars = self.counters.copy(), self.vars.copy()
        new.last, new.hist = self.last.copy(), hist
        new.moved, new.steps, new.positions = self.moved.copy(), self.steps, positions
        new.pc, new.point, new.decided = self.pc, self.point, self.decided
        new.mover, new.turn, new.result, new.idle = self.mover, self.turn, self.result, \
            self.idle
        new.rng, new.was_capped, new.menu, new._labels = self.rng.copy(), self.was_capped, \
            self.menu, self._labels
        new.ended_by = self.ended_by
        came = self.came
        new.came = None if came is None else came.copy()
        new.revealed, new.round, new.starter, new.round_turns = self.revealed, self.round, \
            self.starter, self.round_turns
        new.tl, new.chooser, new.stated_chance = self.tl.copy(), self.chooser, \
            self.stated_chance
        new.phase, new.key_now = self.phase, None
        new._made = self._made if hist is self.hist else self._made.copy()
        if self.keeps_segment:
            new._checkpoint, new._trail, new._views = self._checkpoint, self._trail.copy(), None
            new._defer = self._defer
        self._copy_kept(new)
        return new

    def view(self) -> View:
        """The state as a builtin's context (its data) and the runtime as its game."""
        return View(self, self.rt)  # (not kept: it would make a reference cycle)

    def __str__(self) -> str:
        return f"turn {self.turn}, to move: {self.current_player()}"


# ---- helpers the generated code calls (through its constants table) ----------------------

class View:
    """What a builtin called from generated code sees as its context: the state as its data
    and the runtime as its game. The steps a builtin charges (its items, the rules it
    calls) are counted in every game: the work they stand for depends on values the writer
    cannot bound (a var's list, a zone's pile)."""

    __slots__ = ("data", "game")

    def __init__(self, state: GenState, runtime: Any) -> None:
        self.data, self.game = state, runtime

    @property
    def steps(self) -> int:
        return self.data.steps[0]

    @steps.setter
    def steps(self, n: int) -> None:
        self.data.steps[0] = n

    def tick(self, span: Any, n: int = 1) -> None:
        charge(self.data, n, span)


def domain(s: GenState, x: Any, span: Any) -> Any:
    """The items of a choose's or a loop's domain (semantics.domain_items; a tuple or a
    list as it is, without a view)."""
    if type(x) is tuple or type(x) is list:
        return x
    return domain_items(s.view(), x, span)  # type: ignore[arg-type]


def winners(s: GenState, value: Any, span: Any, kind: str) -> list[int]:
    """The winners a result statement names (reference/statements.py run_Result)."""
    players = [value] if kind == "winner" else list(domain(s, value, span))
    if not all(isinstance(p, Player) for p in players):
        raise RuleRuntimeError(f"a winner must be a player, not {show(value)}", span)
    return sorted({p.index for p in players})


def charge(s: GenState, n: int, span: Any) -> None:
    """n steps of a loop's turn (its bound at most), the budget's error past it."""
    steps = s.steps
    steps[0] += n
    if steps[0] > STEP_BUDGET:
        raise RuleRuntimeError(f"step budget of {STEP_BUDGET} exceeded: does a rule loop "
                               "forever?", span, "R302")


def charged(s: GenState, items: Any, each: int, span: Any) -> Any:
    """A loop's items, its steps charged first: `each` per item (the reference's step per
    item and, at most, what one item's test and value take besides their own loops)."""
    try:
        n = len(items)
    except TypeError:  # (no length: a generator's items, made once)
        items = tuple(items)
        n = len(items)
    except OverflowError:  # (a range longer than a C integer holds: past the budget)
        n = STEP_BUDGET + 1
    steps = s.steps
    steps[0] = total = steps[0] + n * each
    if total > STEP_BUDGET:
        charge(s, 0, span)
    return items


def repeats(s: GenState, value: Any, each: int, count_span: Any, span: Any) -> range:
    """The turns of `repeat N times` (a whole number, else the reference's error), their
    steps charged first: `each` per turn (the reference's step and the body at most)."""
    turns = times(value, count_span)
    charge(s, count_of(turns) * each, span)
    return turns


def ticked(s: GenState, n: int, span: Any) -> None:
    """n steps (a rule passed to a builtin, called): None, for `or` in expressions."""
    charge(s, n, span)


def too_deep(exc: RecursionError) -> RuleRuntimeError:
    """The reference's R302 for an endless recursion (an effect or rule calling itself), at
    the rule or effect whose generated function recurs most among the innermost frames."""
    return RuleRuntimeError("rules call each other too deeply (endless recursion?)",
                            recurring_span(exc, _origin), "R302")


def _origin(frame: Any) -> Any:
    """The span a generated function was written from (its module's origins table)."""
    origin = frame.f_globals.get(ORIGINS, {}).get(frame.f_code.co_name)
    return origin[0] if origin is not None else None


class SiteValues:
    """A rule of one site given to a builtin (reach) with the mover's kept values of it by
    site index (gen/layout.py): the builtin reads and fills those, and asks the rule where
    one is UNASKED."""

    __slots__ = ("rule", "by_site", "__kwdefaults__")

    def __init__(self, rule: Any, by_site: list[Any]) -> None:
        self.rule, self.by_site = rule, by_site
        self.__kwdefaults__ = rule.__kwdefaults__  # (messages name the rule: helpers.show)

    def __call__(self, site: Any) -> Any:
        return self.rule(site)
