"""Loading untrusted rulebooks and data: every file a rulebook names is checked before it is
opened (inside the rulebook's folder tree or the standard library, a regular file, a sane
name) and every load limit of rulelang/limits.py ends in a positioned diagnostic, never a
Python exception, a hang or a quoted line of a file that is not a rulebook or its data.

Each case is a golden test: the whole rendered diagnostic is compared.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import rulelang
from rulelang import limits
from rulelang.errors import RulelangError

ROOT = Path(__file__).resolve().parents[2]
BASE = (ROOT / "rulebooks" / "tic_tac_toe.rule").read_text(encoding="utf-8")
END = BASE.count("\n")  # the lines of the bundled rulebook: what tests append comes after
GAME_LINE = 'game "Tic-tac-toe"'
ZONE_LINE = "zone supply each player: 5 mark"
BOARD_LINE = "board square.grid(3, 3, 3)  # lines of 3: rows, columns, both diagonals"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The rulebook's folder (the working folder, so that paths in messages are short),
    with a sibling folder `outside/` holding a rulebook and a data file it may not read."""
    book = tmp_path / "book"
    book.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.rule").write_text("SECRET LINE\n", encoding="utf-8")
    (outside / "secret.yaml").write_text("- {SECRET: LINE}\n", encoding="utf-8")
    monkeypatch.chdir(book)
    return book


def rendered(path: str, options: dict[str, object] | None = None) -> str:
    with pytest.raises(RulelangError) as info:
        rulelang.load_game(path, options)
    text = info.value.render()
    assert "Traceback" not in text and "SECRET" not in text and "root:" not in text
    return text


def write(name: str, text: str) -> str:
    Path(name).write_text(text, encoding="utf-8")
    return name


def with_data(name: str, attrs: str = 'name = "", points = 0') -> str:
    """The base rulebook with a deck of cards read from the data file `name`."""
    return write("book.rule", BASE.replace(
        ZONE_LINE, f'piece card with {attrs}\nzone deck: card from "{name}"\n{ZONE_LINE}'))


def extending(name: str) -> str:
    return write("book.rule", BASE.replace(GAME_LINE, f'{GAME_LINE} extends "{name}"'))


# ---- file access -------------------------------------------------------------------------

@pytest.mark.parametrize("name, reason", [
    ("/etc/passwd", "an absolute path may lead outside the rulebook's folder"),
    ("/proc/self/environ", "an absolute path may lead outside the rulebook's folder"),
    ("../outside/secret.rule", "'..' leads outside the rulebook's folder"),
    ("sub/../../outside/secret.rule", "'..' leads outside the rulebook's folder"),
    ("notes.txt", "only .rule files may be named here"),
])
def test_extends_outside_the_folder_is_refused_before_opening(folder: Path, name: str,
                                                              reason: str) -> None:
    line = f'{GAME_LINE} extends "{name}"'
    assert rendered(extending(name)) == (
        f"book.rule:14:1: error[R207]: cannot extend '{name}': {reason}\n"
        "   |\n"
        f"14 | {line}\n"
        f"   | {'^' * len(line)}")


def test_a_symbolic_link_leading_out_is_refused(folder: Path) -> None:
    os.symlink(folder.parent / "outside" / "secret.rule", "parent.rule")
    text = rendered(extending("parent.rule"))
    assert text.splitlines()[0] == ("book.rule:14:1: error[R207]: cannot extend 'parent.rule': "
                                    "it lies outside the rulebook's folder (through a symbolic "
                                    "link)")
    os.symlink(folder.parent / "outside" / "secret.rule", "evil.rule")
    text = rendered(write("book.rule", BASE.replace("use lines\n", "use lines\nuse evil\n")))
    assert text.splitlines()[0] == ("book.rule:13:1: error[R207]: cannot use module 'evil': it "
                                    "lies outside the rulebook's folder (through a symbolic "
                                    "link)")


def test_a_symbolic_link_inside_the_folder_is_followed(folder: Path) -> None:
    shutil.copy(ROOT / "rulebooks" / "tic_tac_toe.rule", folder / "real.rule")
    os.symlink(folder / "real.rule", "alias.rule")
    game = rulelang.load_game(extending("alias.rule"))
    assert game.name == "Tic-tac-toe"


def test_a_bundled_rulebook_is_extended_by_its_name_from_any_folder(folder: Path) -> None:
    game = rulelang.load_game(write("book.rule", 'game "Variant" extends "connect_four.rule"\n'))
    assert game.name == "Variant" and len(game.runtime.board.sites) == 42  # its board


@pytest.mark.parametrize("name, reason", [
    ("/etc/passwd.yaml", "an absolute path may lead outside the rulebook's folder"),
    ("../outside/secret.yaml", "'..' leads outside the rulebook's folder"),
    ("link.yaml", "it lies outside the rulebook's folder (through a symbolic link)"),
    ("pipe.yaml", "it is not a regular file (a device, a pipe or a socket)"),
    ("folder.yaml", "it is a folder"),
    ("cards.txt", "only .yaml or .yml files may be named here"),
    ("missing.yaml", "no such file"),
    ("x" * 300 + ".yaml", "a part of the name is longer than 255 bytes"),
])
def test_data_files_are_checked_before_opening(folder: Path, name: str, reason: str) -> None:
    os.symlink(folder.parent / "outside" / "secret.yaml", "link.yaml")
    os.mkfifo("pipe.yaml")  # opening it would block until a writer comes
    os.mkdir("folder.yaml")
    zone = f'zone deck: card from "{name}"'
    assert rendered(with_data(name)) == (
        f"book.rule:21:12: error[R105]: cannot read data file '{limits.shown(name)}': {reason}\n"
        "   |\n"
        f"21 | {zone}\n"
        f"   | {' ' * 11}{'^' * (len(zone) - 11)}\n"
        "   = help: keep data files beside the rulebook or below it")


def test_a_nul_byte_in_a_name_is_refused(folder: Path) -> None:
    text = rendered(extending("a\0b.rule"))  # in a rulebook: refused before it is parsed
    assert text.splitlines()[0] == (
        "book.rule:14:30: error[R101]: a control character (U+0000) cannot be written here")
    with pytest.raises(limits.Refused, match="the name contains a NUL byte"):
        limits.check_name("a\0b.rule", (".rule",))  # a record's `rulebook:` is checked so


def test_the_main_file_must_be_a_small_regular_utf8_file(folder: Path) -> None:
    os.mkfifo("pipe.rule")
    assert rendered("pipe.rule") == ("error[R104]: cannot read 'pipe.rule': it is not a regular "
                                     "file (a device, a pipe or a socket)")
    write("big.rule", BASE + "#" * limits.MAX_RULEBOOK_BYTES)
    size = len(BASE.encode()) + limits.MAX_RULEBOOK_BYTES
    assert rendered("big.rule") == ("error[R104]: cannot read 'big.rule': it is larger than "
                                    f"100,000 bytes ({size:,})")
    Path("latin.rule").write_bytes(BASE.encode() + "# caf\xe9\n".encode("latin-1"))
    assert rendered("latin.rule") == ("error[R104]: cannot read 'latin.rule': it is not UTF-8 "
                                      f"text (byte {len(BASE.encode()) + 6:,})")


# ---- nesting, numbers, syntax errors ----------------------------------------------------------

def deep(expr: str) -> str:
    return write("book.rule", BASE + f"\ndef deep = {expr}\nvar v = deep\n")


@pytest.mark.parametrize("expr, column", [
    ("-" * 200 + "1", 110),
    ("[" * 150 + "1" + "]" * 150, 110),
    ("not " * 180 + "true", 404),
    ("1" + " + 1" * 120, 12),
    ("abs(" * 60 + "1" + ")" * 60, 208),
])
def test_deep_nesting_is_refused_before_recursion(folder: Path, expr: str, column: int) -> None:
    text = rendered(deep(expr))
    assert text.splitlines()[0] == (f"book.rule:{END + 2}:{column}: error[R107]: nested too "
                                    "deeply: more than 100 levels of expressions and blocks")
    assert text.splitlines()[-1] == ("   = help: name the inner parts as rules (def) or write "
                                     "them one after another")


def test_deep_blocks_are_refused(folder: Path) -> None:
    body = "".join("  " * (i + 1) + "if true\n" for i in range(60))
    path = write("book.rule", BASE.replace("  put mark of mover at s\n",
                                           body + "  " * 61 + "put mark of mover at s\n"))
    assert rendered(path).splitlines()[0] == ("book.rule:75:102: error[R107]: nested too "
                                              "deeply: more than 100 levels of expressions and "
                                              "blocks")


def test_nesting_below_the_limit_still_loads_and_runs(folder: Path) -> None:
    for mode in ("compiled", "interpreted"):
        game = rulelang.load_game(deep("-" * 90 + "1"), mode=mode)
        assert game.new_initial_state(seed=0).legal_actions()


def test_a_number_of_too_many_digits_is_refused(folder: Path) -> None:
    text = rendered(deep("9" * 5000))
    assert text.splitlines()[0] == (f"book.rule:{END + 2}:12: error[R108]: a number of 5,000 "
                                    "digits (at most 100)")


def test_syntax_errors_stop_after_twenty(folder: Path) -> None:
    path = write("book.rule", BASE + "".join(f"def e{i} = = )\n" for i in range(40)))
    lines = rendered(path).splitlines()
    errors = [line for line in lines if "error[" in line]
    assert len(errors) == 21 and all("error[R101]" in e for e in errors[:20])
    assert errors[0] == f"book.rule:{END + 1}:10: error[R101]: unexpected '='"
    assert errors[19] == f"book.rule:{END + 20}:11: error[R101]: unexpected '='"
    assert errors[20] == (f"book.rule:{END + 40}:14: error[R108]: stopped after 20 syntax errors: "
                          "the rest of the file is not checked")


# ---- data files -----------------------------------------------------------------------------

def data_error(text: str, attrs: str = 'name = "", points = 0') -> str:
    Path("cards.yaml").write_text(text, encoding="utf-8")
    return rendered(with_data("cards.yaml", attrs))


def test_a_mapping_as_a_piece_attribute_is_refused_at_its_row(folder: Path) -> None:
    assert data_error("- {name: a, points: 1}\n# a comment\n- {name: b, points: {x: 1}}\n") == (
        "cards.yaml:3:1: error[R106]: data file 'cards.yaml', row 2: attribute 'points' must "
        "be a text, a number, true/false or a list of them (not a mapping)\n"
        "  |\n"
        "3 | - {name: b, points: {x: 1}}\n"
        "  | ^")


def test_deep_yaml_is_refused_before_pyyaml_recurses(folder: Path) -> None:
    text = data_error("- {name: a, points: " + "[" * 30 + "1" + "]" * 30 + "}\n")
    assert text.splitlines()[0] in (
        # libyaml has its own limit, PyYAML's Python parser has ours: both are diagnostics
        "cards.yaml:1:1: error[R106]: data file 'cards.yaml' is refused: it nests lists and "
        "mappings more than 20 deep",
        "cards.yaml:1:1: error[R106]: data file 'cards.yaml' is not valid YAML")


def test_a_billion_laughs_is_refused_at_once(folder: Path) -> None:
    laughs = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
        f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join(["*" + chr(96 + i)] * 9) + "]\n"
        for i in range(1, 10))
    assert len(laughs) < 1000
    assert data_error(laughs).splitlines()[0] == (
        "cards.yaml:6:1: error[R106]: data file 'cards.yaml' is refused: it holds more than "
        "100,000 values (aliases written out in full)")


def test_too_many_rows_are_refused(folder: Path) -> None:
    text = data_error("".join(f"- {{name: c{i}}}\n" for i in range(limits.MAX_DATA_ROWS + 1)))
    assert text.splitlines()[0] == ("book.rule:21:12: error[R106]: data file 'cards.yaml' has "
                                    "5,001 rows (at most 5,000)")


def test_a_large_data_file_is_refused_before_it_is_read(folder: Path) -> None:
    row = "- {name: a card with a long name, points: 12}\n"
    text = data_error(row * (limits.MAX_DATA_BYTES // len(row) + 1))
    assert text.splitlines()[0].startswith("book.rule:21:12: error[R105]: cannot read data "
                                           "file 'cards.yaml': it is larger than 1,000,000 "
                                           "bytes")


def test_a_number_python_cannot_read_is_refused(folder: Path) -> None:
    assert data_error(f"- {{name: a, points: {'9' * 5000}}}\n").splitlines()[0] == (
        "cards.yaml:1:1: error[R106]: data file 'cards.yaml' is refused: a number in it is too "
        "long to read (more than 4,300 digits)")


# ---- options, players, boards ---------------------------------------------------------------

def test_an_option_range_is_bounded(folder: Path) -> None:
    line = "option size: 1..9999999999999999999 = 3"
    path = write("book.rule", BASE.replace("# Components", f"{line}\n# Components"))
    assert rendered(path) == (
        "book.rule:17:1: error[R205]: an option's range lies within -1,000,000,000..1,000,000,000 "
        "and runs upwards (here 1..9999999999999999999)\n"
        "   |\n"
        f"17 | {line}\n"
        f"   | {'^' * len(line)}")


def test_an_option_range_within_the_bound_is_never_made_into_a_list(folder: Path) -> None:
    """3..1,000,000,000 is allowed: the game describes it as a range (a list took gigabytes
    and ended in a MemoryError), and `rulelang list` shows its ends."""
    from rulelang.tools.cli import option_lines

    line = "option size: 3..1000000000 = 8"
    game = rulelang.load_game(write("book.rule", BASE.replace("# Components",
                                                              f"{line}\n# Components")))
    choices = game.option_specs["size"]["choices"]
    assert isinstance(choices, range) and len(choices) == 999_999_998
    assert choices[0] == 3 and choices[-1] == 1_000_000_000 and 500_000_000 in choices
    assert option_lines(game) == ["--option size=8  (one of 3..1000000000)"]
    small = rulelang.load_game(write("small.rule", BASE.replace(
        "# Components", "option size: 3..5 = 3\n# Components")))
    assert option_lines(small) == ["--option size=3  (one of 3, 4, 5)"]


def test_a_player_count_is_bounded(folder: Path) -> None:
    path = write("book.rule", BASE.replace("players X, O  # seat order: X starts",
                                           "players 2..1000000"))
    assert rendered(path).splitlines()[0] == ("book.rule:15:1: error[R205]: a game has at most "
                                              "100 players")


def test_an_option_value_must_be_a_whole_number(folder: Path) -> None:
    line = "option size: 1..9 = 3"
    path = write("book.rule", BASE.replace("# Components", f"{line}\n# Components"))
    for value in (2.7, True, "9" * 5000):
        assert rendered(path, {"size": value}).splitlines()[0].startswith(
            "book.rule:17:1: error[R205]: impossible option: size=")


GEOMETRY = """geometry g(n)
  sites (r, c) for r in 0..n-1, c in 0..n-1
  relation east (r, c) -> (r, c+1)
"""


def board(extra: str, call: str = "g(3)") -> str:
    return write("book.rule", BASE.replace("use lines\n", "use lines\n" + GEOMETRY + extra)
                 .replace(BOARD_LINE, f"board {call}")
                 .replace("lines.full_line_through(square.in_a_row, last.site, mover)", "false"))


def test_a_board_has_a_bounded_number_of_sites(folder: Path) -> None:
    # reported at the rulebook's `board` line, even when the geometry is the stdlib's
    assert rendered(board("", "g(3000)")) == (
        "book.rule:21:1: error[R108]: a board has at most 10,000 sites: geometry 'g' makes more\n"
        "   |\n"
        "21 | board g(3000)\n"
        "   | ^^^^^^^^^^^^^")
    square = write("square_book.rule", BASE.replace("square.grid(3, 3, 3)",
                                                    "square.grid(3000, 3000, 0)"))
    assert rendered(square).startswith("square_book.rule:18:1: error[R108]: a board has at "
                                       "most 10,000 sites: geometry 'grid' makes more")


@pytest.mark.parametrize("call", ["square.grid(1000000000, 0, 0)", "sparse(1000000000)"])
def test_a_geometry_that_keeps_no_site_of_a_huge_domain_stops_at_once(folder: Path,
                                                                      call: str) -> None:
    """The places the generators try are counted, not only the sites made: no columns, or a
    `where` that rejects every place, used to run for ever."""
    sparse = "geometry sparse(n)\n  sites (r, c) for r in 0..n, c in 0..n where r < 0\n"
    text = rendered(board(sparse, call))
    name = call.split("(")[0].split(".")[-1]
    assert f"error[R108]: a board's geometry may try at most 40,000 places for its sites: " \
           f"geometry '{name}' tries more" in text.splitlines()[0]
    assert f"| board {call}" in text


def test_a_line_through_no_site_is_a_diagnostic(folder: Path) -> None:
    line = "  lines ls = [[(5, 5), (0, 0)]]"
    assert rendered(board(line + "\n")) == (
        "book.rule:16:3: error[R301]: lines 'ls' passes through (5, 5), which is not a site of "
        "the board\n"
        "   |\n"
        f"16 | {line}\n"
        f"   |   {'^' * (len(line) - 2)}")


def test_a_relation_to_no_place_is_a_diagnostic(folder: Path) -> None:
    text = rendered(board('  relation odd (r, c) -> (r, "a")\n'))
    assert text.splitlines()[0] == ("book.rule:16:3: error[R301]: relation 'odd' leads from "
                                    "(0, 0) to (0, a), which is not a site's coordinates")
    text = rendered(board("  sites (r, c) for r in [[1]], c in 0..1\n"))
    assert "error[R301]: a site's coordinates are whole numbers" in text.splitlines()[0]


@pytest.mark.parametrize("name, reason", [
    ("/etc/passwd", "an absolute path may lead outside the rulebook's folder"),
    ("../outside/secret.rule", "'..' leads outside the rulebook's folder"),
    ("link.rule", "it lies outside this file's folder (through a symbolic link)"),
])
def test_a_scenario_file_names_only_a_rulebook_beside_it(folder: Path, name: str,
                                                         reason: str) -> None:
    from rulelang.tools.scenario.scenario_read import read
    os.symlink(folder.parent / "outside" / "secret.rule", "link.rule")
    write("book.test", f'rulebook "{name}"\n')
    with pytest.raises(RulelangError) as info:
        read("book.test")
    assert info.value.render() == (
        f"book.test:1:10: error[R420]: rulebook '{name}' is refused: {reason}\n"
        "  |\n"
        f'1 | rulebook "{name}"\n'
        f"  |          {'^' * (len(name) + 2)}")


# ---- control characters: never sent to the terminal ---------------------------------------

def test_control_characters_in_a_rulebook_are_refused_where_they_stand(folder: Path) -> None:
    book = write("book.rule", BASE.replace(GAME_LINE, 'game "Tic\x1b[2J-tac"', 1)
                 + "# a NUL \x00 and a bidirectional override \u202e\n")
    text = rendered(book)
    heads = [line for line in text.splitlines() if "error[" in line]
    game = BASE.splitlines().index(GAME_LINE) + 1
    assert heads == [
        f"book.rule:{game}:10: error[R101]: a control character (U+001B) cannot be written here",
        f"book.rule:{END + 1}:9: error[R101]: a control character (U+0000) cannot be written "
        "here",
        f"book.rule:{END + 1}:40: error[R101]: a control character (U+202E) cannot be "
        "written here"]
    assert f'{game} | game "Tic␛[2J-tac"' in text  # shown by its picture, the caret under it
    assert not any(ord(ch) < 32 and ch != "\n" or ch == "\u202e" for ch in text)


def test_a_control_character_in_a_data_value_is_refused(folder: Path) -> None:
    assert data_error('- {name: "a\\e[2Jb", points: 1}\n').splitlines()[0] == (
        "cards.yaml:1:1: error[R106]: data file 'cards.yaml' is refused: a value holds a "
        "control character (U+001B)")


def test_a_diagnostic_shows_control_characters_by_their_pictures() -> None:
    from rulelang.errors import Diagnostic, render
    from rulelang.source import Source, Span
    src = Source("x.rule", 'game "a\x07b\x9bc"\n')
    out = render(Diagnostic("R201", "unknown name 'q\x1bz'", Span("x.rule", 1, 8, 1, 9)),
                 {"x.rule": src})
    assert out.splitlines()[0] == "x.rule:1:8: error[R201]: unknown name 'q␛z'"
    assert out.splitlines()[2] == '1 | game "a␇b�c"' and out.splitlines()[3] == "  |        ^"


def chain(n: int) -> str:
    """Rules each naming the next, `def a0 = a1` … `def a{n-1} = 1`, the first read by the
    action (as written at the end of the base rulebook)."""
    defs = "".join(f"def a{i} = a{i + 1}\n" for i in range(n - 1)) + f"def a{n - 1} = 1\n"
    return write("book.rule", BASE.replace("action place\n", "action place\n  require a0 == 1\n")
                 + defs)


def test_a_chain_of_200_rules_is_a_diagnostic_not_a_recursion_error(folder: Path) -> None:
    first = END + 2 + 99  # `def a99`, the first rule whose calls nest 101 deep (a199 is 1)
    assert rendered(chain(200)) == (
        f"book.rule:{first}:1: error[R108]: 'a99' calls rules nested 101 deep (at most 100): "
        "'a99' -> 'a100' -> 'a101' -> 'a102' -> …\n"
        "    |\n"
        f"{first} | def a99 = a100\n"
        "    | ^^^^^^^^^^^^^^\n"
        "    = help: write the chain shorter: each rule called inside another takes a level of "
        "the evaluator's stack")
    assert rendered(chain(5000)).count("error[") == 1  # one chain, one diagnostic


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_a_chain_of_100_rules_checks_and_plays(folder: Path, mode: str) -> None:
    state = rulelang.load_game(chain(limits.MAX_RULE_DEPTH), mode=mode).new_initial_state()
    state.apply_action(state.legal_actions()[0])  # the action's `require a0 == 1` holds
    assert len(state.history()) == 1


def test_a_cycle_of_1000_rules_is_a_diagnostic_not_a_recursion_error(folder: Path) -> None:
    """Found by the fuzzer: the type checker walks a cycle of rules without recursing; its
    calls, 1,000 before the cycle closes, nest past the limit."""
    defs = "".join(f"def c{i} = c{(i + 1) % 1000}\n" for i in range(1000))
    text = rendered(write("book.rule", BASE + defs))
    assert text.count("error[") == 1 and "error[R108]: 'c899' calls rules nested 101 deep" in text
