"""Packaging beyond pyproject.toml: the top-level `stdlib/` and `rulebooks/` folders (where
designers edit them) ship inside the wheel as package data, `rulelang/_bundled/stdlib` and
`rulelang/_bundled/rulebooks`, where rulelang/resources.py finds them once installed; the
rules of the bundled games in the project's words (`docs/games/*.md`) ship as
`rulelang/_bundled/rules`, for `rules` at the `rulelang play` prompt."""
from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUNDLED = ("stdlib", "rulebooks")
PATTERNS = ("*.rule", "*.yaml", "*.test")


RULES = ROOT / "docs" / "games"  # shipped as _bundled/rules


def bundled_files() -> list[Path]:
    """The rulebooks, modules and data files to ship (game records are not shipped)."""
    found = {p for name in BUNDLED for pattern in PATTERNS for p in (ROOT / name).glob(pattern)}
    return sorted(p for p in found if p.is_file() and not p.name.endswith(".record.yaml"))


def rules_files() -> list[Path]:
    """The rules of the bundled games, one Markdown file per rulebook."""
    return sorted(p for p in RULES.glob("*.md") if p.is_file())


class BuildPyWithBundled(build_py):
    """build_py that also copies the bundled folders into the built package (an editable
    install needs no copy: it uses the repository's folders)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "rulelang" / "_bundled"
        for source in bundled_files():
            dest = target / source.relative_to(ROOT)
            self.mkpath(str(dest.parent))
            self.copy_file(str(source), str(dest))
        for source in rules_files():
            dest = target / "rules" / source.name
            self.mkpath(str(dest.parent))
            self.copy_file(str(source), str(dest))


setup(cmdclass={"build_py": BuildPyWithBundled})
