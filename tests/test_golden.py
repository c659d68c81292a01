"""Golden files: error snapshots, playthroughs and AST dumps (STYLE.md, section "Tests").

* `golden/errors/<case>.rule` -> `<case>.err`: the exact text of `RulebookError.render()`, which
  `rulelang check` must print on stderr too. A case that needs its own modules lives in a
  folder, `golden/errors/<case>/<case>.rule`, beside them. A first line `# options: {json}`
  gives options to load_game (the CLI gets them as --players/--option of `play`).
* `golden/playthroughs/<game>-seed<N>.txt`: a seeded random game, state by state, in the
  OpenSpiel playthrough style. Replayed in both modes; every rulebook needs one.
* `golden/parse/<case>.rule` -> `<case>.ast`: the AST dump, positions left out.

`pytest tests/test_golden.py --update-golden` rewrites the files from the interpreter's output
(the interpreter is the specification); read the diff before committing it.
"""
from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.language import ast
from rulelang.language.builder import build
from rulelang.language.loader import STDLIB, load, load_source
from rulelang.source import Span
from rulelang.tools import cli

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
MODES = ("interpreted", "compiled")
_OPTIONS_PREFIX = "# options: "


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Paths in diagnostics are as given, so every path here is relative to the repo root."""
    monkeypatch.chdir(ROOT)


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def expect_golden(path: Path, actual: str, update: bool) -> None:
    """Compare with the golden file line by line (or rewrite it when updating)."""
    if update:
        path.write_text(actual, encoding="utf-8")
        return
    if not path.is_file():
        pytest.fail(f"{rel(path)} is missing: run pytest {rel(Path(__file__))} --update-golden")
    expected = path.read_text(encoding="utf-8").splitlines()
    got = actual.splitlines()
    for number, (want, have) in enumerate(zip(expected, got, strict=False), start=1):
        if want != have:
            pytest.fail(f"{rel(path)}:{number} differs\n{_excerpt(want, have)}\n\n"
                        f"expected file:\n{_head(expected)}\n\nactual output:\n{_head(got)}")
    if len(expected) != len(got):
        pytest.fail(f"{rel(path)}: {len(expected)} lines expected, {len(got)} produced")


def _excerpt(want: str, have: str, width: int = 100) -> str:
    at = next((i for i, (a, b) in enumerate(zip(want, have, strict=False)) if a != b),
              min(len(want), len(have)))
    lo = max(0, at - width // 2)

    def cut(text: str) -> str:
        return ("…" if lo else "") + text[lo:lo + width] + ("…" if len(text) > lo + width else "")
    return f"  column {at + 1}\n  expected: {cut(want)}\n  actual:   {cut(have)}"


def _head(lines: list[str], n: int = 40) -> str:
    return "\n".join(line[:200] for line in lines[:n])


# --- error snapshots ---------------------------------------------------------------------

def _error_cases() -> list[Path]:
    folder = GOLDEN / "errors"
    nested = [d / f"{d.name}.rule" for d in folder.iterdir() if d.is_dir()]
    return sorted([*folder.glob("*.rule"), *nested])


ERROR_CASES = _error_cases()


def _case_id(path: Path) -> str:
    return path.stem


def case_options(rule: Path) -> dict[str, Any] | None:
    first = rule.read_text(encoding="utf-8").partition("\n")[0]
    return json.loads(first[len(_OPTIONS_PREFIX):]) if first.startswith(_OPTIONS_PREFIX) else None


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", ERROR_CASES, ids=_case_id)
def test_error_snapshot(case: Path, mode: str, update_golden: bool) -> None:
    with pytest.raises(rulelang.RulebookError) as info:
        rulelang.load_game(rel(case), case_options(case), mode=mode)
    rendered = info.value.render() + "\n"
    expect_golden(case.with_suffix(".err"), rendered, update_golden and mode == "interpreted")


def _cli_argv(case: Path) -> list[str]:
    options = case_options(case)
    if options is None:
        return ["check", rel(case)]
    argv = ["play", rel(case), "--agents", "random"]
    for key, value in options.items():
        argv += ["--players", str(value)] if key == "players" else ["--option", f"{key}={value}"]
    return argv


@pytest.mark.parametrize("case", ERROR_CASES, ids=_case_id)
def test_error_snapshot_cli(case: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`rulelang check` (`play` for load options) prints the same text on stderr, exit 1."""
    code = cli.main(_cli_argv(case))
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    assert err == case.with_suffix(".err").read_text(encoding="utf-8")


def test_error_snapshot_cli_shim() -> None:
    """The root `python cli.py check` shim, in a real process (one case is enough)."""
    case = GOLDEN / "errors" / "several_mistakes.rule"
    done = subprocess.run([sys.executable, "cli.py", "check", rel(case)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == case.with_suffix(".err").read_text(encoding="utf-8")


def test_error_cases_are_one_per_file() -> None:
    """Each case file has its snapshot and no snapshot is left without its case."""
    snapshots = {p.with_suffix(".rule") for p in (GOLDEN / "errors").rglob("*.err")}
    assert snapshots == set(ERROR_CASES)


# --- playthroughs ------------------------------------------------------------------------

PLAYTHROUGHS = sorted((GOLDEN / "playthroughs").glob("*.txt"))
_HEADER_KEYS = ("rulebook", "seed", "options")


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def playthrough(rulebook: str, seed: int, options: dict[str, Any], mode: str) -> str:
    """A random game (random.Random(seed) over legal_actions), one block per state."""
    game = rulelang.load_game(rulebook, options or None, mode=mode)
    info = {"name": game.name, "num_players": game.num_players, "options": game.options}
    kind = {"has_chance": game.has_chance, "has_hidden_information": game.has_hidden_information,
            "player_names": game.player_names, "player_range": list(game.player_range)}
    lines = ["# rulelang playthrough: regenerate with pytest tests/test_golden.py --update-golden",
             f"rulebook: {rulebook}", f"seed: {seed}", f"options: {_json(options)}",
             f"game_info: {_json(info)}", f"game_type: {_json(kind)}"]
    state, rng = game.new_initial_state(seed=seed), random.Random(seed)
    while True:
        lines += ["", f"# state {len(state.history())}", *_state_lines(game, state)]
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        lines.append(f"# apply {_json(state.action_to_string(action))}")
        state.apply_action(action)
    lines += [f"winners: {_json(state.winners())}", f"scores: {_json(state.scores())}"]
    return "\n".join(lines) + "\n"


def _state_lines(game: Any, state: Any) -> list[str]:
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    return [f"current_player: {state.current_player()}", f"legal_actions: {_json(legal)}",
            *(f"observation {p}: {_json(state.observation(p))}" for p in range(game.num_players)),
            f"returns: {_json(state.returns())}"]


def read_header(path: Path) -> dict[str, Any]:
    header: dict[str, Any] = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:len(_HEADER_KEYS) + 1]:
        key, _, value = line.partition(": ")
        header[key] = value
    assert tuple(header) == _HEADER_KEYS, f"{rel(path)}: bad header {header}"
    return {"rulebook": header["rulebook"], "seed": int(header["seed"]),
            "options": json.loads(header["options"])}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("path", PLAYTHROUGHS, ids=lambda p: p.stem)
def test_playthrough(path: Path, mode: str, update_golden: bool) -> None:
    header = read_header(path)
    actual = playthrough(header["rulebook"], header["seed"], header["options"], mode)
    expect_golden(path, actual, update_golden and mode == "interpreted")


def _generated(path: Path) -> bool:
    from rulelang.gen import GenGame

    header = read_header(path)
    game = rulelang.load_game(ROOT / header["rulebook"], header["options"], mode="generated")
    return isinstance(game, GenGame)


@pytest.mark.parametrize("path", [p for p in PLAYTHROUGHS if _generated(p)],
                         ids=lambda p: p.stem)
def test_playthrough_generated(path: Path) -> None:
    """The games the generator takes play their golden playthroughs in generated mode."""
    header = read_header(path)
    actual = playthrough(header["rulebook"], header["seed"], header["options"], "generated")
    expect_golden(path, actual, False)


def test_every_rulebook_has_a_playthrough(update_golden: bool) -> None:
    covered = {read_header(p)["rulebook"] for p in PLAYTHROUGHS}
    missing = [rel(b) for b in sorted((ROOT / "rulebooks").glob("*.rule"))
               if rel(b) not in covered and not rulelang.is_library(b)]
    if update_golden:
        for book in missing:
            out = GOLDEN / "playthroughs" / f"{Path(book).stem}-seed1.txt"
            out.parent.mkdir(exist_ok=True)
            out.write_text(playthrough(book, 1, {}, "interpreted"), encoding="utf-8")
        return
    assert not missing, f"no playthrough for {missing}: run pytest --update-golden"


# --- AST dumps ---------------------------------------------------------------------------

PARSE_CASES = sorted((GOLDEN / "parse").glob("*.rule"))
_WIDTH = 96


def dump_ast(node: Any, indent: str = "", lead: int = 0) -> str:
    """A deterministic dump of the AST without positions: one line if it fits, else a tree.
    `lead` is the width of what precedes the node on its line after the indent."""
    flat = _flat(node)
    if len(indent) + lead + len(flat) < _WIDTH:  # one column left for a comma
        return flat
    inner = indent + "  "
    if dataclasses.is_dataclass(node):
        parts = [f"{inner}{name}={dump_ast(value, inner, len(name) + 1)}"
                 for name, value in _fields(node)]
        return f"{type(node).__name__}(\n" + ",\n".join(parts) + f"\n{indent})"
    if isinstance(node, tuple):
        parts = [inner + dump_ast(item, inner) for item in _items(node)]
        return "(\n" + ",\n".join(parts) + f",\n{indent})"
    return flat


def _flat(node: Any) -> str:
    if dataclasses.is_dataclass(node):
        return f"{type(node).__name__}(" + ", ".join(
            f"{name}={_flat(value)}" for name, value in _fields(node)) + ")"
    if isinstance(node, tuple):
        items = [_flat(item) for item in _items(node)]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    return repr(node)


def _fields(node: Any) -> list[tuple[str, Any]]:
    return [(f.name, getattr(node, f.name)) for f in dataclasses.fields(node)
            if f.name not in ("span", "spans")]


def _items(node: tuple) -> list[Any]:
    return [item for item in node if not isinstance(item, Span)]


def parse_file(path: Path) -> ast.Rulebook:
    source = load_source(rel(path))
    return build(rulelang.parse(source), source)


@pytest.mark.parametrize("case", PARSE_CASES, ids=_case_id)
def test_parse_snapshot(case: Path, update_golden: bool) -> None:
    expect_golden(case.with_suffix(".ast"), dump_ast(parse_file(case)) + "\n", update_golden)


def test_ast_dump_ignores_positions() -> None:
    """Same text at another place (extra blank lines, spaces) gives the same dump."""
    a = rulelang.Source("a.rule", "game \"G\"\ndef f(x) = x + 1\n")
    b = rulelang.Source("a.rule", "\n\ngame  \"G\"\n\ndef f( x ) =  x+1\n")
    assert dump_ast(build(rulelang.parse(a), a)) == dump_ast(build(rulelang.parse(b), b))


# --- coverage of the standard library --------------------------------------------------------

def test_every_stdlib_module_has_a_golden_test() -> None:
    """Modules loaded by a playthrough's rulebook, or named by a parse case's `use`."""
    used: set[str] = set()
    for path in PLAYTHROUGHS:
        used |= set(load(read_header(path)["rulebook"]).modules)
    for case in PARSE_CASES:
        used |= {d.module for d in parse_file(case).decls if isinstance(d, ast.Use)}
    missing = sorted(p.stem for p in STDLIB.glob("*.rule") if p.stem not in used)
    assert not missing, f"stdlib modules without a golden test: {missing}"
