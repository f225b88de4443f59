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
    # Catches every clock that ran out, even if its own scheduled check was lost.
    "ranking-sweep-timeouts": {
        "task": "games.ranking.tasks.sweep_timeouts",
        "schedule": timedelta(seconds=float(os.environ.get("RANKING_TIMEOUT_SWEEP_SECONDS", "5"))),
    },
    "ranking-expire-challenges": {
        "task": "games.ranking.tasks.expire_challenges",
        "schedule": timedelta(seconds=60),
    },
}
