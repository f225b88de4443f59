"""Pushes of the table plug-in: only ids and kinds travel, each socket renders for its own viewer.

``{"type": "table.message", "kind": ..., ...}`` goes to a match's group
(``match-<id>``, the group of its websocket) or to the lobby's group; the
frontend's consumers hand it to ``frontend.table.render_push``.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games import db, notify

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
MESSAGE_TYPE = "table.message"


def send(group: str, kind: str, **ids: Any) -> None:
    """Send ``{"type": "table.message", "kind": kind, **ids}`` to ``group`` now (a lost push is logged)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, notify.stamped({"type": MESSAGE_TYPE, "kind": kind, **ids}))
    except Exception:  # committed already: the page shows it at its next load
        logger.exception("could not push %s to %s", kind, group)


def on_commit(group: str, kind: str, **ids: Any) -> None:
    transaction.on_commit(lambda: send(group, kind, **ids), using=db.alias())


def match_group(match_id: int) -> str:
    return notify.group_name(match_id)
