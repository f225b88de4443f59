"""The match websocket: an async consumer that pushes each viewer their view's fragment.

On ``match.changed`` (ids and a seq, from ``games.notify``), every socket asks
:mod:`frontend.fanout` for the fragment of its viewer's class at the new
position: one render per class and position in this process, shared by every
socket of that class, and the seq it shows comes with it as data.  Fragments go
out as htmx out-of-band swaps.  A page may send its moves on its socket (:meth:`MatchConsumer.move`):
they go through ``frontend.moves`` and ``games.services`` as a POST's do, and the answer is the
mover's fragment.

The consumer is asynchronous, so an idle socket costs no thread; database
reads and rendering run in fanout's bounded pool, and so do the table's
(the spectator count, chat and rematch pushes): Channels'
``database_sync_to_async`` would run them all on one thread per process, one
after the other, which 1,000 sockets connecting at once queue behind.  A new
message type (chat, say) is one more small ``async def`` handler here.

A player's socket whose page answers pings (``?lag=1``) also measures its round trip (games.fairplay.lag): it pings
every few seconds with the server's time, the page answers with a pong, and the
round trip timed here on the server's monotonic clock becomes the seat's recent
lag estimate in Redis (the lag credit of its moves is capped by it).  The page
sets its clock by the server's time in the ping and half the round trip.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import QueryDict

from games.api import throttles
from games.errors import DomainError
from games.notify import group_name, ours, stamped
from games.ops import logs, metrics

from . import fanout, layerwatch, moves, presenters
from .live import render_match_fragment
from .table import render as table

log = logging.getLogger(__name__)

__all__ = ["MatchConsumer", "group_name"]

REVEAL_SLACK = 0.05  # seconds after the reveal time: the event is then surely old enough


def _query(query_string: bytes) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(query_string.decode("latin-1")).items() if v}


MAX_MESSAGE = 64 * 1024  # characters: a move's fields are far smaller


def _message(text_data: str | None) -> dict | None:
    """A JSON object sent by the page, or None (any other text, or one too long to be a move)."""
    if not text_data or len(text_data) > MAX_MESSAGE or not text_data.startswith("{"):
        return None
    try:
        message = json.loads(text_data)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


def _error_fragment(match_id: int, user: Any, error: str) -> str:
    """``user``'s fragment of the match as it is, with ``error`` shown on the board (not cached: it is theirs)."""
    from games import selectors

    try:
        match = selectors.get_match(match_id)
    except DomainError:
        return ""
    return render_match_fragment(match, user, error=error, oob=True)


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
    lag: bool = False
    analysis: bool = False
    seat: int | None = None  # the viewer's seat (a player), whose presence this socket keeps (games.fairplay)
    pinger: asyncio.Task | None = None
    pings: dict | None = None  # ping id -> when it was sent (the event loop's monotonic clock)
    ping_id: int = 0
    rtt_ms: float | None = None  # the last round trip measured (sent with the next ping, for the page's clock)

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
        query = _query(self.scope.get("query_string", b""))
        # The page says which seq it was rendered at (``?seq=N``); only newer
        # positions are pushed, so a fresh page is not re-rendered needlessly.
        self.last_seq = _seq_from_query(self.scope.get("query_string", b""))
        self.group = group_name(self.match_id)
        # Into the group before the head is read: a move committed after the read is then announced to
        # this socket, so the first push (from this head) misses nothing.
        await self.channel_layer.group_add(self.group, self.channel_name)
        head = await fanout.head(self.match_id, self.user, after=self.last_seq)
        if head is None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None
            await self.close(code=4404)  # before accept(): the handshake is refused
            return
        # The page's own id (``?client=``): the answer to its own move is its
        # HTTP response, so that move's push is not sent to it again.
        self.client = query.get("client", "")[:64]
        # ``?presence=1``: the page draws the players' presence panel, so it is sent its pushes (games.fairplay).
        self.presence = query.get("presence") == "1"
        # ``?lag=1``: the page answers pings (lag.js), so a player's socket measures their round trip.
        self.lag = query.get("lag") == "1"
        # ``?analysis=1``: the replay page's analysis panel waits on this socket for its progress (frontend/analysis).
        self.analysis = query.get("analysis") == "1"
        # Pub/Sub drops what is published while Redis is away, silently: catch up when it is back.
        layerwatch.watch(self)
        await self.accept()
        metrics.WEBSOCKETS.inc()
        self.counted = True
        # Catch up at once: whatever changed between the page load (or the
        # last connection) and joining the group is in this first push.
        await self.push(head=head)
        # The spectator count: after the catch-up push, so that many sockets
        # connecting at once are not queued behind each other's count updates.
        self.seat = await fanout.aside(
            table.socket_opened, self.match_id, self.channel_name, self.user, self.presence, head.match)
        if self.seat is not None:
            _still_here(self)
            if self.lag:
                self.pings = {}
                self.pinger = asyncio.ensure_future(self.ping_loop())

    async def disconnect(self, code: int) -> None:
        layerwatch.unwatch(self)
        if getattr(self, "counted", False):
            metrics.WEBSOCKETS.dec()
            self.counted = False
        if self.reveal is not None:
            self.reveal.cancel()
        _gone(self)
        if self.pinger is not None:
            self.pinger.cancel()
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await fanout.aside(table.socket_closed, self.match_id, self.channel_name, self.user, self.seat)

    async def ping_loop(self) -> None:
        """A player's socket: a ping at once, then one every few seconds (games.fairplay.lag)."""
        from games.fairplay.lag import ping_every

        while True:
            await self.ping()
            await asyncio.sleep(ping_every())

    async def ping(self) -> None:
        self.ping_id += 1
        pings = self.pings if self.pings is not None else {}
        pings[self.ping_id] = asyncio.get_running_loop().time()
        for stale in [key for key in pings if key <= self.ping_id - 4]:  # unanswered: the sample is lost
            del pings[stale]
        await self.send(text_data=json.dumps({"type": "ping", "id": self.ping_id, "server_ms": round(time.time() * 1000),
                                              "rtt_ms": self.rtt_ms}))

    async def pong(self, text_data: str) -> bool:
        """A pong to one of this socket's pings: its round trip is recorded for the seat.  False: not a pong."""
        if not self.pings or not text_data.startswith("{"):
            return False
        try:
            message = json.loads(text_data)
        except ValueError:
            return False
        if not isinstance(message, dict) or message.get("type") != "pong":
            return False
        sent = self.pings.pop(message.get("id"), None) if type(message.get("id")) is int else None
        if sent is not None:
            from games.fairplay import lag

            self.rtt_ms = round((asyncio.get_running_loop().time() - sent) * 1000, 1)
            await fanout.aside(lag.record, self.match_id, self.seat, self.rtt_ms)
        return True

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A move (see :meth:`move`) is played, a pong timed; any other message is answered with a fresh fragment."""
        message = _message(text_data)
        if message is not None and message.get("type") == "move":
            await self.move(message)
            return
        if text_data and await self.pong(text_data):
            return
        await self.push(force=True)

    async def move(self, message: dict) -> None:
        """Play the move a page sends over its socket: ``{"type": "move", "id": "7", "fields": [[name, value], ...],
        "lag": ms}``, the fields of the board's form (``expected_seq`` among them).

        The answer is this socket's fragment (one render per viewer class and position, shared with the
        pushes), then ``{"type": "move.answer", "id", "status", "seq", "server_ms"}`` with the status the
        POST route would give (201, or 400/403/404/409/429 with the reason shown on the board).  The move
        is marked with this socket's origin, so its push is not sent here a second time."""
        started = time.perf_counter()
        answer_id = str(message.get("id", ""))[:32]
        try:
            fields = moves.fields_of(message.get("fields"))
        except presenters.FormError as exc:
            outcome = moves.Outcome(400, str(exc))
        else:
            outcome, head = await fanout.in_pool(self._play_and_read, fields, moves.lag_of(message.get("lag")))
        if outcome.stored:
            await self.push(force=True, head=head)
        else:
            html = await fanout.in_pool(_error_fragment, self.match_id, self.user, outcome.error or "")
            if html:
                await self.send(text_data=html)
        await self.send(text_data=json.dumps({
            "type": "move.answer", "id": answer_id, "status": outcome.status, "error": outcome.error,
            "seq": self.last_seq, "server_ms": round((time.perf_counter() - started) * 1000),
        }))

    def _play_and_read(self, fields: QueryDict, lag_ms: int | None) -> tuple[moves.Outcome, fanout.Head | None]:
        """In the pool: the move, and once stored the head it left (read again only when it ended the
        match) and the mover's fragment drawn from it (:func:`fanout.draw_ahead`), in one trip.  The
        move's match is kept for the match's other sockets in this process by the service (``games.moved``)."""
        outcome = self._play(fields, lag_ms)
        if not outcome.stored:
            return outcome, None
        if outcome.match is None:
            return outcome, fanout._load_head(self.match_id, self.user)
        head = fanout.head_of(outcome.match)
        fanout.draw_ahead(head, self.user)
        return outcome, head

    def _play(self, fields: QueryDict, lag_ms: int | None) -> moves.Outcome:
        if getattr(self.user, "is_authenticated", False):
            limited = throttles.limited_user(self.user, "actions")
            if limited:
                return moves.Outcome(429, limited)
        return moves.play(match_id=self.match_id, user=self.user, fields=fields, origin=self.origin, lag_ms=lag_ms)

    @property
    def origin(self) -> str:
        """What this socket's own moves are marked with: the page's id, or the socket's own name."""
        return self.client or self.channel_name[-64:]

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
        if seq is not None and event.get("origin") == self.origin:
            # This page made the move and has its answer already (one delivery per move).
            self.last_seq = max(self.last_seq or 0, seq)
            return
        if self.reveal is not None:
            return  # a spectator shown seconds behind: the pending reveal shows this move in its turn
        head = await fanout.head(self.match_id, self.user, after=self.last_seq, seq=seq)
        if head is not None and fanout.delayed_in_seconds(head, self.user):
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
        """Send this viewer's fragment of the match as it is (``head``: read already), unless the page has
        it (``force``: send it anyway)."""
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


# The open player sockets of each event loop (a process has one; tests run several), whose seats' presence
# one task refreshes: channel name -> [match id, seat, when it is due (the loop's clock)].  Each socket is
# due every few seconds from its own connection, as its own timer would have it, so the refreshes stay
# spread over time; those due at one tick go together, in one trip to the pool and one Redis round trip.
_alive: dict[asyncio.AbstractEventLoop, tuple[dict[str, list], asyncio.Task]] = {}


def _still_here(consumer: MatchConsumer) -> None:
    """Keep ``consumer``'s seat present while it is open (its presence expires otherwise)."""
    from games.fairplay.presence import refresh_every

    loop = asyncio.get_running_loop()
    if loop not in _alive:
        sockets: dict[str, list] = {}
        _alive[loop] = (sockets, loop.create_task(_refresh(sockets)))
    _alive[loop][0][consumer.channel_name] = [consumer.match_id, consumer.seat, loop.time() + refresh_every()]


def _gone(consumer: MatchConsumer) -> None:
    loop = asyncio.get_running_loop()
    found = _alive.get(loop)
    if found is None or found[0].pop(consumer.channel_name, None) is None or found[0]:
        return
    del _alive[loop]  # the last one: the refresh stops with it
    found[1].cancel()


async def _refresh(sockets: dict[str, list]) -> None:
    from games.fairplay.presence import refresh_every

    loop = asyncio.get_running_loop()
    while True:
        every = refresh_every()
        await asyncio.sleep(min(1.0, every / 4))
        now = loop.time()
        entries = []
        for channel, entry in sockets.items():
            if entry[2] <= now:
                entry[2] = now + every
                entries.append((entry[0], channel, entry[1]))
        if not entries:
            continue
        try:
            await fanout.aside(table.sockets_alive, entries)
        except Exception:  # the next round tries again: the refresh must not stop
            log.exception("could not refresh %s player sockets", len(entries))


def _pushed(event: dict) -> None:
    """A move's push went out: its latency from the commit (metrics), under the mover's request id (logs)."""
    committed_at = event.get("committed_at")
    if isinstance(committed_at, (int, float)):
        metrics.PUSH_LATENCY.observe(max(0.0, time.time() - committed_at))
    if event.get("request_id"):
        with logs.bound(str(event["request_id"])):
            log.debug("pushed match %s seq %s", event.get("match_id"), event.get("seq"))
