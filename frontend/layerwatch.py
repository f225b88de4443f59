"""Tell this process's match sockets to catch up when the channel layer may have dropped messages.

With channels-redis's ``RedisPubSubChannelLayer`` (4.3), a message reaches only
the subscribers connected at the moment it is published: Redis Pub/Sub keeps
nothing.  When Redis restarts (or the connection drops), redis-py reconnects
the layer's one subscriber connection and re-subscribes every channel and group
it had (``redis.asyncio.client.PubSub.on_connect``, called on reconnect), so
later messages flow again.  But every message published meanwhile is gone:
those sent while Redis was down fail (``games.notify`` logs "could not notify
match ..."), and those sent to the restarted, empty Redis before the
re-subscription (the layer's receive task retries about once a second) are
published to nobody, successfully.  A consumer never hears of it: the layer's
``receive()`` only waits on an in-process ``asyncio.Queue``, its receive task
logs the connection errors and retries, and its ``on_disconnect`` /
``on_reconnect`` options are stored but never called.  So a page whose match
does not change again after Redis is back (a bot match whose bot moved during
the outage) shows an old position for good.  The queue layer
(``RedisChannelLayer``) has no such hole: its ``receive()`` raises when Redis
goes, the consumer ends, and the page reconnects with ``?seq=`` and catches up.

So each event loop with match sockets on the Pub/Sub layer runs one small
watch: every ``CHANNEL_LAYER_HEARTBEAT_SECONDS`` (default 1 s) it sends a
probe to a channel of its own through the layer and waits for it to come back
(up to ``PROBE_TIMEOUT_S``).  A failed round trip marks the layer broken; the
first good round trip after that proves that this process's subscriptions are
live again (redis-py re-subscribes them all in one ``SUBSCRIBE``), and every
registered socket is asked to catch up (:meth:`MatchConsumer.layer_recovered`
re-reads the match and pushes it if it is newer than what the page shows): what
was committed before that moment is in the catch-up, what is committed after it
is pushed as usual.  An outage shorter than the heartbeat may pass unnoticed.

The watch stops when its loop's last socket goes.  Other layers get no watch
unless ``CHANNEL_LAYER_HEARTBEAT_SECONDS`` is set (0 turns it off everywhere).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

PROBE_TIMEOUT_S = 2.0


def heartbeat_seconds(layer: Any) -> float:
    """Seconds between probes of ``layer`` (0: not watched)."""
    configured = getattr(settings, "CHANNEL_LAYER_HEARTBEAT_SECONDS", None)
    if configured is not None:
        return max(0.0, float(configured))
    return 1.0 if type(layer).__name__ == "RedisPubSubChannelLayer" else 0.0


class Watch:
    """One event loop's probe of the channel layer, and the sockets to catch up when it comes back."""

    def __init__(self, layer: Any, every: float) -> None:
        self.layer = layer
        self.every = every
        self.sockets: weakref.WeakSet = weakref.WeakSet()
        self.task: asyncio.Task | None = None
        self.reader: asyncio.Task | None = None
        self.channel: str | None = None
        self.waiting: dict[str, asyncio.Future] = {}
        self.catching_up: set[asyncio.Task] = set()
        self.broken = False

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.run())

    def stop(self) -> None:
        for task in (self.task, self.reader):
            if task is not None and not task.done():
                task.cancel()
        self.task = self.reader = None
        self.channel = None

    async def run(self) -> None:
        while self.sockets:
            ok = await self.probe()
            if not ok and not self.broken:
                self.broken = True
                log.warning("the channel layer is unreachable: %d socket(s) catch up once it is back",
                            len(self.sockets))
            elif ok and self.broken:
                self.broken = False
                log.warning("the channel layer is back: %d socket(s) catch up", len(self.sockets))
                self.catch_up()
            await asyncio.sleep(self.every)

    async def probe(self) -> bool:
        """One round trip through the layer: send to our own channel and see it arrive."""
        token = uuid.uuid4().hex
        arrived = asyncio.get_running_loop().create_future()
        self.waiting[token] = arrived
        try:
            async with asyncio.timeout(PROBE_TIMEOUT_S):
                if self.channel is None:
                    # Subscribed before the first send (the Pub/Sub layer subscribes in new_channel()).
                    channel = await self.layer.new_channel()
                    self.channel = channel
                    self.reader = asyncio.ensure_future(self.read(channel))
                await self.layer.send(self.channel, {"type": "layer.probe", "token": token})
                await arrived
            return True
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - Redis down, or the probe lost: the layer is not delivering
            log.debug("channel layer probe failed: %r", exc)
            return False
        finally:
            self.waiting.pop(token, None)

    async def read(self, channel: str) -> None:
        """Read the probe channel for good (a cancelled Pub/Sub receive() unsubscribes it)."""
        while True:
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the queue layer raises while Redis is down
                await asyncio.sleep(self.every)
                continue
            arrived = self.waiting.get(message.get("token", "")) if isinstance(message, dict) else None
            if arrived is not None and not arrived.done():
                arrived.set_result(None)

    def catch_up(self) -> None:
        for socket in list(self.sockets):
            task = asyncio.ensure_future(socket.layer_recovered())
            self.catching_up.add(task)
            task.add_done_callback(self._caught_up)

    def _caught_up(self, task: asyncio.Task) -> None:
        self.catching_up.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a socket could not catch up after the channel layer came back", exc_info=task.exception())


# One watch per event loop (a loop's Pub/Sub layer has its own subscriber connection).
_watches: dict[asyncio.AbstractEventLoop, Watch] = {}


def watch(socket: Any) -> Watch | None:
    """Catch ``socket`` up (``await socket.layer_recovered()``) whenever its channel layer comes back."""
    layer = getattr(socket, "channel_layer", None)
    if layer is None:
        return None
    every = heartbeat_seconds(layer)
    if every <= 0:
        return None
    loop = asyncio.get_running_loop()
    current = _watches.get(loop)
    if current is None or current.layer is not layer:
        if current is not None:
            current.stop()
        current = _watches[loop] = Watch(layer, every)
    current.sockets.add(socket)
    current.start()
    return current


def unwatch(socket: Any) -> None:
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    current = _watches.get(loop)
    if current is None:
        return
    current.sockets.discard(socket)
    if not current.sockets:
        current.stop()
        del _watches[loop]
