"""Celery beat entries of fair play (merged into ``CELERY_BEAT_SCHEDULE`` by config/settings.py).

Pure data: imported by the settings module, so it imports nothing from Django.
"""

from __future__ import annotations

import os
from datetime import timedelta

BEAT_SCHEDULE = {
    # Hands the seat of a person who left a 3-4 player real-time match to a bot, and ends the queue
    # entries of people whose last page closed (each is also checked once its grace period is over).
    "fairplay-sweep-leavers": {
        "task": "games.fairplay.tasks.sweep_leavers",
        "schedule": timedelta(seconds=float(os.environ.get("LEAVER_SWEEP_SECONDS", "10"))),
    },
    # Emails the person to move in a correspondence match once half the time for the move is gone (if they
    # opted in); once per turn, whatever the number of runs.
    "fairplay-correspondence-reminders": {
        "task": "games.fairplay.tasks.send_reminders",
        "schedule": timedelta(seconds=float(os.environ.get("REMINDER_SWEEP_SECONDS", "300"))),
    },
}
