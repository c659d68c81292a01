"""Every rulebook a PettingZoo AEC environment: `env(path_or_name, options, render_mode)`.
Needs the extra `rulelang[pettingzoo]`.

Agents are the rulebook's players ("player_0" …, in seat order). An agent's observation is
a dict: "observation", its observation tensor (game/tensors.py: nothing hidden from it), and
"action_mask", 1 at each legal id of the game's fixed action space (game/action_space.py) when
it is the agent's turn. Actions are those ids. Rewards are the returns (win +1, loss -1,
shared 0), given when the game ends. `reset(seed=…)` seeds the game's chance (the same seed
and actions give the same game). render_mode "ansi" gives the terminal picture of the
position as the player to move sees it (`rulelang play`), "rgb_array" the SVG picture
(`rulelang render`) as pixels, when the optional `resvg_py` can draw it.
"""
from __future__ import annotations

from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
except ImportError as exc:  # (an extra: say which)
    raise ImportError("rulelang.pettingzoo needs PettingZoo: pip install "
                      "'rulelang[pettingzoo]'") from exc

import rulelang
from rulelang.game.action_space import space_of
from rulelang.game.tensors import tensors_of

_DEFAULT_CAP = 2000  # plies, for a rulebook that states no longest length


def env(path_or_name: Any, options: dict[str, Any] | None = None,
        render_mode: str | None = None, max_plies: int | None = None) -> RulelangEnv:
    """The AEC environment of a rulebook (a path or a bundled rulebook's name) with its
    options; the game ends with no result (0 for all) after `max_plies` plies (default:
    the rulebook's `end at most N plies`, else 2000)."""
    return RulelangEnv(path_or_name, options, render_mode, max_plies)


class RulelangEnv(AECEnv):  # type: ignore[misc]
    metadata = {"render_modes": ["ansi", "rgb_array"], "is_parallelizable": False}

    def __init__(self, path_or_name: Any, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, max_plies: int | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in ("ansi", "rgb_array"):
            raise ValueError(f"render_mode {render_mode!r}: choose 'ansi' or 'rgb_array'")
        self.game = rulelang.load_game(path_or_name, options)
        self.game.max_plies = max_plies or self.game.runtime.program.max_plies or _DEFAULT_CAP
        self.space = space_of(self.game)
        self.layout = tensors_of(self.game)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"rulelang_{self.game.name}"}
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        box = spaces.Box(low=-np.inf, high=np.inf, shape=(self.layout.size,),
                         dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.space.size)
                              for a in self.possible_agents}
        self.state: Any = None

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0] >> 1)
        self.state = self.game.new_initial_state(seed=seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, Any]:
        p = self.possible_agents.index(agent)
        tensor = np.asarray(self.layout.flat(self.state.observation(p)), dtype=np.float32)
        mask = np.zeros(self.space.size, dtype=np.int8)
        if not self.state.is_terminal() and self.state.current_player() == p:
            mask[self.state.legal_action_ids()] = 1
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(self.state.action_from_id(int(action)))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.state.is_terminal():
            for a, r in zip(self.possible_agents, self.state.returns(), strict=True):
                self.rewards[a] = float(r)
                self.terminations[a] = not self.state.capped()
                self.truncations[a] = bool(self.state.capped())
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> Any:
        if self.render_mode is None or self.state is None:
            return None
        player = max(0, self.state.current_player())
        if self.render_mode == "ansi":
            from rulelang.tools.pictures.render import render_observation
            return render_observation(self.state.observation(player))
        return _pixels(self.state, player)

    def close(self) -> None:
        pass


def _pixels(state: Any, player: int) -> Any:
    """The position's SVG picture as an RGB array (height x width x 3)."""
    try:
        import resvg_py
    except ImportError as exc:
        raise rulelang.RulelangError("render_mode 'rgb_array' needs the package resvg-py "
                                     "(pip install resvg-py)") from exc
    from PIL import ImageFile

    from rulelang.tools.pictures.picture import board_shape, draw
    svg = draw(state.observation(player), board_shape(state.game), fonts=False)  # (pixels)
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg))
    decoder = ImageFile.Parser()  # (PNG bytes in memory: no file is read)
    decoder.feed(png)
    return np.asarray(decoder.close().convert("RGB"))
