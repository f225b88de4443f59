"""The database itself refuses UPDATE and DELETE on games_event (PostgreSQL and SQLite)."""

from django.db import migrations

from games import triggers


def install(apps, schema_editor):
    triggers.install(schema_editor.connection)


def uninstall(apps, schema_editor):
    triggers.uninstall(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(install, uninstall)]
