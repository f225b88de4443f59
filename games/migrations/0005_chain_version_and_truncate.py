"""Issue 13: the hash chain's version per match, and PostgreSQL refuses TRUNCATE on events too.

Matches stored before this migration keep chain version 1 (their events'
hashes stay as they were and keep verifying); new matches get version 2, the
hiding chain of :mod:`engine.chain`.
"""

from django.db import migrations, models

from games import triggers


def install(apps, schema_editor):
    triggers.install(schema_editor.connection)  # idempotent: adds the TRUNCATE trigger


def keep(apps, schema_editor):
    pass


class Migration(migrations.Migration):
    dependencies = [("games", "0004_matchclock_in_core")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="chain_version",
            field=models.PositiveSmallIntegerField(default=1, editable=False, help_text="hash chain version (engine.chain)"),
        ),
        migrations.AlterField(
            model_name="match",
            name="chain_version",
            field=models.PositiveSmallIntegerField(default=2, editable=False, help_text="hash chain version (engine.chain)"),
        ),
        migrations.RunPython(install, keep),
    ]
