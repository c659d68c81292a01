"""What the tests of the code generator (rulelang/fast/codegen.py) share: the two fast
evaluators under names of their own — "generated" (Compiler(generate=True)) and "closures"
(Compiler(generate=False)) — registered for one test, whichever the default is."""
from __future__ import annotations

import functools
import inspect
from collections.abc import Iterator
from typing import Any

import pytest

import rulelang
from rulelang.fast.compiler import Compiler
from rulelang.fast.flow import FastFlow

# the mode "compiled" generates by default: the other one is the one to test besides it
GENERATES_BY_DEFAULT = inspect.signature(Compiler).parameters["generate"].default
OTHER = "closures" if GENERATES_BY_DEFAULT else "generated"


@pytest.fixture
def both_fast_modes() -> Iterator[tuple[str, str]]:
    """("closures", "generated"), registered as modes of load_game for this test."""
    added: dict[str, Any] = {
        "generated": (functools.partial(Compiler, generate=True), FastFlow),
        "closures": (functools.partial(Compiler, generate=False), FastFlow)}
    before = {key: rulelang.EVALUATORS.get(key) for key in added}
    rulelang.EVALUATORS.update(added)
    try:
        yield ("closures", "generated")
    finally:
        for key, value in before.items():
            if value is None:
                del rulelang.EVALUATORS[key]
            else:
                rulelang.EVALUATORS[key] = value
