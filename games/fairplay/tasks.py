"""Celery tasks of fair play.  Idempotent: each rereads presence and the events and acts only if the
state still calls for it."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import leavers

RETRY = {
    "autoretry_for": (OperationalError, InterfaceError, ConnectionError),
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "max_retries": 5,
}


@shared_task(name="games.fairplay.tasks.sweep_leavers", acks_late=True, ignore_result=True, **RETRY)
def sweep_leavers() -> dict[str, int]:
    return leavers.sweep()


@shared_task(name="games.fairplay.tasks.check_leaver", acks_late=True, ignore_result=True, **RETRY)
def check_leaver(match_id: int) -> list[int]:
    """A player's last socket of a 3-4 player match closed a grace period ago: a bot may take the seat."""
    return leavers.abandon_absent(match_id)


@shared_task(name="games.fairplay.tasks.end_queue_entry", acks_late=True, ignore_result=True, **RETRY)
def end_queue_entry(user_id: int) -> int:
    """A person's last page closed a grace period ago: their queue entry ends."""
    return leavers.end_absent_queue_entries([user_id])


@shared_task(name="games.fairplay.tasks.send_reminders", acks_late=True, ignore_result=True, **RETRY)
def send_reminders() -> dict[str, int]:
    """Correspondence reminders due now (games.fairplay.reminders); each is sent once per turn."""
    from . import reminders

    return reminders.send_due()
