"""The builtins library: the registry and every builtin (importing this package registers
them)."""
from rulelang.library import builtins as _builtins  # noqa: F401 - registers
from rulelang.library import grids as _grids  # noqa: F401 - registers
from rulelang.library.registry import (
    BUILTINS,
    MAX_PIECES,
    PURE,
    UNKNOWN,
    Builtin,
    Facts,
    Reads,
    builtin,
    constant,
    facts_of,
)

__all__ = ["BUILTINS", "MAX_PIECES", "PURE", "UNKNOWN", "Builtin", "Facts", "Reads", "builtin",
           "constant", "facts_of"]
