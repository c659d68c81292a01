"""The rulebooks as PettingZoo AEC environments (rulelang/pettingzoo.py), checked by
PettingZoo's own api_test and seed_test, and their renderings."""
from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from rulelang import pettingzoo as rp  # noqa: E402

CASES = [("tic_tac_toe", {}, None), ("spice", {}, 40), ("karesansui", {"players": 3}, 60)]


# api_test warns of any observation space but a Box or a Discrete, unless the environment is
# one of PettingZoo's own classic games: the dict with "action_mask" is theirs too
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(("name", "options", "cap"), CASES, ids=[c[0] for c in CASES])
def test_api_and_seed_tests(name: str, options: dict[str, int], cap: int | None) -> None:
    api_test(rp.env(name, options, max_plies=cap), num_cycles=40)
    seed_test(lambda render_mode=None: rp.env(name, options, render_mode, cap), num_cycles=40)


def test_mask_observation_and_rewards() -> None:
    env = rp.env("tic_tac_toe")
    env.reset(seed=1)
    for site in (0, 3, 1, 4, 2):  # X: a1 b1 c1, a line
        seen = env.observe(env.agent_selection)
        assert seen["action_mask"][site] == 1
        assert seen["observation"].shape == env.observation_space("player_0")["observation"].shape
        env.step(site)
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert env.observe("player_1")["action_mask"].sum() == 0


def test_renderings() -> None:
    env = rp.env("hex", {"size": 5}, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "a1" in text and "Black" in text
    pytest.importorskip("resvg_py")
    pixels = rp.env("hex", {"size": 5}, render_mode="rgb_array")
    pixels.reset(seed=0)
    picture = pixels.render()
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.min() < picture.max()
    with pytest.raises(ValueError, match="render_mode"):
        rp.env("hex", render_mode="human")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", ["rulelang_tic_tac_toe", "rulelang_karesansui(max_plies=30)"])
def test_through_shimmys_openspiel_wrapper(name: str) -> None:
    """The registered OpenSpiel games as PettingZoo environments by Shimmy's wrapper pass
    api_test. (Its seed_test fails through Shimmy 2.0.1 for OpenSpiel's own C++ tic-tac-toe
    too: the wrapper does not seed what it samples.)"""
    pytest.importorskip("pyspiel")
    shimmy = pytest.importorskip("shimmy")
    import rulelang.openspiel  # noqa: F401  (registers the bundled rulebooks)
    api_test(shimmy.OpenSpielCompatibilityV0(game_name=name), num_cycles=40)
