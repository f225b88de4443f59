"""Celery tasks of ranked play: pairing and challenge expiry (the clocks' timeout checks are the core's, games/tasks.py).

All of them are idempotent: each rereads the database and acts only if the
state still calls for it, so duplicates and redeliveries are harmless.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import challenges, matchmaking

logger = logging.getLogger(__name__)

RETRY = {
    "autoretry_for": (OperationalError, InterfaceError, ConnectionError),
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "max_retries": 5,
}


@shared_task(name="games.ranking.tasks.pair_queues", acks_late=True, ignore_result=True, **RETRY)
def pair_queues() -> int:
    return matchmaking.pair_all()


@shared_task(name="games.ranking.tasks.expire_challenges", acks_late=True, ignore_result=True, **RETRY)
def expire_challenges() -> int:
    return challenges.expire()
