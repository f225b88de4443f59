"""Queueing the Celery tasks of the match service, by task name.

The services decide when a bot turn or a timeout check is due; the tasks
(``games.tasks``) call the services.  Sending by name
(Celery's ``send_task``) keeps that a one-way dependency: nothing here imports
a task module, so there is no import circle (tests/architecture).  The names
are the tasks' registered names, so a worker of any process finds them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from celery import current_app

BOT_TURN = "games.tasks.play_bot_turn"
TIMEOUT_CHECK = "games.tasks.check_timeout"


def bot_turn(match_id: int, seq: int, **options: Any) -> None:
    """Queue the bot move of ``match_id`` at ``seq`` (the task does nothing if the match moved on)."""
    current_app.send_task(BOT_TURN, (match_id, seq), **options)


def timeout_check(match_id: int, seq: int, *, eta: datetime) -> None:
    """Check at ``eta`` whether the clock of ``match_id`` at ``seq`` has run out."""
    current_app.send_task(TIMEOUT_CHECK, (match_id, seq), eta=eta)
