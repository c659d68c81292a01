"""Incremental site queries: which predicates qualify, their dependency tables, and that the
maintained set always equals a full recomputation."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.fast.incremental import analyse, dependents, local_reads
from rulelang.language import ast

RULES = Path(__file__).parent / "rules"


def quant(program: object, name: str) -> ast.Quant:
    body = program.defs[name].body  # type: ignore[attr-defined]
    assert isinstance(body, ast.Quant)
    return body


def test_local_predicate_reads_the_subject_and_its_relations() -> None:
    game = rulelang.load_game(RULES / "line.rule")
    program = game.runtime.program
    q = quant(program, "open_sites")
    assert local_reads(program, q.cond, q.var) == {(), ("beside",)}


def test_a_predicate_that_reads_the_mover_is_kept_per_mover() -> None:
    program = rulelang.load_game(RULES / "line.rule").runtime.program
    q = quant(program, "mine")
    assert analyse(program, q.cond, q.var) == ({()}, True)


def test_a_predicate_that_reads_the_last_action_is_not_local() -> None:
    program = rulelang.load_game(RULES / "line.rule").runtime.program
    q = quant(program, "beside_last")
    assert local_reads(program, q.cond, q.var) is None


def test_dependents_are_the_site_and_the_sites_that_reach_it() -> None:
    board = rulelang.load_game(RULES / "line.rule").runtime.board
    deps = dependents(board, {(), ("beside",)})
    assert [s.name for s in deps[0]] == ["s0", "s1"]
    assert [s.name for s in deps[3]] == ["s2", "s3", "s4"]
    assert [s.name for s in dependents(board, {()})[3]] == ["s3"]


@pytest.mark.parametrize("seed", range(20))
def test_maintained_set_equals_recomputation(seed: int) -> None:
    """Along random games (puts, attribute changes, removals) the compiled, incremental
    `open_sites` equals the interpreter's full evaluation, on the state and on clones."""
    compiled = rulelang.load_game(RULES / "line.rule", mode="compiled")
    interpreted = rulelang.load_game(RULES / "line.rule", mode="interpreted")
    a, b = compiled.new_initial_state(seed), interpreted.new_initial_state(seed)
    rng = random.Random(seed)
    while not a.is_terminal():
        names = [a.action_to_string(x) for x in a.legal_actions()]
        assert names == [b.action_to_string(x) for x in b.legal_actions()]
        pick = rng.choice(names)
        if rng.random() < 0.3:
            a = a.clone()
        a.apply_action(pick)
        b.apply_action(pick)
    assert a.history() == b.history()
