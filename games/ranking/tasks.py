"""Celery tasks of ranked play: the timeout check, the periodic sweeps, pairing and challenge expiry.

All of them are idempotent: each rereads the database and acts only if the
state still calls for it, so duplicates and redeliveries are harmless.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import challenges, matchmaking, services

logger = logging.getLogger(__name__)

RETRY = {
    "autoretry_for": (OperationalError, InterfaceError, ConnectionError),
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "max_retries": 5,
}


@shared_task(name="games.ranking.tasks.check_timeout", acks_late=True, ignore_result=True, **RETRY)
def check_timeout(match_id: int, seq: int) -> str:
    """Scheduled at a clock's deadline (ETA): end the turn if that clock has run out."""
    outcome = services.check_timeout(match_id, seq=seq)
    logger.info("timeout check of match %s at seq %s: %s", match_id, seq, outcome)
    if outcome == "in_time":  # delivered early (clock skew between hosts): look again at the deadline
        from datetime import timedelta

        from django.utils import timezone

        from .hooks import MAX_ETA_SECONDS
        from .models import MatchClock

        clock = MatchClock.objects.filter(match_id=match_id, seq=seq).first()
        if clock and clock.deadline and (clock.deadline - timezone.now()).total_seconds() < MAX_ETA_SECONDS:
            check_timeout.apply_async((match_id, seq), eta=clock.deadline + timedelta(milliseconds=50))
    return outcome


@shared_task(name="games.ranking.tasks.sweep_timeouts", acks_late=True, ignore_result=True, **RETRY)
def sweep_timeouts() -> dict:
    return services.sweep_timeouts()


@shared_task(name="games.ranking.tasks.pair_queues", acks_late=True, ignore_result=True, **RETRY)
def pair_queues() -> int:
    return matchmaking.pair_all()


@shared_task(name="games.ranking.tasks.expire_challenges", acks_late=True, ignore_result=True, **RETRY)
def expire_challenges() -> int:
    return challenges.expire()
