"""Per-user live messages over the channel layer: group ``user-<id>``.

Only small JSON travels (a match id and its page address, a challenge id);
the websocket consumer (frontend/consumers_ranking.py) forwards it to the
browser, which goes to the match.  Sent after commit only.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from .. import db

logger = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def send_now(user_id: int, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(user_group(user_id), {"type": "user.message", "message": message})
    except Exception:  # committed already; the lobby's polling shows it a few seconds later
        logger.exception("could not notify user %s", user_id)


def on_commit(user_id: int, message: dict[str, Any]) -> None:
    transaction.on_commit(partial(send_now, user_id, message), using=db.alias())


def match_found(user_id: int, match_id: int, *, reason: str) -> None:
    on_commit(user_id, {"type": "match_found", "match": match_id, "url": f"/matches/{match_id}/", "reason": reason})
