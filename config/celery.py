"""The Celery app.  Workers: ``celery -A config worker``; beat: ``celery -A config beat``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cairn")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Request ids in task headers, the workers' heartbeat, metrics of ended processes (games/ops/celery_hooks.py).
import games.ops.celery_hooks
