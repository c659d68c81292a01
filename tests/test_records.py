"""Game records with the real engine: made in one folder, replayed from another; a changed
rulebook is refused."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rulelang.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_record_replays_from_another_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    book = tmp_path / "sponnect.rule"
    shutil.copy(ROOT / "rulebooks" / "sponnect.rule", book)
    record = tmp_path / "game.yaml"
    monkeypatch.chdir(tmp_path)
    assert main(["play", "sponnect.rule", "--agents", "random,random", "--seed", "4",
                 "--record", str(record)]) == 0
    monkeypatch.chdir(ROOT)
    assert "rulebook: sponnect.rule" in record.read_text()  # found beside the record
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    assert "reproduce" in capsys.readouterr().out
    book.write_text(book.read_text() + "\n# a comment changes the hash\n")
    assert main(["replay", str(record)]) == 1
    assert "R401" in capsys.readouterr().err
    assert os.getcwd() == str(ROOT)
