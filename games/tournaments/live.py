"""What tournaments send after commit: the page's push (group ``tournament-<id>``) and their tasks.

Tasks are sent by name (like games.dispatch), so the services never import the task module.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.db import transaction

from .. import db, notify

logger = logging.getLogger(__name__)

PAIR_ARENA = "games.tournaments.tasks.pair_arena"
CLOSE_ROUND = "games.tournaments.tasks.close_round"


def group_name(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def changed(tournament_id: int, version: int) -> None:
    """Tell the tournament's pages that its standings or boards changed (ids only: each page renders)."""
    try:
        notify.to_group(group_name(tournament_id), {"type": "tournament.changed", "tournament_id": tournament_id,
                                                    "version": version})
    except Exception:  # committed already; the page's next push or reload shows it
        logger.exception("could not notify tournament %s of version %s", tournament_id, version)


def changed_on_commit(tournament_id: int, version: int) -> None:
    transaction.on_commit(lambda: changed(tournament_id, version), using=db.alias())


def _send_on_commit(name: str, args: tuple[Any, ...]) -> None:
    def send() -> None:
        try:
            current_app.send_task(name, args)
        except Exception:  # the beat's tick does it a few seconds later
            logger.exception("could not queue %s%s", name, args)

    transaction.on_commit(send, using=db.alias())


def queue_pairing(tournament_id: int, _: int) -> None:
    _send_on_commit(PAIR_ARENA, (tournament_id,))


def queue_round_close(tournament_id: int, number: int) -> None:
    _send_on_commit(CLOSE_ROUND, (tournament_id, number))
