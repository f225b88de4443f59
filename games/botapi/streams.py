"""NDJSON streams over HTTP: ``GET /api/stream/event`` (the account's events) and ``GET /api/stream/match/{id}``.

Each stream is a Django async view whose ``StreamingHttpResponse`` iterates an async generator on the
ASGI event loop: no thread is held while a stream waits.  Database reads run in a worker thread once per
batch of changes (``sync_to_async``).  A stream listens on the channel layer's groups (``match-<id>``,
``user-<id>``: games.notify) through a channel of its own (``new_channel`` + ``group_add``, and
``group_discard`` when it closes), and drops any message :func:`games.notify.ours` does not accept.

* A line is one JSON object and ``\\n``; an empty line is the keep-alive, sent after
  ``STREAM_KEEPALIVE_SECONDS`` without another line.
* A match stream keeps no backlog: a change only wakes it, and it reads the events after the last seq
  it sent (:func:`games.selectors.visible_events`, the one redaction path): one read per viewer class
  and position, shared by every stream of the match in the process (:mod:`games.coalesce`; a spectator
  of a delayed match reads their own).  The account stream keeps
  at most :data:`QUEUE_SIZE` messages; when a client stops reading and that queue fills, the stream ends.
* Each stream ends after ``STREAM_MAX_SECONDS``; an account holds at most ``STREAM_MAX_PER_USER``
  streams at once (``429 too_many_streams`` beyond).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone

from .. import clocks, notify, selectors
from ..coalesce import Coalescer
from ..errors import DomainError
from ..ids import MAX_ID
from ..models import Match
from ..projection import legal_actions, observation, to_move
from . import streamcaps
from .streamauth import StreamRefused, authenticate, with_db

QUEUE_SIZE = 100  # account-stream messages waiting for a client that reads slowly
ACTIVE_MATCHES = 200  # the newest active matches an account stream watches for "your turn"
RECHECK_TICKS = 3  # every third quiet keep-alive, the account stream reads its matches again (a lost message)


def _run(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in a worker thread (the executor's bounded pool), not on the event loop."""
    return sync_to_async(with_db, thread_sensitive=False)(fn, *args)


def _line(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), default=str).encode("utf-8") + b"\n"


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JsonResponse:
    response = JsonResponse({"error": {"code": code, "message": message}}, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


class Stream:
    """One open stream: its channel, its groups, its place under the account's cap."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.layer = get_channel_layer()
        self.channel = ""
        self.groups: set[str] = set()
        self.slot = ""
        self.started = self.refreshed = time.monotonic()

    async def open(self) -> None:
        self.slot = await _run(streamcaps.acquire, self.user_id)
        if self.layer is not None:
            self.channel = await self.layer.new_channel()

    async def join(self, group: str) -> None:
        if self.layer is not None and group not in self.groups:
            await self.layer.group_add(group, self.channel)
            self.groups.add(group)

    async def leave(self, group: str) -> None:
        if self.layer is not None and group in self.groups:
            self.groups.discard(group)
            await self.layer.group_discard(group, self.channel)

    async def receive(self) -> dict[str, Any]:
        if self.layer is None:
            await asyncio.Event().wait()  # no layer: only the keep-alive ticks wake the stream
        while True:
            message: dict[str, Any] = await self.layer.receive(self.channel)
            if notify.ours(message):
                return message

    def expired(self) -> bool:
        return time.monotonic() - self.started >= settings.CAIRN_STREAM_MAX_SECONDS

    async def tick(self) -> None:
        """Keep this stream's place under the cap (refreshed once a keep-alive interval)."""
        now = time.monotonic()
        if now - self.refreshed >= settings.CAIRN_STREAM_KEEPALIVE_SECONDS:
            self.refreshed = now
            await _run(streamcaps.refresh, self.user_id, self.slot)

    async def close(self) -> None:
        for group in list(self.groups):
            try:
                await self.leave(group)
            except Exception:  # noqa: BLE001 - closing; the layer's group expiry removes it anyway
                pass
        if self.slot:
            await _run(streamcaps.release, self.user_id, self.slot)


def _parse_after(request: HttpRequest) -> int | None:
    raw = request.GET.get("after")
    if raw is None:
        return None
    try:
        after = int(raw)
        if not 0 <= after <= MAX_ID:
            raise ValueError
    except ValueError:
        raise StreamRefused(400, "bad_after", f"'after' must be a non-negative integer, not {raw[:40]!r}") from None
    return after


# ------------------------------------------------------------------ the match stream


def _match_snapshot(match_id: int, user: Any, after: int | None) -> tuple[dict[str, Any] | None, dict[str, Any], int]:
    """The first line (the match body), the change line of the events after ``after``, and the seq reached."""
    match = selectors.get_match(match_id)
    delayed = selectors.delayed_aggregate(match, user)  # a spectator of a match shown behind
    aggregate = delayed if delayed is not None else selectors.load_aggregate(match)
    body = selectors.match_view(match, user, aggregate=aggregate)
    change = _change(match, user, aggregate, after if after is not None else aggregate.seq)
    return body, change, aggregate.seq


def _change(match: Match, user: Any, aggregate: Any, after: int) -> dict[str, Any]:
    """One change line: the events after ``after`` this viewer may see, and where the match stands."""
    viewer = selectors.seat_of(match, user)
    state = aggregate.state
    active = aggregate.status == Match.Status.ACTIVE
    view = observation(state, viewer)
    return {
        "type": "events",
        "match": match.pk,
        "seq": aggregate.seq,
        "status": aggregate.status,
        "to_move": to_move(state, viewer, view) if active else [],
        "legal_actions": legal_actions(state, viewer) if active else [],
        "clock": clocks.clock_view(match, aggregate.clock, timezone.now()),
        "result": aggregate.result if aggregate.status == Match.Status.FINISHED else None,
        "events": selectors.visible_events(match, user, after, aggregate=aggregate),
    }


def _match_changes(match_id: int, user: Any, last: int) -> dict[str, Any] | None:
    """The change line after seq ``last``, or None when the viewer is shown nothing new."""
    match = selectors.get_match(match_id)
    delayed = selectors.delayed_aggregate(match, user)
    aggregate = delayed if delayed is not None else selectors.load_aggregate(match)
    if aggregate.seq <= last:
        return None
    return _change(match, user, aggregate, last)


# The streams of one match ask for the same change line at the same moment after a move: one read per viewer
# class (a seat, or the undelayed spectators) and position, shared, and kept briefly for a stream a step behind.
_heads = Coalescer(size=0, ttl=0)
_lines = Coalescer(size=512, ttl=2.0)


def _head(match_id: int) -> tuple[Match, int, str]:
    match = selectors.get_match(match_id)
    return match, match.seq, match.last_hash


async def _next_line(match_id: int, user: Any, last: int) -> dict[str, Any] | None:
    """The change line after seq ``last`` for ``user`` (None when there is nothing new), shared by every stream
    of the same viewer class at the same position.  A spectator of a delayed match reads their own."""
    match, seq, last_hash = await _heads.get(match_id, lambda: _run(_head, match_id))
    viewer = selectors.seat_of(match, user)
    line: dict[str, Any] | None
    if viewer is None and selectors.spectator_delay(match) is not None:
        line = await _run(_match_changes, match_id, user, last)
        return line
    if seq <= last:
        return None
    key = (match_id, seq, last_hash, viewer, last)
    line = await _lines.get(key, lambda: _run(_change_at, match, user, last))
    return line


def _change_at(match: Match, user: Any, last: int) -> dict[str, Any] | None:
    aggregate = selectors.load_aggregate(match)
    return _change(match, user, aggregate, last) if aggregate.seq > last else None


async def _match_lines(stream: Stream, match_id: int, user: Any, after: int | None,
                       first: tuple[dict[str, Any], dict[str, Any], int]) -> AsyncIterator[bytes]:
    body, change, last = first
    if after is not None:
        last = max(last, after)  # a client ahead of what it is shown (a spectator's delay) gets nothing twice
    keepalive = settings.CAIRN_STREAM_KEEPALIVE_SECONDS
    changed = asyncio.Event()

    async def listen() -> None:
        while True:
            if (await stream.receive()).get("type") == "match.changed":
                changed.set()  # coalesced: a burst of moves is one wake-up, and nothing queues up

    listener = asyncio.ensure_future(listen())
    try:
        yield _line(body)
        if after is not None and change["events"]:
            yield _line(change)
        if body["status"] == Match.Status.FINISHED:
            return
        sent = time.monotonic()  # when the last line went out
        while not stream.expired():
            try:
                await asyncio.wait_for(changed.wait(), timeout=max(0.0, sent + keepalive - time.monotonic()))
            except TimeoutError:
                pass
            changed.clear()
            await stream.tick()
            # Also on a keep-alive tick: a spectator's delay passing, or a lost group message.
            line = await _next_line(match_id, user, last)
            if line is None:
                if time.monotonic() - sent >= keepalive:
                    sent = time.monotonic()
                    yield b"\n"
                continue
            last = line["seq"]
            sent = time.monotonic()
            yield _line(line)
            if line["status"] == Match.Status.FINISHED:
                return
    finally:
        listener.cancel()
        await stream.close()


async def match_stream(request: HttpRequest, match_id: int) -> HttpResponseBase:
    """``GET /api/stream/match/{id}?after=n``."""
    try:
        user = await authenticate(request)
        after = _parse_after(request)
        try:
            first = await _run(_match_snapshot, match_id, user, after)
        except DomainError as exc:
            raise StreamRefused(exc.status, exc.code, exc.message) from None
        stream = Stream(user.pk)
        await stream.open()
    except StreamRefused as exc:
        return _error(exc.status, exc.code, exc.message, exc.headers)
    try:
        await stream.join(notify.group_name(match_id))
        # A move committed between the first read and the join: the first keep-alive tick reads it.
    except Exception:
        await stream.close()
        raise
    return _ndjson(_match_lines(stream, match_id, user, after, first))


def _ndjson(lines: AsyncIterator[bytes]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


# ------------------------------------------------------------------ the account stream


def _account_start(user: Any) -> tuple[list[dict[str, Any]], list[int]]:
    """The lines an account stream opens with (challenges waiting, matches on your turn) and the active matches."""
    from ..ranking import challenges

    lines = [{"type": "challenge_received", "challenge": challenges.as_json(c)}
             for c in challenges.of_user(user)["received"]]
    active = list(selectors.user_matches(user).filter(status=Match.Status.ACTIVE)
                  .order_by("-pk").values_list("pk", flat=True)[:ACTIVE_MATCHES])
    for match_id in reversed(active):
        line = _match_state(match_id, user)
        if line is not None:
            lines.append(line)
    return lines, active


def _match_state(match_id: int, user: Any, seq: int | None = None) -> dict[str, Any] | None:
    """``your_turn`` or ``match_finished`` for one of the account's matches (at ``seq`` or later), or None."""
    for pause in (0.0, 0.05, 0.2, 0.5):
        time.sleep(pause)
        match = selectors.get_match(match_id)
        aggregate = selectors.load_aggregate(match)
        if seq is None or aggregate.seq >= seq:
            break
    else:
        return None  # not readable yet: the next keep-alive tick looks again
    viewer = selectors.seat_of(match, user)
    if viewer is None:
        return None
    if aggregate.status == Match.Status.FINISHED:
        return {"type": "match_finished", "match": match.pk, "seq": aggregate.seq, "result": aggregate.result}
    if aggregate.status == Match.Status.ACTIVE:
        state = aggregate.state
        if viewer in to_move(state, viewer, observation(state, viewer)):
            return {"type": "your_turn", "match": match.pk, "seq": aggregate.seq}
    return None


def _challenge_line(kind: str, message: dict[str, Any]) -> dict[str, Any]:
    from ..ranking import challenges
    from ..ranking.models import Challenge

    found = Challenge.objects.select_related("challenger", "challenged").filter(pk=message.get("challenge")).first()  # type: ignore[misc]  # the id the notice carries
    return {"type": kind, "challenge": challenges.as_json(found) if found else {"id": message.get("challenge")}}


def _new(line: dict[str, Any], reported: dict[int, tuple[str, int]]) -> bool:
    """Whether ``line`` says something not yet said (``your_turn`` and ``match_finished`` once per seq)."""
    if line["type"] not in ("your_turn", "match_finished"):
        return True
    key = (line["type"], line["seq"])
    if reported.get(line["match"]) == key:
        return False
    reported[line["match"]] = key
    return True


def _recheck(user: Any, match_ids: list[int]) -> list[dict[str, Any]]:
    """On a keep-alive tick: the turn and end of each watched match (a group message may have been lost)."""
    return [line for line in (_match_state(m, user) for m in match_ids) if line is not None]


USER_TYPES = {  # games.notify.to_user's message types -> the account stream's
    "challenge": "challenge_received",
    "challenge_cancelled": "challenge_cancelled",
    "challenge_declined": "challenge_declined",
    "challenge_expired": "challenge_expired",
    "challenge_accepted": "challenge_accepted",
}


async def _account_lines(stream: Stream, user: Any, first: list[dict[str, Any]]) -> AsyncIterator[bytes]:
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=QUEUE_SIZE)
    overflow = asyncio.Event()
    reported: dict[int, tuple[str, int]] = {}  # match -> the last line sent for it (no repeats)

    async def listen() -> None:
        while True:
            message = await stream.receive()
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                overflow.set()  # the client stopped reading: end the stream rather than buffer
                return

    listener = asyncio.ensure_future(listen())
    keepalive = settings.CAIRN_STREAM_KEEPALIVE_SECONDS
    try:
        for line in first:
            _new(line, reported)
            yield _line(line)
        ticks = 0
        while not stream.expired() and not overflow.is_set():
            try:
                message = await asyncio.wait_for(queue.get(), timeout=keepalive)
            except TimeoutError:
                await stream.tick()
                ticks += 1
                if ticks % RECHECK_TICKS == 0:
                    watched = [int(g.split("-")[1]) for g in stream.groups if g.startswith("match-")]
                    for line in await _run(_recheck, user, watched):
                        if _new(line, reported):
                            yield _line(line)
                yield b"\n"
                continue
            await stream.tick()
            translated = await _translate(stream, user, message)
            if translated is None or not _new(translated, reported):
                continue
            if translated["type"] == "match_finished":
                await stream.leave(notify.group_name(translated["match"]))
            yield _line(translated)
    finally:
        listener.cancel()
        await stream.close()


async def _translate(stream: Stream, user: Any, message: dict[str, Any]) -> dict[str, Any] | None:
    line: dict[str, Any] | None
    if message.get("type") == "match.changed":
        line = await _run(_match_state, message.get("match_id"), user, message.get("seq"))
        return line
    if message.get("type") != "user.message":
        return None
    body = message.get("message") or {}
    kind = body.get("type")
    if kind == "match_found":
        await stream.join(notify.group_name(body["match"]))
        return {"type": "match_started", "match": body["match"], "reason": body.get("reason")}
    if kind in USER_TYPES:
        line = await _run(_challenge_line, USER_TYPES[kind], body)
        return line
    if kind == "rematch_offered":
        return {"type": "rematch_offered", "match": body.get("match"), "from": body.get("from")}
    return None


async def event_stream(request: HttpRequest) -> HttpResponseBase:
    """``GET /api/stream/event``."""
    try:
        user = await authenticate(request)
        stream = Stream(user.pk)
        await stream.open()
    except StreamRefused as exc:
        return _error(exc.status, exc.code, exc.message, exc.headers)
    try:
        await stream.join(notify.user_group(user.pk))
        first, active = await _run(_account_start, user)
        for match_id in active:
            await stream.join(notify.group_name(match_id))
    except Exception:
        await stream.close()
        raise
    return _ndjson(_account_lines(stream, user, first))
