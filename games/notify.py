"""Live updates: tell each match's websocket group that the match changed.

Only ids travel over the channel layer (``match_id`` and ``seq``), never
state, so nothing can leak through it: each consumer reloads the match and
renders its own viewer's projection.  Services call :func:`on_commit` inside
their transaction, so nothing is sent for a rolled-back append.

Sending from synchronous code: ``async_to_sync(layer.group_send)`` starts a
fresh event loop, and channels-redis a fresh connection, on every call (about
7 ms here).  Instead each process keeps one small daemon thread running an
event loop, whose Redis connections are reused.  It holds no match state.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from functools import partial

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from . import db

logger = logging.getLogger(__name__)

SEND_TIMEOUT_S = 5.0

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_loop_guard = threading.Lock()


def group_name(match_id: int) -> str:
    return f"match-{match_id}"


def _sender_loop() -> asyncio.AbstractEventLoop:
    """This process's sender loop (a forked worker starts its own)."""
    global _loop, _loop_pid
    with _loop_guard:
        if _loop is None or _loop_pid != os.getpid() or _loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="cairn-notify", daemon=True).start()
            _loop, _loop_pid = loop, os.getpid()
        return _loop


def match_changed(match_id: int, seq: int) -> None:
    """Send ``{"type": "match.changed", "match_id", "seq"}`` to the match's group."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "match.changed", "match_id": match_id, "seq": seq}
    try:
        if "Redis" not in type(layer).__name__:
            # Other layers (in-memory) belong to the caller's loop.
            async_to_sync(layer.group_send)(group_name(match_id), message)
        else:
            future = asyncio.run_coroutine_threadsafe(layer.group_send(group_name(match_id), message), _sender_loop())
            future.result(timeout=SEND_TIMEOUT_S)
    except Exception:  # the move is committed; a lost push only delays a page until its next update
        logger.exception("could not notify match %s of seq %s", match_id, seq)


def on_commit(match_id: int, seq: int) -> None:
    """Send :func:`match_changed` once the current transaction commits."""
    transaction.on_commit(partial(match_changed, match_id, seq), using=db.alias())
