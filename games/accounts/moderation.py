"""The moderators' queue and actions.

Every action is one :class:`ModerationAction` row (who, what, to whom, why, until
when), never updated.  ``hide`` makes a message vanish from every chat reader
and from the open pages (a ``chat_hidden`` push); ``ban`` deactivates the
account, ends its sessions and tokens, and ends its running matches as the
existing rules do (abort while it may, else resign); ``unban`` reactivates it.
Only people with the ``accounts.moderate`` permission act (the "moderator"
group, ``python manage.py moderators``; superusers).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from games.errors import BadRequest, Forbidden, NotFound
from games.table import push
from games.table.models import ChatMessage, ChatReport

from . import lifecycle
from .models import ModerationAction
from .sanctions import Kind

PERMISSION = "accounts.moderate"
CONTEXT = 5  # messages shown before and after a reported one
PERIODS = (Kind.MUTE, Kind.SUSPEND)
MAX_DAYS = 3650
STATUSES = ("open", "handled", "all")


def require_moderator(user: Any) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise Forbidden("log in first", code="not_authenticated")
    if not user.has_perm(PERMISSION):
        raise Forbidden("only moderators may do this", code="not_a_moderator")


def _user(username: Any) -> Any:
    User = get_user_model()
    try:
        return User.objects.get(username=str(username))
    except User.DoesNotExist:
        raise NotFound(f"there is no user {str(username)[:80]!r}", code="user_not_found") from None


def _message(message_id: Any) -> ChatMessage:
    try:
        return ChatMessage.objects.select_related("author").get(pk=int(message_id))
    except (ChatMessage.DoesNotExist, TypeError, ValueError):
        raise NotFound(f"there is no chat message {message_id!r}", code="chat_not_found") from None


def _until(kind: str, minutes: Any, now: datetime) -> datetime | None:
    if kind not in PERIODS:
        return None
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_DAYS * 1440:
        raise BadRequest(f"a {kind} needs 'minutes', a whole number from 1 to {MAX_DAYS * 1440}, not {minutes!r}",
                         code="bad_period")
    return now + timedelta(minutes=minutes)


def act(*, moderator: Any, kind: Any, reason: Any, username: Any = None, message_id: Any = None,
        minutes: Any = None) -> ModerationAction:
    """Take one action.  ``hide`` and ``dismiss`` name a message (its author is the subject); the others a
    user (or a message, whose author they then concern)."""
    require_moderator(moderator)
    if kind not in Kind.values:
        raise BadRequest(f"kind must be one of {', '.join(Kind.values)}, not {str(kind)[:40]!r}", code="bad_kind")
    if not isinstance(reason, str) or not reason.strip():
        raise BadRequest("say why: the reason is kept with the action and shown to the person", code="no_reason")
    reason = reason.strip()[:1000]
    message = _message(message_id) if message_id not in (None, "") else None
    if kind in (Kind.HIDE, Kind.DISMISS) and message is None:
        raise BadRequest(f"a {kind} names a message", code="no_message")
    if message is not None:
        subject = message.author
        if username not in (None, "") and str(username) != subject.username:
            raise BadRequest("the message is not by that user", code="bad_subject")
    elif username not in (None, ""):
        subject = _user(username)
    else:
        raise BadRequest("name the user (or a message of theirs)", code="no_subject")
    if subject.pk == moderator.pk:
        raise BadRequest("moderators do not act on themselves", code="bad_subject")
    if subject.is_superuser and not moderator.is_superuser:
        raise Forbidden("only an administrator may act on an administrator", code="not_allowed")
    now = timezone.now()
    until = _until(kind, minutes, now)
    if kind == Kind.HIDE and message is not None and ModerationAction.objects.filter(message=message, kind=Kind.HIDE).exists():
        raise BadRequest(f"message {message.pk} is hidden already", code="already_hidden")
    with transaction.atomic():
        action = ModerationAction.objects.create(moderator=moderator, subject=subject, kind=kind, reason=reason,
                                                 message=message, until=until)
        if kind == Kind.HIDE and message is not None:  # a hide names a message (checked above)
            group = push.LOBBY_GROUP if message.match_id is None else push.match_group(message.match_id)
            push.on_commit(group, "chat_hidden", id=message.pk)
        elif kind == Kind.BAN:
            type(subject).objects.filter(pk=subject.pk).update(is_active=False)
            lifecycle.leave_queues(subject)
            lifecycle.end_sessions(subject)
        elif kind == Kind.UNBAN and not lifecycle.is_deleted(subject):
            type(subject).objects.filter(pk=subject.pk).update(is_active=True)
    if kind == Kind.BAN:
        lifecycle.end_running_matches(subject)
    return action


# ---------------------------------------------------------------------- the queue


def reported_messages(*, status: str = "open", channel: str | None = None, reported: str | None = None,
                      reporter: str | None = None) -> QuerySet[ChatMessage]:
    """Reported messages, newest report first.  ``open``: no hide or dismiss since the last report."""
    if status not in STATUSES:
        raise BadRequest(f"status must be one of {', '.join(STATUSES)}, not {str(status)[:40]!r}", code="bad_filter")
    if channel not in (None, "", *ChatMessage.Channel.values):
        raise BadRequest(f"channel must be one of {', '.join(ChatMessage.Channel.values)}, not {str(channel)[:40]!r}",
                         code="bad_filter")
    qs = (ChatMessage.objects.filter(Exists(ChatReport.objects.filter(message=OuterRef("pk"))))
          .annotate(last_report=Subquery(ChatReport.objects.filter(message=OuterRef("pk"))
                                         .order_by("-created_at").values("created_at")[:1]))
          .select_related("author", "match"))
    handled = ModerationAction.objects.filter(message=OuterRef("pk"), kind__in=[Kind.HIDE, Kind.DISMISS],
                                              created_at__gte=OuterRef("last_report"))
    if status == "open":
        qs = qs.filter(~Exists(handled))
    elif status == "handled":
        qs = qs.filter(Exists(handled))
    if channel:
        qs = qs.filter(channel=channel)
    if reported:
        qs = qs.filter(author__username__iexact=reported)
    if reporter:
        qs = qs.filter(reports__reporter__username__iexact=reporter).distinct()
    return qs.order_by("-last_report", "-id")


def context_of(message: ChatMessage, around: int = CONTEXT) -> list[ChatMessage]:
    """The messages around ``message`` in its channel (hidden ones too: moderators see everything)."""
    same = ChatMessage.objects.filter(match_id=message.match_id, channel=message.channel).select_related("author")  # type: ignore[misc]  # None: the lobby's (IS NULL)
    before = list(same.filter(id__lt=message.pk).order_by("-id")[:around])
    after = list(same.filter(id__gt=message.pk).order_by("id")[:around])
    return [*reversed(before), message, *after]


def report_json(message: ChatMessage) -> dict[str, Any]:
    reports = list(ChatReport.objects.filter(message=message).select_related("reporter").order_by("-created_at"))
    actions = list(ModerationAction.objects.filter(Q(message=message)).select_related("moderator").order_by("id"))
    return {
        "message": message_json(message),
        "reported": message.author.username,
        "reporters": [{"user": r.reporter.username, "at": r.created_at.isoformat()} for r in reports],
        "last_report": reports[0].created_at.isoformat() if reports else None,
        "context": [message_json(m) for m in context_of(message)],
        "actions": [action_json(a) for a in actions],
    }


def message_json(message: ChatMessage) -> dict[str, Any]:
    return {"id": message.pk, "match": message.match_id, "channel": message.channel,
            "author": message.author.username, "text": message.text, "created_at": message.created_at.isoformat(),
            "hidden": ModerationAction.objects.filter(message=message, kind=Kind.HIDE).exists()}


def action_json(action: ModerationAction) -> dict[str, Any]:
    return {"id": action.pk, "kind": action.kind, "moderator": action.moderator.username,
            "subject": action.subject.username, "message": action.message_id, "reason": action.reason,
            "until": action.until.isoformat() if action.until else None, "created_at": action.created_at.isoformat()}


def actions(*, username: str | None = None, limit: int = 200) -> list[ModerationAction]:
    qs = ModerationAction.objects.select_related("moderator", "subject").order_by("-id")
    if username:
        qs = qs.filter(subject__username__iexact=username)
    return list(qs[:limit])
