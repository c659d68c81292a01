"""Every rulebook an OpenSpiel game: `register(path_or_name, options, short_name)` makes a
rulebook loadable by `pyspiel.load_game(short_name)`, and `register_bundled()` registers
each bundled rulebook as `rulelang_<name>` (done on import: `import rulelang.openspiel` and
`pyspiel.load_game("rulelang_hex(size=5)")`). Needs the extra `rulelang[openspiel]`.

The OpenSpiel game is the rulebook with its options as game parameters (`players` and each
`option`), and two more: `max_plies` (the game ends there with no result, so that OpenSpiel's
max_game_length holds; the rulebook's own `end at most N plies` by default, else 2000) and
`seed` (where the chance of the game's states begins). Actions are the ids of the rulebook's
fixed action space (game/action_space.py, docs/action_space.md); observation tensors are
game/tensors.py's; the strings are the observation as JSON (sorted keys), the information
state's with the history as the player knows it (others' secret choices unnamed).

Chance: every draw of the game (a shuffle, `choose … at random`) is an OpenSpiel chance
node of its own, its n outcomes equally likely, in the order the engine draws them (a
shuffle of k pieces: k-1 nodes, Fisher-Yates from the last place); outcome i is the draw
`randrange(n) == i` of the engine's generator (game/chance.py). `resample_from_infostate`
deals and chooses again what the player cannot see (State.resample); what is drawn after it
is chance nodes again.
"""
from __future__ import annotations

import copy
import json
from typing import Any

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found]
except ImportError as exc:  # (an extra: say which)
    raise ImportError("rulelang.openspiel needs OpenSpiel: pip install 'rulelang[openspiel]'"
                      ) from exc

import rulelang
from rulelang.errors import RulelangError
from rulelang.game.action_space import space_of
from rulelang.game.chance import NeedChance, ScriptedRng
from rulelang.game.tensors import tensors_of
from rulelang.gen.rt import GenState
from rulelang.library.decision import Decision
from rulelang.tools.pictures.render import render_observation

_DEFAULT_CAP = 2000  # plies, for a rulebook that states no longest length
_SOURCES: dict[str, tuple[str, dict[str, Any]]] = {}  # short name -> (rulebook, options)
_GAMES: dict[tuple[Any, ...], Any] = {}
_FACTORIES: list[Any] = []  # (rulebook, options, cap) -> rulelang game


def register(path_or_name: Any, options: dict[str, Any] | None = None,
             short_name: str | None = None) -> str:
    """Register a rulebook (a path or a bundled rulebook's name) with OpenSpiel under
    `short_name` (default `rulelang_<file stem>`), its options as the parameters' defaults;
    returns the short name. A rulebook whose actions cannot be numbered raises RulebookError
    (R270) naming the choose."""
    options = dict(options or {})
    game = rulelang.load_game(path_or_name, options)
    space_of(game)  # the action space can be made (else: RulebookError)
    source = str(path_or_name)
    name = short_name or "rulelang_" + _stem(game.path)
    if name in _SOURCES:
        if _SOURCES[name] != (source, options):
            raise RulelangError(f"'{name}' is already registered for another rulebook")
        return name
    defaults = {"players": game.num_players, **game.options,
                "max_plies": game.runtime.program.max_plies or _DEFAULT_CAP}
    game_type = _game_type(game, name, defaults)
    _SOURCES[name] = (source, options)

    def make(params: Any = None) -> RulelangGame:
        return RulelangGame(game_type, source, params or {})
    # OpenSpiel drops the factory after the interpreter has stopped, without the GIL: were
    # that the last reference, freeing it would abort Python. A reference to itself keeps
    # it (as a class is kept: its __mro__ holds it)
    make.itself = make  # type: ignore[attr-defined]
    pyspiel.register_game(game_type, make)
    return name


def register_bundled() -> list[str]:
    """Register every bundled rulebook whose actions can be numbered; the short names."""
    names = []
    for path in sorted(rulelang.BUNDLED.glob("*.rule")):
        if rulelang.is_library(path):
            continue
        try:
            names.append(register(path.stem))
        except RulelangError:
            continue  # (its choose cannot be numbered: `register` would say which)
    return names


def _stem(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]


def hidden(game: Any) -> bool:
    """Does a player ever not see something: a hidden zone, a secret var or choice?"""
    program = game.runtime.program
    return bool(game.has_hidden_information or any(v.secret for v in program.vars.values())
                or any(s.mode == "secret" for s in program.choice_types))


def _game_type(game: Any, name: str, defaults: dict[str, Any]) -> Any:
    t = pyspiel.GameType
    lo, hi = game.player_range
    imperfect = hidden(game)
    return t(short_name=name, long_name=f"rulelang {game.name}",
             dynamics=t.Dynamics.SEQUENTIAL,
             chance_mode=(t.ChanceMode.EXPLICIT_STOCHASTIC if game.has_chance
                          else t.ChanceMode.DETERMINISTIC),
             information=(t.Information.IMPERFECT_INFORMATION if imperfect
                          else t.Information.PERFECT_INFORMATION),
             utility=(t.Utility.ZERO_SUM if lo == hi == 2 else t.Utility.GENERAL_SUM),
             reward_model=t.RewardModel.TERMINAL, max_num_players=hi, min_num_players=lo,
             provides_information_state_string=True,  # (the observation and the history)
             provides_information_state_tensor=imperfect,
             provides_observation_string=True, provides_observation_tensor=True,
             parameter_specification=defaults)


def _load(source: str, options: dict[str, Any], cap: int) -> Any:
    key = (source, tuple(sorted(options.items())), cap)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = rulelang.load_game(source, options)
        game.max_plies = cap
    return game


class RulelangGame(pyspiel.Game):  # type: ignore[misc]
    """A rulebook with its options, as an OpenSpiel game."""

    def __init__(self, game_type: Any, source: str, params: dict[str, Any]) -> None:
        defaults = game_type.parameter_specification
        chosen = {k: params.get(k, v) for k, v in defaults.items()}
        options = {k: v for k, v in chosen.items() if k != "max_plies"}
        self.rl = _load(source, options, int(chosen["max_plies"]))
        self.key = (source, options, int(chosen["max_plies"]))
        self.space = space_of(self.rl)
        self.tensors = tensors_of(self.rl)
        self.imperfect = hidden(self.rl)
        self.outcomes = self.space.chance_outcomes() if self.rl.has_chance else 0
        cap = int(chosen["max_plies"])
        # draws in one game: no more than the pieces each ply (a loose bound, as OpenSpiel's
        # own default, the game's length, is for games of a few dice)
        self.draws = (cap + 1) * max(1, len(self.rl.runtime.pieces)) if self.outcomes else 0
        n = self.rl.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size, max_chance_outcomes=self.outcomes,
            num_players=n, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
            else None,
            max_game_length=cap)
        super().__init__(game_type, info, chosen)

    def new_initial_state(self) -> RulelangState:
        return RulelangState(self, Played(self.key))

    def max_chance_nodes_in_history(self) -> int:
        return int(self.draws)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self, recall)


class Played:
    """The rulelang state inside an OpenSpiel state, and its chance: the state's generator
    takes the outcomes of the chance nodes (game/chance.py); a step that needs one more
    stops (NeedChance), the state is then a chance node, and the step is taken again from
    the state before it (`before`) once the outcome is known.

    Copied (OpenSpiel's clone) and pickled (its serialisation) as the game and the ids
    applied, replayed: a chance game's states share their outcomes with their checkpoints,
    so a copy is made anew. A resampled state: as the state it was resampled from, the
    player, the seed and the ids applied since."""

    def __init__(self, key: tuple[Any, ...], base: Any = None, start: bool = True) -> None:
        self.key, self.base = key, base  # base: (Played, player, seed) of a resample
        self.ids: list[int] = []
        self.chance: list[bool] = []  # per id: was it a chance outcome?
        self.script: list[int] = []  # the outcomes the generator reads
        self.need: int | None = None  # a chance node: its number of outcomes
        self.before: Any = None  # a chance node: the state before the step that draws
        self.pending: int | None = None  # … and that step's action (None: the setup)
        self.state: Any = None
        if start:
            self._step(self._start)

    def _start(self) -> Any:
        game = _load(*self.key)
        rng = ScriptedRng(self.script) if game.has_chance else None
        if self.base is None:
            return game.new_initial_state(0, rng)
        played, player, seed = self.base
        state = played.state.clone().resample(player, seed)
        if rng is not None:  # (what comes after the resample is chance still to draw)
            _set_rng(state, rng)
        return state

    def _step(self, make: Any) -> None:
        """Take a step (make() returns the state after it) or, when it draws past the
        outcomes known, open a chance node."""
        try:
            self.state, self.need = make(), None
        except NeedChance as need:
            self.state, self.need = None, need.n

    def apply(self, action_id: int, chance: bool) -> None:
        self.ids.append(action_id)
        self.chance.append(chance)
        if chance:
            assert self.need is not None and 0 <= action_id < self.need
            self.script.append(action_id)
            self._step(self._again)
            return
        state = self.state
        action = state.action_from_id(action_id)
        self.before = state.clone() if _draws(state) and _clonable(state) else None
        self.pending = action

        def take() -> Any:
            state.apply_action(action)
            return state
        self._step(take)

    def _again(self) -> Any:
        """The step that stopped for an outcome, taken again with one more outcome."""
        if self.pending is None or self.before is None:
            return self._replayed()
        state = self.before.clone()
        state.apply_action(self.pending)
        return state

    def _replayed(self) -> Any:
        """The game from its start, every action taken again, the generator reading the
        outcomes known (a copy, or where there is no state before the step to take it
        from)."""
        state = self._start()
        for i, chance in zip(self.ids, self.chance, strict=True):
            if not chance:
                state.apply_action(state.action_from_id(i))
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> Played:
        if self.state is not None and not _clonable(self.state):
            return _restored(self.key, self.base, self.ids, self.chance)
        new = Played.__new__(Played)
        new.__dict__.update(self.__dict__)
        new.ids, new.chance, new.script = list(self.ids), list(self.chance), list(self.script)
        new.state = None if self.state is None else _own(self.state.clone(), new.script)
        new.before = None if self.before is None else _own(self.before.clone(), new.script)
        return new

    def __reduce__(self) -> Any:
        return (_restored, (self.key, self.base, self.ids, self.chance))


def _restored(key: tuple[Any, ...], base: Any, ids: list[int], chance: list[bool]) -> Played:
    """The game replayed from its ids."""
    new = Played(key, base, start=False)
    new.ids, new.chance = list(ids), list(chance)
    new.script = [i for i, c in zip(ids, chance, strict=True) if c]
    new._step(new._replayed)
    return new


def _clonable(state: Any) -> bool:
    """(A state resampled in the middle of a segment cannot be cloned: engine.State.)"""
    return not (getattr(state, "_resampled", False) and state._gen is not None)


def _own(state: Any, script: list[int]) -> Any:
    """A copy's generators read its own outcomes: the state's, and its segment's
    checkpoint's (a clone shares the checkpoint with the original: it gets a copy), from
    the same positions."""
    if isinstance(state, GenState):
        if isinstance(state.rng, ScriptedRng):
            state.rng.script = script
        return state
    rng = state.ctx.data.rng
    if isinstance(rng, ScriptedRng):
        rng.script = script
    if state._checkpoint is not None and isinstance(state._checkpoint.rng, ScriptedRng):
        state._checkpoint = state._checkpoint.copy()
        state._checkpoint.rng.script = script
    return state


def _draws(state: Any) -> bool:
    return bool(state.game.has_chance)


def _set_rng(state: Any, rng: Any) -> None:
    if isinstance(state, GenState):
        state.rng = rng
    else:
        state.ctx.data.rng = rng


class RulelangState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: RulelangGame, played: Played | None = None) -> None:
        super().__init__(game)
        self.played = played or Played(game.key)

    @property
    def rl(self) -> Any:
        """The rulelang state (rulelang.State or a generated one)."""
        return self.played.state

    def current_player(self) -> int:
        if self.rl is None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(self.rl.current_player())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self.played.need
        return [] if n is None else [(k, 1.0 / n) for k in range(n)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.rl is None:
            n = self.played.need or 0
            return list(range(n)) if player == pyspiel.PlayerId.CHANCE else []
        if player != self.rl.current_player():
            return []
        ids: list[int] = self.rl.legal_action_ids()
        return ids

    def _apply_action(self, action: int) -> None:
        self.played.apply(int(action), self.rl is None)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action}"
        return str(self.get_game().space.describe(int(action)))

    def is_terminal(self) -> bool:
        return self.rl is not None and bool(self.rl.is_terminal())

    def returns(self) -> list[float]:
        if self.rl is None:
            return [0.0] * self.get_game().num_players()
        return [float(r) for r in self.rl.returns()]

    def __str__(self) -> str:
        """The whole state: the terminal picture of the position (`rulelang play`); with
        hidden information, each player's picture in turn."""
        if self.rl is None:
            return _SETTING_UP
        if not self.get_game().imperfect:
            return str(render_observation(self.rl.observation(0)))
        return "\n\n".join(f"as {name} sees it:\n" + render_observation(self.rl.observation(p))
                           for p, name in enumerate(self.rl.game.player_names))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state of the same information state for `player_id`, what they cannot see
        dealt and chosen again (State.resample), seeded by the sampler's draw."""
        seed = int(probability_sampler() * (1 << 31))
        new = self.get_game().new_initial_state()
        new.played = Played(self.played.key, (copy.deepcopy(self.played), player_id, seed))
        return new


_SETTING_UP = "(the setup draws)"


def _shown(obs: dict[str, Any], recall: bool) -> dict[str, Any]:
    """An observation as the strings show it: without the history unless with recall."""
    return obs if recall else {k: v for k, v in obs.items() if k != "history"}


def known_ids(state: Any, player: int) -> list[int]:
    """The ids of the actions so far as `player` knows them: -1 for a run of another
    player's secret choices (as the observation's history shows them)."""
    space, out, last_secret = space_of(state.game), [], None
    for d, i in state.data.history:
        if isinstance(d, Decision) and d.secret and d.player != player:
            if last_secret != d.player:
                out.append(-1)
                last_secret = d.player
            continue
        out.append(space.encode(d, d.options[i]))
        last_secret = None
    return out


class Observer:
    """OpenSpiel's observer protocol (open_spiel/python/observation.py): the observation
    tensor's parts (game/tensors.py) and, with perfect recall (the information state), how
    often each action id is in the history the player knows (the last entry: runs of
    others' secret choices)."""

    def __init__(self, game: RulelangGame, recall: bool) -> None:
        self.recall, self.layout = recall, game.tensors
        shapes = dict(game.tensors.shape)
        if recall:
            shapes["history"] = (game.space.size + 1,)
        self.tensor = np.zeros(sum(int(np.prod(s)) for s in shapes.values()), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, shape in shapes.items():
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + n].reshape(shape)
            at += n

    def set_from(self, state: RulelangState, player: int) -> None:
        seen = _seen(state)
        if seen is None:  # the setup's draws: nothing to see yet
            self.tensor.fill(0)
            return
        parts = self.layout.parts(seen.observation(player))
        for name, values in parts.items():
            self.dict[name].reshape(-1)[:] = values
        if self.recall:
            counts = self.dict["history"]
            counts.fill(0)
            for i in known_ids(seen, player):
                counts[i] += 1  # (-1: the last entry)

    def string_from(self, state: RulelangState, player: int) -> str:
        seen = _seen(state)
        if seen is None:
            return _SETTING_UP
        text = json.dumps(_shown(seen.observation(player), self.recall), sort_keys=True)
        return text if state.rl is not None else text + " (chance draws)"


def _seen(state: RulelangState) -> Any:
    """What a player sees of the state: at a chance node, the state before the step that
    draws (None in the setup's draws)."""
    return state.rl if state.rl is not None else state.played.before


register_bundled()
