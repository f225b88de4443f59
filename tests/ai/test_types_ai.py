"""ai/ type-checks under ``mypy --strict``.

The configuration is in pyproject.toml ([tool.mypy] and its per-package overrides); engine/'s
own types are read too, and checked strictly by the same configuration.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(600)
def test_ai_passes_mypy_strict() -> None:
    pytest.importorskip("mypy", reason="mypy is a dev dependency (pip install -e .[dev])")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "-p", "ai"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, f"mypy --strict -p ai:\n{result.stdout}{result.stderr}"
