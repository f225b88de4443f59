"""docs/DEPLOY.md's least-privilege role, applied as written to the PostgreSQL test database.

The role may read and append events and run the service's other writes, and
may not update, delete or truncate events, nor create tables.  And the
triggers refuse TRUNCATE even to the owner.  Everything happens inside the
test's transaction, so the role (cluster-wide) is gone when it rolls back.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.db import DatabaseError, connections, transaction

from games import services

pytestmark = pytest.mark.django_db(databases="__all__")

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "DEPLOY.md"


def documented_sql() -> str:
    text = DEPLOY.read_text()
    found = re.search(r"<!-- least-privilege-sql -->\s*```sql\n(.*?)```", text, re.S)
    assert found, "docs/DEPLOY.md lost its least-privilege SQL block"
    return found.group(1)


def statements(sql: str) -> list[str]:
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


@pytest.fixture
def pg(backend):
    connection = connections[backend]
    if connection.vendor != "postgresql":
        pytest.skip("the role is PostgreSQL's (SQLite has no roles)")
    return connection


def refused(connection, sql: str, params: list | None = None) -> str:
    with pytest.raises(DatabaseError) as caught, transaction.atomic(using=connection.alias):
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
    return str(caught.value)


def test_the_documented_role_can_play_but_not_rewrite_history(pg, alice, bob):
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}])
    role = f"cairn_app_test_{os.getpid()}"
    sql = documented_sql().replace("cairn_app", role).replace("DATABASE cairn ", f"DATABASE {pg.settings_dict['NAME']} ")
    with pg.cursor() as cursor:
        for statement in statements(sql):
            cursor.execute(statement)
        cursor.execute(f"SET ROLE {role}")
    try:
        # the service's writes work under the role: an append, a seat, the match row
        services.join_match(match_id=match.pk, user=bob)
        with pg.cursor() as cursor:
            cursor.execute("SELECT count(*), max(seq) FROM games_event WHERE match_id = %s", [match.pk])
            count, last = cursor.fetchone()
        match.refresh_from_db()
        assert count == last == match.seq >= 3 and match.status == "active"
        for sql_ in ("UPDATE games_event SET actor = 'forged' WHERE match_id = %s",
                     "DELETE FROM games_event WHERE match_id = %s"):
            assert "permission denied" in refused(pg, sql_, [match.pk])
        assert "permission denied" in refused(pg, "TRUNCATE games_event CASCADE")
        assert "permission denied" in refused(pg, "CREATE TABLE sneaky (x int)")
    finally:
        with pg.cursor() as cursor:
            cursor.execute("RESET ROLE")


def test_the_owner_cannot_truncate_events_either(pg):
    # (an empty table: PostgreSQL refuses to truncate one with rows inserted in the same transaction anyway)
    assert "append-only: TRUNCATE refused" in refused(pg, "TRUNCATE games_event CASCADE")
