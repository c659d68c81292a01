"""`rulelang compile --show PATH [--option K=V]`: the Python functions the code generator
(rulelang/fast/codegen.py) makes for a rulebook's rules and score terms; with
`--generated`, the whole module the game generator (rulelang/gen) writes for the game.
`rulelang compile --explain PATH`: whether the game generator takes the rulebook, and if
not, which construct stands in the way, at its file:line:col.

Each function is printed under a header naming where it comes from — the rulebook's
file:line:col and that line — and followed by its line map (each `# node N` of its source:
the position of that node). The headers and the map are printed here, beside the source:
the generated source itself holds no text of the rulebook."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import rulelang
from rulelang.source import printable
from rulelang.tools.common import _rulebook, load, parse_options


def add_parser(sub: Any) -> None:
    cp = sub.add_parser("compile", help="show the Python generated for a rulebook's rules")
    cp.add_argument("path", metavar="PATH", help="rulebook file or bundled name")
    what = cp.add_mutually_exclusive_group(required=True)
    what.add_argument("--show", action="store_true",
                      help="print the generated functions, each under the rulebook line it "
                      "comes from")
    what.add_argument("--explain", action="store_true",
                      help="say whether the game runs generated (mode 'generated') and, if "
                      "not, what stands in the way")
    cp.add_argument("--generated", action="store_true",
                    help="with --show: the whole module of the game generator")
    cp.add_argument("--players", type=int, metavar="N")
    cp.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    cp.set_defaults(run=cmd_compile)


def cmd_compile(args: argparse.Namespace) -> int:
    options = parse_options(args.option, args.players)
    path = _rulebook(args.path)
    game = load(path, options)  # the usual errors: no such file, a module, a bad option
    if args.explain or args.generated:
        return _game_module(game, path, explain_only=args.explain)
    functions = rulelang.generated_code(path, options)
    if not functions:
        print(printable(f"# {Path(path).name}: no rule or score term has an expression the "
                        "code generator compiles"))
        return 0
    print("\n".join(show(functions, game.runtime.program.loaded.sources)))
    return 0


def show(functions: list[Any], sources: dict[str, Any]) -> list[str]:
    """The lines printed for these functions (codegen.Generated); a function made the same
    again (a rule inlined where it is called) is printed once, with the count."""
    made: dict[tuple[Any, str], int] = {}
    for g in functions:
        made[(g.root, g.source)] = made.get((g.root, g.source), 0) + 1
    out: list[str] = []
    for g in functions:
        count = made.pop((g.root, g.source), 0)
        if not count:
            continue
        again = "  (inlined where it is called" if g.inlined else ""
        if count > 1:
            again = f"{again or '  ('}{', ' if again else ''}made {count} times"
        again += ")" if again else ""
        out.append(f"# {_where(g.root, sources)}{again}")
        out.extend(g.source.rstrip("\n").splitlines())
        out.extend(f"#   node {i}: {_where(n, sources, text=False)}"
                   for i, n in enumerate(g.nodes))
        out.append("")
    return out


def _where(node: Any, sources: dict[str, Any], text: bool = True) -> str:
    """file:line:col of a node, and (text) the rulebook line it is on, made printable."""
    span = node.span
    place = f"{span.path}:{span.line}:{span.column}"
    src = sources.get(span.path)
    if not text or src is None:
        return printable(place)
    return printable(f"{place}  {src.line(span.line).strip()}")


def _game_module(game: Any, path: str, explain_only: bool) -> int:
    """--explain, or --show --generated: the game generator's verdict or its module."""
    from rulelang.gen import explain, write
    runtime = rulelang.load_game(path, game.options, mode="interpreted").runtime
    sources = runtime.program.loaded.sources
    why = explain(runtime)
    name = Path(path).name
    if why is not None:
        where = f"{why.span.path}:{why.span.line}:{why.span.column}" if why.span else name
        line = sources[why.span.path].line(why.span.line).strip() \
            if why.span and why.span.path in sources else ""
        print(printable(f"{name}: runs compiled (closures), not generated: {why.what}"))
        print(printable(f"  at {where}  {line}".rstrip()))
        return 0
    generated, _ = write(runtime)
    if explain_only:
        counted = "counted as they run" if generated.counting else "uncounted"
        made = rulelang.generated_state(runtime)
        modes = "mode 'generated'; mode 'compiled' runs it on the closures" if made is not None \
            and made.hides else "modes 'generated' and 'compiled'"
        print(printable(f"{name}: generated ({modes}): one module of "
                        f"{len(generated.origins)} functions, at most {generated.steps:,} "
                        f"steps per action ({counted})"))
        return 0
    for fn, span, text in generated.origins:
        if span is not None:
            src = sources.get(span.path)
            line = src.line(span.line).strip() if src is not None else ""
            print(printable(f"# {fn}: {span.path}:{span.line}:{span.column}  {line}"))
        print(text)
        print()
    print(f"# constants: {len(generated.constants)} (values, never source)")
    return 0
