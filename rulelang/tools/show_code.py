"""`rulelang compile --show PATH [--option K=V]`: the Python module the game generator
(rulelang/gen) writes for a rulebook, each function under a header naming the rulebook's
file:line:col and line it comes from. `rulelang compile --explain PATH`: whether the generator
takes the rulebook, and if not, which construct stands in the way, at its file:line:col (such
a rulebook runs on the reference evaluator in every mode).

The headers are printed here, beside the source: the generated source itself holds no text of
the rulebook (its literals are in a table of constants)."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import rulelang
from rulelang.source import printable
from rulelang.tools.common import _rulebook, load, parse_options


def add_parser(sub: Any) -> None:
    cp = sub.add_parser("compile", help="show the Python module generated for a rulebook")
    cp.add_argument("path", metavar="PATH", help="rulebook file or bundled name")
    what = cp.add_mutually_exclusive_group(required=True)
    what.add_argument("--show", action="store_true",
                      help="print the generated module, each function under the rulebook "
                      "line it comes from")
    what.add_argument("--explain", action="store_true",
                      help="say whether the game runs generated and, if not, what stands in "
                      "the way")
    cp.add_argument("--players", type=int, metavar="N")
    cp.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    cp.set_defaults(run=cmd_compile)


def cmd_compile(args: argparse.Namespace) -> int:
    """--explain: the game generator's verdict; --show: its module."""
    from rulelang.gen import explain, write
    options = parse_options(args.option, args.players)
    path = _rulebook(args.path)
    game = load(path, options)  # the usual errors: no such file, a module, a bad option
    runtime = rulelang.load_game(path, game.options, mode="interpreted").runtime
    sources = runtime.program.loaded.sources
    why = explain(runtime)
    name = Path(path).name
    if why is not None:
        where = f"{why.span.path}:{why.span.line}:{why.span.column}" if why.span else name
        line = sources[why.span.path].line(why.span.line).strip() \
            if why.span and why.span.path in sources else ""
        print(printable(f"{name}: runs on the reference evaluator, not generated: {why.what}"))
        print(printable(f"  at {where}  {line}".rstrip()))
        return 0
    generated, _ = write(runtime)
    if args.explain:
        counted = "counted as they run" if generated.counting else "uncounted"
        print(printable(f"{name}: generated (mode 'compiled'): one module of "
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
