"""A bot account's own rate limit: every API request it makes with a token (``RATE_LIMIT_BOT``)."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions

from ..api.throttles import WHAT, CairnThrottle

WHAT.setdefault("bot", "requests from this bot account")


class BotThrottle(CairnThrottle):
    scope = "bot"
    per_user = True

    def __init__(self, user: Any) -> None:
        super().__init__()
        self.user = user

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        from django.conf import settings

        namespace = getattr(settings, "CAIRN_RATE_LIMIT_NAMESPACE", "")
        return f"cairn-throttle:{namespace}:{self.scope}:user-{self.user.pk}"


def check(request: Any, user: Any) -> None:
    """Count one request of bot account ``user``: ``Throttled`` (429) over ``RATE_LIMIT_BOT``."""
    throttle = BotThrottle(user)
    if not throttle.allow_request(request, None):
        raise exceptions.Throttled(throttle.wait())
