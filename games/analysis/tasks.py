"""Celery tasks of post-game analysis, on their own queue (``CELERY_ANALYSIS_QUEUE``), below bot moves."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import services

RETRY = {
    "autoretry_for": (OperationalError, InterfaceError, ConnectionError),
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "max_retries": 5,
}


@shared_task(name="games.analysis.tasks.analyse_match", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True, **RETRY)
def analyse_match(match_id: int, version: int) -> str:
    """Idempotent: an analysis already stored is left as it is; a redelivered one resumes from its checkpoint."""
    return services.run_analysis(match_id=match_id, version=version)


@shared_task(name="games.analysis.tasks.requeue_stale_analyses", acks_late=True, ignore_result=True, **RETRY)
def requeue_stale_analyses() -> int:
    return services.requeue_stale()
