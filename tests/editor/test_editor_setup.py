"""editors/: the VS Code extension's files are where its manifest says, valid JSON, and its
TextMate grammar highlights every word of both grammars (grammar.lark, scenario.lark)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from rulelang.language.parser import keywords

VSCODE = Path(__file__).resolve().parents[2] / "editors" / "vscode"


def test_the_extension_manifest_names_files_that_exist() -> None:
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    assert (VSCODE / manifest["main"]).is_file()
    for language in manifest["contributes"]["languages"]:
        json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))
    for grammar in manifest["contributes"]["grammars"]:
        json.loads((VSCODE / grammar["path"]).read_text(encoding="utf-8"))
    assert "rulelang lsp" in " ".join(
        manifest["contributes"]["configuration"]["properties"]["rulelang.command"]["default"])


def test_the_textmate_grammar_highlights_every_keyword() -> None:
    grammar = json.loads((VSCODE / "syntaxes" / "rulelang.tmLanguage.json").read_text())
    patterns = [p["match"] for p in grammar["repository"]["keyword"]["patterns"]]
    patterns.append(grammar["repository"]["constant"]["match"])
    for word in keywords(False) | keywords(True):
        assert any(re.search(p, f" {word} x in y") for p in patterns), word
    assert not any(re.fullmatch(p, "sitename") for p in patterns)
