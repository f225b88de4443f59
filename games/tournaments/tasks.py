"""Celery tasks of tournaments: the beat's tick, arena pairing, closing a round.  All idempotent."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import seasons, services

RETRY = {
    "autoretry_for": (OperationalError, InterfaceError, ConnectionError),
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "max_retries": 5,
}


@shared_task(name="games.tournaments.tasks.tick", acks_late=True, ignore_result=True, **RETRY)
def tick() -> dict:
    return services.tick()


@shared_task(name="games.tournaments.tasks.pair_arena", acks_late=True, ignore_result=True, **RETRY)
def pair_arena(tournament_id: int) -> bool:
    return services.pair_arena(tournament_id=tournament_id) is not None


@shared_task(name="games.tournaments.tasks.close_round", acks_late=True, ignore_result=True, **RETRY)
def close_round(tournament_id: int, number: int) -> bool:
    return services.close_round(tournament_id=tournament_id, number=number)


@shared_task(name="games.tournaments.tasks.roll_seasons", acks_late=True, ignore_result=True, **RETRY)
def roll_seasons() -> int:
    return seasons.roll()
