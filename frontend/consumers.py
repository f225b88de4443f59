"""The match websocket: an async consumer that pushes each viewer their view's fragment.

On ``match.changed`` (ids and a seq, from ``games.notify``), every socket asks
:mod:`frontend.fanout` for the fragment of its viewer's class at the new
position: one render per class and position in this process, shared by every
socket of that class, and the seq it shows comes with it as data.  Fragments go
out as htmx out-of-band swaps.  It never receives moves: those go over HTTP
through ``games.services``.

The consumer is asynchronous, so an idle socket costs no thread; database
reads and rendering run in fanout's bounded pool, and so do the table's
(the spectator count, chat and rematch pushes): Channels'
``database_sync_to_async`` would run them all on one thread per process, one
after the other, which 1,000 sockets connecting at once queue behind.  A new
message type (chat, say) is one more small ``async def`` handler here.
"""

from __future__ import annotations

import asyncio
import logging
import time
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from games.errors import DomainError
from games.notify import group_name, ours, stamped
from games.ops import logs, metrics

from . import fanout, layerwatch
from .table import render as table

log = logging.getLogger(__name__)

__all__ = ["MatchConsumer", "group_name"]

REVEAL_SLACK = 0.05  # seconds after the reveal time: the event is then surely old enough


def _query(query_string: bytes) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(query_string.decode("latin-1")).items() if v}


def _seq_from_query(query_string: bytes) -> int | None:
    try:
        return int(_query(query_string)["seq"])
    except (KeyError, ValueError):
        return None


class MatchConsumer(AsyncWebsocketConsumer):
    """``ws/matches/<id>/``: anyone may watch; each viewer sees only their own view."""

    match_id: int
    group: str | None = None
    last_seq: int | None = None
    client: str = ""
    # A spectator of a match shown N seconds behind: the timer of the next push (when more may be shown).
    reveal: asyncio.TimerHandle | None = None
    shown: int | None = None  # the seq the last pushed fragment showed (behind the live one for a delayed spectator)
    reveal_task: asyncio.Task | None = None
    presence: bool = False
    analysis: bool = False
    seat: int | None = None  # the viewer's seat (a player), whose presence this socket keeps (games.fairplay)
    alive: asyncio.Task | None = None

    async def dispatch(self, message: dict) -> None:
        """As Channels' own, without its ``aclose_old_connections()`` before every message: a trip to a
        thread for each push, and this consumer touches no database connection on its own thread (its
        reads run in fanout's pool, which closes stale connections around each)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.user = self.scope.get("user")
        head = await fanout.head(self.match_id)
        if head is None:
            await self.close(code=4404)  # before accept(): the handshake is refused
            return
        query = _query(self.scope.get("query_string", b""))
        # The page says which seq it was rendered at (``?seq=N``); only newer
        # positions are pushed, so a fresh page is not re-rendered needlessly.
        self.last_seq = _seq_from_query(self.scope.get("query_string", b""))
        # The page's own id (``?client=``): the answer to its own move is its
        # HTTP response, so that move's push is not sent to it again.
        self.client = query.get("client", "")[:64]
        # ``?presence=1``: the page draws the players' presence panel, so it is sent its pushes (games.fairplay).
        self.presence = query.get("presence") == "1"
        # ``?analysis=1``: the replay page's analysis panel waits on this socket for its progress (frontend/analysis).
        self.analysis = query.get("analysis") == "1"
        self.group = group_name(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # Pub/Sub drops what is published while Redis is away, silently: catch up when it is back.
        layerwatch.watch(self)
        await self.accept()
        metrics.WEBSOCKETS.inc()
        self.counted = True
        # Catch up at once: whatever changed between the page load (or the
        # last connection) and joining the group is in this first push.
        await self.push()
        # The spectator count (issue 16): after the catch-up push, so that many sockets
        # connecting at once are not queued behind each other's count updates.
        self.seat = await fanout.in_pool(
            table.socket_opened, self.match_id, self.channel_name, self.user, self.presence)
        if self.seat is not None:
            self.alive = asyncio.ensure_future(self.keep_alive())

    async def disconnect(self, code: int) -> None:
        layerwatch.unwatch(self)
        if getattr(self, "counted", False):
            metrics.WEBSOCKETS.dec()
            self.counted = False
        if self.reveal is not None:
            self.reveal.cancel()
        if self.alive is not None:
            self.alive.cancel()
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await fanout.in_pool(table.socket_closed, self.match_id, self.channel_name, self.user, self.seat)

    async def keep_alive(self) -> None:
        """A player's socket refreshes its seat's presence while open (it expires otherwise)."""
        from games.fairplay.presence import refresh_every

        while True:
            await asyncio.sleep(refresh_every())
            await fanout.in_pool(table.socket_alive, self.match_id, self.channel_name, self.seat)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Clients send nothing that matters; a message is answered with a fresh fragment."""
        await self.push(force=True)

    async def table_message(self, event: dict) -> None:
        """Chat, rematch offers, the spectator count (games.table): rendered for this connection's user."""
        if not ours(event) or (event.get("kind") == "presence" and not self.presence):
            return
        if event.get("kind") == "analysis" and not self.analysis:
            return  # a page without the analysis panel: nothing to swap
        html = await fanout.in_pool(table.render_push, event, self.user, self.match_id)
        if html:
            await self.send(text_data=html)

    async def match_changed(self, event: dict) -> None:
        if event.get("match_id") != self.match_id or not ours(event):
            return
        seq = event.get("seq")
        if seq is not None and self.last_seq is not None and seq <= self.last_seq:
            return  # already pushed a fragment at least this new
        if seq is not None and self.client and event.get("origin") == self.client:
            # This page made the move and has its answer already (one delivery per move).
            self.last_seq = max(self.last_seq or 0, seq)
            return
        if self.reveal is not None:
            return  # a spectator shown seconds behind: the pending reveal shows this move in its turn
        head = await fanout.head(self.match_id)
        if head is not None and fanout.delayed_in_seconds(head.match, self.user):
            await self.reveal_later(head, self.shown)  # held back: pushed once it is old enough, not when made
            return
        await self.push(head=head)
        _pushed(event)

    async def layer_recovered(self) -> None:
        """The channel layer was unreachable and is back (:mod:`frontend.layerwatch`): this socket's
        messages of the meantime may be lost, so it is pushed the match as it is now, as on a
        ``match.changed`` (if it is newer than what the page shows)."""
        await self.match_changed(stamped({"type": "match.changed", "match_id": self.match_id}))

    async def push(self, force: bool = False, head: fanout.Head | None = None) -> None:
        head = head or await fanout.head(self.match_id)
        if head is None:
            await self.close(code=4404)
            return
        if not force and self.last_seq is not None and head.seq <= self.last_seq:
            return
        try:
            shown = await fanout.fragment(head, self.user)
        except DomainError as exc:
            log.info("match %s: viewer refused: %s", self.match_id, exc.message)
            await self.close(code=4403)
            return
        if not force and self.last_seq is not None and head.seq <= self.last_seq:
            return  # a newer push went out while this one was rendered
        self.last_seq = max(self.last_seq or 0, head.seq)
        self.shown = shown.seq
        await self.send(text_data=shown.html)
        await self.reveal_later(head, self.shown)

    async def reveal_later(self, head: fanout.Head, shown: int | None) -> None:
        """A spectator of a match shown seconds behind: push again when the event after ``shown`` (the seq
        this socket was last shown) may be shown.  Counted from what was shown, not recomputed: events that
        came of age between the render and now are pushed at once rather than never."""
        wait = await fanout.reveal_in(head, self.user, shown)  # None for everyone else (no database read)
        if self.reveal is not None:
            self.reveal.cancel()
            self.reveal = None
        if wait is not None:
            self.reveal = asyncio.get_running_loop().call_later(wait + REVEAL_SLACK, self._reveal_now)

    def _reveal_now(self) -> None:
        self.reveal = None
        self.reveal_task = asyncio.ensure_future(self.push(force=True))


def _pushed(event: dict) -> None:
    """A move's push went out: its latency from the commit (metrics), under the mover's request id (logs)."""
    committed_at = event.get("committed_at")
    if isinstance(committed_at, (int, float)):
        metrics.PUSH_LATENCY.observe(max(0.0, time.time() - committed_at))
    if event.get("request_id"):
        with logs.bound(str(event["request_id"])):
            log.debug("pushed match %s seq %s", event.get("match_id"), event.get("seq"))
