"""Shared fixtures: named players, API clients, a real Celery worker, and event-log tear-down.

Engine and ai tests need none of this (and no database).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


def pytest_collection_modifyitems(config, items):
    """Browser tests need Debian's Chromium; skip them cleanly where it is absent."""
    import shutil

    if shutil.which("chromium") or shutil.which("chromium-browser"):
        return
    skip = pytest.mark.skip(reason="no chromium on this machine (.ci/run installs it)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


# ---------------------------------------------------------------------- the append-only log vs test tear-down


def purge_event_logs(aliases: list[str] | None = None) -> None:
    """Make games_event flushable on every test database, for the flush that ends a transactional test.

    The table is append-only (games/triggers.py).  SQLite's flush is a plain
    ``DELETE``, which its row triggers refuse: the rows are deleted here with
    the triggers lifted, then the triggers go back.  PostgreSQL's flush is a
    ``TRUNCATE``, which its statement trigger refuses too: the
    triggers are lifted here, and the flush's ``post_migrate`` signal puts
    them back (``games.apps``); a test's set-up puts them back as well, in case
    a flush ran without that signal.
    """
    from django.db import connections

    from games import triggers

    for alias in aliases if aliases is not None else list(connections):
        connection = connections[alias]
        if connection.vendor == "postgresql":
            triggers.uninstall(connection)
            continue
        if connection.vendor != "sqlite":
            continue
        triggers.uninstall(connection)
        try:
            with connection.cursor() as cursor:
                cursor.execute(f"DELETE FROM {triggers.TABLE}")
        finally:
            triggers.install(connection)


def ensure_event_triggers(aliases: list[str]) -> None:
    from django.db import connections

    from games import triggers

    for alias in aliases:
        connection = connections[alias]
        if connection.vendor in ("postgresql", "sqlite") and not triggers.installed(connection):
            triggers.install(connection)


@pytest.fixture(autouse=True)
def _event_log_teardown(request) -> Iterator[None]:
    marker = request.node.get_closest_marker("django_db")
    transactional = (
        "transactional_db" in request.fixturenames
        or "live_server" in request.fixturenames
        or (marker is not None and (marker.kwargs.get("transaction") or marker.kwargs.get("serialized_rollback")))
    )
    if not transactional:
        yield
        return
    # Set up after the database fixture, so that this runs before its flush.
    request.getfixturevalue("transactional_db")
    from django.conf import settings

    databases = marker.kwargs.get("databases") if marker is not None else None
    if databases == "__all__":
        aliases = list(settings.DATABASES)
    else:
        aliases = list(databases or ["default"])
    ensure_event_triggers(aliases)
    yield
    purge_event_logs(aliases)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker) -> Iterator[None]:
    """pytest-django's test databases; before they are dropped, every other session on a PostgreSQL one
    is ended.  A thread of this process may still hold a connection (the render pool's, whose threads
    live as long as the process), and PostgreSQL refuses to drop a database in use: it would be left
    behind, one per run."""
    yield
    from django.db import DatabaseError, connections

    with django_db_blocker.unblock():
        for connection in connections.all():
            if connection.vendor != "postgresql":
                continue
            try:
                with connection.cursor() as cursor:
                    cursor.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )
            except DatabaseError:  # no right to end them: the drop says what is left
                pass
            finally:
                connection.close()


# ---------------------------------------------------------------------- players and clients


@pytest.fixture
def db_alias() -> str:
    """The database alias the test's objects live in (tests/service overrides it per backend)."""
    return "default"


@pytest.fixture
def make_user(db_alias):
    from django.contrib.auth import get_user_model

    def make(username: str, password: str = "correct-horse-battery"):
        return get_user_model().objects.create_user(username=username, password=password)

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def _token_client(user):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def alice_api(alice):
    return _token_client(alice)


@pytest.fixture
def bob_api(bob):
    return _token_client(bob)


@pytest.fixture
def carol_api(carol):
    return _token_client(carol)


@pytest.fixture
def anon_api():
    from rest_framework.test import APIClient

    return APIClient()


# ---------------------------------------------------------------------- a real Celery worker


@pytest.fixture
def celery_worker_thread(transactional_db):
    """A real Celery worker (not eager) in a thread, consuming this run's queue on the real broker.

    Needs committed data, hence ``transactional_db``.  Yields the worker.
    """
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30) as worker:
        yield worker
