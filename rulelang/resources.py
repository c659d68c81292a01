"""Where the standard library and the bundled rulebooks are.

In a checkout (or an editable install) they are the repository's top-level folders `stdlib/`
and `rulebooks/`; an installed wheel carries copies inside the package (`_bundled/`, made by
setup.py at build time), found through importlib.resources. Only folders are found here: the
loader reads the files.
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

EXTENSION = ".rule"


def _folder(name: str) -> Path:
    """The checkout's folder when the package sits in one, else the package's own copy."""
    package = Path(str(files("rulelang"))).resolve()
    here = package.parent / name
    if (package.parent / "pyproject.toml").is_file() and here.is_dir():
        return here
    return package / "_bundled" / name


def stdlib_dir() -> Path:
    """The standard library's folder, resolved (the loader trusts exactly this folder)."""
    return _folder("stdlib")


def bundled_dir() -> Path:
    """The folder of the bundled rulebooks."""
    return _folder("rulebooks")


def rules_dir() -> Path:
    """The folder of the bundled games' rules in the project's words (one NAME.md per
    bundled rulebook NAME.rule): docs/games in a checkout, _bundled/rules once installed."""
    package = Path(str(files("rulelang"))).resolve()
    here = package.parent / "docs" / "games"
    if (package.parent / "pyproject.toml").is_file() and here.is_dir():
        return here
    return package / "_bundled" / "rules"


def rules_path(rulebook: str | Path) -> Path | None:
    """Where the rules of a game are written for players: NAME.md beside the rulebook
    NAME.rule, else the bundled rules of that name; None when there are none."""
    path = Path(rulebook)
    for candidate in (path.with_suffix(".md"), rules_dir() / f"{path.stem}.md"):
        if candidate.is_file():
            return candidate
    return None


def bundled_rulebook(name: str, folder: Path | None = None) -> Path | None:
    """The bundled rulebook called `name` (its file name, with or without `.rule`), or None
    when `name` is a path or no bundled rulebook has that name."""
    if not name or Path(name).name != name or name.startswith("."):
        return None
    stem = name[: -len(EXTENSION)] if name.endswith(EXTENSION) else name
    path = (folder or bundled_dir()) / f"{stem}{EXTENSION}"
    return path if path.is_file() else None


def rulebook_path(given: str | Path) -> str | Path:
    """An existing file as given; else the bundled rulebook of that name; else as given."""
    if Path(given).is_file():
        return given
    return bundled_rulebook(str(given)) or given
