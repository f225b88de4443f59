"""Everything Cairn holds about a person, as one JSON document (the settings page and ``GET /api/account/export``)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games import selectors
from games.ranking import selectors as ranking
from games.table.models import ChatMessage, ChatMute, ChatReport, NotificationSettings

from . import emails, sanctions
from .models import ModerationAction

FORMAT = "cairn-account-export/1"


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None


def export(user: Any) -> dict[str, Any]:
    prefs = NotificationSettings.objects.filter(user=user).first()
    matches = []
    for match in selectors.user_matches(user).order_by("id"):
        entry = selectors.match_summary(match, user)
        if match.status == match.Status.FINISHED:
            entry["record"] = selectors.record(match, user)
        entry["record_url"] = f"/api/matches/{match.pk}/record"
        matches.append(entry)
    chat = [
        {"id": m.pk, "match": m.match_id, "channel": m.channel, "text": m.text, "created_at": _iso(m.created_at),
         "hidden": sanctions.is_hidden(m.pk)}
        for m in ChatMessage.objects.filter(author=user).order_by("id")
    ]
    return {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "profile": {
            "id": user.pk, "username": user.username, "email": user.email or None,
            "email_verified": emails.is_verified(user), "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login),
        },
        "settings": {
            "sound": bool(prefs and prefs.sound), "browser": bool(prefs and prefs.browser),
            "email_turn": bool(prefs and prefs.email_turn),
            "muted_users": sorted(ChatMute.objects.filter(user=user).values_list("muted__username", flat=True)),
        },
        "ratings": ranking.ratings_of(user),
        "rating_history": ranking.history_of(user),
        "matches": matches,
        "chat_messages": chat,
        "chat_reports_made": [
            {"message": r.message_id, "at": _iso(r.created_at)}
            for r in ChatReport.objects.filter(reporter=user).order_by("id")
        ],
        "moderation": [
            {"kind": a.kind, "reason": a.reason, "until": _iso(a.until), "at": _iso(a.created_at),
             "message": a.message_id}
            for a in ModerationAction.objects.filter(subject=user).order_by("id")
        ],
    }
