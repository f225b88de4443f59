"""Celery beat entry of the public log of heads (merged into ``CELERY_BEAT_SCHEDULE`` by config/settings.py).

Pure data: imported by the settings module, so it imports nothing from Django.
"""

from __future__ import annotations

import os
from datetime import timedelta

BEAT_SCHEDULE = {
    "audit-append-checkpoint": {
        "task": "games.audit.tasks.append_checkpoint",
        "schedule": timedelta(seconds=float(os.environ.get("AUDIT_CHECKPOINT_SECONDS", "60"))),
    },
}
