"""Celery task of the table plug-in: the "your turn" email (idempotent, see games.table.notifications)."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import notifications


@shared_task(
    name=notifications.TASK,
    autoretry_for=(OperationalError, InterfaceError, ConnectionError),
    retry_backoff=1,
    max_retries=5,
    acks_late=True,
)
def send_turn_email(match_id: int, seq: int, user_id: int) -> str:
    return notifications.send_turn_email(match_id, seq, user_id)
