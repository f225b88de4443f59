"""The triggers that make the events table append-only, per database vendor.

Used by the migration that installs them; tests that must edit an event
"behind the database's back" (to prove that verification notices) remove them
with :func:`uninstall` and put them back with :func:`install`.

PostgreSQL: row-level BEFORE UPDATE / BEFORE DELETE triggers and a
statement-level BEFORE TRUNCATE trigger, all raising an exception.  SQLite
(which has no TRUNCATE): BEFORE UPDATE / BEFORE DELETE triggers calling
``RAISE(ABORT, ...)``.  :func:`install` is idempotent: migrations ``0002``
and ``0005`` run it, and so does every ``migrate`` and ``flush`` (the
``post_migrate`` signal, :mod:`games.apps`), which brings the triggers back
after a test tear-down lifted them to empty the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.db.backends.base.base import BaseDatabaseWrapper

TABLE = "games_event"
MESSAGE = "games_event is append-only"

POSTGRES_INSTALL = [
    f"""
    CREATE OR REPLACE FUNCTION games_event_append_only() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION '{MESSAGE}: % refused', TG_OP USING ERRCODE = 'restrict_violation';
    END;
    $$ LANGUAGE plpgsql;
    """,
    f"DROP TRIGGER IF EXISTS games_event_no_update ON {TABLE};",
    f"""
    CREATE TRIGGER games_event_no_update BEFORE UPDATE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
    """,
    f"DROP TRIGGER IF EXISTS games_event_no_delete ON {TABLE};",
    f"""
    CREATE TRIGGER games_event_no_delete BEFORE DELETE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
    """,
    f"DROP TRIGGER IF EXISTS games_event_no_truncate ON {TABLE};",
    f"""
    CREATE TRIGGER games_event_no_truncate BEFORE TRUNCATE ON {TABLE}
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_append_only();
    """,
]
POSTGRES_UNINSTALL = [
    f"DROP TRIGGER IF EXISTS games_event_no_update ON {TABLE};",
    f"DROP TRIGGER IF EXISTS games_event_no_delete ON {TABLE};",
    f"DROP TRIGGER IF EXISTS games_event_no_truncate ON {TABLE};",
    "DROP FUNCTION IF EXISTS games_event_append_only();",
]

SQLITE_INSTALL = [
    "DROP TRIGGER IF EXISTS games_event_no_update;",
    "DROP TRIGGER IF EXISTS games_event_no_delete;",
    f"""
    CREATE TRIGGER games_event_no_update BEFORE UPDATE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}: UPDATE refused'); END;
    """,
    f"""
    CREATE TRIGGER games_event_no_delete BEFORE DELETE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}: DELETE refused'); END;
    """,
]
SQLITE_UNINSTALL = [
    "DROP TRIGGER IF EXISTS games_event_no_update;",
    "DROP TRIGGER IF EXISTS games_event_no_delete;",
]


def _statements(vendor: str, install: bool) -> list[str]:
    if vendor == "postgresql":
        return POSTGRES_INSTALL if install else POSTGRES_UNINSTALL
    if vendor == "sqlite":
        return SQLITE_INSTALL if install else SQLITE_UNINSTALL
    raise NotImplementedError(f"no append-only triggers for the {vendor} backend; use PostgreSQL or SQLite")


def installed(connection: BaseDatabaseWrapper) -> bool:
    """Whether every append-only trigger is in place on this connection's database."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT count(*) FROM pg_trigger WHERE tgrelid = %s::regclass AND tgname LIKE 'games_event_no_%%'",
                [TABLE],
            )
            return bool(cursor.fetchone()[0] == 3)
        cursor.execute("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'games_event_no_%'")
        return bool(cursor.fetchone()[0] == 2)


def install(connection: BaseDatabaseWrapper) -> None:
    with connection.cursor() as cursor:
        for sql in _statements(connection.vendor, True):
            cursor.execute(sql)


def uninstall(connection: BaseDatabaseWrapper) -> None:
    with connection.cursor() as cursor:
        for sql in _statements(connection.vendor, False):
            cursor.execute(sql)
