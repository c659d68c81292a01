"""Names beyond Latin in the pictures (tools/pictures/fonts.py): their glyphs are embedded,
cut from a font of the drawing machine (here DejaVu Sans, which has Greek), limited by
unicode-range to those characters; what no font there has is named in a note, with the font
to install."""
from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest

from rulelang.tools.pictures import fonts
from rulelang.tools.pictures.picture import Shape, draw
from rulelang.tools.pictures.viewer import page

ttLib = pytest.importorskip("fontTools.ttLib", reason="fontTools is not installed")
DEJAVU = next((p for p in Path("/usr/share/fonts").rglob("DejaVuSans.ttf")), None) \
    if Path("/usr/share/fonts").is_dir() else None
OBS = {"game": "Names", "player": 0, "players": ["Αθηνά", "Ζευς"], "current_player": 0,
       "terminal": False, "turn": 1, "board": [], "zones": [], "counters": [], "vars": [],
       "history": []}


@pytest.fixture
def only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # type: ignore[no-untyped-def]
    def use(*files: Path) -> None:
        for f in files:
            (tmp_path / f.name).write_bytes(f.read_bytes())
        monkeypatch.setenv("RULELANG_FONTS", str(tmp_path))
        fonts.fallback.cache_clear()
    yield use
    fonts.fallback.cache_clear()


@pytest.mark.skipif(DEJAVU is None, reason="no DejaVu Sans on this machine")
def test_names_beyond_latin_carry_their_glyphs(only) -> None:  # type: ignore[no-untyped-def]
    assert DEJAVU is not None
    only(DEJAVU)
    svg = draw(OBS, Shape())
    face = re.search(r'@font-face \{ font-family: "rulelang-names"; src: url\(data:font/ttf;'
                     r'base64,([A-Za-z0-9+/=]+)\) format\("truetype"\); unicode-range: ([^;]+);',
                     svg)
    assert face is not None and 'class="font-note"' not in svg
    wanted = set("ΑθηνάΖευς")
    assert {chr(int(u[2:], 16)) for u in face.group(2).split(",")} == wanted
    font = ttLib.TTFont(io.BytesIO(base64.b64decode(face.group(1))))
    assert wanted <= {chr(c) for c in font.getBestCmap()}
    assert len(face.group(1)) < 40_000  # a few glyphs, not the whole font
    assert 'text { font-family: "rulelang-names", sans-serif; }' in svg


def test_a_missing_font_is_named(only) -> None:  # type: ignore[no-untyped-def]
    only()  # no font at all
    svg = draw({**OBS, "players": ["龍源院", "Ζευς"]}, Shape())
    note = " ".join(re.sub(r"<[^>]+>", " ", " ".join(re.findall(
        r'<g class="font-note">(.*?)</g>', svg))).split())
    assert "Noto Sans CJK" in note and "Noto Sans Greek" in note and "源" in note
    assert "@font-face" not in svg
    latin = draw({**OBS, "players": ["White", "Black"]}, Shape())
    assert 'class="font-note"' not in latin and "@font-face" not in latin


@pytest.mark.skipif(DEJAVU is None, reason="no DejaVu Sans on this machine")
def test_the_replay_page_embeds_the_glyphs_once(only) -> None:  # type: ignore[no-untyped-def]
    assert DEJAVU is not None
    only(DEJAVU)
    frame = {"ply": 0, "move": None, "svg": draw(OBS, Shape(), fonts=False),
             "scores": None}
    text = page("Names", "Αθηνά", [frame, {**frame, "ply": 1, "move": "pass"}])
    assert text.count("@font-face") == 1 and "font-src data:" in text
