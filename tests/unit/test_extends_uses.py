"""A `use` is resolved beside the rulebook that says it: an extended rulebook's modules are
found in its own folder, whichever folder the variant is in (docs/language.md, "Modules and
identity"; rulebooks/tatara.rule uses rulebooks/tatara_terms.rule)."""
from __future__ import annotations

from pathlib import Path

import rulelang


def test_a_variant_elsewhere_of_a_bundled_rulebook_finds_its_modules(tmp_path: Path) -> None:
    variant = tmp_path / "variant.rule"
    variant.write_text('game "Tatara, few beeches" extends "tatara.rule"\n'
                       "zone forest: 12 oak, 3 beech\n", encoding="utf-8")
    state = rulelang.load_game(variant).new_initial_state()
    assert "4c3" in [state.action_to_string(a) for a in state.legal_actions()]


def test_a_parent_in_a_subfolder_uses_the_module_beside_it(tmp_path: Path) -> None:
    base = tmp_path / "base"
    base.mkdir()
    (base / "words.rule").write_text("enum answer: yes_, no_\n", encoding="utf-8")
    (base / "parent.rule").write_text(
        'use words\ngame "Parent"\nplayers A, B\naction say\n  choose a in words.answer\n'
        "  if a == words.yes_\n    winner mover\nturn\n  do say\n", encoding="utf-8")
    child = tmp_path / "child.rule"
    child.write_text('game "Child" extends "base/parent.rule"\n', encoding="utf-8")
    state = rulelang.load_game(child).new_initial_state()
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["say yes_", "say no_"]
    state.apply_action("say yes_")
    assert state.winners() == [0]
