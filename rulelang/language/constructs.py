"""Enumerations, tables and indexed zones in the checked program (docs/language.md,
"Enumerations", "Tables" and "Indexed zones"): what the checker records of them, and what it
refuses before play (an option of an enumeration with a default outside it, a table that reads
the game's state)."""
from __future__ import annotations

from dataclasses import replace

from rulelang.language import ast
from rulelang.language.analysis import Analysis
from rulelang.language.program import Program, indexed_zone
from rulelang.language.resolver import Checker, qual
from rulelang.library.registry import Reads


def collect(ck: Checker, p: Program, key: str, d: ast.Decl) -> None:
    """Record an enumeration, a table or indexed zones of module `key`."""
    if isinstance(d, ast.Enum):
        p.enums[qual(key, d.name)] = d
        for sym in d.symbols:
            p.symbols[qual(key, sym)] = qual(key, d.name)
    elif isinstance(d, ast.Table):
        p.tables[qual(key, d.name)] = d
    elif key == "" and isinstance(d, ast.Zone) and d.indices is not None:
        p.zone_families[d.name] = d
        lo, hi = d.indices
        zones = {}
        for name, z in p.zones.items():  # in the order of declaration
            if name != d.name:
                zones[name] = z
                continue
            for i in range(lo, hi + 1):
                zones[indexed_zone(d.name, i)] = replace(d, name=indexed_zone(d.name, i),
                                                         indices=None)
        p.zones.clear()
        p.zones.update(zones)


def options_of_enums(ck: Checker, p: Program) -> None:
    """`option reply: answer = accept`: an option whose values are the symbols of the
    enumeration `answer` (its only "choice" names an enumeration of the game)."""
    for name, opt in list(p.options.items()):
        if len(opt.choices) != 1 or opt.choices[0] not in p.enums:
            continue
        enum = p.enums[opt.choices[0]]
        p.options[name] = replace(opt, choices=enum.symbols)
        p.option_enums[name] = opt.choices[0]


def check_tables(ck: Checker, p: Program) -> None:
    """A table's keys and values are made once, when the game is made: they may read what is
    fixed for a game (options, players, the board's relations and regions, rules of these),
    never its state (R250)."""
    if not p.tables:
        return
    analysis = Analysis(p, ck.refs)
    for key, t in p.tables.items():
        for e in t.keys + t.values:
            if analysis.expr_reads(e) & ~Reads.GAME:
                ck.error("R250", f"the table '{key}' is made once, when the game is made, but "
                         "this reads the game's state", e.span,
                         "a table's keys and values are fixed values: numbers, texts, symbols,"
                         " options, players; compute the rest in a rule")
                break


def check_initial_values(ck: Checker, p: Program) -> None:
    """What a game starts with is made before its first state exists: the starting values of
    counters and vars, the attributes' defaults of pieces and the number of pieces a zone
    starts with may read what is fixed for a game, never its state (R250)."""
    analysis = Analysis(p, ck.refs)
    made: list[tuple[str, ast.Expr | None]] = []
    made += [(f"the counter '{k}'", d.init) for k, d in p.counters.items()]
    made += [(f"the var '{k}'", d.init) for k, d in p.vars.items()]
    made += [(f"the attribute '{a}' of '{k}'", e) for k, d in p.pieces.items() for a, e in d.attrs]
    made += [(f"the zone '{k}'", c.count) for k, z in p.zones.items() for c in z.contents]
    for what, e in made:
        if e is not None and analysis.expr_reads(e) & ~Reads.GAME:
            ck.error("R250", f"{what} is given its starting value before the game begins, but "
                     "this reads the game's state", e.span,
                     "a starting value is a fixed value: numbers, texts, symbols, options, "
                     "players; set the rest in the setup")
