"""Chat messages are append-only: the database refuses UPDATE on table_chatmessage (PostgreSQL and SQLite)."""

from django.db import migrations

PG_INSTALL = """
CREATE OR REPLACE FUNCTION table_chatmessage_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'table_chatmessage is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER table_chatmessage_no_update BEFORE UPDATE ON table_chatmessage
FOR EACH ROW EXECUTE FUNCTION table_chatmessage_append_only();
"""
PG_UNINSTALL = """
DROP TRIGGER IF EXISTS table_chatmessage_no_update ON table_chatmessage;
DROP FUNCTION IF EXISTS table_chatmessage_append_only();
"""
SQLITE_INSTALL = """
CREATE TRIGGER table_chatmessage_no_update BEFORE UPDATE ON table_chatmessage
BEGIN SELECT RAISE(ABORT, 'table_chatmessage is append-only: UPDATE refused'); END;
"""
SQLITE_UNINSTALL = "DROP TRIGGER IF EXISTS table_chatmessage_no_update;"


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
    dependencies = [("table", "0001_initial")]
    operations = [migrations.RunPython(install, uninstall)]
