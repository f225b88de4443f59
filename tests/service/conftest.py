"""Service tests run against every configured database: PostgreSQL (when present) and SQLite."""

from __future__ import annotations

import pytest


def _aliases() -> list[tuple[str, str]]:
    from django.conf import settings

    return [(alias, config["ENGINE"].rsplit(".", 1)[-1]) for alias, config in settings.DATABASES.items()]


def pytest_generate_tests(metafunc):
    if "backend" in metafunc.fixturenames:
        aliases = _aliases()
        metafunc.parametrize("backend", [a for a, _ in aliases], ids=[v for _, v in aliases], indirect=True)


@pytest.fixture
def backend(request):
    """Route every query of the test (and of the services it calls) to one database alias."""
    from games import db

    with db.using(request.param):
        yield request.param


@pytest.fixture
def db_alias(backend):
    return backend
