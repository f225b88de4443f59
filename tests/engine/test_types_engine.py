"""The engine type-checks under ``mypy --strict`` (how to run it: docs/ENGINE.md).

mypy keeps its cache in ``.mypy_cache/`` at the top of the project, so a second run only
re-checks the modules that changed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


@pytest.mark.timeout(600)
def test_mypy_strict_passes_on_engine() -> None:
    result = _mypy("--strict", "engine")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_the_config_alone_checks_engine_strictly(tmp_path: Path) -> None:
    """``mypy engine`` without ``--strict`` is strict too: pyproject.toml sets it per package.

    The stand-in ``engine`` package here would break the Django plugin (it loads the real settings,
    which import the real engine), so the copy of the configuration leaves the plugins out; the
    per-package switches under test are the project's own."""
    package = tmp_path / "engine"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "loose.py").write_text("def double(x):\n    return x * 2\n")
    config = tmp_path / "pyproject.toml"
    lines = (ROOT / "pyproject.toml").read_text().splitlines()
    config.write_text("\n".join(line for line in lines if not line.startswith("plugins = ")) + "\n")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config),
         "--cache-dir", str(tmp_path / "cache"), "engine"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "engine/loose.py:1: error: Function is missing a type annotation" in result.stdout
