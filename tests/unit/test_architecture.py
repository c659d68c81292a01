"""The dependency rule: the runtime never imports the front end, and no game lives in the
package."""
from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "rulelang"
RUNTIME = ["runtime.py", "engine.py", "executor.py", "menus.py", "decision.py", "compiler.py",
           "loops.py", "astwalk.py",
           "interpreter.py", "incremental.py", "builtins.py", "program.py",
           *(f"model/{p.name}" for p in (PACKAGE / "model").glob("*.py")),
           *(f"agents/{p.name}" for p in (PACKAGE / "agents").glob("*.py"))]
FRONT_END = {"parser", "builder", "checker", "loader", "lark"}
GAME_WORDS = re.compile(r"karesansui|sakura|tatara|sponnect|spline|tic.?tac|connect.?four|"
                        r"breakthrough|moss|virtue|beech|shibumi|muso|hazakura|garden|monk|"
                        r"eitai|forest|zazen|\btiles?\b", re.IGNORECASE)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names.add((node.module or "").split(".")[-1])
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
    return names


def test_runtime_modules_never_import_the_front_end() -> None:
    for rel in RUNTIME:
        found = imported_modules(PACKAGE / rel) & FRONT_END
        assert not found, f"rulelang/{rel} imports {sorted(found)}"


def test_no_game_name_in_the_package() -> None:
    for path in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.lark")]:
        hit = GAME_WORDS.search(path.read_text())
        assert hit is None, f"{path.relative_to(PACKAGE.parent)} mentions {hit.group(0)!r}"


def test_no_code_is_made_from_text_and_files_are_read_in_few_places() -> None:
    """Rulebooks are untrusted: nothing in the package evaluates text as Python, and files
    are read only by the loader (rulebooks, modules, data), the record reader and the parser
    (its own grammar)."""
    readers = {"loader.py", "record.py", "parser.py"}
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
            bare = func.id if isinstance(func, ast.Name) else ""  # a builtin of Python
            method = func.attr if isinstance(func, ast.Attribute) else ""
            assert bare not in ("eval", "exec", "compile", "__import__") \
                and method != "import_module", f"{where} makes code"
            if bare == "open" or method in ("open", "read_text", "read_bytes", "safe_load"):
                assert path.name in readers, f"{where} reads a file"
