"""The scheduled timeout check, run by a real Celery worker process on the real broker (not eager):
nobody calls anything after the last move, and the match still ends on time.

The worker is a separate ``celery -A config worker`` process on the test database, as in
production (a worker restarted inside the test process does not fire ETA tasks reliably).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from django.conf import settings

from games.models import Match
from games.verify import verify_match
from tests.ranking.helpers import everyone_moves, new_match

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


def _database_url() -> str:
    from django.db import connections

    config = connections["default"].settings_dict
    if connections["default"].vendor == "sqlite":
        return f"sqlite:///{config['NAME']}"
    password = f":{config['PASSWORD']}" if config.get("PASSWORD") else ""
    return f"postgres://{config['USER']}{password}@{config['HOST'] or '127.0.0.1'}:{config['PORT'] or 5432}/{config['NAME']}"


@pytest.fixture
def worker_process(transactional_db) -> Iterator[subprocess.Popen]:
    from django.db import connections

    if connections["default"].vendor == "sqlite" and connections["default"].settings_dict["NAME"].startswith(
        ("file:", ":memory:")
    ):
        pytest.skip("an in-memory SQLite test database cannot be shared with a worker process")
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": _database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "SECRET_KEY": "cairn-test-worker-only",
        "CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
        "CHANNEL_PREFIX": settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"],
    })
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo", "-Q", settings.CELERY_TASK_DEFAULT_QUEUE,
         "--without-heartbeat", "--without-mingle", "--without-gossip", "-l", "WARNING"],
        cwd=settings.BASE_DIR, env=env,
    )
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()


def test_the_worker_ends_a_match_on_time_from_the_task_scheduled_at_the_deadline(alice, bob, worker_process):
    match = new_match([alice, bob], time_control={"kind": "realtime", "base": 3, "increment": 0})
    everyone_moves(match.pk, [alice, bob])
    started = time.monotonic()
    while time.monotonic() - started < 30:
        match = Match.objects.get(pk=match.pk)
        if match.status == "finished":
            break
        assert worker_process.poll() is None, "the worker process died"
        time.sleep(0.2)
    assert match.status == "finished" and match.ending == "timeout"
    assert verify_match(match).ok
