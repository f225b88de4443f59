"""Moderation actions are append-only: the database refuses UPDATE (PostgreSQL and SQLite), and DELETE on PostgreSQL.

(SQLite's test flush is a plain DELETE; PostgreSQL's is a TRUNCATE, which row triggers do not see.)
"""

from django.db import migrations

PG_INSTALL = """
CREATE OR REPLACE FUNCTION accounts_moderationaction_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'accounts_moderationaction is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER accounts_moderationaction_no_change BEFORE UPDATE OR DELETE ON accounts_moderationaction
FOR EACH ROW EXECUTE FUNCTION accounts_moderationaction_append_only();
"""
PG_UNINSTALL = """
DROP TRIGGER IF EXISTS accounts_moderationaction_no_change ON accounts_moderationaction;
DROP FUNCTION IF EXISTS accounts_moderationaction_append_only();
"""
SQLITE_INSTALL = """
CREATE TRIGGER accounts_moderationaction_no_update BEFORE UPDATE ON accounts_moderationaction
BEGIN SELECT RAISE(ABORT, 'accounts_moderationaction is append-only: UPDATE refused'); END;
"""
SQLITE_UNINSTALL = "DROP TRIGGER IF EXISTS accounts_moderationaction_no_update;"


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_INSTALL, params=None)
    elif vendor == "sqlite":
        schema_editor.execute(SQLITE_INSTALL, params=None)


def uninstall(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_UNINSTALL, params=None)
    elif vendor == "sqlite":
        schema_editor.execute(SQLITE_UNINSTALL, params=None)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]
    operations = [migrations.RunPython(install, uninstall)]
