"""/healthz and /readyz: every check named with its time, 503 when one fails, never a hang."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
from django.test import Client, override_settings

from games.ops import health, heartbeat

pytestmark = pytest.mark.django_db


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A TCP server that accepts connections and never answers: a Redis URL pointing at it."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    done = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not done.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            held.append(conn)  # kept open, never read from, never written to

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    done.set()
    thread.join(2)
    for conn in held:
        conn.close()
    listener.close()


@pytest.fixture
def worker_alive() -> Iterator[None]:
    heartbeat.beat("test-worker")
    yield
    heartbeat.forget("test-worker")


def test_healthz_answers_without_touching_any_dependency(client: Client, monkeypatch, django_assert_num_queries) -> None:
    monkeypatch.setattr(health, "ping_redis", lambda url: (_ for _ in ()).throw(AssertionError("touched redis")))
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_names_every_check_with_its_time_when_all_pass(client: Client, worker_alive) -> None:
    response = client.get("/readyz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ready"
    assert set(body["checks"]) >= {"database", "migrations", "redis", "channel_layer", "workers"}
    for name, check in body["checks"].items():
        assert check["ok"] is True, name
        assert isinstance(check["ms"], float) and check["ms"] >= 0


def test_readyz_is_503_within_its_timeout_when_redis_accepts_and_never_answers(
    client: Client, worker_alive, silent_server: str
) -> None:
    with override_settings(CELERY_BROKER_URL=silent_server, CAIRN_READYZ_TIMEOUT=0.5):
        started = time.monotonic()
        response = client.get("/readyz")
        elapsed = time.monotonic() - started
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["redis"]["ok"] is False
    assert body["checks"]["database"]["ok"] is True
    assert elapsed < 1.5


def test_readyz_is_503_when_one_channel_layer_server_hangs(client: Client, worker_alive, silent_server: str) -> None:
    from django.conf import settings

    layers = {"default": {**settings.CHANNEL_LAYERS["default"]}}
    layers["default"]["CONFIG"] = {**layers["default"]["CONFIG"],
                                   "hosts": [*settings.CHANNEL_REDIS_URLS, silent_server]}
    with override_settings(CHANNEL_LAYERS=layers, CAIRN_READYZ_TIMEOUT=0.5):
        started = time.monotonic()
        response = client.get("/readyz")
        assert time.monotonic() - started < 1.5
    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"]["ok"] is False
    assert response.json()["checks"]["redis"]["ok"] is True


def test_a_check_that_never_returns_fails_as_a_timeout_and_the_probe_still_answers(client: Client, monkeypatch,
                                                                                    worker_alive) -> None:
    release = threading.Event()
    monkeypatch.setattr(health, "check_database", lambda: release.wait(10))
    try:
        with override_settings(CAIRN_READYZ_TIMEOUT=0.3):
            started = time.monotonic()
            response = client.get("/readyz")
            assert time.monotonic() - started < 1.0
    finally:
        release.set()
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == {"ok": False, "error": "timeout: no answer within 0.3 s", "ms": 300.0}


def test_readyz_is_503_when_no_worker_wrote_a_heartbeat_unless_workers_are_left_out(client: Client) -> None:
    heartbeat.forget("test-worker")
    response = client.get("/readyz")
    assert response.status_code == 503
    assert "no Celery worker" in response.json()["checks"]["workers"]["error"]
    with override_settings(CAIRN_READYZ_WORKERS=False):
        response = client.get("/readyz")
    assert response.status_code == 200, response.json()
    assert "workers" not in response.json()["checks"]


def test_a_stale_heartbeat_does_not_count(client: Client) -> None:
    heartbeat.beat("test-worker", now=time.time() - 120)
    try:
        response = client.get("/readyz")
    finally:
        heartbeat.forget("test-worker")
    assert response.status_code == 503
    assert "old" in response.json()["checks"]["workers"]["error"]


def test_readyz_is_503_while_a_migration_is_unapplied(client: Client, monkeypatch, worker_alive) -> None:
    from django.db.migrations.executor import MigrationExecutor
    from django.db.migrations.migration import Migration

    monkeypatch.setattr(health, "_migrated", False)
    monkeypatch.setattr(MigrationExecutor, "migration_plan",
                        lambda self, targets: [(Migration("0099_future", "games"), False)])
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["migrations"]["error"] == "RuntimeError: 1 migration(s) not applied: games.0099_future"


def test_a_worker_heartbeat_thread_writes_and_takes_back_its_entry() -> None:
    heartbeat.forget("thread-worker")
    with override_settings(CAIRN_WORKER_HEARTBEAT_SECONDS=0.05):
        thread = heartbeat.start("thread-worker")
        deadline = time.monotonic() + 3
        while heartbeat.newest_age() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert heartbeat.newest_age() is not None and heartbeat.newest_age() < 2
        heartbeat.stop()
        thread.join(3)
    assert heartbeat.newest_age() is None
