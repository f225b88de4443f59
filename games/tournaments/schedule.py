"""Celery beat entries of tournaments (merged into ``CELERY_BEAT_SCHEDULE`` by config/settings.py).

Pure data: imported by the settings module, so it imports nothing from Django.
"""

from __future__ import annotations

import os
from datetime import timedelta

BEAT_SCHEDULE = {
    # Starts what is due, pairs free arena entrants, closes finished rounds (each step idempotent).
    "tournaments-tick": {
        "task": "games.tournaments.tasks.tick",
        "schedule": timedelta(seconds=float(os.environ.get("TOURNAMENT_TICK_SECONDS", "2"))),
    },
    "tournaments-roll-seasons": {
        "task": "games.tournaments.tasks.roll_seasons",
        "schedule": timedelta(seconds=300),
    },
}
