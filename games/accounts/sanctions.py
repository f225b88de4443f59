"""What the moderators' actions mean for a person now: muted, suspended from rated play, banned.

A sanction is the newest of its pair of actions (``mute``/``unmute``,
``suspend``/``unsuspend``, ``ban``/``unban``) for that person; a mute or a
suspension also ends at its ``until``.  A hidden message is one with a ``hide``
action; every reader of the chat leaves it out (:func:`visible_messages`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from games.errors import Forbidden

from .models import ModerationAction

Kind = ModerationAction.Kind
PAIRS: dict[str, str] = {Kind.MUTE: Kind.UNMUTE, Kind.SUSPEND: Kind.UNSUSPEND, Kind.BAN: Kind.UNBAN}


@dataclass(frozen=True)
class Sanction:
    kind: str
    reason: str
    until: datetime | None
    since: datetime

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "reason": self.reason, "since": self.since.isoformat(),
                "until": self.until.isoformat() if self.until else None}


def _authenticated(user: Any) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def current(user: Any, kind: str, now: datetime | None = None) -> Sanction | None:
    """The person's ``kind`` sanction in force now, if any."""
    if not _authenticated(user):
        return None
    newest = (ModerationAction.objects.filter(subject_id=user.pk, kind__in=[kind, PAIRS[kind]])
              .order_by("-id").first())
    if newest is None or newest.kind != kind:
        return None
    if newest.until is not None and newest.until <= (now or timezone.now()):
        return None
    return Sanction(kind=kind, reason=newest.reason, until=newest.until, since=newest.created_at)


def in_force(user: Any) -> list[Sanction]:
    return [s for s in (current(user, kind) for kind in PAIRS) if s is not None]


def warnings(user: Any, limit: int = 10) -> list[ModerationAction]:
    return list(ModerationAction.objects.filter(subject_id=user.pk, kind=Kind.WARN).order_by("-id")[:limit])


def _until_text(sanction: Sanction) -> str:
    return f"until {sanction.until:%Y-%m-%d %H:%M} UTC" if sanction.until else "until further notice"


def check_may_chat(user: Any) -> None:
    """403 ``chat_muted`` with the reason and the end, for a muted person."""
    found = current(user, Kind.MUTE)
    if found is not None:
        raise Forbidden(f"a moderator muted you in chat {_until_text(found)}: {found.reason}", code="chat_muted")


def check_may_play_rated(user: Any) -> None:
    """403 ``suspended`` with the reason and the end, for a person suspended from rated play."""
    found = current(user, Kind.SUSPEND)
    if found is not None:
        raise Forbidden(f"a moderator suspended you from rated play {_until_text(found)}: {found.reason}",
                        code="suspended")


def hidden(message_ref: OuterRef | None = None) -> Exists:
    """``Exists(...)`` true for a chat message a moderator hid (``message_ref`` defaults to ``OuterRef("pk")``)."""
    return Exists(ModerationAction.objects.filter(message_id=message_ref or OuterRef("pk"), kind=Kind.HIDE))


def visible_messages(qs: QuerySet) -> QuerySet:
    """A chat queryset without the hidden messages."""
    return qs.filter(~hidden())


def is_hidden(message_id: int) -> bool:
    return ModerationAction.objects.filter(message_id=message_id, kind=Kind.HIDE).exists()
