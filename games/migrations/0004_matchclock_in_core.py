"""MatchClock moves from ranked play into the match core: the model's state only.

The table ``ranking_matchclock`` stays where it is (``Meta.db_table``); ranking's 0002
drops the model from its own state after this one has taken it.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_ranked_play"),
        ("ranking", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="MatchClock",
                    fields=[
                        ("match", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                                                       related_name="clock", serialize=False, to="games.match")),
                        ("seq", models.PositiveIntegerField()),
                        ("deadline", models.DateTimeField(blank=True, db_index=True, null=True)),
                        ("seat", models.PositiveSmallIntegerField(blank=True, null=True)),
                    ],
                    options={"db_table": "ranking_matchclock"},
                ),
            ],
            database_operations=[],
        ),
    ]
