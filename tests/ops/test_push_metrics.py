"""The websocket side of the metrics: open sockets, move -> push latency, fan-out renders and cache hits."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from prometheus_client import REGISTRY

from games import services
from tests.frontend.helpers import mover, two_player_match
from tests.frontend.test_consumers import TIMEOUT, connect_as

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_sockets_pushes_and_renders_are_counted(alice, bob, carol) -> None:
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    before = {
        "open": value("cairn_websockets_open"),
        "pushes": value("cairn_move_push_latency_seconds_count"),
        "renders": value("cairn_fanout_renders_total"),
        "hits": value("cairn_fanout_cache_hits_total"),
    }
    seen: dict[str, float] = {}

    async def scenario() -> None:
        # Two spectators: one render of the spectators' fragment, the other socket served from it.
        sockets = [connect_as(user, match.pk) for user in (alice, bob, carol, carol)]
        for socket in sockets:
            connected, _ = await socket.connect(timeout=TIMEOUT)
            assert connected
            await socket.receive_from(timeout=TIMEOUT)
        seen["open"] = value("cairn_websockets_open")
        await database_sync_to_async(services.submit_action)(
            match_id=match.pk, user=player, action={"climb": []}, expected_seq=match.seq
        )
        for socket in sockets:
            await socket.receive_from(timeout=TIMEOUT)
        for socket in sockets:
            await socket.disconnect()

    async_to_sync(scenario)()
    assert seen["open"] == before["open"] + 4
    assert value("cairn_websockets_open") == before["open"]
    # Every socket that got the move's push observed its latency (the seats' and the spectators').
    assert value("cairn_move_push_latency_seconds_count") == before["pushes"] + 4
    assert value("cairn_fanout_renders_total") > before["renders"]
    assert value("cairn_fanout_cache_hits_total") > before["hits"]
