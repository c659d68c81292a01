"""The reference meaning of connectivity (networkx, rulelang/reference/graphs.py) against the
library's own searches, on positions of random games: the same groups from every site along
every relation, with and without a link rule and from collections of starts, and the same
sites reached for random costs, budgets and stops."""
import random

import pytest

import rulelang
from rulelang.library import BUILTINS
from rulelang.library.semantics import Ctx
from rulelang.reference import graphs


def _positions(name, options, count, seed):
    game = rulelang.load_game(name, options, mode="interpreted")
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_initial_state(rng.randrange(10**6))
        for _ in range(rng.randrange(60)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        yield game, Ctx(game.runtime, state.data)


@pytest.mark.parametrize("name,options", [("hex", {"size": 5}), ("spline", {}),
                                          ("breakthrough", {}), ("tatara", {})])
def test_group_and_reach_mean_what_networkx_says(name, options):
    rng = random.Random(7)
    for game, c in _positions(name, options, 4, 11):
        board = game.runtime.board
        sites = board.sites
        for rel in board.relations.values():
            salt = rng.randrange(3)

            def link(a, b, salt=salt):
                return (a.index + b.index + salt) % 3 != 0
            for s in sites:
                assert graphs.group(c, s, rel) == BUILTINS["group"].impl(c, s, rel)
                assert graphs.group(c, s, rel, link) == BUILTINS["group"].impl(c, s, rel, link)
            starts = rng.sample(sites, min(5, len(sites)))
            assert graphs.group(c, starts, rel) == BUILTINS["group"].impl(c, starts, rel)
            for _ in range(5):
                costs = [rng.choice([None, 1, 1, 2, 3]) for _ in sites]
                def cost(x, costs=costs):
                    return costs[x.index]
                def stop(x):
                    return x.index % 2 == 0
                start, budget = rng.choice(sites), rng.randrange(6)
                assert graphs.reach(c, start, rel, budget, cost) \
                    == BUILTINS["reach"].impl(c, start, rel, budget, cost)
                assert graphs.reach(c, start, rel, budget, cost, stop) \
                    == BUILTINS["reach"].impl(c, start, rel, budget, cost, stop)
