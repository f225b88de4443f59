"""Celery beat entries of post-game analysis (merged into CELERY_BEAT_SCHEDULE by config/settings.py)."""

from datetime import timedelta

BEAT_SCHEDULE = {
    "requeue-stale-analyses": {
        "task": "games.analysis.tasks.requeue_stale_analyses",
        "schedule": timedelta(minutes=2),
    },
}
