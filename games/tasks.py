"""Celery tasks: bot turns and the recovery of stalled matches.

``play_bot_turn(match_id, seq)`` is idempotent: it acts only if the match is
still at ``seq`` and submits with ``expected_seq=seq``, so a duplicate, a
retry or a redelivery after a lost worker does nothing.  That is what makes
``acks_late`` + ``reject_on_worker_lost`` safe here.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import services

logger = logging.getLogger(__name__)


RETRY = {
    "autoretry_for": (OperationalError, InterfaceError, ConnectionError),
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "max_retries": 5,
}


@shared_task(
    name="games.tasks.play_bot_turn",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError, ConnectionError),
    retry_backoff=1,
    retry_backoff_max=30,
    retry_jitter=True,
    max_retries=8,
)
def play_bot_turn(match_id: int, seq: int) -> str:
    outcome = services.play_bot_turn(match_id=match_id, seq=seq)
    logger.info("bot turn of match %s at seq %s: %s", match_id, seq, outcome)
    return outcome


@shared_task(name="games.tasks.recover_stalled_matches", acks_late=True, ignore_result=True)
def recover_stalled_matches() -> int:
    """Run by celery beat: re-queue bot turns that have waited too long."""
    count = services.requeue_stalled_bot_turns()
    if count:
        logger.warning("re-queued %s stalled bot turn(s)", count)
    return count


@shared_task(name="games.tasks.check_timeout", acks_late=True, ignore_result=True, **RETRY)
def check_timeout(match_id: int, seq: int) -> str:
    """Scheduled at a clock's deadline (ETA): end the turn if that clock has run out."""
    outcome = services.check_timeout(match_id, seq=seq)
    logger.info("timeout check of match %s at seq %s: %s", match_id, seq, outcome)
    if outcome == "in_time":  # delivered early (clock skew between hosts): look again at the deadline
        from datetime import timedelta

        from django.utils import timezone

        from .models import MatchClock

        clock = MatchClock.objects.filter(match_id=match_id, seq=seq).first()
        if clock and clock.deadline and (clock.deadline - timezone.now()).total_seconds() < services.MAX_ETA_SECONDS:
            check_timeout.apply_async((match_id, seq), eta=clock.deadline + timedelta(milliseconds=50))
    return outcome


@shared_task(name="games.tasks.sweep_timeouts", acks_late=True, ignore_result=True, **RETRY)
def sweep_timeouts() -> dict:
    return services.sweep_timeouts()
