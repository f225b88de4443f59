"""scripts/backup and scripts/restore: a database with finished and running matches, backed up, restored
into a new database, verified there (``verify_match --all``) and served from it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connections

from games import services
from tests.frontend.helpers import mover, two_player_match
from tests.frontend.test_cross_process import _database_url

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


def _needs_postgres() -> None:
    if connections["default"].vendor != "postgresql":
        pytest.skip("backups are of PostgreSQL: this run's database is SQLite (set DATABASE_URL to a PostgreSQL one)")
    for tool in ("pg_dump", "pg_restore", "psql"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (Debian: postgresql-client)")


def _env(url: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": url, "SECRET_KEY": settings.SECRET_KEY, "DJANGO_SETTINGS_MODULE": "config.settings",
            "REDIS_URL": settings.REDIS_URL}


def _admin(sql: str) -> None:
    import psycopg

    base = _database_url().rsplit("/", 1)[0]
    with psycopg.connect(base.replace("postgres://", "postgresql://", 1) + "/postgres", autocommit=True) as conn:
        conn.execute(sql)


def test_verify_match_all_verifies_every_match_with_a_summary(alice, bob, capsys) -> None:
    matches = [two_player_match(alice, bob) for _ in range(3)]
    call_command("verify_match", "--all", "--no-progress")
    out = capsys.readouterr().out
    assert f"verified {len(matches)} match(es): {len(matches)} OK, 0 failed" in out


def test_verify_match_wants_ids_or_all_not_both(alice, bob) -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--all"):
        call_command("verify_match")
    with pytest.raises(CommandError, match="not both"):
        call_command("verify_match", "--all", "1")


def test_a_backup_restores_into_a_new_database_that_verifies_and_serves_its_matches(alice, bob, tmp_path) -> None:
    _needs_postgres()
    finished = two_player_match(alice, bob)
    services.resign(match_id=finished.pk, user=alice)
    running = two_player_match(alice, bob)
    for _ in range(3):
        running.refresh_from_db()
        services.submit_action(match_id=running.pk, user=mover(running, alice, bob), action={"climb": []},
                               expected_seq=running.seq)
    running.refresh_from_db()
    bot = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"bot": "easy"}],
                                options={})
    connections.close_all()

    dump = tmp_path / "cairn.dump"
    backup = subprocess.run([str(ROOT / "scripts" / "backup"), str(dump)], cwd=ROOT, env=_env(_database_url()),
                            capture_output=True, text=True, timeout=120)
    assert backup.returncode == 0, backup.stderr
    assert dump.stat().st_size > 0 and not Path(f"{dump}.partial").exists()

    target = f"cairn_restore_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    target_url = _database_url().rsplit("/", 1)[0] + f"/{target}"
    _admin(f'CREATE DATABASE "{target}"')
    try:
        restore = subprocess.run([str(ROOT / "scripts" / "restore"), str(dump)], cwd=ROOT, env=_env(target_url),
                                 capture_output=True, text=True, timeout=300)
        assert restore.returncode == 0, restore.stdout + restore.stderr
        assert "verified 3 match(es): 3 OK, 0 failed" in restore.stdout

        # A second restore into the now full database is refused.
        again = subprocess.run([str(ROOT / "scripts" / "restore"), str(dump)], cwd=ROOT, env=_env(target_url),
                               capture_output=True, text=True, timeout=120)
        assert again.returncode == 1 and "restore into a new, empty one" in again.stderr

        # The restored database serves the matches as they were.
        served = subprocess.run(
            [sys.executable, "-c",
             "import django, json; django.setup(); from django.test import Client; c = Client(HTTP_HOST='localhost');"
             f"print(json.dumps([c.get(f'/api/matches/{{i}}/').json() for i in ({finished.pk}, {running.pk}, {bot.pk})]))"],
            cwd=ROOT, env=_env(target_url), capture_output=True, text=True, timeout=120,
        )
        assert served.returncode == 0, served.stderr
        import json

        views = json.loads(served.stdout.strip().splitlines()[-1])
        assert [view["status"] for view in views] == ["finished", "active", "active"]
        assert views[1]["seq"] == running.seq
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)')


def test_backup_refuses_a_database_that_is_not_postgresql(tmp_path) -> None:
    result = subprocess.run([str(ROOT / "scripts" / "backup"), str(tmp_path / "x.dump")], cwd=ROOT,
                            env={**os.environ, "DATABASE_URL": "sqlite:///var/cairn.sqlite3"},
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "PostgreSQL URL" in result.stderr
