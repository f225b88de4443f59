"""Concurrent asks for one result share one computation; results are kept a short while.

The read side uses it wherever many viewers ask for the same thing at the same moment: the sockets of
one match asking for a position's fragment (``frontend.fanout``), the API streams of one match asking
for its change line (``games.botapi.streams``).  It lives on the event loop: :meth:`Coalescer.get`
is awaited there, and only :meth:`Coalescer.peek` and :meth:`Coalescer.put` may be called from another thread.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any


class Coalescer:
    """Concurrent calls with one key share one future; finished results are kept ``ttl`` seconds (LRU)."""

    def __init__(self, size: int, ttl: float) -> None:
        self.size = size
        self.ttl = ttl
        self._done: OrderedDict[Any, tuple[float, Any]] = OrderedDict()
        self._running: dict[Any, asyncio.Future[Any]] = {}  # touched on the event loop's thread only
        self._lock = threading.Lock()  # guards _done, which put() may fill from another thread
        self.stats = {"hits": 0, "joined": 0, "computed": 0}

    async def get(self, key: Any, compute: Callable[[], Awaitable[Any]]) -> Any:
        with self._lock:
            found = self._done.get(key)
            if found is not None:
                at, value = found
                if time.monotonic() - at <= self.ttl:
                    self._done.move_to_end(key)
                    self.stats["hits"] += 1
                    return value
                del self._done[key]
        running = self._running.get(key)
        if running is not None:
            self.stats["joined"] += 1
            return await asyncio.shield(running)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._running[key] = future
        self.stats["computed"] += 1
        try:
            value = await compute()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a failure with no joiner is not logged as unhandled
            raise
        else:
            future.set_result(value)
            self.put(key, value)
            return value
        finally:
            self._running.pop(key, None)

    def peek(self, key: Any) -> Any:
        """``key``'s kept result if it is still fresh, else None (from any thread; nothing is computed)."""
        with self._lock:
            found = self._done.get(key)
            if found is None or time.monotonic() - found[0] > self.ttl:
                return None
            self._done.move_to_end(key)
            self.stats["hits"] += 1
            return found[1]

    def put(self, key: Any, value: Any) -> None:
        """Keep ``value`` as ``key``'s result (from any thread: a commit's renders are put from its thread)."""
        if self.ttl <= 0 or self.size <= 0:
            return
        with self._lock:
            now = time.monotonic()
            self._done[key] = (now, value)
            self._done.move_to_end(key)
            # Out go the least recently used beyond the size, and expired ones at the old end.
            while len(self._done) > self.size or now - next(iter(self._done.values()))[0] > self.ttl:
                self._done.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._done.clear()
        self.stats = dict.fromkeys(self.stats, 0)
