"""evaluate reads a game's record from its history in one pass, with shortcuts kept per loaded
game (tools/evidence/playout.py: verdicts per menu of sites, one string per action and site, the
common
decision counted by (action, value) and its choose written at the end). Each record must be
what a straightforward reading of the same game says, decision by decision: every action
string `d.labels()[k]`, every mover and option count, the first words of the strings, and
every value each choose took (the option's values given in order to the action's chooses,
a decision of its own to its choose, the game's own draws), and the scores and each term's
points as the breakdown gives them. Several games of several
rulebooks are read in one process, interleaved, so that what is kept from earlier games is
used on later ones."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from rulelang.agents import make_agent
from rulelang.library.decision import NOTHING
from rulelang.model.values import show
from rulelang.tools.evidence.choices import Watch, action_slots, place
from rulelang.tools.evidence.playout import Setup, game_seed, play_one, seat_agents

ROOT = Path(__file__).resolve().parents[2]
CASES = [  # (rulebook, agents, games, mode)
    ("rulebooks/tic_tac_toe.rule", ("random",), 3, "compiled"),  # one segment of sites
    ("rulebooks/tic_tac_toe.rule", ("random",), 2, "interpreted"),  # menus as plain lists
    ("rulebooks/spice.rule", ("random",), 2, "compiled"),  # optional chooses, `then`
    ("rulebooks/muso_sakura.rule", ("random",), 1, "compiled"),  # multi-value options
    ("tests/flow/reaction.rule", ("random",), 2, "compiled"),  # decisions of their own
    ("tests/tools/rulebooks/same_strings.rule", ("random",), 4, "compiled"),  # numbered
    ("tests/tools/rulebooks/dice_choices.rule", ("random",), 3, "compiled"),  # chance
    ("rulebooks/tatara.rule", ("random",), 1, "compiled"),  # chooses of the setup: no action
]


def _text(v: Any) -> str:
    return "nothing" if v is NOTHING else show(v)


def _straight(setup: Setup, index: int) -> dict[str, Any]:
    """The game of play_one(setup, index) played again here, its record's reading fields read
    the plain way from its history."""
    game = setup.game()
    program = game.runtime.program
    seed = game_seed(setup.seed, index)
    agents = [make_agent(name, seed + i + 1) for i, name in
              enumerate(seat_agents(setup.agents, game.num_players, index))]
    with Watch(game.has_chance) as chance:
        state = game.new_initial_state(seed=seed)
        chance.keep(state)
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].choose(state))
    history = state.ctx.data.history
    actions = [d.labels()[k] for d, k in history]
    counts = [d.count for d, _ in history]
    choices: dict[str, Counter[str]] = {}
    for d, k in history:
        option = d.options[k]
        if d.menu is not None:
            for slot, v in zip(action_slots(program, option[0], {}), option[1], strict=False):
                if slot is not None:
                    choices.setdefault(place(program, slot.span), Counter())[_text(v)] += 1
        elif d.choose is not None:
            choices.setdefault(place(program, d.choose.span), Counter())[_text(option[1][0])] += 1
    scores, terms = [], []
    for p in range(game.num_players) if program.scores else ():
        breakdown = state.score_breakdown(p)
        scores.append(float(sum(breakdown.values())))
        points: dict[str, float] = {}
        for key, value in breakdown.items():  # an itemised term's lines summed
            points[key.split(" ")[0]] = points.get(key.split(" ")[0], 0.0) + float(value)
        terms.append(points)
    draws = chance.draws if game.has_chance else []
    for _, span, v in draws:
        choices.setdefault(place(program, span), Counter())[_text(v)] += 1
    return {"plies": len(actions), "actions": actions, "movers": [d.player for d, _ in history],
            "branching": {"decisions": len(counts), "options": sum(counts),
                          "max": max(counts, default=0), "single": counts.count(1)},
            "action_counts": dict(sorted(Counter(  # (a choose outside actions: none)
                d.options[k][0] for d, k in history if d.options[k][0] is not None).items())),
            "choices": {where: dict(c) for where, c in choices.items()},
            "draws": len(draws), "scores": scores, "terms": terms}


def test_records_read_in_one_pass_are_the_straightforward_reading() -> None:
    setups = [(Setup(str(ROOT / path), (), agents, 5, 2000, mode), games)
              for path, agents, games, mode in CASES]
    seen = Counter[str]()
    for round_ in range(max(games for _, games in setups)):  # interleaved rulebooks
        for setup, games in setups:
            if round_ >= games:
                continue
            rec = play_one(setup, round_)
            want = _straight(setup, round_)
            for key in ("plies", "actions", "movers", "branching", "action_counts",
                        "choices"):
                assert rec[key] == want[key], (setup.path, round_, key)
            assert list(rec["action_counts"]) == sorted(rec["action_counts"])
            if want["scores"]:  # (the points without the breakdown's labels)
                assert (rec["scores"], rec["terms"]) == (want["scores"], want["terms"])
                assert [list(t) for t in rec["terms"]] == [list(t) for t in want["terms"]]
                seen["scored"] += 1
            seen["numbered"] += sum("#" in a for a in rec["actions"])
            seen["draws"] += want["draws"]
            seen["several values"] += sum(len(a.split()) > 2 for a in rec["actions"])
    # the cases this test is for did occur
    assert seen["numbered"] > 0 and seen["draws"] > 0 and seen["several values"] > 0
    assert seen["scored"] > 0


def test_a_second_reading_of_the_same_games_is_the_same() -> None:
    """What is kept per loaded game changes no record: the same games read again (their
    menus' verdicts and strings now kept) give equal records."""
    setup = Setup(str(ROOT / "rulebooks" / "tic_tac_toe.rule"), (), ("random",), 11, 2000,
                  "compiled")
    first = [play_one(setup, i) for i in range(3)]
    assert [play_one(setup, i) for i in range(3)] == first


def test_a_string_made_alone_is_the_menus_string_numbered_as_the_engine_numbers_it() -> None:
    """_label_at (the string of one option, from only the options before it that could read
    the same) against Decision.labels() on menus whose strings repeat across segments, with
    options of no action, `nothing`, a `then` and values that equal but read differently.
    (An action's name is one word, as the grammar makes it.)"""
    from rulelang.library.decision import Decision, ThenMark
    from rulelang.tools.evidence.playout import _label_at

    menus = [  # (action, values) for (action, (v,)) per value; (None, options) in full
        [("a", ("b", "b", "c")), (None, [("a", ("b",)), (None, ("a", "b")), (None, ("a b",))])],
        [(None, [("a", (1,)), ("a", (True,)), ("a", (1.0,)), ("a", (1,))]), ("a", (1, 2, 1))],
        [(None, [("m", (NOTHING,)), ("m", ()), (None, (NOTHING,)), (None, ("nothing",))]),
         ("m", (NOTHING, "x"))],
        [(None, [("r", (ThenMark("p"), "s")), ("r", ("p s",)), ("r", ("p", "s"))]),
         ("q", ("p s",)), (None, [("q", ("p", "s")), ("q", ("p s",))])],
    ]
    checked = numbered = 0
    for segments in menus:
        options = [o for action, values in segments
                   for o in (values if action is None else [(action, (v,)) for v in values])]
        want = Decision(0, options).labels()
        for k in range(len(options)):
            assert _label_at(options, k, options[k]) == want[k], (segments, k)
            checked += 1
            numbered += "#" in want[k]
    assert checked > 20 and numbered > 5
