"""Celery beat entries of ranked play (merged into ``CELERY_BEAT_SCHEDULE`` by config/settings.py).

Pure data: imported by the settings module, so it imports nothing from Django.
"""

from __future__ import annotations

import os
from datetime import timedelta

BEAT_SCHEDULE = {
    # Pairs waiting players even when nobody joins (the acceptable gap widens with time).
    "ranking-pair-queues": {
        "task": "games.ranking.tasks.pair_queues",
        "schedule": timedelta(seconds=float(os.environ.get("RANKING_PAIR_SECONDS", "3"))),
    },
    "ranking-expire-challenges": {
        "task": "games.ranking.tasks.expire_challenges",
        "schedule": timedelta(seconds=60),
    },
}
