"""A match socket on the Pub/Sub channel layer catches up after Redis comes back (frontend/layerwatch.py).

The layer runs on a Redis of this test's own, which is killed and started again
(empty) while a socket is open; a move is committed meanwhile, so its push is
lost.  Redis Pub/Sub keeps nothing and the layer's ``receive()`` never tells the
consumer, so without the watch the page would show the old position until the
match changes again.  (benchmarks/faults/fault_redis_restart.py does the same
against the whole service: ``CHANNEL_LAYER=pubsub``.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from config.bundled_redis import _answers, _free_port, start
from games import services

from .helpers import data_seq, mover, two_player_match
from .test_consumers import TIMEOUT, connect_as

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

PUBSUB = "channels_redis.pubsub.RedisPubSubChannelLayer"


class OwnRedis:
    """A Redis server of this test's own, on a fixed port, that can be killed and started again."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.process, self.url = start(self.port)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)

    def restart(self) -> None:
        self.process, _ = start(self.port)
        assert _answers(self.port)


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    server = OwnRedis()
    try:
        yield server
    finally:
        server.process.kill()
        server.process.wait(timeout=10)


@pytest.fixture
def pubsub_layer(settings, own_redis):
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": PUBSUB, "CONFIG": {"hosts": [own_redis.url], "prefix": "cairn-outage-test"}}
    }
    settings.CHANNEL_LAYER_HEARTBEAT_SECONDS = 0.2
    return own_redis


def test_a_pubsub_socket_is_pushed_the_move_committed_while_redis_was_away(pubsub_layer, alice, bob, carol):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    before = match.seq

    async def scenario() -> None:
        socket = connect_as(carol, match.pk)
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        assert data_seq(await socket.receive_from(timeout=TIMEOUT)) == before
        try:
            pubsub_layer.kill()
            await asyncio.sleep(0.5)  # the watch's probes fail: the layer is marked broken
            # Committed while Redis is away: its push fails (games.notify logs it), nothing is retried.
            during = await database_sync_to_async(services.submit_action)(
                match_id=match.pk, user=player, action={"climb": []}, expected_seq=before
            )
            pubsub_layer.restart()
            # Nothing else happens in the match: only the catch-up can show the page this move.
            assert data_seq(await socket.receive_from(timeout=15)) == during
            # And the subscriptions are live again: the next move is pushed as usual.
            other = await database_sync_to_async(mover)(match, alice, bob)
            after = await database_sync_to_async(services.submit_action)(
                match_id=match.pk, user=other, action={"climb": []}, expected_seq=during
            )
            assert data_seq(await socket.receive_from(timeout=TIMEOUT)) == after
        finally:
            await socket.disconnect()

    async_to_sync(scenario)()


def test_the_queue_layer_gets_no_watch(settings):
    from frontend import layerwatch

    settings.CHANNEL_LAYER_HEARTBEAT_SECONDS = None
    assert layerwatch.heartbeat_seconds(type("RedisChannelLayer", (), {})()) == 0
    assert layerwatch.heartbeat_seconds(type("RedisPubSubChannelLayer", (), {})()) > 0
    settings.CHANNEL_LAYER_HEARTBEAT_SECONDS = 0
    assert layerwatch.heartbeat_seconds(type("RedisPubSubChannelLayer", (), {})()) == 0
