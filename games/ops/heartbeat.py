"""Celery workers say they are alive: ``/readyz``'s ``workers`` check reads it.

Each worker's main process (Celery's ``worker_ready`` signal) starts a daemon thread that writes its
hostname and the time into a sorted set in the broker's Redis every ``WORKER_HEARTBEAT_SECONDS``
(default 5), named after the deployment's queue (``cairn:workers:<queue>``), so workers of another
deployment or test run on the same Redis never count.  A worker that stops cleanly takes its entry
out; a killed one's entry just ages.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

_stop = threading.Event()


def key() -> str:
    return f"cairn:workers:{settings.CELERY_TASK_DEFAULT_QUEUE}"


def _client() -> Any:
    import redis

    return redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2, socket_connect_timeout=2)


def beat(name: str, *, now: float | None = None) -> None:
    """Record that worker ``name`` is alive now (and drop entries older than an hour)."""
    stamp = time.time() if now is None else now
    client = _client()
    try:
        pipe = client.pipeline()
        pipe.zadd(key(), {name: stamp})
        pipe.zremrangebyscore(key(), "-inf", stamp - 3600)
        pipe.expire(key(), 3600)
        pipe.execute()
    finally:
        client.close()


def forget(name: str) -> None:
    client = _client()
    try:
        client.zrem(key(), name)
    finally:
        client.close()


def newest_age(*, now: float | None = None) -> float | None:
    """Seconds since the freshest worker heartbeat, or None when there is none."""
    client = _client()
    try:
        newest = client.zrevrange(key(), 0, 0, withscores=True)
    finally:
        client.close()
    if not newest:
        return None
    return max(0.0, (time.time() if now is None else now) - float(newest[0][1]))


def start(name: str | None = None) -> threading.Thread:
    """Beat every ``CAIRN_WORKER_HEARTBEAT_SECONDS`` from a daemon thread until :func:`stop`."""
    name = name or socket.gethostname()
    every = float(getattr(settings, "CAIRN_WORKER_HEARTBEAT_SECONDS", 5))
    _stop.clear()

    def run() -> None:
        while not _stop.is_set():
            try:
                beat(name)
            except Exception as exc:  # noqa: BLE001 - Redis away: the next beat tries again
                logger.warning("worker heartbeat failed: %s", exc)
            _stop.wait(every)
        try:
            forget(name)
        except Exception:  # noqa: BLE001 - shutting down: a stale entry ages out within the hour
            pass

    thread = threading.Thread(target=run, name="cairn-worker-heartbeat", daemon=True)
    thread.start()
    return thread


def stop() -> None:
    _stop.set()
