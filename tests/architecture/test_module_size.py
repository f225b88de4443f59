"""No module passes 800 lines: a file that long does more than one job.

Counted: every file of the project's own code (Python, templates, JavaScript, CSS, the scripts),
tests and benchmarks included.  Not counted: data files (JSON, JSONL, SVG, images, text),
documentation (Markdown), generated Django migrations and vendored third-party files
(``static/vendor/``).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 800
PACKAGES = ("engine", "ai", "games", "frontend", "config", "tests", "benchmarks", "scripts")
CODE_SUFFIXES = {".py", ".html", ".js", ".css", ".sh", ""}  # "" for scripts/run, scripts/test
SKIPPED_DIRS = {"migrations", "vendor", "__pycache__", "node_modules", "golden", "ai_results"}


def _modules() -> list[Path]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*")):
            if not path.is_file() or SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts):
                continue
            if path.suffix in CODE_SUFFIXES:
                found.append(path)
    return found


def _too_long(paths: list[Path], root: Path = ROOT) -> list[str]:
    long = []
    for path in paths:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > LIMIT:
            long.append(f"{path.relative_to(root)}: {lines} lines")
    return long


def test_the_scan_sees_every_layer() -> None:
    seen = {path.relative_to(ROOT).parts[0] for path in _modules()}
    assert set(PACKAGES) - {"benchmarks", "scripts"} <= seen
    names = {path.relative_to(ROOT).as_posix() for path in _modules()}
    assert "engine/core.py" in names and "scripts/test" in names
    assert not any("/migrations/" in name or "/vendor/" in name for name in names)


def test_no_module_passes_800_lines() -> None:
    long = _too_long(_modules())
    assert not long, "split these by job: " + "; ".join(long)


def test_the_check_catches_a_long_module(tmp_path: Path) -> None:
    short, long = tmp_path / "short.py", tmp_path / "long.py"
    short.write_text("x = 1\n" * LIMIT)
    long.write_text("x = 1\n" * (LIMIT + 1))
    assert _too_long([short, long], root=tmp_path) == [f"long.py: {LIMIT + 1} lines"]
