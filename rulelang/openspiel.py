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

Chance: a rulebook that draws on chance (shuffles, random choices) begins with one OpenSpiel
chance node, "deal k": k, one of `deals` equally likely outcomes (a parameter, 4096 by
default), seeds the state's generator, from which every later draw comes. The draws after
it are not chance nodes of their own (the evaluators draw them inside a turn); nobody
observes k. `resample_from_infostate` deals and chooses again what the player cannot see
(State.resample), as IS-MCTS needs.
"""
from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

import rulelang
from rulelang.errors import RulelangError
from rulelang.game.action_space import space_of
from rulelang.game.tensors import tensors_of
from rulelang.library.decision import Decision
from rulelang.tools.render import render_observation

_DEFAULT_CAP = 2000  # plies, for a rulebook that states no longest length
_DEALS = 4096  # the outcomes of the first chance node (the seeds of the game's chance)
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
    if game.has_chance:
        defaults["deals"] = _DEALS
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
        options = {k: v for k, v in chosen.items() if k not in ("deals", "max_plies")}
        self.rl = _load(source, options, int(chosen["max_plies"]))
        self.key = (source, options, int(chosen["max_plies"]))
        self.space = space_of(self.rl)
        self.tensors = tensors_of(self.rl)
        self.imperfect = hidden(self.rl)
        self.deals = int(chosen.get("deals", 0))
        if self.rl.has_chance and self.deals < 1:
            raise ValueError(f"deals={self.deals}: a game of chance needs at least 1")
        n = self.rl.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size, max_chance_outcomes=self.deals,
            num_players=n, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
            else None,
            max_game_length=int(chosen["max_plies"]) + (1 if self.deals else 0))
        super().__init__(game_type, info, chosen)

    def new_initial_state(self) -> RulelangState:
        return RulelangState(self, Played(self.key, None if self.deals else 0))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self, recall)


class Played:
    """The rulelang state inside an OpenSpiel state: deep-copied as a clone, pickled as the
    game, the seed and the ids applied (replayed when unpickled); a resampled one as the
    state it was resampled from, the player, the seed and the ids applied since."""

    def __init__(self, key: tuple[Any, ...], seed: int | None, base: Any = None) -> None:
        self.key, self.seed, self.ids = key, seed, list[int]()
        self.base = base  # (Played, player, seed) of a resampled state
        self.state: Any = None  # (None: the deal, a chance node, is still to come)
        if base is None and seed is not None:
            self.state = _load(*key).new_initial_state(seed)
        elif base is not None:
            played, player, at = base
            self.state = played.state.clone().resample(player, at)

    def apply(self, action_id: int) -> None:
        if self.state is None:  # the deal: the seed of the game's chance
            self.state = _load(*self.key).new_initial_state(action_id)
            self.ids.append(action_id)
            return
        self.state.apply_action(self.state.action_from_id(action_id))
        self.ids.append(action_id)

    def __deepcopy__(self, memo: dict[int, Any]) -> Played:
        if self.base is None:
            new = Played.__new__(Played)
            new.key, new.seed, new.ids, new.base = self.key, self.seed, list(self.ids), None
            new.state = None if self.state is None else self.state.clone()
            return new
        return _restored(self.key, self.seed, self.ids, self.base)  # (cannot be cloned)

    def __reduce__(self) -> Any:
        return (_restored, (self.key, self.seed, self.ids, self.base))


def _restored(key: tuple[Any, ...], seed: int | None, ids: list[int], base: Any) -> Played:
    new = Played(key, seed, base)
    if seed is None and base is None and ids:  # (the deal is the first id)
        new.apply(ids[0])
        ids = ids[1:]
    for i in ids:
        new.apply(i)
    return new


class RulelangState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: RulelangGame, played: Played | None = None) -> None:
        super().__init__(game)
        self.played = played or Played(game.key, 0)

    @property
    def rl(self) -> Any:
        """The rulelang state (rulelang.State or a generated one)."""
        return self.played.state

    def current_player(self) -> int:
        if self.rl is None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(self.rl.current_player())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self.get_game().deals
        return [(k, 1.0 / n) for k in range(n)] if self.rl is None else []

    def _legal_actions(self, player: int) -> list[int]:
        if self.rl is None:
            return list(range(self.get_game().deals)) if player < 0 else []
        if player != self.rl.current_player():
            return []
        ids: list[int] = self.rl.legal_action_ids()
        return ids

    def _apply_action(self, action: int) -> None:
        self.played.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
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
            return _BEFORE_DEAL
        if not self.get_game().imperfect:
            return str(render_observation(self.rl.observation(0)))
        return "\n\n".join(f"as {name} sees it:\n" + render_observation(self.rl.observation(p))
                           for p, name in enumerate(self.rl.game.player_names))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state of the same information state for `player_id`, what they cannot see
        dealt and chosen again (State.resample), seeded by the sampler's draw."""
        seed = int(probability_sampler() * (1 << 31))
        new = self.get_game().new_initial_state()
        new.played = Played(self.played.key, self.played.seed,
                            (copy.deepcopy(self.played), player_id, seed))
        return new


_BEFORE_DEAL = "(before the deal)"


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
        if state.rl is None:  # before the deal: nothing to see yet
            self.tensor.fill(0)
            return
        parts = self.layout.parts(state.rl.observation(player))
        for name, values in parts.items():
            self.dict[name].reshape(-1)[:] = values
        if self.recall:
            counts = self.dict["history"]
            counts.fill(0)
            for i in known_ids(state.rl, player):
                counts[i] += 1  # (-1: the last entry)

    def string_from(self, state: RulelangState, player: int) -> str:
        if state.rl is None:
            return _BEFORE_DEAL
        return json.dumps(_shown(state.rl.observation(player), self.recall), sort_keys=True)


register_bundled()
