"""The `rulelang` command: check, play, replay, render, list, evaluate, compare and compile
rulebooks.

`main(argv) -> exit code`.  Every user mistake ends in a clear message and exit code 1 (argparse
usage errors: 2), never a traceback: RulelangError is caught here and printed with render().
Command-line codes are R41x; record codes R40x live in record.py.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import rulelang
from rulelang import limits
from rulelang.agents import make_agent
from rulelang.errors import Diagnostic, RecordError, RulelangError, render
from rulelang.source import printable
from rulelang.tools import common
from rulelang.tools.common import (
    _rulebook,
    _shown,
    _user_error,
    bundled,
    load,
    number_typed,
    parse_options,
    write_file,
)
from rulelang.tools.evidence.evidence_args import add_compare_parser as _compare_parser
from rulelang.tools.evidence.evidence_args import add_evaluate_parser as _evaluate_parser
from rulelang.tools.evidence.evidence_args import add_mutate_arguments, cmd_mutate
from rulelang.tools.fmt import add_parser as _fmt_parser
from rulelang.tools.records.record import replay
from rulelang.tools.serve.cli import add_parser as _serve_parser
from rulelang.tools.show_code import add_parser as _compile_parser
from rulelang.tools.terminal.play import play, resume

_MODES = rulelang.MODES


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # usage errors (2) and --help (0) end here, not the caller
        return exc.code if isinstance(exc.code, int) else 2
    try:
        code = int(args.run(args))
        if not sys.stdout.closed:  # (the language server closes it when the editor leaves)
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return code
    except BrokenPipeError:  # `rulelang ... | head`: the reader has had enough
        limits.silence_stdout()
        return 0
    except RulelangError as exc:
        _err(exc.render())
    except KeyboardInterrupt:
        _err("interrupted")
    except OSError as exc:
        where = f": '{limits.shown(str(exc.filename))}'" if exc.filename else ""
        reason = exc.strerror or str(exc)
        _err(render(Diagnostic("R410", f"{reason[:1].lower()}{reason[1:]}{where}", None)))
    return 1


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="rulelang", description="declarative rules for games")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = sub.add_parser("check", help="check rulebooks and report every error")
    check.add_argument("paths", nargs="+", metavar="PATH")
    check.add_argument("--simulate", type=int, metavar="N",
                       help="also play N random games, checking invariants after each action")
    check.add_argument("--seed", type=int, default=0, help="the master seed of --simulate")
    check.add_argument("--max-plies", type=int, default=2000, metavar="M",
                       help="cut a simulated game after M actions (default 2000)")
    check.add_argument("--players", type=int, metavar="N")
    check.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    check.set_defaults(run=cmd_check)
    _play_parser(sub.add_parser("play", help="play a rulebook in the terminal"))
    rep = sub.add_parser("replay", help="replay a game record and check it reproduces")
    rep.add_argument("file", metavar="FILE")
    rep.add_argument("--mode", choices=_MODES, default="compiled")
    rep.add_argument("--as", dest="viewer", metavar="PLAYER",
                     help="show the game as this player (a name or a seat number from 1) saw it")
    rep.add_argument("--html", metavar="OUT",
                     help="write the replay as one self-contained HTML page (with --as: as "
                     "that player saw it; else as the first player)")
    rep.set_defaults(run=cmd_replay)
    _render_parser(sub.add_parser("render", help="draw a position as SVG"))
    sub.add_parser("list", help="list the bundled rulebooks").set_defaults(run=cmd_list)
    _evaluate_parser(sub)
    _compare_parser(sub)
    _compile_parser(sub)
    _serve_parser(sub)
    test = sub.add_parser("test", help="run scenario files (*.test) against their rulebooks")
    test.add_argument("paths", nargs="*", metavar="PATH",
                      help="scenario files or folders of them (default: this folder)")
    test.add_argument("--mode", choices=(*_MODES, "both"), default="compiled")
    add_mutate_arguments(test)
    test.set_defaults(run=cmd_test)
    _fmt_parser(sub)
    lsp = sub.add_parser("lsp", help="the language server for editors (over stdio; needs the "
                         "extra rulelang[lsp])")
    lsp.set_defaults(run=cmd_lsp)
    return ap


def _play_parser(play: argparse.ArgumentParser) -> None:
    play.add_argument("path", nargs="?", metavar="PATH",
                      help="rulebook file or bundled name (default: ask)")
    play.add_argument("--resume", metavar="FILE",
                      help="continue the stopped game of this record (written back to it)")
    play.add_argument("--players", type=int, metavar="N")
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    play.add_argument("--seed", type=int, default=0, metavar="N")
    play.add_argument("--agents", metavar="A,B,...",
                      help="one per seat: human, random, mcts, mcts:N (playouts), mcts:Ts "
                      "(seconds), easy, normal, hard (default human,normal)")
    play.add_argument("--record", metavar="FILE", help="write the game record here")
    play.add_argument("--mode", choices=_MODES, default="compiled")
    play.add_argument("--max-plies", type=int, metavar="N",
                      help="end the game, capped (no result), after N moves")
    play.set_defaults(run=cmd_play)


def _render_parser(ren: argparse.ArgumentParser) -> None:
    ren.add_argument("path", nargs="?", metavar="PATH",
                     help="rulebook file or bundled name (not needed with --record)")
    ren.add_argument("--record", metavar="FILE", help="a game record: draw one of its plies")
    ren.add_argument("--ply", type=int, metavar="N",
                     help="the position after N moves of the record (default: its end)")
    ren.add_argument("--as", dest="viewer", metavar="PLAYER",
                     help="as this player sees it (default: the player to move)")
    ren.add_argument("--players", type=int, metavar="N")
    ren.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    ren.add_argument("--seed", type=int, default=0, metavar="N")
    ren.add_argument("--mode", choices=_MODES, default="compiled")
    ren.add_argument("-o", "--output", required=True, metavar="OUT", help="the SVG file")
    ren.set_defaults(run=cmd_render)


# --- shared helpers ----------------------------------------------------------------------

def _err(text: str) -> None:
    print(printable(text), file=sys.stderr)


def result_lines(game: Any, state: Any) -> list[str]:
    names, winners = game.player_names, state.winners()
    if state.capped():
        lines = [f"result: capped after {len(state.history())} plies (the game's longest "
                 "length): no winner"]
    elif not winners:
        lines = ["result: draw"]
    elif len(winners) == 1:
        lines = [f"result: {names[winners[0]]} wins"]
    else:
        lines = ["result: " + " and ".join(names[w] for w in winners) + " win"]
    scores = list(state.scores())
    if any(scores):
        lines.append("scores: " + ", ".join(f"{n} {s:g}" for n, s in zip(names, scores,
                                                                           strict=False)))
        terms = [_terms(state.score_breakdown(i)) for i in range(len(names))]
        if any(len(t) > 1 for t in terms):
            lines += [f"  {n}: " + (", ".join(f"{k} {v:g}" for k, v in t.items() if v)
                                    or "no points") for n, t in zip(names, terms, strict=True)]
    return lines


def _terms(breakdown: dict[str, float]) -> dict[str, float]:
    """A player's points per score term: the lines of an itemised term (`term label`) summed."""
    points: dict[str, float] = {}
    for key, value in breakdown.items():
        term = key.split(" ")[0]
        points[term] = points.get(term, 0) + value
    return points


# --- check -------------------------------------------------------------------------------

def cmd_check(args: argparse.Namespace) -> int:
    if args.simulate is not None:
        return cmd_simulate(args)
    results = [_check_one(path) for path in args.paths]
    return 0 if all(results) else 1


def cmd_simulate(args: argparse.Namespace) -> int:
    """`check --simulate N`: each rulebook loaded (with --players/--option) and N random games
    played with the invariants of rulelang/tools/evidence/simulate.py checked after every action."""
    from rulelang.tools.evidence.simulate import simulate, summary
    for flag, value in (("--simulate", args.simulate), ("--max-plies", args.max_plies)):
        if value < 1:
            raise _user_error("R411", f"{flag} must be a positive whole number, not {value}")
    failed = False
    for path in args.paths:
        options = parse_options(args.option, args.players)
        try:
            game = load(path, options)
        except RulelangError as exc:
            _err(exc.render())
            failed = True
            continue
        sim = simulate(game, args.simulate, args.seed, args.max_plies)
        print("\n".join(summary(path, sim, options=options)))
        failed = failed or sim.failed
    return 1 if failed else 0


def _check_one(path: str) -> bool:
    try:
        rulelang.check_file(_rulebook(path))  # a game, or a library module
    except RulelangError as exc:
        _err(exc.render())
        return False
    print(f"{path}: ok")
    return True


# --- list --------------------------------------------------------------------------------

def cmd_list(args: argparse.Namespace) -> int:
    books = bundled()
    if not books:
        print(f"no bundled rulebooks in {common.bundled_dir()}")
    results = [_describe(path) for path in books]
    return 0 if all(results) else 1


def _describe(path: Path) -> bool:
    try:
        game = load(str(path))
    except RulelangError as exc:
        _err(f"{_shown(path)}: does not load\n{exc.render()}")
        return False
    print(f"{path.stem}: {game.name}, {_players(game)}")  # the name one types
    for line in option_lines(game):
        print(f"    {line}")
    return True


def _players(game: Any) -> str:
    low, high = game.player_range
    return f"{low} players" if low == high else f"{low}-{high} players"


def option_lines(game: Any) -> list[str]:
    specs = {k: v for k, v in game.option_specs.items() if k != "players"}
    return [f"--option {k}={v.get('default')}" + _choices(v) for k, v in specs.items()]


def _choices(spec: dict[str, Any]) -> str:
    choices = spec.get("choices")
    if isinstance(choices, range) and len(choices) > 10:  # (a range may hold a billion)
        return f"  (one of {choices[0]}..{choices[-1]})"
    return f"  (one of {', '.join(map(str, choices))})" if choices else ""


# --- replay ------------------------------------------------------------------------------

def cmd_replay(args: argparse.Namespace) -> int:
    try:
        done = replay(args.file, mode=args.mode)
    except RecordError as exc:
        _err(exc.render())
        return 1
    if args.html is not None:
        _writable(args.html, "the page")
        seat = 0 if args.viewer is None else _seat(done.game, args.viewer)
        from rulelang.tools.pictures.viewer import replay_page  # (the page writer only when asked)

        text = replay_page(done.game, done.record.seed, done.record.actions, seat)
        write_file(args.html, text, "the page")
        print(f"{args.file}: {len(done.record.actions)} moves reproduce; the replay as "
              f"{done.game.player_names[seat]} saw it is written to {args.html}")
        return 0
    if args.viewer is not None:
        return _replay_as(done, _seat(done.game, args.viewer))
    moves = len(done.record.actions)
    if not done.record.finished:
        print(f"{args.file}: {moves} moves reproduce; the game was stopped before its end")
        return 0
    print(f"{args.file}: {moves} moves reproduce" + (" (capped)" if done.record.capped else ""))
    print("\n".join(result_lines(done.game, done.state)))
    return 0


def _seat(game: Any, viewer: str) -> int:
    names = [str(n) for n in game.player_names]
    if viewer in names:
        return names.index(viewer)
    seat = number_typed(viewer)
    if seat is not None and 1 <= seat <= len(names):
        return seat - 1
    raise _user_error("R415", f"no player '{limits.shown(viewer)}' in this game",
                      help=f"one of {', '.join(names)}, or 1..{len(names)}")


def _replay_as(done: Any, player: int) -> int:
    """The moves and the last position as one player saw them: their observation only (no
    other player's hidden cards or secret choices, no deck order, no seed), the position
    drawn as `rulelang play` draws it (the geometry's `draw at`, the view's groups)."""
    from rich.console import Console

    from rulelang.tools.terminal.screen import Screen
    obs = done.state.observation(player)
    print(f"the game as {obs['players'][player]} saw it:")
    print("\n".join(f"  {i}. {text}" for i, text in enumerate(obs["history"], start=1)))
    print()
    before = None
    actions = done.record.actions
    if actions:
        state = done.game.new_initial_state(seed=done.record.seed)
        for text in actions[:-1]:
            state.apply_action(text)
        before = state.observation(player)
    console = Console(highlight=False, soft_wrap=True)
    from rulelang.tools.pictures.viewer import changed

    for line in Screen(obs, changed(before, obs), min(console.width, 120)).lines():
        console.print(line, overflow="ignore", crop=False)
    if done.state.is_terminal():
        print("\n".join(result_lines(done.game, done.state)))
    return 0


# --- render ------------------------------------------------------------------------------

def cmd_render(args: argparse.Namespace) -> int:
    _writable(args.output, "the picture")
    if args.record is not None:
        try:
            done = replay(args.record, mode=args.mode)
        except RecordError as exc:
            _err(exc.render())
            return 1
        game, actions = done.game, done.record.actions
        ply = len(actions) if args.ply is None else args.ply
        if not 0 <= ply <= len(actions):
            raise _user_error("R417", f"no ply {ply} in '{args.record}'",
                              help=f"give --ply 0 (the start) to {len(actions)} (the end)")
        state = game.new_initial_state(seed=done.record.seed)
        for text in actions[:ply - 1] if ply else []:
            state.apply_action(text)
        before = None  # the state before the last move: its sites are highlighted
        if ply:
            before = state.clone()
            state.apply_action(actions[ply - 1])
    else:
        if args.path is None:
            raise _user_error("R417", "render needs a rulebook or a record",
                              help="rulelang render PATH -o board.svg, or "
                              "rulelang render --record FILE [--ply N] -o board.svg")
        if args.ply is not None:
            raise _user_error("R417", "--ply needs --record: a rulebook alone has only its "
                              "start", help="record a game with rulelang play --record FILE")
        game = load(args.path, parse_options(args.option, args.players), args.mode)
        state, before = game.new_initial_state(seed=args.seed), None
    seat = _seat(game, args.viewer) if args.viewer is not None else _mover(state)
    obs_before = None if before is None else before.observation(seat)
    from rulelang.tools.pictures.viewer import position

    write_file(args.output, position(state, seat, obs_before) + "\n", "the picture")
    print(f"{args.output}: the position as {game.player_names[seat]} sees it")
    return 0


def _mover(state: Any) -> int:
    now = state.current_player()
    return int(now) if not state.is_terminal() and now >= 0 else 0


# --- play --------------------------------------------------------------------------------

def _writable(path: str, what: str = "the record") -> None:
    where = Path(path)
    if where.is_dir():
        raise _user_error("R410", f"cannot write {what} to '{path}': it is a folder",
                          help="give a file name, e.g. game.yaml or board.svg")
    if not where.parent.is_dir():
        raise _user_error("R410", f"cannot write {what} to '{path}': there is no folder "
                          f"'{where.parent}'")


def cmd_play(args: argparse.Namespace) -> int:
    if args.resume is not None:
        try:
            return resume(args.resume, lambda n: make_agents(args.agents, n, args.seed),
                          args.mode)
        except RecordError as exc:
            _err(exc.render())
            return 1
    path = args.path or _choose_bundled()
    if path is None:
        return 1
    if args.record:  # said before the game, not after it
        _writable(args.record)
    game = load(path, parse_options(args.option, args.players), args.mode)
    common.cap_game(game, args.max_plies)
    return play(game, path, make_agents(args.agents, game.num_players, args.seed), args.seed,
                args.record)


def make_agents(spec: str | None, players: int, seed: int) -> list[Any]:
    default = ["human"] + ["normal"] * (players - 1)
    names = [s.strip() for s in spec.split(",")] if spec else default
    if len(names) == 1:
        names *= players
    if len(names) != players:
        example = ",".join(["human"] + ["mcts"] * (players - 1))
        raise _user_error("R413", f"{len(names)} agents given for {players} players",
                          help=f"give one agent per seat, e.g. --agents {example}")
    return [make_agent(name, seed + i + 1) for i, name in enumerate(names)]


def _choose_bundled() -> str | None:
    books = bundled()
    if not books:
        _err(render(Diagnostic("R414", f"no bundled rulebooks in {common.bundled_dir()}", None,
                               "name a rulebook: rulelang play PATH")))
        return None
    for i, path in enumerate(books, start=1):
        print(f"{i}. {path.stem}")
    return _ask_number("which rulebook? ", books)


def _ask_number(prompt: str, books: list[Path]) -> str | None:
    while True:
        try:
            text = input(prompt).strip()
        except EOFError:
            _err("no rulebook chosen")
            return None
        if text.isdigit() and 1 <= int(text) <= len(books):
            return books[int(text) - 1].stem  # a bundled rulebook by its name
        named = [p.stem for p in books if p.stem == text.lower().removesuffix(".rule")]
        if named:
            return named[0]
        if text.lower() in ("q", "quit"):
            return None
        print(f"type a number from 1 to {len(books)} or a name, or q")


def cmd_test(args: argparse.Namespace) -> int:
    modes = ("compiled", "interpreted") if args.mode == "both" else (args.mode,)
    if args.mutate:
        return cmd_mutate(args, modes[0])
    from rulelang.tools.scenario.scenarios import test_command  # (the scenario runner when asked)

    return test_command(args.paths, modes, print)


def cmd_lsp(args: argparse.Namespace) -> int:
    try:
        from rulelang.editor.handlers import serve  # pygls: the optional extra rulelang[lsp]
    except ImportError as exc:
        raise _user_error("R421", f"the language server needs pygls ({exc.name} is missing)",
                          help="pip install 'rulelang[lsp]'") from None
    from rulelang.tools.scenario.scenario_read import read

    serve(read)
    return 0


if __name__ == "__main__":
    sys.exit(main())
