"""Who is here, across every web process: presence in Redis, with an expiry.

* A player's match socket (``ws/matches/<id>/``) marks its seat present:
  ``<prefix>:presence:<match>:<seat>`` is a sorted set of the seat's open sockets (channel names),
  scored by the last time each said it is alive.  The socket refreshes its score every
  :func:`refresh_every` seconds while open and removes itself when it closes; a socket that never
  said goodbye (a killed process) stops counting after ``CAIRN_PRESENCE_TTL_SECONDS``, and the key
  expires with it.
* ``<prefix>:seen:<match>:<seat>``: when the seat was last known present (written on every connect,
  refresh and close), so "gone since" survives the sockets.
* ``<prefix>:presencewatch:<match>``: the sockets that draw the presence panel (``?presence=1``); a
  change of presence is pushed only while there are some.
* A person's pages (``ws/user/``, open on every page of a logged-in person): ``<prefix>:pages:<user>``
  and ``<prefix>:pageseen:<user>``, the same way but not refreshed: a page socket that never said
  goodbye stops counting after ``CAIRN_SPECTATOR_TTL_SECONDS`` (as a spectator's).  The queue ends an
  absent person's entry from them.

Nothing here is a source of truth for the match: presence only decides whether a claim or a
replacement may be made now; the events record that it was made.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings

from games.errors import DomainError

SEEN_KEEP_SECONDS = 2 * 24 * 3600  # "last seen" outlives the sockets this long


class PresenceUnavailable(DomainError):
    """Redis cannot be reached: nobody can say who is present, so nothing is decided on it."""

    status = 503


@dataclass(frozen=True)
class Presence:
    here: bool
    seen: float | None  # when last known present (epoch seconds); None: never connected


@lru_cache(maxsize=1)
def _redis() -> Any:
    import redis

    return redis.Redis.from_url(settings.REDIS_URL)


def _prefix() -> str:
    prefix: str = getattr(settings, "CHANNEL_LAYERS", {}).get("default", {}).get("CONFIG", {}).get("prefix", "cairn")
    return prefix


def ttl() -> int:
    return int(settings.CAIRN_PRESENCE_TTL_SECONDS)


def refresh_every() -> float:
    """How often an open socket says it is still here (a third of the expiry)."""
    return max(1.0, ttl() / 3)


def page_ttl() -> int:
    return int(settings.CAIRN_SPECTATOR_TTL_SECONDS)


def _mark(live_key: str, seen_key: str, channel: str, expiry: int) -> bool:
    """Add or refresh ``channel``; True if nobody was here before it."""
    pipe = _redis().pipeline()
    _queue_mark(pipe, live_key, seen_key, channel, expiry, time.time())
    return int(pipe.execute()[0]) == 0


MARK_COMMANDS = 5  # what _queue_mark queues; the first answer is the count before


def _queue_mark(pipe: Any, live_key: str, seen_key: str, channel: str, expiry: int, now: float) -> None:
    pipe.zcount(live_key, now - expiry, "+inf")
    pipe.zadd(live_key, {channel: now})
    pipe.zremrangebyscore(live_key, "-inf", now - expiry)
    pipe.expire(live_key, expiry * 2)
    pipe.set(seen_key, repr(now), ex=SEEN_KEEP_SECONDS)


def seats_here_again(entries: list[tuple[int, int, str]]) -> list[bool]:
    """:func:`seat_here` for many open sockets ((match id, seat, channel)) in one round trip: for each,
    True if its seat was absent before (its presence had expired)."""
    if not entries:
        return []
    now, expiry = time.time(), ttl()
    pipe = _redis().pipeline()
    for match_id, seat, channel in entries:
        _queue_mark(pipe, *_seat_keys(match_id, seat), channel, expiry, now)
    answers = pipe.execute()
    return [int(answers[MARK_COMMANDS * i]) == 0 for i in range(len(entries))]


def _unmark(live_key: str, seen_key: str, channel: str, expiry: int) -> bool:
    """Remove ``channel``; True if nobody is left."""
    now = time.time()
    pipe = _redis().pipeline()
    pipe.zrem(live_key, channel)
    pipe.zcount(live_key, now - expiry, "+inf")
    pipe.set(seen_key, repr(now), ex=SEEN_KEEP_SECONDS)
    return int(pipe.execute()[1]) == 0


def _read(pairs: list[tuple[str, str]], expiry: int) -> list[Presence]:
    since = time.time() - expiry
    pipe = _redis().pipeline()
    for live_key, seen_key in pairs:
        pipe.zcount(live_key, since, "+inf")
        pipe.get(seen_key)
    try:
        answers = pipe.execute()
    except Exception as exc:  # noqa: BLE001 - redis-py raises several kinds
        raise PresenceUnavailable(f"presence is unknown just now ({exc.__class__.__name__}); try again shortly",
                                  code="presence_unavailable") from None
    found = []
    for count, seen in zip(answers[0::2], answers[1::2]):
        found.append(Presence(here=int(count) > 0, seen=float(seen) if seen is not None else None))
    return found


def _seat_keys(match_id: int, seat: int) -> tuple[str, str]:
    return f"{_prefix()}:presence:{match_id}:{seat}", f"{_prefix()}:seen:{match_id}:{seat}"


def _page_keys(user_id: int) -> tuple[str, str]:
    return f"{_prefix()}:pages:{user_id}", f"{_prefix()}:pageseen:{user_id}"


def seat_here(match_id: int, seat: int, channel: str) -> bool:
    """A socket of ``seat`` is open (connected or refreshed); True if the seat was absent before."""
    return _mark(*_seat_keys(match_id, seat), channel, ttl())


def seat_gone(match_id: int, seat: int, channel: str) -> bool:
    """A socket of ``seat`` closed; True if the seat has no socket left."""
    return _unmark(*_seat_keys(match_id, seat), channel, ttl())


def seats(match_id: int, players: int) -> dict[int, Presence]:
    """Every seat's presence (503 ``presence_unavailable`` when Redis is away)."""
    return dict(enumerate(_read([_seat_keys(match_id, seat) for seat in range(players)], ttl())))


def page_here(user_id: int, channel: str) -> bool:
    return _mark(*_page_keys(user_id), channel, page_ttl())


def page_gone(user_id: int, channel: str) -> bool:
    return _unmark(*_page_keys(user_id), channel, page_ttl())


def pages(user_ids: list[int]) -> dict[int, Presence]:
    return dict(zip(user_ids, _read([_page_keys(user_id) for user_id in user_ids], page_ttl())))


def absent_since_joining(entries: list[tuple[int, float]], seconds: float) -> set[int]:
    """Of ``entries`` ((user id, when they joined the queue, epoch seconds)), the people whose last page
    closed after they joined and at least ``seconds`` ago.

    Somebody who never opened a page, or closed it before joining (an API client), is never counted
    gone; Redis being away counts nobody gone."""
    if not entries:
        return set()
    try:
        found = pages([user for user, _ in entries])
    except PresenceUnavailable:
        return set()
    cutoff = time.time() - seconds
    return {user for user, joined in entries
            if not found[user].here and (seen := found[user].seen) is not None and joined <= seen <= cutoff}


def _watch_key(match_id: int) -> str:
    return f"{_prefix()}:presencewatch:{match_id}"


def watch(match_id: int, channel: str) -> None:
    """A socket draws the presence panel (the match page's): presence changes are pushed while any does."""
    now, expiry = time.time(), page_ttl()
    key = _watch_key(match_id)
    _redis().pipeline().zadd(key, {channel: now}).zremrangebyscore(key, "-inf", now - expiry).expire(
        key, expiry).execute()


def unwatch(match_id: int, channel: str) -> None:
    _redis().zrem(_watch_key(match_id), channel)


def watched(match_id: int) -> bool:
    """Does any socket draw this match's presence panel (so a presence change is worth a push)?"""
    return int(_redis().zcount(_watch_key(match_id), time.time() - page_ttl(), "+inf")) > 0
