"""The house's checks run in the suite too, so ./scripts/test catches what scripts/lint (CI) would.

* ruff over every Python file ([tool.ruff] in pyproject.toml);
* every noqa comment names its rule codes and says why;
* mypy over the Django layers (games/, frontend/, config/) with the django-stubs and DRF plugins
  ([tool.mypy] in pyproject.toml; engine/ and ai/ are read strictly along the way).  About 20 s
  from a cold cache, a few seconds from .mypy_cache/.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINTED = ["engine", "ai", "games", "frontend", "config", "tests", "benchmarks", "examples"]
NOQA = re.compile(r"#\s*noqa\b(?P<rest>.*)$")
REASONED = re.compile(r":\s*[A-Z]+[0-9]+(\s*,\s*[A-Z]+[0-9]+)*\s+-\s+\S")


def test_ruff_finds_nothing() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", *LINTED],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_noqa_names_its_rules_and_says_why() -> None:
    unexplained = []
    for folder in LINTED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found = NOQA.search(line)
                if found and not REASONED.match(found.group("rest")):
                    unexplained.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not unexplained, "a noqa without rule codes and a reason:\n" + "\n".join(unexplained)


@pytest.mark.timeout(600)
def test_mypy_passes_on_the_django_layers() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "games", "frontend", "config"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout
