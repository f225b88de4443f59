"""Live updates over the channel layer: the one notify module of the service.

* ``match-<id>`` groups: :func:`match_changed` tells a match's websocket
  consumers that it changed.  Only ids and numbers travel (``match_id``, the
  ``seq`` committed, the ``origin`` page's random id, and for operations the
  commit's time and request id), never state, hashes or
  HTML: each web process reads the new position and renders it once per viewer
  class for its own sockets (``frontend.fanout``).  The games layer renders
  nothing and calls nothing of the frontend.
* ``origin``: a page that sends a move over HTTP gets its fragment as the
  answer, so its own socket skips that move's push (one delivery per move to
  the mover).  The web view marks the move with :func:`from_origin`; the id
  is captured when the commit hook is registered.
* ``user-<id>`` groups: :func:`to_user` sends a person small JSON (a match
  found, a challenge), which their lobby socket forwards to the browser.
* ``deployment``: every message sent here carries ``settings.CAIRN_DEPLOYMENT``, and the consumers
  drop a message that is not their deployment's (:func:`ours`).  Each deployment's channel prefix is
  its own by default (config/settings.py), so another deployment's messages do not reach this one's
  groups even on a shared Redis server; the check keeps a misconfigured shared prefix from showing one
  deployment's matches in another's pages.

Services call the ``*_on_commit`` forms inside their transaction, so nothing is
sent for a rolled-back append.

Sending from synchronous code: ``async_to_sync(layer.group_send)`` starts a
fresh event loop, and channels-redis a fresh connection, on every call (about
7 ms here).  Instead each process keeps one small daemon thread running an
event loop, whose Redis connections are reused.  It holds no match state.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import threading
import time
from collections.abc import Iterator
from functools import partial
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from . import db
from .ops import logs

logger = logging.getLogger(__name__)

SEND_TIMEOUT_S = 5.0

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_loop_guard = threading.Lock()
_origin: contextvars.ContextVar[str] = contextvars.ContextVar("cairn_notify_origin", default="")


@contextlib.contextmanager
def from_origin(origin: str | None) -> Iterator[None]:
    """Mark the match changes committed inside this block as made by page ``origin`` (or none)."""
    token = _origin.set((origin or "")[:64])
    try:
        yield
    finally:
        _origin.reset(token)


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


def _group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group``, reusing this process's sender loop (raises on failure)."""
    _group_send_all([(group, message)])


def stamped(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` with this deployment's id, which :func:`ours` checks where it is received."""
    return {**message, "deployment": settings.CAIRN_DEPLOYMENT}


def ours(message: dict[str, Any]) -> bool:
    """Whether a group message was sent by this deployment (:func:`stamped`)."""
    return message.get("deployment") == settings.CAIRN_DEPLOYMENT


def _group_send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each ``(group, message)`` in order, in one trip to this process's sender loop (raises on failure)."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, stamped(message))

    if "Redis" not in type(layer).__name__:
        # Other layers (in-memory) belong to the caller's loop.
        async_to_sync(send_all)()
    else:
        asyncio.run_coroutine_threadsafe(send_all(), _sender_loop()).result(timeout=SEND_TIMEOUT_S)


def match_changed(match_id: int, seq: int, origin: str = "") -> None:
    """Tell the match's sockets that it changed: ``{"type": "match.changed", "match_id", "seq",
    "committed_at", "request_id"[, "origin"], "deployment"}`` to the match's group."""
    changed: dict[str, Any] = {"type": "match.changed", "match_id": match_id, "seq": seq,
                               "committed_at": time.time(), "request_id": logs.request_id()}
    if origin:
        changed["origin"] = origin
    try:
        _group_send(group_name(match_id), changed)
    except Exception:  # the move is committed; a lost push only delays a page until its next update
        logger.exception("could not notify match %s of seq %s", match_id, seq)


def on_commit(match_id: int, seq: int) -> None:
    """Send :func:`match_changed` once the current transaction commits."""
    origin = _origin.get()
    transaction.on_commit(lambda: match_changed(match_id, seq, origin), using=db.alias())


def to_group(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` (small JSON with ids only, and a ``type``) to ``group`` (raises on failure):
    the plug-ins' own groups, e.g. a tournament's page (games.tournaments.live)."""
    _group_send(group, message)


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def to_user(user_id: int, message: dict[str, Any]) -> None:
    """Send ``message`` (small JSON) to every lobby socket of ``user_id``."""
    try:
        _group_send(user_group(user_id), {"type": "user.message", "message": message})
    except Exception:  # committed already; the lobby's polling shows it a few seconds later
        logger.exception("could not notify user %s", user_id)


def to_user_on_commit(user_id: int, message: dict[str, Any]) -> None:
    """Send :func:`to_user` once the current transaction commits."""
    transaction.on_commit(partial(to_user, user_id, message), using=db.alias())


def match_found(user_id: int, match_id: int, *, reason: str) -> None:
    """Tell ``user_id`` (after commit) that a match was found for them: their page goes there."""
    to_user_on_commit(user_id, {"type": "match_found", "match": match_id, "url": f"/matches/{match_id}/", "reason": reason})
