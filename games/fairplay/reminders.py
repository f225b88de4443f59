"""Correspondence reminders: an email to the person to move once half the time for their move is gone.

For a match with a clock of days per move (``{"kind": "correspondence", "days": D}``), a person who
opted in (:class:`games.fairplay.models.ReminderSetting`, on the notification settings page) and whose
address is verified gets one email per turn when ``D / 2`` days are left before their deadline.

The Celery beat task ``games.fairplay.tasks.send_reminders`` (:func:`send_due`) runs every few minutes
(``REMINDER_SWEEP_SECONDS``, 300 by default).  It reads the deadlines the match core indexes after every
append (``games.models.MatchClock``: the next deadline, its seat and the seq it was computed at), so
nothing is replayed.  It is idempotent: a :class:`~games.fairplay.models.CorrespondenceReminder` row,
unique per (match, seq, person), is stored in the transaction that sends the mail; a second run, a
retried task or two beat workers at once send nothing twice, and a mail that fails to go rolls its row
back, so the next run tries again.  A turn is one seq: the move ends it, and the next turn is another.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone

from .. import db
from ..accounts import emails
from ..clocks import CORRESPONDENCE, MAX_DAYS
from ..models import Match, MatchClock, Seat
from .models import CorrespondenceReminder, ReminderSetting

log = logging.getLogger(__name__)


def wants_reminders(user: Any) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return ReminderSetting.objects.filter(user=user, correspondence_reminder=True).exists()


def set_reminders(*, user: Any, on: Any) -> ReminderSetting:
    """Opt in to (or out of) the reminder email.  400 ``bad_reminder`` unless ``on`` is true or false."""
    from ..errors import BadRequest

    if on is not True and on is not False:
        raise BadRequest(f"'correspondence_reminder' must be true or false, not {on!r}", code="bad_reminder")
    if on and not user.email:
        raise BadRequest("give an email address to get reminders", code="bad_email")
    found, _ = ReminderSetting.objects.update_or_create(user=user, defaults={"correspondence_reminder": on})
    return found


@dataclass(frozen=True)
class Due:
    match_id: int
    seq: int
    user_id: int
    deadline: datetime


def reminder_time(deadline: datetime, days: int) -> datetime:
    """When half of a move's ``days`` are left before ``deadline``."""
    return deadline - timedelta(days=days) / 2


def due(now: datetime | None = None) -> list[Due]:
    """Every (match, turn, person) whose reminder is due at ``now`` and not sent yet."""
    now = now or timezone.now()
    clocks = (MatchClock.objects.select_related("match")
              .filter(deadline__gt=now, deadline__lte=now + timedelta(days=MAX_DAYS) / 2,
                      match__status=Match.Status.ACTIVE, match__time_control__kind=CORRESPONDENCE))
    found: list[Due] = []
    for clock in clocks:
        match = clock.match
        days = (match.time_control or {}).get("days")
        deadline = clock.deadline
        if clock.seq != match.seq or deadline is None or type(days) is not int or now < reminder_time(deadline, days):
            continue  # the index lags the match (a move is being stored), or it is not time yet
        to_move = set(match.to_move or [])
        for seat in Seat.objects.filter(match=match, index__in=to_move, user__isnull=False, bot_level=""):
            if seat.user_id is not None:  # always: the query asks for seats with a user
                found.append(Due(match.pk, match.seq, seat.user_id, deadline))
    if not found:
        return []
    opted = set(ReminderSetting.objects.filter(user_id__in={d.user_id for d in found}, correspondence_reminder=True)
                .values_list("user_id", flat=True))
    sent = set(CorrespondenceReminder.objects.filter(match_id__in={d.match_id for d in found})
               .values_list("match_id", "seq", "user_id"))
    return [d for d in found if d.user_id in opted and (d.match_id, d.seq, d.user_id) not in sent]


def _left(seconds: float) -> str:
    hours = max(0, round(seconds / 3600))
    return f"{hours // 24} day{'s' if hours // 24 != 1 else ''} {hours % 24} h" if hours >= 24 else f"{hours} h"


def send(item: Due, now: datetime | None = None) -> str:
    """Send one reminder, at most once per (match, seq, person): ``sent``, ``already_sent``, ``stale``,
    ``unverified``."""
    from django.contrib.auth import get_user_model

    from engine import get_game

    now = now or timezone.now()
    match = Match.objects.filter(pk=item.match_id).first()
    if match is None or match.seq != item.seq or match.status != Match.Status.ACTIVE:
        return "stale"
    user = get_user_model().objects.get(pk=item.user_id)
    if not emails.is_verified(user):  # mail goes only to an address its owner proved they read
        return "unverified"
    days = (match.time_control or {})["days"]
    context = {
        "user": user, "match": match, "game_name": get_game(match.game_id).name, "days": days,
        "deadline": item.deadline, "left": _left((item.deadline - now).total_seconds()),
        "url": f"{settings.CAIRN_SITE_URL}/matches/{match.pk}/",
        "settings_url": f"{settings.CAIRN_SITE_URL}/settings/notifications/",
    }
    try:
        with transaction.atomic(using=db.alias()):
            CorrespondenceReminder.objects.create(match=match, seq=item.seq, user=user)
            send_mail(subject=f"Half your time is gone: {context['game_name']} #{match.pk}",
                      message=render_to_string("fairplay/reminder_email.txt", context),
                      from_email=None, recipient_list=[user.email])
    except IntegrityError:
        return "already_sent"
    return "sent"


def send_due(now: datetime | None = None) -> dict[str, int]:
    """Send every reminder due now (the beat task).  Counts by outcome."""
    counts: dict[str, int] = {}
    for item in due(now):
        try:
            outcome = send(item, now)
        except Exception:  # one bad address must not stop the others; the next run retries
            log.exception("could not send the reminder of match %s at seq %s", item.match_id, item.seq)
            outcome = "failed"
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts
