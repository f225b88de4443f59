"""Ending an account: deletion by its owner, a ban by a moderator, and what both do to running play.

Deletion keeps the user row (match events name seats by user id, the rating
events of other people's rated matches point at it) but empties it: the
username becomes ``deleted player <id>``, the address, names and password go,
the account is deactivated, its API tokens, sessions, notification settings,
verified addresses, mutes, queue places and challenges are deleted.  The event
log is not touched, so every record still verifies.  docs/ACCOUNTS.md says what
is kept and why.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games import services
from games.errors import BadRequest, Conflict, DomainError, Forbidden
from games.models import Match, Seat
from games.ranking.models import Challenge, QueueEntry
from games.table.models import ChatMute, NotificationSettings

from .models import DeletedAccount, VerifiedEmail

logger = logging.getLogger(__name__)

DELETED_NAME = "deleted player {id}"


def deleted_name(user_id: int) -> str:
    return DELETED_NAME.format(id=user_id)


def is_deleted(user: Any) -> bool:
    return DeletedAccount.objects.filter(user_id=user.pk).exists()


def end_running_matches(user: Any) -> list[int]:
    """Abort the person's matches that may still be aborted, resign the others (the existing rules).

    Returns the ids of the matches ended or left.  Each is its own command (its own events).
    """
    live = Seat.objects.filter(user=user, replaced=False).exclude(match__status=Match.Status.FINISHED)
    ended = []
    for match_id in live.values_list("match_id", flat=True).order_by("match_id"):
        try:
            try:
                services.abort(match_id=match_id, user=user)
            except Conflict as exc:
                if exc.code != "not_abortable":
                    raise
                services.resign(match_id=match_id, user=user)
        except DomainError as exc:  # finished meanwhile, already forfeited: nothing left to end
            logger.info("match %s of user %s not ended: %s", match_id, user.pk, exc.message)
            continue
        ended.append(match_id)
    return ended


def leave_queues(user: Any) -> None:
    now = timezone.now()
    QueueEntry.objects.filter(user=user, status=QueueEntry.Status.WAITING).update(
        status=QueueEntry.Status.CANCELLED, ended_at=now)
    for challenge in Challenge.objects.filter(status=Challenge.Status.PENDING).filter(
            challenger=user) | Challenge.objects.filter(status=Challenge.Status.PENDING, challenged=user):
        challenge.status = Challenge.Status.CANCELLED
        challenge.decided_at = now
        challenge.save(update_fields=["status", "decided_at"])


def end_sessions(user: Any) -> int:
    """Delete the person's API tokens and their server-side sessions (the session table has no user
    column: each session's data is read).  An inactive user is refused by every session anyway."""
    Token.objects.filter(user=user).delete()
    doomed = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk):
            doomed.append(session.pk)
    Session.objects.filter(pk__in=doomed).delete()
    return len(doomed)


def delete_account(user: Any, password: Any) -> None:
    """The person deletes their own account, confirming with their password."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise Forbidden("log in first", code="not_authenticated")
    if not isinstance(password, str) or not user.check_password(password):
        raise BadRequest("the password is not right: the account is not deleted", code="wrong_password")
    end_running_matches(user)
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        leave_queues(user)
        NotificationSettings.objects.filter(user=user).delete()
        VerifiedEmail.objects.filter(user=user).delete()
        ChatMute.objects.filter(user=user).delete()
        ChatMute.objects.filter(muted=user).delete()
        user.username = deleted_name(user.pk)
        user.email = ""
        user.first_name = user.last_name = ""
        user.set_unusable_password()
        user.is_active = False
        user.is_staff = user.is_superuser = False
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        DeletedAccount.objects.get_or_create(user=user)
        end_sessions(user)
