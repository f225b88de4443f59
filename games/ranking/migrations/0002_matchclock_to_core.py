"""MatchClock now belongs to the match core (games 0004): ranked play forgets the model, not the table."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("ranking", "0001_initial"),
        ("games", "0004_matchclock_in_core"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="MatchClock")],
            database_operations=[],
        ),
    ]
