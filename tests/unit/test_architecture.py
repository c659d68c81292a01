"""The layers of the package: each subpackage imports only from the layers below it, the
two evaluators never import each other, the runtime never imports the front end's parser,
there is no import cycle, no module is over 600 lines, and no game lives in the package."""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "rulelang"
# Bottom to top; a module may import its own package and any package of a lower layer.
LAYERS = [
    ["rulelang.source", "rulelang.resources"],       # texts (and what prints safely), folders
    ["rulelang.limits"],                             # the limits on loading, file access
    ["rulelang.errors"],                             # diagnostics and the error tree
    ["rulelang.model"],                              # sites, pieces, zones, the state's data
    ["rulelang.library"],                            # builtins, the shared semantics, Ctx
    ["rulelang.language"],                           # read, parse, build, load, check, analyse
    ["rulelang.reference"],                          # the reference evaluator
    ["rulelang.game"],                               # the static game, turns, the engine
    ["rulelang.gen"],                                # the generated games (compiled mode)
    ["rulelang.agents"],                             # players that see only State methods
    ["rulelang"],                                    # the public API (__init__.py)
    ["rulelang.editor"],                             # the formatter, the language server
    ["rulelang.tools"],                              # CLI, records, terminal pictures
    ["rulelang.openspiel", "rulelang.pettingzoo"],   # the rulebooks as peers' games (extras)
    ["rulelang.__main__"],                           # python -m rulelang
]
PYCODE = PACKAGE / "library" / "pycode.py"  # the one module that compiles Python
# the code generator: it hands pycode the source its own writer made
WRITERS = {PACKAGE / "gen" / "__init__.py": "g.source"}
FRONT_END = {"rulelang.language.parser", "rulelang.language.builder",
             "rulelang.language.loader", "rulelang.language.checker", "lark"}
RUNTIME_PACKAGES = ("rulelang.model", "rulelang.library", "rulelang.reference",
                    "rulelang.game", "rulelang.gen", "rulelang.agents")
GAME_WORDS = re.compile(r"karesansui|sakura|tatara|sponnect|spline|tic.?tac|connect.?four|"
                        r"breakthrough|moss|virtue|beech|shibumi|muso|hazakura|garden|monk|"
                        r"eitai|forest|zazen|\btiles?\b", re.IGNORECASE)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def tree(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for the file's tests."""
    return ast.parse(path.read_text())


def imports(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside a function."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names
                         if (PACKAGE.parent / f"{base}.{a.name}".replace(".", "/")).exists()
                         or (PACKAGE.parent / (f"{base}.{a.name}".replace(".", "/") + ".py"))
                         .exists())
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def layer_of(module: str) -> tuple[int, str] | None:
    best: tuple[int, str] | None = None
    for i, packages in enumerate(LAYERS):
        for p in packages:
            if (module == p or module.startswith(p + ".")) and (best is None
                                                                  or len(p) > len(best[1])):
                best = (i, p)
    return best


@functools.cache
def modules() -> dict[str, set[str]]:
    return {module_name(p): {m for m in imports(p) if m.startswith("rulelang")}
            for p in PACKAGE.rglob("*.py")}


def test_each_layer_imports_only_lower_layers() -> None:
    for mod, deps in modules().items():
        own = layer_of(mod)
        assert own is not None, f"{mod} is in no layer: add its package to LAYERS"
        for dep in deps:
            theirs = layer_of(dep)
            assert theirs is not None, f"{mod} imports {dep}, which is in no layer"
            ok = theirs[1] == own[1] or theirs[0] < own[0]
            assert ok, f"{mod} (layer {own[1]}) imports {dep} (layer {theirs[1]})"


def test_runtime_never_imports_the_front_end() -> None:
    for mod, deps in modules().items():
        if mod.startswith(RUNTIME_PACKAGES):
            found = {d for d in deps if any(d == f or d.startswith(f + ".") for f in FRONT_END)}
            assert not found, f"{mod} imports {sorted(found)}"


def test_no_import_cycle() -> None:
    found = modules()
    graph = {m: {d for d in deps if d in found} for m, deps in found.items()}
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in graph[m]:
            if d == m or (m.startswith(d + ".") and d == "rulelang"):
                continue
            assert state.get(d) != 1, f"import cycle: {' -> '.join([*path, m, d])}"
            if d not in state:
                visit(d, [*path, m])
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m, [])


def test_no_module_is_over_600_lines() -> None:
    for path in PACKAGE.rglob("*.py"):
        n = len(path.read_text().splitlines())
        assert n <= 600, f"{path.relative_to(PACKAGE.parent)} has {n} lines"


def test_no_game_name_in_the_package() -> None:
    for path in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.lark")]:
        hit = GAME_WORDS.search(path.read_text())
        assert hit is None, f"{path.relative_to(PACKAGE.parent)} mentions {hit.group(0)!r}"


def test_no_code_is_made_from_text_and_files_are_read_in_few_places() -> None:
    """Rulebooks are untrusted: nothing in the package evaluates text as Python, and files
    are read only through rulelang/limits.py (rulebooks, modules, data, records: every file
    access checked in one place), by the parser (its own grammar) and by the caches of parsed
    files and generated modules (their files in the user's private cache folder, and the
    package's own source for the digests that key them)."""
    readers = {"limits.py", "parser.py", "cache.py"}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(tree(path)):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
            bare = func.id if isinstance(func, ast.Name) else ""  # a builtin of Python
            method = func.attr if isinstance(func, ast.Attribute) else ""
            assert (bare not in ("eval", "exec", "compile", "__import__") or (
                path == PYCODE and bare in ("exec", "compile"))) \
                and method != "import_module", f"{where} makes code"
            if bare == "open" or method in ("open", "read_text", "read_bytes", "safe_load",
                                            "fdopen", "load"):
                assert path.name in readers, f"{where} reads a file"


def test_only_the_public_api_knows_the_modes() -> None:
    """The evaluator (and its flow of play) is chosen in rulelang/__init__.py alone: no other
    runtime module asks which mode it runs in."""
    for path in PACKAGE.rglob("*.py"):
        mod = module_name(path)
        if mod == "rulelang" or not mod.startswith(RUNTIME_PACKAGES):
            continue
        for line in path.read_text().splitlines():  # (a choose's `.mode` is who chooses)
            if re.search(r'"compiled"|"interpreted"|(?<![.\w])mode ==', line):
                raise AssertionError(f"{mod} asks for the mode: {line.strip()}")


def test_only_the_code_generator_compiles_and_only_what_it_wrote() -> None:
    """library/pycode.py is the one module whose code calls compile, exec or eval: compile
    once, on the `text` it is given, and exec once, on the code compiled from it, in the
    `space` it is given, whose builtins it asserts are empty. Its callers are the code
    generators alone, each handing it the source its own writer made (`g.source`) and a
    space whose `__builtins__` is empty."""
    makers = ("eval", "exec", "compile", "__import__")
    calls: dict[str, list[ast.Call]] = {}
    callers: dict[Path, list[ast.Call]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(tree(path)):
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Name) and node.func.id in makers:
                assert path == PYCODE, f"{path.relative_to(PACKAGE.parent)} calls " \
                    f"{node.func.id}"
                calls.setdefault(node.func.id, []).append(node)
            if isinstance(node.func, ast.Name) and node.func.id == "run_source":
                callers.setdefault(path, []).append(node)
    assert sorted(calls) == ["compile", "exec"] and all(len(v) == 1 for v in calls.values())
    compiled, ran = calls["compile"][0], calls["exec"][0]
    assert ast.unparse(compiled.args[0]) == "text"
    assert ast.unparse(ran.args[0]) == "code" and ast.unparse(ran.args[1]) == "space"
    assert "assert space.get('__builtins__') == {}" in ast.unparse(ast.parse(PYCODE.read_text()))
    assert set(callers) == set(WRITERS), sorted(map(str, callers))
    for path, made in callers.items():
        assert len(made) == 1 and ast.unparse(made[0].args[0]) == WRITERS[path], path
        space = ast.unparse(made[0].args[2])
        assert space.startswith("{'__builtins__': {}, **ALLOWED, **g.constants"), space

