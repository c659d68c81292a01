"""Seeded mutations of the bundled rulebooks, the standard library's modules and the bundled
data files: one case is one mutated file placed in a fresh copy of the rulebooks' folder, and
the game rulebook to load so that the mutated file is read.

A case is made from its seed alone (`make_case(seed)`), so a problem the fuzzer finds is
reproduced by its seed. A mutated standard-library module is written beside the rulebooks
under its own name: a sibling module wins over the standard library's.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = ROOT / "rulebooks"
STDLIB = ROOT / "stdlib"

# the sizes of the large mutations; quick cases (the suite's) use the small ones only
_SIZES = {"nesting": [30, 100, 200, 1000, 5000], "line": [10_000, 100_000, 500_000],
          "rows": [1000, 20_000], "yaml_nesting": [100, 1000, 20_000],
          "chain": [100, 101, 200, 1000, 5000]}
_QUICK = {"nesting": [30, 100, 200], "line": [10_000], "rows": [200], "yaml_nesting": [100],
          "chain": [100, 101, 200]}
_sizes = dict(_SIZES)

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|\d+|[^\s\w]')
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_NUMBER = re.compile(r"\d+\Z")
_USES = re.compile(r"^\s*use\s+(\w+)", re.M)
_DATA = re.compile(r'from\s+"([^"]+\.yaml)"')
_EXTENDS = re.compile(r'extends\s+"([^"]+)"')


@dataclass(frozen=True)
class Case:
    seed: int
    target: str           # the mutated file: "rulebooks/x.rule", "stdlib/x.rule", ...
    entry: str            # the game rulebook to load, a name in the case's folder
    mutation: str         # what was done, for the report
    files: dict[str, bytes]  # name in the case's folder -> contents (the mutated file)


def corpus() -> list[Path]:
    """Every bundled rulebook, standard-library module and data file, in a fixed order."""
    return (sorted(RULEBOOKS.glob("*.rule")) + sorted(STDLIB.glob("*.rule"))
            + sorted(RULEBOOKS.glob("*.yaml")))


def _games() -> dict[str, set[str]]:
    """Each game rulebook -> every file it reads, by name (modules, data files, parents)."""
    out: dict[str, set[str]] = {}
    for path in sorted(RULEBOOKS.glob("*.rule")):
        text = path.read_text(encoding="utf-8")
        if not re.search(r"^game\s", text, re.M):
            continue
        out[path.name] = _reads(text, set())
    return out


def _reads(text: str, seen: set[str]) -> set[str]:
    names: set[str] = set()
    for module in _USES.findall(text):
        name = f"{module}.rule"
        if name in seen:
            continue
        seen.add(name)
        names.add(name)
        for base in (RULEBOOKS, STDLIB):
            if (base / name).is_file():
                names |= _reads((base / name).read_text(encoding="utf-8"), seen)
                break
    for data in _DATA.findall(text):
        names.add(data)
    for parent in _EXTENDS.findall(text):
        names.add(parent)
        if (RULEBOOKS / parent).is_file() and parent not in seen:
            seen.add(parent)
            names |= _reads((RULEBOOKS / parent).read_text(encoding="utf-8"), seen)
    return names


_GAMES = _games()


def entry_for(path: Path, rng: random.Random) -> str:
    """A game rulebook that reads the file (itself, for a game)."""
    if path.parent == RULEBOOKS and path.name in _GAMES:
        return path.name
    readers = sorted(g for g, reads in _GAMES.items() if path.name in reads)
    return rng.choice(readers)


# ---- text mutations ---------------------------------------------------------------
def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text))


def _replace(text: str, m: re.Match[str], new: str) -> str:
    return text[: m.start()] + new + text[m.end():]


_ODD_PATHS = ["/etc/passwd", "/proc/self/environ", "../../../../etc/hostname", "/dev/zero",
              "..", ".", "", "x" * 300, "a\x00b", "/", "nested/../../x.rule", "~/x.rule",
              "spline.rule", "tic_tac_toe.rule", "/dev/stdin", "C:\\x.rule"]
_ODD_MODULES = ["etc", "x" * 300, "square", "shibumi", "lines", "tilegrid", "passwd",
                "rulebooks", "karesansui", "tic_tac_toe", "joined"]
_LITERALS = ["5", "0", "-1", "none", "true", '"x"', "[1, 2]", "[]", "(1, 2)", "mover",
             "sites", "board", "last", "players", "1..3"]
_BIG = ["9999999999999999999", "10" + "0" * 40, "9" * 5000, "0", "-1", "-999999999",
        "2147483648", "100000", "1000000"]


def _del_token(text: str, rng: random.Random) -> tuple[str, str]:
    toks = _tokens(text)
    out = text
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        toks = _tokens(out)
        m = rng.choice(toks)
        out = _replace(out, m, "")
    return out, "delete tokens"


def _swap_tokens(text: str, rng: random.Random) -> tuple[str, str]:
    toks = _tokens(text)
    i = rng.randrange(len(toks) - 1)
    j = i + 1 if rng.random() < 0.6 else rng.randrange(len(toks))
    a, b = sorted((toks[i], toks[j]), key=lambda m: m.start())
    if a.start() == b.start():
        return text, "swap nothing"
    out = (text[: a.start()] + b.group() + text[a.end(): b.start()] + a.group()
           + text[b.end():])
    return out, "swap tokens"


def _ident(text: str, rng: random.Random, pool: list[str]) -> tuple[str, str]:
    idents = [m for m in _tokens(text) if _IDENT.match(m.group())]
    m = rng.choice(idents)
    r = rng.random()
    if r < 0.5:
        new = rng.choice([i.group() for i in idents])
        what = "same-file identifier"
    elif r < 0.75:
        new = rng.choice(pool)
        what = "corpus identifier"
    else:
        new = "".join(rng.choice("abcxyz_") for _ in range(rng.randint(1, 8)))
        what = "random identifier"
    return _replace(text, m, new), what


def _literal(text: str, rng: random.Random) -> tuple[str, str]:
    """An identifier or a number replaced by a literal of another type, or a unary minus
    put before an operand: values of the wrong type reach the evaluators."""
    toks = [m for m in _tokens(text) if _IDENT.match(m.group()) or _NUMBER.match(m.group())]
    m = rng.choice(toks)
    if rng.random() < 0.3:
        return _replace(text, m, "-" + m.group()), "unary minus"
    return _replace(text, m, rng.choice(_LITERALS)), "literal of another type"


def _number(text: str, rng: random.Random) -> tuple[str, str]:
    nums = [m for m in _tokens(text) if _NUMBER.match(m.group())]
    if not nums:
        return _del_token(text, rng)
    m = rng.choice(nums)
    return _replace(text, m, rng.choice(_BIG)), "number made huge or negative"


def _nesting(text: str, rng: random.Random) -> tuple[str, str]:
    toks = [m for m in _tokens(text) if _NUMBER.match(m.group()) or _IDENT.match(m.group())]
    m = rng.choice(toks)
    n = rng.choice(_sizes["nesting"])
    if rng.random() < 0.5:
        return _replace(text, m, "(" * n + m.group() + ")" * n), f"nesting {n} parentheses"
    return _replace(text, m, "[" * n + m.group() + "]" * n), f"nesting {n} brackets"


def _long_line(text: str, rng: random.Random) -> tuple[str, str]:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    n = rng.choice(_sizes["line"])
    kind = rng.random()
    if kind < 0.3:
        lines.insert(i, "# " + "x" * n)
    elif kind < 0.6:
        lines[i] = lines[i] + " " + " + ".join(["1"] * (n // 4))
    else:
        lines.insert(i, "x" * n)
    return "\n".join(lines), "long line"


def _nul(text: str, rng: random.Random) -> tuple[str, str]:
    i = rng.randrange(len(text) + 1)
    return text[:i] + "\x00" * rng.choice([1, 1, 3]) + text[i:], "NUL byte"


def _move_line(text: str, rng: random.Random) -> tuple[str, str]:
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    line = lines[i]
    if rng.random() < 0.5:
        del lines[i]
        what = "moved line"
    else:
        what = "copied line"
    lines.insert(j, line)
    return "\n".join(lines), what


def _odd_use(text: str, rng: random.Random) -> tuple[str, str]:
    if rng.random() < 0.5:
        path = rng.choice(_ODD_PATHS).replace('"', "")
        if re.search(r"^game\s", text, re.M):
            out = re.sub(r'^game\s+("[^"]*")(\s+extends\s+"[^"]*")?',
                         lambda m: f'game {m.group(1)} extends "{path}"', text, count=1,
                         flags=re.M)
            return out, f"extends {path[:40]!r}"
    name = rng.choice(_ODD_MODULES)
    return f"use {name}\n" + text, f"use {name[:40]}"


_TAIL = re.compile(r"(?<=[^=!<>])(=|\bin\b|:)\s+(?P<tail>[^#\n]+)")
_DOMAIN = re.compile(r"\b(?:choose(?: site| player| piece)?|each|any|all|for each|max|min|sum|"
                     r"count)\s+\w+\s+in\s+(?P<domain>[^:#\n]+?)(?=\s+where\b|\s*:|\s*#|$)",
                     re.M)
_WRONG_DOMAINS = ["mover", "White", "Player1", "5", "true", '"a1"', "none", "[]", "[mover]",
                  "1..0", "supply", "sites", "players", "top(sites)", "[1, [2, 3]]", '"text"']


def _splice(text: str, rng: random.Random) -> tuple[str, str]:
    """The expression after one line's `=`, `in` or `:` put in place of another's: values of
    one rule's type meet another rule's use."""
    tails = [m for m in _TAIL.finditer(text)
             if "#" not in text[text.rfind("\n", 0, m.start()) + 1: m.start()]]  # code only
    a, b = rng.choice(tails), rng.choice(tails)
    return (text[: b.start("tail")] + a.group("tail").rstrip() + text[b.end("tail"):],
            "spliced expression")


def _domain(text: str, rng: random.Random) -> tuple[str, str]:
    """The domain of a choice, loop or quantifier replaced by a wrong one: a player, a
    number, a zone, a text, another domain of the file."""
    found = list(_DOMAIN.finditer(text))
    m = rng.choice(found)
    others = [f.group("domain") for f in found]
    new = rng.choice(_WRONG_DOMAINS + others)
    return text[: m.start("domain")] + new + text[m.end("domain"):], "wrong domain"


# ---- shapes that once hung, ate memory or overflowed the stack (issue 50) ------------
_BOARDS = ["square.grid(1000000000, 0, 0)", "square.grid(0, 1000000000, 0)",
           "square.grid(200, 200, 0)", "sparse50(1000000000)", "sparse50(300)"]
_SPARSE = "geometry sparse50(n)\n  sites (r, c) for r in 0..n, c in 0..n where r < 0 or r > n\n"
_OPTIONS = ["3..100000000 = 8", "3..1000000000 = 8", "0..1000000000 = 1000000000"]


def _huge_board(text: str, rng: random.Random) -> tuple[str, str]:
    """The board made by a geometry over a huge domain that keeps few or no sites (no
    columns, or a `where` that rejects every place), or more sites than a board may have."""
    call = rng.choice(_BOARDS)
    lines = text.split("\n")
    at = [i for i, line in enumerate(lines) if line.startswith("board ")]
    if at:
        lines[at[0]] = f"board {call}"
    else:
        lines.insert(rng.randrange(len(lines) + 1), f"board {call}")
    return "use square\n" + _SPARSE + "\n".join(lines), f"board {call}"


def _huge_option(text: str, rng: random.Random) -> tuple[str, str]:
    """An option whose range holds up to two billion values (it must stay a range)."""
    spec = rng.choice(_OPTIONS)
    lines = text.split("\n")
    at = [i for i, line in enumerate(lines) if line.startswith("players ")]
    i = at[0] + 1 if at else rng.randrange(len(lines) + 1)
    lines.insert(i, f"option huge50: {spec}")
    return "\n".join(lines), f"option {spec}"


def _def_chain(text: str, rng: random.Random) -> tuple[str, str]:
    """A chain of argument-less rules, each naming the next, sometimes read by the rules."""
    n = rng.choice(_sizes["chain"])
    chain = "".join(f"def chain50_{i} = chain50_{i + 1}\n" for i in range(n - 1))
    out = text + "\n" + chain + f"def chain50_{n - 1} = 1\n"
    nums = [m for m in _tokens(text) if _NUMBER.match(m.group())]
    if nums and rng.random() < 0.5:
        m = rng.choice(nums)
        out = _replace(text, m, "chain50_0") + "\n" + chain + f"def chain50_{n - 1} = 1\n"
    return out, f"chain of {n} rules"


_RULE_MUTATIONS = [_del_token, _swap_tokens, _ident, _ident, _literal, _literal, _number,
                   _nesting, _long_line, _nul, _move_line, _odd_use, _splice, _splice,
                   _domain, _domain, _huge_board, _huge_option, _def_chain]


# ---- data mutations ---------------------------------------------------------------
def _yaml(text: str, rng: random.Random) -> tuple[str, str]:
    r = rng.randrange(9)
    if r == 0:
        return _del_token(text, rng)[0], "yaml: delete tokens"
    if r == 1:
        return _swap_tokens(text, rng)[0], "yaml: swap tokens"
    if r == 2:
        n = rng.choice(_sizes["yaml_nesting"])
        return "[" * n + "]" * n, f"yaml: nesting {n}"
    if r == 3:
        lines = [line for line in text.split("\n") if line.startswith("- ")]
        row = rng.choice(lines) if lines else "- {}"
        n = rng.choice(_sizes["rows"])
        return text + "\n" + "\n".join([row] * n) + "\n", f"yaml: {n} more rows"
    if r == 4:
        laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
        for k in range(1, 9):
            laughs.append(f"{chr(97 + k)}: &{chr(97 + k)} [" + ",".join(
                [f"*{chr(96 + k)}"] * 9) + "]")
        return "\n".join(laughs) + "\n", "yaml: billion laughs"
    if r == 5:
        return "- &a [*a]\n", "yaml: recursive alias"
    if r == 6:
        toks = [m for m in _tokens(text) if _IDENT.match(m.group()) or _NUMBER.match(m.group())]
        m = rng.choice(toks)
        new = rng.choice(["{a: 1}", "[1, [2]]", "null", "9" * 400, "-5", "!!binary aGk=",
                          "1e400", "~", "{x: {y: z}}", "[" * 50 + "]" * 50, "true"])
        return _replace(text, m, new), "yaml: value of another type"
    if r == 7:
        return _nul(text, rng)[0], "yaml: NUL byte"
    return _move_line(text, rng)[0], "yaml: moved line"


def _pool() -> list[str]:
    names: set[str] = set()
    for path in corpus():
        if path.suffix == ".rule":
            names.update(m.group() for m in _tokens(path.read_text(encoding="utf-8"))
                         if _IDENT.match(m.group()))
    return sorted(names)


_POOL = _pool()
_CORPUS = corpus()


def make_case(seed: int, quick: bool = False) -> Case:
    """The case of this seed: which file, which game, what mutation (1 to 3 of them); quick
    cases make the large mutations (nesting, long lines, many rows) small."""
    _sizes.update(_QUICK if quick else _SIZES)
    rng = random.Random(seed)
    path = _CORPUS[seed % len(_CORPUS)] if seed < len(_CORPUS) else rng.choice(_CORPUS)
    text = path.read_text(encoding="utf-8")
    done = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        try:
            if path.suffix == ".yaml":
                text, what = _yaml(text, rng)
            else:
                fn = rng.choice(_RULE_MUTATIONS)
                text, what = (_ident(text, rng, _POOL) if fn is _ident else fn(text, rng))
        except (IndexError, ValueError):  # too few tokens left for this mutation
            text, what = _nul(text, rng)
        done.append(what)
    entry = entry_for(path, rng)
    target = f"{path.parent.name}/{path.name}"
    return Case(seed, target, entry, "; ".join(done),
                {path.name: text.encode("utf-8", "surrogatepass")})


SHAPES = [(_huge_board, "tic_tac_toe.rule", b) for b in _BOARDS] + [
    (_huge_option, "tic_tac_toe.rule", o) for o in _OPTIONS] + [
    (_def_chain, "muso_sakura.rule", 200), (_def_chain, "tic_tac_toe.rule", 100)]


def shape_cases() -> list[Case]:
    """One case of each shape above, on a bundled game, its choices pinned (the suite runs
    them every time): seeds -1, -2, … so that they never meet a random case's. Last, the
    standard library's square grid whose `where` rejects every place, over a billion rows."""
    out = []
    for k, (fn, name, pick) in enumerate(SHAPES):
        text = (RULEBOOKS / name).read_text(encoding="utf-8")
        made, what = fn(text, _Pinned(random.Random(k), pick))  # type: ignore[arg-type]
        out.append(Case(-1 - k, f"rulebooks/{name}", name, what,
                        {name: made.encode("utf-8", "surrogatepass")}))
    square = (STDLIB / "square.rule").read_text(encoding="utf-8")
    sites = "  sites (r, c) for r in 0..rows - 1, c in 0..cols - 1"
    assert sites + "\n" in square
    game = (RULEBOOKS / "tic_tac_toe.rule").read_text(encoding="utf-8")
    files = {"square.rule": square.replace(sites, sites + " where r < 0"),
             "tic_tac_toe.rule": game.replace("square.grid(3, 3, 3)",
                                              "square.grid(1000000000, 3, 3)")}
    out.append(Case(-1 - len(SHAPES), "stdlib/square.rule", "tic_tac_toe.rule",
                    "square's sites where r < 0, over a billion rows",
                    {k: v.encode("utf-8") for k, v in files.items()}))
    return out


class _Pinned:
    """A random generator whose choices take `pick` where it may be chosen (and whose
    coin always says yes)."""

    def __init__(self, rng: random.Random, pick: object) -> None:
        self.rng, self.pick = rng, pick

    def choice(self, seq: list[object]) -> object:
        return self.pick if self.pick in seq else self.rng.choice(seq)

    def random(self) -> float:
        return 0.0

    def __getattr__(self, name: str) -> object:
        return getattr(self.rng, name)


def write_case(case: Case, folder: Path) -> Path:
    """The case's folder: every bundled rulebook and data file, then the mutated file."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in RULEBOOKS.iterdir():
        if path.suffix in (".rule", ".yaml"):
            (folder / path.name).write_bytes(path.read_bytes())
    for name, data in case.files.items():
        (folder / name).write_bytes(data)
    return folder / case.entry
