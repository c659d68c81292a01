"""The one place that turns Python source into code: the code generators (fast/codegen.py,
gen/emit.py) hand it the text their own writers made, never a rulebook's text, with the
constants table as the globals (empty `__builtins__`)."""
from __future__ import annotations

from typing import Any

_CODE: dict[str, Any] = {}  # source -> code object: the same source is compiled once


def run_source(text: str, filename: str, space: dict[str, Any]) -> dict[str, Any]:
    """Compile `text` (a generator's own source) and run it in `space`, whose
    `__builtins__` must be empty; `space` is returned, holding what the source defined."""
    assert space.get("__builtins__") == {}, "generated code runs without Python's builtins"
    code = _CODE.get(text)
    if code is None:
        if len(_CODE) >= 20_000:
            _CODE.clear()
        code = _CODE[text] = compile(text, filename, "exec")
    exec(code, space)
    return space
