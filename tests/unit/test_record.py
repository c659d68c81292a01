"""Game records: YAML round trip, validation, and replay against the fake game."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import fakes  # noqa: E402

import rulelang  # noqa: E402
from rulelang.errors import RecordError  # noqa: E402
from rulelang.tools.records.record import (  # noqa: E402
    GameRecord,
    dump_record,
    parse_record,
    portable,
    read_record,
    record_game,
    replay,
    write_record,
)

MOVES = ["a1", "a2", "b1", "b2", "c1"]  # Xena wins on the top row


@pytest.fixture(autouse=True)
def fake_engine(monkeypatch):
    monkeypatch.setattr(rulelang, "load_game", fakes.load_game, raising=False)


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "books" / "fake.rule"
    path.parent.mkdir()
    path.write_text("fake\n")
    return path


def _played(book: Path, moves: list[str] = MOVES, seed: int = 7) -> GameRecord:
    game = fakes.load_game(str(book))
    state = game.new_initial_state(seed=seed)
    for move in moves:
        state.apply_action(move)
    return record_game(game, state, seed)


def _write(path: Path, rec: GameRecord) -> Path:
    rec.rulebook = portable(rec.rulebook, path)  # as `play --record` names it: relative
    write_record(path, rec)
    return path


def _code(err: pytest.ExceptionInfo[RecordError]) -> str:
    return err.value.render().split("]")[0].removeprefix("error[")


def test_record_has_the_contract_keys_in_order(book):
    data = yaml.safe_load(dump_record(_played(book)))
    assert list(data) == ["rulelang", "grammar", "rulebook", "sha256", "options", "seed",
                          "actions", "result"]
    assert data["rulelang"] == 1 and data["seed"] == 7 and data["actions"] == MOVES
    assert data["grammar"] == rulelang.GRAMMAR_VERSION
    assert data["options"] == {"players": 2, "size": 3}
    assert data["result"] == {"winners": [0], "scores": [3, 2]}
    assert data["rulebook"] == str(book)


def test_record_round_trips(book):
    rec = _played(book)
    assert parse_record(dump_record(rec)) == rec


def test_an_unfinished_game_has_a_null_result(book):
    rec = _played(book, MOVES[:2])
    assert yaml.safe_load(dump_record(rec))["result"] is None
    assert not parse_record(dump_record(rec)).finished


def test_replay_reproduces(book, tmp_path):
    done = replay(_write(tmp_path / "game.yaml", _played(book)))
    assert done.state.winners() == [0] and done.state.history() == MOVES


def test_replay_of_an_unfinished_game(book, tmp_path):
    done = replay(_write(tmp_path / "game.yaml", _played(book, MOVES[:3])))
    assert not done.state.is_terminal()


def test_rulebook_is_found_beside_the_record(book, tmp_path, monkeypatch):
    rec = _played(book)
    rec.rulebook = "fake.rule"
    path = _write(book.parent / "game.yaml", rec)
    monkeypatch.chdir(tmp_path)
    assert replay(path).state.winners() == [0]


def test_rulebook_is_found_from_the_working_folder(book, tmp_path, monkeypatch):
    rec = _played(book)
    rec.rulebook = "books/fake.rule"
    path = _write(tmp_path / "game.yaml", rec)
    monkeypatch.chdir(tmp_path)
    assert replay(path).state.winners() == [0]


def test_a_changed_rulebook_is_refused(book, tmp_path):
    path = _write(tmp_path / "game.yaml", _played(book))
    book.write_text("fake\n# a variant\n")
    with pytest.raises(RecordError) as err:
        replay(path)
    assert _code(err) == "R401"
    assert "different version" in err.value.render()


def test_a_missing_rulebook_is_named(book, tmp_path):
    rec = _played(book)
    rec.rulebook = "nowhere/gone.rule"
    with pytest.raises(RecordError) as err:
        replay(_write(tmp_path / "game.yaml", rec))
    assert _code(err) == "R405" and "'nowhere/gone.rule'" in err.value.render()


def test_an_illegal_move_names_its_number_and_reason(book, tmp_path):
    rec = _played(book)
    rec.actions[2] = "a1"
    with pytest.raises(RecordError) as err:
        replay(_write(tmp_path / "game.yaml", rec))
    text = err.value.render()
    assert _code(err) == "R403" and "move 3 'a1'" in text and "taken" in text


def test_a_record_without_a_grammar_version_still_replays(book, tmp_path):
    rec = _played(book)
    rec.grammar = None
    assert "grammar" not in yaml.safe_load(dump_record(rec))
    assert replay(_write(tmp_path / "game.yaml", rec)).state.is_terminal()


def test_a_record_of_another_language_version_that_fails_says_so(book, tmp_path):
    rec = _played(book)
    rec.grammar = rulelang.GRAMMAR_VERSION - 1
    assert replay(_write(tmp_path / "ok.yaml", rec)).state.is_terminal()  # it reproduces
    rec.actions[2] = "a1"
    with pytest.raises(RecordError) as err:
        replay(_write(tmp_path / "game.yaml", rec))
    assert f"made by language version {rulelang.GRAMMAR_VERSION - 1}" in err.value.render()
    rec.grammar = rulelang.GRAMMAR_VERSION
    with pytest.raises(RecordError) as err:
        replay(_write(tmp_path / "same.yaml", rec))
    assert "language version" not in err.value.render()


def test_moves_after_the_end_are_refused(book, tmp_path):
    rec = _played(book)
    rec.actions.append("c3")
    with pytest.raises(RecordError) as err:
        replay(_write(tmp_path / "game.yaml", rec))
    assert _code(err) == "R403" and "move 6" in err.value.render()


@pytest.mark.parametrize("change", [{"winners": [1]}, {"scores": [9, 9]}])
def test_a_different_result_is_refused(book, tmp_path, change):
    rec = _played(book)
    for key, value in change.items():
        setattr(rec, key, value)
    with pytest.raises(RecordError) as err:
        replay(_write(tmp_path / "game.yaml", rec))
    assert _code(err) == "R404"


def test_a_record_that_stops_early_is_refused(book, tmp_path):
    rec = _played(book)
    rec.actions = rec.actions[:3]
    with pytest.raises(RecordError) as err:
        replay(_write(tmp_path / "game.yaml", rec))
    assert _code(err) == "R404" and "ends before the game" in err.value.render()


def test_replay_with_options_that_no_longer_load(book, tmp_path):
    rec = _played(book)
    rec.options["size"] = 5
    with pytest.raises(RecordError) as err:
        replay(_write(tmp_path / "game.yaml", rec))
    assert "no longer loads" in err.value.render() and "R221" in err.value.render()


@pytest.mark.parametrize(("text", "words"), [
    ("rulelang: [1\n", "not valid YAML"),
    ("- just\n- a list\n", "not a mapping"),
    ("rulelang: 1\nrulebook: x\n", "lacks 'sha256', 'options', 'seed', 'actions', 'result'"),
    ("rulelang: 2\nrulebook: x\nsha256: a\noptions: {}\nseed: 1\nactions: []\nresult: null\n",
     "unsupported version"),
    ("rulelang: 1\nrulebook: x\nsha256: a\noptions: {}\nseed: one\nactions: []\nresult: null\n",
     "'seed' must be a whole number"),
    ("rulelang: 1\nrulebook: x\nsha256: a\noptions: {}\nseed: 1\nactions: [1]\nresult: null\n",
     "'actions' must be a list of strings"),
    ("rulelang: 1\nrulebook: x\nsha256: a\noptions: {}\nseed: 1\nactions: []\nresult: {}\n",
     "lacks 'result.winners'"),
])
def test_malformed_records_say_what_is_wrong(tmp_path, text, words):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(RecordError) as err:
        read_record(path)
    assert _code(err) == "R402" and words in err.value.render()


def test_an_unreadable_record_is_a_record_error(tmp_path):
    with pytest.raises(RecordError) as err:
        read_record(tmp_path / "missing.yaml")
    assert _code(err) == "R402" and "cannot read" in err.value.render()
