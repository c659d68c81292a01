"""A turn machine's blocks joined (gen/turns.py `joined`): a jump to a block that only
jumps goes where that one goes; a block one jump alone reaches is written in place of the
jump, unless a loop around the jump would take its `continue`; the start and the points a
decision resumes at stay blocks of their own. The bundled games' side-by-side proofs run
the joined machines."""
from __future__ import annotations

from rulelang.gen.code import Func
from rulelang.gen.turns import joined

LABELS = {f"k{n}": n for n in range(10)}


def blocks(**written: list[str]) -> dict[int, Func]:
    out = {}
    for name, lines in written.items():
        fn = Func("")
        fn.lines = list(lines)
        out[int(name[1:])] = fn
    return out


def test_jumps_threaded_and_single_entries_written_in_place() -> None:
    machine = blocks(
        b1=["if S.x:", "    pc = k2", "    continue", "pc = k3", "continue"],
        b2=["pc = k4", "continue"],  # (only jumps on)
        b3=["S.y = 1", "pc = k4", "continue"],
        b4=["menu = m(S)", "if menu:", "    S.pc = k5", "    return menu", "pc = k0",
            "continue"],
        b5=["act(S)", "pc = k6", "continue"],
        b6=["S.w = 1", "pc = k0", "continue"],
        b0=["return None"])
    out = joined(machine, LABELS)
    assert sorted(out) == [0, 1, 4, 5]  # (4 and 0: reached twice; 5: resumed at)
    assert out[1].lines == ["if S.x:", "    pc = k4", "    continue", "S.y = 1", "pc = k4",
                            "continue"]
    assert out[5].lines == ["act(S)", "S.w = 1", "pc = k0", "continue"]


def test_a_jump_within_a_loop_stays_a_jump() -> None:
    machine = blocks(
        b1=["for v1 in S.items:", "    if v1:", "        pc = k2", "        continue",
            "pc = k0", "continue"],
        b2=["S.z = 2", "pc = k0", "continue"],
        b0=["return None"])
    out = joined(machine, LABELS)
    assert sorted(out) == [0, 1, 2]
    assert out[1].lines[2] == "        pc = k2"


def test_a_block_that_jumps_to_itself_stays() -> None:
    machine = blocks(
        b1=["S.n = 0", "pc = k2", "continue"],
        b2=["if S.n < 3:", "    S.n += 1", "    pc = k2", "    continue", "pc = k0",
            "continue"],
        b0=["return None"])
    out = joined(machine, LABELS)
    assert sorted(out) == [1, 2]  # (2: from 1 and from itself)
    assert out[2].lines[-1] == "return None"
