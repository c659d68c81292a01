"""Components as data: pieces created from the rows of a YAML file beside the rulebook."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rulelang

RULES = Path(__file__).parent / "rules"


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_rows_become_pieces_with_their_attributes(mode: str) -> None:
    game = rulelang.load_game(RULES / "cards.rule", mode=mode)
    state = game.new_initial_state(seed=3)
    data = state.ctx.data
    names = sorted(data.attrs["name"])
    assert names == sorted(["ember"] * 3 + ["frost"] + ["ash"] * 2)
    frost = data.attrs["name"].index("frost")
    assert data.attrs["tags"][frost] == ("cold", "blue")
    assert data.attrs["tags"][data.attrs["name"].index("ash")] == ()
    state.apply_action("show")
    state.apply_action("show")
    assert state.is_terminal()
    hands = [sum(data.attrs["points"][p.id] for z, pile in data.zones.items()
                 if z.name == "hand" and z.owner == i for p in pile) for i in range(2)]
    assert state.scores() == [float(h) for h in hands]


def test_hidden_cards_stay_hidden() -> None:
    state = rulelang.load_game(RULES / "cards.rule").new_initial_state(seed=3)
    obs = state.observation(0)
    zones = {(z["zone"], z["owner"]): z for z in obs["zones"]}
    assert zones[("deck", None)]["pieces"] is None and zones[("deck", None)]["count"] == 2
    assert zones[("hand", "B")]["pieces"] is None
    assert sum(p["count"] for p in zones[("hand", "A")]["pieces"]) == 2


def test_the_data_file_is_part_of_the_rulebook_hash(tmp_path: Path) -> None:
    for name in ("cards.rule", "cards.yaml"):
        shutil.copy(RULES / name, tmp_path / name)
    before = rulelang.load_game(tmp_path / "cards.rule").source_hash
    (tmp_path / "cards.yaml").write_text((tmp_path / "cards.yaml").read_text() +
                                         "- {name: spark, points: 1}\n")
    assert rulelang.load_game(tmp_path / "cards.rule").source_hash != before


@pytest.mark.parametrize("case, code, words", [
    ("unknown_attr", "R210", "row 1 of 'rows.yaml' has 'colour'"),
    ("outside", "R105",
     "cannot read data file '../cards.yaml': '..' leads outside the rulebook's folder"),
    ("broken", "R106", "not valid YAML"),
    ("broken", "R105", "cannot read data file 'missing.yaml'"),
])
def test_data_mistakes_are_positioned_diagnostics(case: str, code: str, words: str) -> None:
    with pytest.raises(rulelang.RulebookError) as info:
        rulelang.load_game(RULES / "bad" / f"{case}.rule")
    found = [d for d in info.value.diagnostics if d.code == code]
    assert found and words in found[0].message
    assert "Traceback" not in info.value.render()
