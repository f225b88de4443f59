"""Shared set-up for the service benchmarks: Django on a throwaway database.

Each script runs against the database and Redis the environment names
(``DATABASE_URL``, ``REDIS_URL``; SQLite and the bundled Redis otherwise), in a
fresh test database that is created and destroyed by the run.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only-not-secret")
os.environ.setdefault("CELERY_QUEUE", f"cairn-bench-{os.getpid()}")
os.environ.setdefault("CHANNEL_PREFIX", f"cairn-bench-{os.getpid()}")


@contextmanager
def django_database() -> Iterator[str]:
    """Set Django up on a throwaway copy of the configured database; yields its vendor."""
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import (
        setup_databases,
        setup_test_environment,
        teardown_databases,
        teardown_test_environment,
    )

    config = connection.settings_dict
    if config["ENGINE"].endswith("sqlite3"):
        config["TEST"]["NAME"] = str(ROOT / "var" / f"bench-{os.getpid()}.sqlite3")
    else:
        config["TEST"]["NAME"] = f"cairn_bench_{os.getpid()}"
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False, aliases={"default"})
    try:
        yield connection.vendor
    finally:
        from django.db import connections

        connections.close_all()
        teardown_databases(old, verbosity=0)
        teardown_test_environment()


def users(*names: str) -> list[Any]:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return [User.objects.create_user(username=name, password="benchmark-password") for name in names]


def started_match(alice: Any, bob: Any) -> Any:
    from games import services

    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}])
    return services.join_match(match_id=match.pk, user=bob)


def long_match(alice: Any, bob: Any, events: int, **create: Any) -> Any:
    """A two-person Mountain Goats match of ``events`` events (seat after seat stands still), saved in one append.

    ``create`` goes to ``services.create_match`` (``rated=True, time_control="5+10"``, say).
    """
    from games import selectors, services, store

    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}],
                                  **create)
    services.join_match(match_id=match.pk, user=bob)
    with store.appending(match.pk):
        match, seats = selectors.get_match_for_write(match.pk)
        aggregate = selectors.load_aggregate(match)
        expected, prev = aggregate.seq, aggregate.last_hash
        seed = bytes.fromhex(match.seed)
        while aggregate.seq < events:
            seat = aggregate.state.to_move()[0]
            aggregate.act(seat, {"climb": []}, seed, f"user:{seats[seat].user_id}")
        services._save(match, aggregate, seats, expected_seq=expected, prev_hash=prev)
    return selectors.get_match(match.pk)


def random_action(match: Any, rng: random.Random) -> tuple[int, dict]:
    from games import selectors

    state = selectors.load_state(match)
    seat = state.to_move()[0]
    actions = state.legal_actions(seat)
    return seat, state.action_to_json(seat, actions[rng.randrange(len(actions))])


def describe_backends() -> str:
    from django.conf import settings
    from django.db import connection

    redis = settings.REDIS_URL
    return f"database {connection.vendor} ({connection.settings_dict['NAME']}), redis {redis}"
