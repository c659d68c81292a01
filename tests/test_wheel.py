"""A normal install works, not only a checkout: the wheel carries the standard library and
the bundled rulebooks, and from a folder outside the repository `rulelang list`, `rulelang
check` on a copy of a rulebook that uses stdlib modules, `rulelang play NAME`, `python -m
rulelang` and the README's Python quickstart all work.

The wheel is built from a copy of the sources (no stale build/ folder) without build isolation
when setuptools can build wheels here, else with it (setuptools then comes from the package
index). It is installed into a fresh venv whose dependencies are this environment's (a .pth
line), so installing needs no network."""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import lark
import networkx
import pytest
import yaml
from test_readme import blocks

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "rulelang", "stdlib",
           "rulebooks", "docs/games")
BIN = "Scripts" if os.name == "nt" else "bin"
DOCTEST = """import doctest, sys
test = doctest.DocTestParser().get_doctest(open(sys.argv[1]).read(), {}, "README", "", 0)
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
runner.run(test)
sys.exit(1 if runner.failures or runner.tries < 5 else 0)
"""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    return {**env, "PIP_DEFAULT_TIMEOUT": "10", "PIP_RETRIES": "1",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def _run(*cmd: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=_env(), capture_output=True,
                          text=True, timeout=120, check=False)


def _copy_sources(dest: Path) -> Path:
    skip = shutil.ignore_patterns("__pycache__", "*.record.yaml", "_bundled", "*.egg-info")
    dest.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, dest / name, ignore=skip)
        else:
            shutil.copy2(ROOT / name, dest / name)
    return dest


def _builds_without_isolation() -> bool:
    """setuptools is here and can make wheels (its own bdist_wheel from 70.1, else `wheel`)."""
    if importlib.util.find_spec("setuptools") is None:
        return False
    import setuptools

    major, minor = (int(p) for p in setuptools.__version__.split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


def _build(src: Path, dist: Path) -> Path:
    offline = _builds_without_isolation()
    flags = ["--no-build-isolation"] if offline else []
    done = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", *flags, "-w", dist,
                src, cwd=src)
    if done.returncode != 0 and not offline and "No matching distribution" in done.stderr:
        pytest.skip("cannot build the wheel: setuptools cannot make wheels in this environment "
                    "and the package index is unreachable to fetch it")
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = dist.glob("rulelang-*.whl")
    return wheel


def _install(wheel: Path, venv: Path) -> Path:
    """A fresh venv with the wheel; its dependencies are found in this environment."""
    assert _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=venv.parent
                ).returncode == 0
    python = venv / BIN / "python"
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))",
                   cwd=venv).stdout.strip()
    deps = {str(Path(m.__file__ or "").resolve().parents[1]) for m in (lark, yaml, networkx)}
    (Path(purelib) / "_rulelang_test_deps.pth").write_text("\n".join(sorted(deps)) + "\n")
    done = _run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "-q",
                wheel, cwd=venv)
    assert done.returncode == 0, done.stdout + done.stderr
    return venv / BIN


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    return _build(_copy_sources(work / "src"), work / "dist")


@pytest.fixture(scope="module")
def bin_dir(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _install(wheel, tmp_path_factory.mktemp("venv") / "venv")


@pytest.fixture
def away(tmp_path: Path) -> Path:
    """A working folder outside the repository."""
    assert not tmp_path.resolve().is_relative_to(ROOT)
    return tmp_path


def _ok(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_wheel_carries_the_stdlib_and_the_bundled_rulebooks(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("stdlib", "rulebooks"):
        for path in [*(ROOT / folder).glob("*.rule"), *(ROOT / folder).glob("*.test")]:
            assert f"rulelang/_bundled/{folder}/{path.name}" in names
    assert "rulelang/_bundled/rulebooks/tatara_cards.yaml" in names
    assert "rulelang/_bundled/rulebooks/spline.test" in names  # scenario files ship too
    for path in (ROOT / "rulebooks").glob("*.rule"):  # the rules in words, for `rules`
        if (ROOT / "docs" / "games" / f"{path.stem}.md").is_file():
            assert f"rulelang/_bundled/rules/{path.stem}.md" in names
    for grammar in ("grammar.lark", "scenario.lark"):
        assert f"rulelang/language/{grammar}" in names
    assert "rulelang/__main__.py" in names
    for asset in ("table.js", "table.css", "lobby.js"):  # the web table's page (serve)
        assert f"rulelang/tools/serve/static/{asset}" in names


def test_the_installed_package_is_the_wheel(bin_dir: Path, away: Path) -> None:
    where = _ok(_run(bin_dir / "python", "-c", "import rulelang; print(rulelang.__file__)",
                     cwd=away))
    assert Path(where.strip()).resolve().is_relative_to(bin_dir.parent.resolve())


def test_list_shows_the_bundled_games(bin_dir: Path, away: Path) -> None:
    out = _ok(_run(bin_dir / "rulelang", "list", cwd=away))
    assert "Spline, 2 players" in out and "Muso Sakura, 3-5 players" in out
    # `python -m rulelang` is the same program (its help: `list` again would load every game)
    assert _ok(_run(bin_dir / "python", "-m", "rulelang", "--help", cwd=away)) \
        == _ok(_run(bin_dir / "rulelang", "--help", cwd=away))


def test_a_copied_rulebook_finds_the_stdlib(bin_dir: Path, away: Path) -> None:
    copy = away / "spline.rule"
    shutil.copy(ROOT / "rulebooks" / "spline.rule", copy)
    assert "\nuse " in copy.read_text()
    assert _ok(_run(bin_dir / "rulelang", "check", "spline.rule", cwd=away)) \
        == "spline.rule: ok\n"
    assert _ok(_run(bin_dir / "python", "-m", "rulelang.tools.cli", "check", copy, cwd=away)) \
        == f"{copy}: ok\n"


def test_play_a_bundled_game_by_its_name(bin_dir: Path, away: Path) -> None:
    out = _ok(_run(bin_dir / "rulelang", "play", "spline", "--agents", "random,random",
                   "--record", "game.record.yaml", cwd=away))
    assert "result: " in out
    assert "moves reproduce" in _ok(_run(bin_dir / "rulelang", "replay", "game.record.yaml",
                                         cwd=away))
    done = _run(bin_dir / "rulelang", "play", "nosuchgame", cwd=away)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "no such rulebook 'nosuchgame'" in done.stderr and "spline_plus" in done.stderr


def test_the_readme_quickstart_runs_from_anywhere(bin_dir: Path, away: Path) -> None:
    (code,) = blocks("python")
    (away / "quickstart.txt").write_text(code)
    (away / "doctest_it.py").write_text(DOCTEST)
    _ok(_run(bin_dir / "python", "doctest_it.py", "quickstart.txt", cwd=away))
