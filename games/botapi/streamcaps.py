"""At most ``STREAM_MAX_PER_USER`` open streams per account, counted across every web process.

On Redis each open stream is a member of the account's sorted set, scored by the time it lapses
unless refreshed; each keep-alive tick refreshes it, so the streams of a process that died stop
counting after three keep-alive intervals.  Without Redis (one process) a dictionary counts them.
"""

from __future__ import annotations

import secrets
import threading
import time

from django.conf import settings

from ..api.throttles import redis_client
from .streamauth import StreamRefused

_local: dict[int, dict[str, float]] = {}
_guard = threading.Lock()


def _key(user_id: int) -> str:
    return f"{settings.CHANNEL_PREFIX}:streams:{getattr(settings, 'CAIRN_RATE_LIMIT_NAMESPACE', '')}:{user_id}"


def _lapse() -> float:
    return time.time() + 3 * settings.CAIRN_STREAM_KEEPALIVE_SECONDS + 5


def acquire(user_id: int) -> str:
    """A slot for one more stream of ``user_id``, or ``429 too_many_streams``."""
    limit = settings.CAIRN_STREAM_MAX_PER_USER
    slot = secrets.token_hex(8)
    client = redis_client()
    now = time.time()
    if client is not None:
        key = _key(user_id)
        pipe = client.pipeline(transaction=True)
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zadd(key, {slot: _lapse()})
        pipe.zcard(key)
        pipe.expire(key, int(settings.CAIRN_STREAM_MAX_SECONDS) + 60)
        count = pipe.execute()[2]
        if count > limit:
            client.zrem(key, slot)
            _refuse(limit)
        return slot
    with _guard:
        mine = {s: t for s, t in _local.get(user_id, {}).items() if t > now}
        if len(mine) >= limit:
            _refuse(limit)
        mine[slot] = _lapse()
        _local[user_id] = mine
    return slot


def _refuse(limit: int) -> None:
    raise StreamRefused(429, "too_many_streams", f"an account may hold at most {limit} open streams; close one first",
                        {"Retry-After": str(settings.CAIRN_STREAM_KEEPALIVE_SECONDS)})


def refresh(user_id: int, slot: str) -> None:
    client = redis_client()
    if client is not None:
        client.zadd(_key(user_id), {slot: _lapse()}, xx=True)
        return
    with _guard:
        if slot in _local.get(user_id, {}):
            _local[user_id][slot] = _lapse()


def release(user_id: int, slot: str) -> None:
    client = redis_client()
    if client is not None:
        client.zrem(_key(user_id), slot)
        return
    with _guard:
        _local.get(user_id, {}).pop(slot, None)
