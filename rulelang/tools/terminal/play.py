"""`rulelang play`: a new game or a stopped one (`--resume FILE`), played at the terminal,
and its record written when it ends or stops (q, Ctrl-C, end of input).

A record names a bundled rulebook by its name and any other by its path relative to the
record's folder, so that it replays from any folder (the hash check refuses a changed
rulebook). A game stopped without `--record` is kept in NAME.stopped.yaml in the working
folder, so that it can be resumed.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from rulelang.errors import Diagnostic, RecordError, render
from rulelang.resources import bundled_dir, rulebook_path
from rulelang.tools.records.record import portable, read_record, record_game, replay, write_record
from rulelang.tools.terminal.session import Session


def record_name(rulebook: str | Path, record: str | Path) -> str:
    """How a record names its rulebook: a bundled one by its name, another by its path
    relative to the record's folder when it lies in that folder's tree (else relative to the
    working folder, or as given: a record may name only rulebooks below it, rulelang/limits)."""
    path = Path(rulebook_path(rulebook)).resolve()  # a bundled name: its file
    bundled = bundled_dir().resolve()
    if path.parent == bundled and path.suffix == ".rule":
        return path.stem
    return portable(str(path), Path(record).resolve())


def play(game: Any, rulebook: str, agents: list[Any], seed: int, record: str | None,
         actions: list[str] | None = None) -> int:
    session = Session(game, agents, seed, rulebook, actions)
    finished = session.run()
    target = record
    if target is None and not finished and session.humans:
        target = f"{Path(rulebook).stem}.stopped.yaml"
    if target is None:
        return 0
    rec = record_game(game, session.state, seed, rulebook=record_name(rulebook, target))
    try:
        write_record(target, rec)
    except OSError as exc:
        session.out.print(f"cannot write the record to '{target}': {exc.strerror or exc}")
        return 1
    session.out.print(f"record written to {target}")
    if not finished:
        session.out.print(f"continue it with: rulelang play --resume {target}")
    return 0


def resume(path: str, agents_for: Any, mode: str) -> int:
    """Continue the stopped game of a record; its record is written back to the same file."""
    done = replay(path, mode=mode)  # the moves so far must reproduce
    if done.record.finished:
        raise RecordError(render(Diagnostic(
            "R406", f"record '{path}' is of a finished game: nothing to resume", None,
            f"rulelang replay {path} shows it")))
    rec = read_record(path)
    agents = agents_for(done.game.num_players)
    rulebook = str(done.game.path)
    return play(done.game, rulebook, agents, rec.seed, path, list(rec.actions))
