"""A table's rules of who may do what, its undo by agreement, its store and its record,
without a server: rulelang/tools/serve/table.py, store.py, protocol.py."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.tools.records.record import parse_record
from rulelang.tools.serve import protocol
from rulelang.tools.serve.protocol import Bucket, ClientError
from rulelang.tools.serve.store import Saved, Store, digest
from rulelang.tools.serve.table import SPECTATOR, Table


def _table(store: Store, name: str, agents: list[str], seed: int = 1,
           options: dict[str, Any] | None = None) -> tuple[Table, list[str]]:
    game = rulelang.load_game(name, options)
    tokens = [f"token-{i}" for i in range(len(agents))]
    saved = Saved(f"t-{name}", name, str(game.path), game.source_hash, dict(game.options),
                  seed, [{"agent": a, "token": digest(t) if a == "human" else ""}
                         for a, t in zip(agents, tokens, strict=True)], digest("watch"), [])
    store.add(saved)
    return Table(saved, game, store), tokens


def _first(table: Table) -> str:
    return str(table.state.action_to_string(table.state.legal_actions()[0]))


def test_a_token_acts_only_for_its_seat(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    table, tokens = _table(store, "tic_tac_toe", ["human", "human"])
    assert [table.seat_of(t) for t in tokens] == [0, 1]
    assert table.seat_of("watch") == SPECTATOR
    with pytest.raises(ClientError, match="opens no seat"):
        table.seat_of("token-9")
    with pytest.raises(ClientError, match="not your turn: X to move"):
        table.act(1, _first(table), table.turn)
    with pytest.raises(ClientError, match="spectator cannot move"):
        table.act(SPECTATOR, _first(table), table.turn)
    with pytest.raises(ClientError, match="not a legal move now"):
        table.act(0, "place z9", table.turn)
    assert table.moves == [] and store.get(table.id).moves == []  # type: ignore[union-attr]
    turn = table.turn
    table.act(0, _first(table), turn)
    assert len(table.moves) == 1 and table.turn != turn
    with pytest.raises(ClientError, match="position that has changed"):  # a replayed frame
        table.act(1, _first(table), turn)
    assert len(table.moves) == 1


def test_the_store_resumes_a_table_where_it_was(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    table, _ = _table(store, "muso_sakura", ["human", "human", "human"], seed=4,
                      options={"players": 3})
    for _ in range(20):
        table.act(table.to_move(), _first(table), table.turn)
    store.close()
    again = Store(tmp_path / "t.db")
    saved = again.get(table.id)
    assert saved is not None and saved.moves == table.moves
    resumed = Table(saved, table.game, again)
    for seat in (0, 1, 2, SPECTATOR):
        assert resumed.state.observation(seat) == table.state.observation(seat)


def test_undo_needs_every_person(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    table, _ = _table(store, "tic_tac_toe", ["human", "human"])
    with pytest.raises(ClientError, match="nothing to undo"):
        table.ask_undo(0)
    table.act(0, _first(table), table.turn)
    table.act(1, _first(table), table.turn)
    table.ask_undo(0)
    assert table.waiting_undo() == [1] and len(table.moves) == 2
    table.answer_undo(1, False)
    assert table.undo is None and "refused" in table.notice and len(table.moves) == 2
    table.ask_undo(0)
    with pytest.raises(ClientError, match="already asked"):
        table.ask_undo(1)
    table.answer_undo(1, True)
    assert len(table.moves) == 1 and table.to_move() == 1
    assert store.get(table.id).moves == table.moves  # type: ignore[union-attr]


def test_undo_alone_takes_back_the_agents_moves_too(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    table, _ = _table(store, "tic_tac_toe", ["human", "random"])
    table.act(0, _first(table), table.turn)
    assert table.agent_to_move() == "random"
    assert table.agent_move(_first(table), table.epoch - 1) is False  # an older position
    assert table.agent_move(_first(table), table.epoch) is True
    table.ask_undo(0)  # the only person: at once, back to before their move
    assert table.moves == [] and table.to_move() == 0
    with pytest.raises(ClientError, match="only a player"):
        table.ask_undo(1)


def test_the_record_is_given_once_the_game_is_over(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    table, _ = _table(store, "tic_tac_toe", ["human", "human"])
    with pytest.raises(ClientError, match="once the game is over"):
        table.record()
    while not table.over:
        table.act(table.to_move(), _first(table), table.turn)
    with pytest.raises(ClientError, match="game is over"):
        table.act(0, "x", table.turn)
    rec = parse_record(table.record())
    assert rec.actions == table.moves and rec.rulebook == "tic_tac_toe"
    assert rec.winners == table.state.winners()


@pytest.mark.parametrize(("frame", "message"), [
    (b"\x00\x01", "JSON text, not binary"),
    ("{", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ('{"type": "fly"}', "unknown message type \"fly\""),
    ('{"type": "act", "action": 3, "turn": "x"}', "needs 'action'"),
    ('{"type": "undo_answer", "agree": "yes"}', "needs 'agree'"),
    ("[" * 100_000, "message too long"),
    ("[" * 4000, "not valid JSON"),  # deeply nested: refused, not a crash
])
def test_malformed_frames_get_a_clear_message(frame: Any, message: str) -> None:
    with pytest.raises(ClientError, match=message) as err:
        protocol.parse(frame)
    sent = err.value.frame()
    assert sent["type"] == "error" and json.dumps(sent)


def test_the_rate_limit() -> None:
    bucket = Bucket(rate=0.001, burst=5)
    assert [bucket.take() for _ in range(7)] == [True] * 5 + [False] * 2
