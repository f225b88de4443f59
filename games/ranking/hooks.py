"""What ranked play does inside every saving transaction of the match service.

Registered in :class:`games.services.AFTER_SAVE_HOOKS` by the app config:

* a rated match's final event -> its rating events and the ladder (ratings.py);
* a timed match -> its next clock deadline (the aggregate's clock, clocks.py), kept on
  :class:`MatchClock` for the sweep, and a timeout check scheduled for it.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from .. import db, dispatch
from . import ratings
from .models import MatchClock

logger = logging.getLogger(__name__)

# A Celery ETA task further ahead than the broker's visibility timeout would be
# delivered twice; those deadlines are left to the periodic sweep.
MAX_ETA_SECONDS = 240


def after_save(match: Any, aggregate: Any, seats: list[Any], rows: list[Any]) -> None:
    finished = next((row for row in rows if row.type == "finished"), None)
    if finished is not None:
        result = ratings.rated_result(match, finished, seats)
        if result is not None:
            ratings.apply_result(result)
    if match.time_control:
        _update_clock(match, aggregate)


def _update_clock(match: Any, aggregate: Any) -> None:
    deadline = seat = None
    if aggregate.started and not aggregate.finished:
        fold = aggregate.clock  # folded with the match: no replay here
        nxt = fold.next_deadline() if fold else None
        if nxt:
            deadline, seat = nxt
    MatchClock.objects.update_or_create(match_id=match.pk, defaults={"seq": match.seq, "deadline": deadline, "seat": seat})
    if deadline is None:
        return
    if (deadline - timezone.now()).total_seconds() > MAX_ETA_SECONDS:
        return
    match_id, seq = match.pk, match.seq

    def schedule() -> None:
        try:
            dispatch.timeout_check(match_id, seq, eta=deadline)
        except Exception:  # the sweep still finds it
            logger.exception("could not schedule the timeout check of match %s at seq %s", match_id, seq)

    transaction.on_commit(schedule, using=db.alias())
