"""Turn notifications: a person's opt-ins, and the "your turn" email of correspondence matches.

The sound and the browser notification are played by the page (``table.js``)
from the opt-ins rendered into it.  The email is sent by the server:

1. every save of a match sends ``games.signals.match_saved`` inside its
   transaction; :func:`on_match_saved` looks at a correspondence match (a clock
   of days per move) that is in play, and for each person to move who opted in
   and has an address, queues the task ``games.table.tasks.send_turn_email``
   (match, seq, user) with ``transaction.on_commit``: nothing is sent for a
   rolled-back save.
2. the task (:func:`send_turn_email`) returns at once if the match has moved on
   from ``seq`` or the person is no longer to move, and stores a
   :class:`TurnEmail` row (unique per match, seq and person) before sending:
   a retried or duplicated task sends nothing twice.  It sends only to a verified
   address (games.accounts.emails).

Django's email framework sends it: the console backend by default (the mail
is printed), a real server with ``EMAIL_URL`` (config/settings.py).
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string

from games import db
from games.accounts import emails
from games.errors import BadRequest
from games.models import Match, Seat
from games.reads import PreparedRead

from .models import NotificationSettings, TurnEmail

logger = logging.getLogger(__name__)

TASK = "games.table.tasks.send_turn_email"
# A person's opt-ins and their address (compiled once, games/reads.py).
_SETTINGS = PreparedRead(lambda user_id: NotificationSettings.objects.select_related("user").filter(user_id=user_id))


def settings_of(user: Any) -> NotificationSettings:
    found = NotificationSettings.objects.filter(user=user).first()
    return found or NotificationSettings(user=user)


def update(*, user: Any, sound: bool, browser: bool, email_turn: bool, email: str) -> NotificationSettings:
    """Save a person's opt-ins (and their address, which the email needs)."""
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise BadRequest(f"{email!r} is not an email address", code="bad_email") from None
    if email_turn and not email:
        raise BadRequest("give an email address to get \"your turn\" emails", code="bad_email")
    with transaction.atomic():
        if user.email != email:
            emails.set_address(user, email)  # a new address gets a verification mail
        prefs, _ = NotificationSettings.objects.update_or_create(
            user=user, defaults={"sound": sound, "browser": browser, "email_turn": email_turn}
        )
    return prefs


def is_correspondence(match: Match) -> bool:
    time_control = match.time_control
    return bool(time_control and time_control.get("kind") == "correspondence")


def on_match_saved(sender: Any, match: Match, seats: list[Seat], **kwargs: Any) -> None:
    """``games.signals.match_saved``: queue a "your turn" email for each person to move who wants one."""
    if match.status != Match.Status.ACTIVE or not is_correspondence(match):
        return
    to_move = set(match.to_move or [])
    user_ids = [seat.user_id for seat in seats if seat.index in to_move and seat.user_id and not seat.bot_level]
    if not user_ids:
        return
    wanted = set()
    for user_id in user_ids:  # one compiled read per person to move (every move of a correspondence match)
        for prefs in _SETTINGS.rows(user_id, db.alias()):
            if prefs.email_turn and prefs.user.email:
                wanted.add(user_id)
    match_id, seq = match.pk, match.seq
    for user_id in user_ids:
        if user_id in wanted:
            transaction.on_commit(functools.partial(_queue, match_id, seq, user_id), using=db.alias())


def _queue(match_id: int, seq: int, user_id: int) -> None:
    try:
        current_app.send_task(TASK, (match_id, seq, user_id))
    except Exception:  # the move is committed; a lost email is not worth failing anything for
        logger.exception("could not queue the turn email of match %s at seq %s", match_id, seq)


def send_turn_email(match_id: int, seq: int, user_id: int) -> str:
    """Send one "your turn" email, at most once per (match, seq, person).  Returns what happened."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.seq != seq or match.status != Match.Status.ACTIVE:
        return "stale"
    seat = Seat.objects.filter(match=match, user_id=user_id).select_related("user").first()
    if seat is None or seat.index not in (match.to_move or []) or seat.bot_level:
        return "not_to_move"
    user = seat.user
    assert user is not None  # the seat was found by its user
    prefs = NotificationSettings.objects.filter(user=user, email_turn=True).first()
    if prefs is None or not user.email:
        return "opted_out"
    if not emails.is_verified(user):  # mail goes only to an address its owner proved they read
        return "unverified"
    from engine import get_game

    context = {
        "user": user, "match": match, "game_name": get_game(match.game_id).name,
        "url": f"{settings.CAIRN_SITE_URL}/matches/{match.pk}/",
        "settings_url": f"{settings.CAIRN_SITE_URL}/settings/notifications/",
        "days": (match.time_control or {}).get("days"),
    }
    try:
        with transaction.atomic():
            TurnEmail.objects.create(match=match, seq=seq, user=user)
            send_mail(
                subject=f"Your turn in {context['game_name']} #{match.pk}",
                message=render_to_string("table/turn_email.txt", context),
                from_email=None, recipient_list=[user.email],
            )
    except IntegrityError:
        return "already_sent"
    return "sent"
