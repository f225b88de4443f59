"""Live updates over the channel layer: the one notify module of the service.

* ``match-<id>`` groups: :func:`match_changed` tells a match's websocket
  consumers that it changed.  Only ids travel (``match_id``, ``seq``, the
  ``origin`` page's random id and which seats were sent their fragment, and
  for operations the commit's time and request id), never state or hashes: a spectator's consumer reloads the match and pushes
  the spectators' projection (``frontend.fanout``).
* ``match-<id>-seat-<n>`` groups: the sockets of the person in seat *n*.  The
  process that committed the move renders each seated person's fragment once
  (the renderer ``frontend`` registers with :func:`render_seats_with`) and
  sends it to that seat's group only, so a seat's fragment (its hidden hand)
  reaches no other socket, and no other process reads or renders it again.
  Those seats' consumers then skip the ``match-<id>`` message.
* ``origin``: a page that sends a move over HTTP gets its fragment as the
  answer, so its own socket skips that move's push (one delivery per move to
  the mover).  The web view marks the move with :func:`from_origin`; the id
  is captured when the commit hook is registered.
* ``user-<id>`` groups: :func:`to_user` sends a person small JSON (a match
  found, a challenge), which their lobby socket forwards to the browser.

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
from functools import partial
from typing import Any, Callable, Iterator

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from . import db
from .ops import logs

logger = logging.getLogger(__name__)

SEND_TIMEOUT_S = 5.0

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_loop_guard = threading.Lock()
_origin: contextvars.ContextVar[str] = contextvars.ContextVar("cairn_notify_origin", default="")
# (match id, the match as committed or None) -> (the seq shown, {seat: that seat's fragment}); set by
# frontend (render_seats_with).
SeatRenderer = Callable[[int, Any], "tuple[int, dict[int, str]]"]
_seat_renderer: SeatRenderer | None = None


def render_seats_with(renderer: SeatRenderer | None) -> SeatRenderer | None:
    """Register the function that renders every seated person's fragment of a match (returns the old one)."""
    global _seat_renderer
    old, _seat_renderer = _seat_renderer, renderer
    return old


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


def seat_group(match_id: int, seat: int) -> str:
    """The group of the sockets of the person in ``seat`` of the match."""
    return f"match-{match_id}-seat-{seat}"


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


def _group_send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each ``(group, message)`` in order, in one trip to this process's sender loop (raises on failure)."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    if "Redis" not in type(layer).__name__:
        # Other layers (in-memory) belong to the caller's loop.
        async_to_sync(send_all)()
    else:
        asyncio.run_coroutine_threadsafe(send_all(), _sender_loop()).result(timeout=SEND_TIMEOUT_S)


def _seat_fragments(match_id: int, committed: Any = None) -> tuple[int | None, dict[int, str]]:
    if _seat_renderer is None:
        return None, {}
    try:
        return _seat_renderer(match_id, committed)
    except Exception:  # the seats' consumers render their own, as spectators' do
        logger.exception("could not render the seats' fragments of match %s", match_id)
        return None, {}


def match_changed(match_id: int, seq: int, origin: str = "", committed: Any = None) -> None:
    """Tell the match's sockets that it changed.

    ``committed``: the match row as the command that changed it left it (with its seats), so that the
    seats' fragments are rendered with no read; None: read it.

    Each seated person's group gets ``{"type": "seat.fragment", "match_id", "seq", "moved", "html"[,
    "origin"]}``: their fragment, showing ``seq`` (the match as it was read after the commit: the seq
    ``moved`` of this change, or newer);
    then the match's group gets ``{"type": "match.changed", "match_id", "seq", "seats"[, "origin"]}``,
    ``seats`` naming the seats whose fragment was sent.
    """
    shown, fragments = _seat_fragments(match_id, committed)
    # For the consumers' move -> push latency metric, and their log lines (games/ops).
    trace = {"committed_at": time.time(), "request_id": logs.request_id()}
    messages: list[tuple[str, dict[str, Any]]] = []
    for seat, html in sorted(fragments.items()):
        message = {"type": "seat.fragment", "match_id": match_id, "seq": shown, "moved": seq, "html": html, **trace}
        if origin:
            message["origin"] = origin
        messages.append((seat_group(match_id, seat), message))
    changed: dict[str, Any] = {"type": "match.changed", "match_id": match_id, "seq": seq, "seats": sorted(fragments),
                               **trace}
    if origin:
        changed["origin"] = origin
    messages.append((group_name(match_id), changed))
    try:
        _group_send_all(messages)
    except Exception:  # the move is committed; a lost push only delays a page until its next update
        logger.exception("could not notify match %s of seq %s", match_id, seq)


def on_commit(match_id: int, seq: int, committed: Any = None) -> None:
    """Send :func:`match_changed` once the current transaction commits (``committed``: see there)."""
    origin = _origin.get()
    transaction.on_commit(lambda: match_changed(match_id, seq, origin, committed), using=db.alias())


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
