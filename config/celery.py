"""The Celery app.  Workers: ``celery -A config worker``; beat: ``celery -A config beat``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cairn")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Request ids in task headers, the workers' heartbeat, metrics of ended processes (games/ops/celery_hooks.py).
from celery import signals

import games.ops.celery_hooks
from config.gctune import tune as tune_gc


@signals.worker_process_init.connect(dispatch_uid="cairn-gc-tune")
def _tune_gc(**kwargs: object) -> None:
    """Each pool process freezes what it inherited out of the garbage collector's walks (config/gctune.py)."""
    tune_gc()
