"""Names in any script drawn without the viewer's fonts: the glyphs a picture needs beyond
the Latin ones every sans-serif font has (Japanese card names, a Greek or Arabic player) are
embedded in it, subset from a font of the machine that draws it, as an `@font-face` of the
family "rulelang-names" limited by `unicode-range` to those characters (so Latin text keeps
the viewer's sans-serif). Characters that no font of that machine has are named, with the
font to install, in a note the picture carries.

Fonts are looked for in the directories of RULELANG_FONTS (separated by the path separator;
empty: none) if it is set, else in the usual font directories of Linux, macOS and Windows.
Subsetting needs fontTools (`pip install 'rulelang[fonts]'`), well kept and the standard
for font files; without it the note says what to install."""
from __future__ import annotations

import base64
import functools
import io
import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

FAMILY = "rulelang-names"
_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.fonts", "~/.local/share/fonts",
         "/Library/Fonts", "/System/Library/Fonts", "~/Library/Fonts", "C:/Windows/Fonts")
_SUFFIXES = (".ttf", ".otf", ".ttc")
_MOST_FILES = 2000  # font files looked into, at most
_LARGEST = 64 << 20  # bytes: a font file larger than this is left alone
# scripts and the font that has them (else "Noto Sans <script>")
_FONT_FOR = {"CJK": "Noto Sans CJK", "HIRAGANA": "Noto Sans CJK", "KATAKANA": "Noto Sans CJK",
             "HANGUL": "Noto Sans CJK", "IDEOGRAPHIC": "Noto Sans CJK",
             "FULLWIDTH": "Noto Sans CJK", "HALFWIDTH": "Noto Sans CJK"}


@dataclass(frozen=True)
class Fallback:
    """What a picture carries for its names: the style sheet of the embedded glyphs, and the
    characters no font here has."""
    css: str = ""
    missing: tuple[str, ...] = ()

    def note(self) -> str:
        """The text that says which font is missing ("" when none is)."""
        if not self.missing:
            return ""
        scripts = sorted({_script(ch) for ch in self.missing})
        fonts = sorted({_FONT_FOR.get(s, f"Noto Sans {s.title()}") for s in scripts})
        shown = "".join(self.missing[:6]) + ("…" if len(self.missing) > 6 else "")
        words = ", ".join(s if s == "CJK" else s.title() for s in scripts)
        return f"names here use {words} characters ({shown}) " \
               f"that the machine that drew this has no font for: with {' or '.join(fonts)} " \
               f"installed they show (rulelang embeds their glyphs then)"


def needed(texts: Iterable[str]) -> tuple[str, ...]:
    """The characters of the texts that a sans-serif font may lack: letters and signs beyond
    Latin (U+0370 up), but for punctuation, arrows and shapes (U+2000-U+2BFF)."""
    found = {ch for t in texts for ch in set(_BEYOND_LATIN.findall(t))
             if ch.isprintable() and not ch.isspace()}
    return tuple(sorted(found))


_BEYOND_LATIN = re.compile(r"[^\x00-\u036f\u2000-\u2bff]")


@functools.lru_cache(maxsize=32)
def fallback(chars: tuple[str, ...]) -> Fallback:
    """The embedded glyphs for `chars` (from needed()), and those that no font has."""
    if not chars:
        return Fallback()
    try:
        from fontTools import subset  # noqa: F401  (the optional dependency)
    except ImportError:
        return Fallback("", chars)
    left = set(chars)
    faces = []
    for path, covered in _index():
        take = left & covered
        if take:
            face = _face(path, sorted(take))
            if face:
                faces.append(face)
                left -= take
        if not left:
            break
    return Fallback("".join(faces), tuple(sorted(left)))


def read_fonts() -> None:
    """Look through the machine's fonts now rather than at the first picture with a name
    beyond Latin (it takes a good part of a second): a server does it before it serves."""
    try:
        import fontTools  # noqa: F401  (the optional dependency)
    except ImportError:
        return
    _index()


def _script(ch: str) -> str:
    name = unicodedata.name(ch, "UNKNOWN")
    return name.split()[0]


def _font_files(chosen: str | None) -> list[Path]:
    dirs = [d for d in chosen.split(os.pathsep) if d] if chosen is not None else list(_DIRS)
    files: list[Path] = []
    for d in dirs:
        root = Path(d).expanduser()
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() in _SUFFIXES and path.is_file():
                files.append(path)
            if len(files) >= _MOST_FILES:
                return files
    return files


@functools.lru_cache(maxsize=4)
def _cmaps(key: tuple[str, ...]) -> tuple[tuple[Path, frozenset[str]], ...]:
    from fontTools.ttLib import TTFont

    out = []
    for name in key:
        path = Path(name)
        try:
            if path.stat().st_size > _LARGEST:
                continue
            with TTFont(path, lazy=True, fontNumber=0) as font:
                cmap = font.getBestCmap() or {}
        except Exception:  # a file that is no font this reader takes: skipped  # noqa: BLE001
            continue
        out.append((path, frozenset(chr(c) for c in cmap if c >= 0x370)))
    return tuple(out)


def _index() -> tuple[tuple[Path, frozenset[str]], ...]:
    """Each font file with the characters (U+0370 up) it has, read once per set of files
    (the folders are looked through once per process and RULELANG_FONTS)."""
    return _cmaps(_listed(os.environ.get("RULELANG_FONTS")))


@functools.lru_cache(maxsize=4)
def _listed(chosen: str | None) -> tuple[str, ...]:
    return tuple(str(p) for p in _font_files(chosen))


def _face(path: Path, chars: list[str]) -> str:
    """An @font-face of the glyphs of `chars` from one font file, as a data URL."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    try:
        font = TTFont(path, fontNumber=0)
        options = subset.Options()
        options.layout_features = ["*"]
        options.name_IDs = [1, 2]
        options.notdef_outline = False
        sub = subset.Subsetter(options)
        sub.populate(unicodes=[ord(c) for c in chars])
        sub.subset(font)
        buf = io.BytesIO()
        font.save(buf)
    except Exception:  # a font this subsetter cannot cut: its glyphs left out  # noqa: BLE001
        return ""
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    ranges = ",".join(f"U+{ord(c):04X}" for c in chars)
    return (f'@font-face {{ font-family: "{FAMILY}"; '
            f'src: url(data:font/ttf;base64,{data}) format("truetype"); '
            f"unicode-range: {ranges}; }}\n")
