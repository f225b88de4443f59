"""Helpers of the account and moderation tests."""

from __future__ import annotations

import re
import uuid
from typing import Any

from django.core import mail

from games import services
from games.accounts.models import VerifiedEmail
from games.accounts.staff import ensure_moderator_group
from games.models import Match

from ..frontend.helpers import two_player_match


def verified(user: Any, email: str) -> Any:
    user.email = email
    user.save(update_fields=["email"])
    VerifiedEmail.objects.create(user=user, email=email)
    return user


def finished_match(winner: Any, loser: Any) -> Match:
    match = two_player_match(winner, loser)
    services.resign(match_id=match.pk, user=loser)
    match.refresh_from_db()
    assert match.status == "finished"
    return match


def moderator(make_user: Any, name: str = "mona") -> Any:
    user = make_user(name)
    user.groups.add(ensure_moderator_group())
    return user


def link_in_last_mail(pattern: str = r"https?://\S+") -> str:
    assert mail.outbox, "no mail was sent"
    found = re.search(pattern, mail.outbox[-1].body)
    assert found, f"no link in {mail.outbox[-1].body!r}"
    return found.group(0)


def path_of(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def limits(**rates: str) -> dict:
    """Settings for a test of the rate limits: the real limits, fresh counters."""
    from django.conf import settings

    return {"CAIRN_RATE_LIMIT_FACTOR": 1, "CAIRN_RATE_LIMIT_NAMESPACE": f"t-{uuid.uuid4().hex}",
            "CAIRN_RATE_LIMITS": {**settings.CAIRN_RATE_LIMITS, **rates}}
