"""The README's "Checking a match yourself" commands work as written after one ``./scripts/run``.

``scripts/run`` leaves a secret key in ``var/secret_key``; every other command of the README runs
without ``SECRET_KEY`` (or ``DEBUG``) in its environment, so the settings must find the key there.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connections
from rest_framework.test import APIClient

from .helpers import finish_quickly, two_humans

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]


def readme_commands() -> list[str]:
    """The command lines of the README's "Checking a match yourself" block, comments dropped."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Checking a match yourself", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]


def ensure_secret_key_file() -> None:
    """What ``scripts/run`` does on its first start (var/ is git-ignored)."""
    path = ROOT / "var" / "secret_key"
    if not path.is_file() or not path.read_text().strip():
        path.parent.mkdir(exist_ok=True)
        path.write_text(secrets.token_urlsafe(50) + "\n")
        path.chmod(0o600)


def database_url() -> str:
    config = connections["default"].settings_dict
    if config["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("the commands need a database another process can open (PostgreSQL here)")
    user = config.get("USER") or "postgres"
    password = f":{config['PASSWORD']}" if config.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{config.get('HOST') or '127.0.0.1'}:{config.get('PORT') or 5432}/{config['NAME']}"


def test_every_command_of_checking_a_match_yourself_works_without_secret_key_in_the_environment(tmp_path):
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    alice, bob = users.create_user("alice", password="a-long-passphrase"), users.create_user("bob", password="x-long-passphrase")
    commands = readme_commands()
    assert len(commands) == 4 and all(" 42" in c or "/42/" in c for c in commands), commands
    ensure_secret_key_file()
    match = finish_quickly(two_humans(alice, bob), seed=3)
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE"}}
    env["DATABASE_URL"] = database_url()
    for command in commands:
        argv = shlex.split(command.replace("42", str(match.pk)))
        if argv[0] == "curl":
            # The server's answer, as curl would save it (scripts/run's server exports the key itself).
            url = next(a for a in argv if a.startswith("http"))
            body = APIClient().get(url.split("8000", 1)[1]).content
            (tmp_path / argv[argv.index(">") + 1]).write_bytes(body)
            continue
        assert argv[0] == ".venv/bin/python", command
        argv = [sys.executable, *(str(ROOT / a) if a == "manage.py" else a for a in argv[1:])]
        out = subprocess.run(argv, cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0, f"{command}\n{out.stdout}\n{out.stderr}"
        assert "SECRET_KEY" not in out.stderr
