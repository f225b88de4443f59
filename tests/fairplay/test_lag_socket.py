"""Lag measured on the match socket: pings timed by the server, a recent estimate per seat in Redis, and the
lag credit capped by it."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client

from games import services
from games.clocks import LAG_CAP
from games.fairplay import lag, presence
from games.models import Event
from tests.ranking.helpers import new_match

from .test_lag import mover_and_action
from .test_presence_sockets import TIMEOUT, socket, until

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


def is_ping(message: str) -> bool:
    return message.startswith("{") and json.loads(message).get("type") == "ping"


def test_a_players_socket_pings_times_the_pong_and_keeps_a_recent_estimate_in_redis(alice, bob, carol, settings):
    settings.CAIRN_LAG_PING_SECONDS = 0.3
    match = new_match([alice, bob])
    path = f"/ws/matches/{match.pk}/?presence=1&lag=1"  # as the match page asks

    async def scenario() -> None:
        player, spectator = socket(alice, path), socket(carol, path)
        assert (await spectator.connect(timeout=TIMEOUT))[0]
        await spectator.receive_from(timeout=TIMEOUT)  # the catch-up push
        assert (await player.connect(timeout=TIMEOUT))[0]
        first = json.loads(await until(player, is_ping))
        assert abs(first["server_ms"] - time.time() * 1000) < 2000 and first["rtt_ms"] is None
        assert await database_sync_to_async(lag.estimate_ms)(match.pk, 0) is None
        await player.send_to(text_data=json.dumps({"type": "pong", "id": first["id"] + 99}))  # not one we sent
        await asyncio.sleep(0.1)
        assert await database_sync_to_async(lag.estimate_ms)(match.pk, 0) is None
        await asyncio.sleep(0.05)  # a round trip of at least 50 ms
        await player.send_to(text_data=json.dumps({"type": "pong", "id": first["id"]}))
        second = json.loads(await until(player, is_ping))
        assert second["id"] == first["id"] + 1 and 150 <= second["rtt_ms"] < 5000  # timed by the server
        for _ in range(50):  # stored from the worker pool
            estimate = await database_sync_to_async(lag.estimate_ms)(match.pk, 0)
            if estimate is not None:
                break
            await asyncio.sleep(0.05)
        assert estimate == second["rtt_ms"]
        assert 0 < presence._redis().ttl(lag._key(match.pk, 0)) <= lag.TTL  # it expires
        await player.send_to(text_data=json.dumps({"type": "pong", "id": first["id"]}))  # answered twice: once
        await asyncio.sleep(0.1)
        assert await database_sync_to_async(lag.estimate_ms)(match.pk, 0) == estimate
        assert not [m for m in await drain(spectator) if is_ping(m)]  # spectators are not pinged
        quiet = socket(bob, f"/ws/matches/{match.pk}/")  # a socket that does not answer pings gets none
        assert (await quiet.connect(timeout=TIMEOUT))[0]
        assert not [m for m in await drain(quiet) if is_ping(m)]
        await quiet.disconnect()
        await player.disconnect()
        await spectator.disconnect()

    async_to_sync(scenario)()


async def drain(communicator, seconds: float = 0.8) -> list[str]:
    """Every message received within ``seconds``."""
    found: list[str] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        if not await communicator.receive_nothing(timeout=0.1):  # (a timed-out receive would end the app)
            found.append(await communicator.receive_from(timeout=TIMEOUT))
    return found


def test_any_other_message_is_still_answered_with_a_fresh_fragment(alice, bob):
    match = new_match([alice, bob])

    async def scenario() -> None:
        viewer = socket(alice, f"/ws/matches/{match.pk}/?lag=1")
        assert (await viewer.connect(timeout=TIMEOUT))[0]
        await viewer.send_to(text_data="refresh")
        assert 'id="match-live"' in await until(viewer, lambda m: not is_ping(m))
        await viewer.disconnect()

    async_to_sync(scenario)()


def test_the_estimate_follows_recent_round_trips_and_drops_what_is_not_lag():
    assert lag.fold(None, 100) == 100
    assert lag.fold(100, 200) == pytest.approx(130)  # 30% of the newest sample
    assert lag.record(1, 0, 12_000) is None and lag.estimate_ms(1, 0) is None  # a page asleep is not lag
    assert lag.record(1, 0, 80) == 80 and lag.record(1, 0, 180) == 110
    assert lag.estimate_ms(1, 0) == 110 and lag.estimate_ms(1, 1) is None


@pytest.mark.parametrize(("claimed", "measured", "used"), [
    (400, 120.0, 120.0),  # the socket caps what the page claims
    (80, 120.0, 80.0),  # a claim below the socket's figure stands
    (None, 120.0, 120.0),  # nothing claimed: the socket's figure
    (250, None, 250.0),  # no socket: the claim, as before
    (None, None, 0.0),
])
def test_the_lag_a_move_is_credited_from_is_the_sockets_estimate_capped_by_the_claim(claimed, measured, used):
    assert lag.lag_for_move(claimed, measured) == used


def test_a_moves_credit_uses_the_sockets_estimate(alice, bob):
    match = new_match([alice, bob], time_control="5+10")
    user, seat, action, seq = mover_and_action(match, [alice, bob])
    lag.record(match.pk, seat, 120)
    services.submit_action(match_id=match.pk, user=user, action=action, expected_seq=seq, lag_ms=4000)
    assert Event.objects.get(match=match, type="lag_credit").payload == {"seat": seat, "seconds": 0.12}
    user, seat, action, seq = mover_and_action(match, [alice, bob])
    lag.record(match.pk, seat, 2000)  # a slow network: the cap per move still holds
    services.submit_action(match_id=match.pk, user=user, action=action, expected_seq=seq)
    assert Event.objects.filter(match=match, type="lag_credit").last().payload == {"seat": seat, "seconds": LAG_CAP}


def test_a_correspondence_move_reads_no_estimate_and_gets_no_credit(alice, bob, monkeypatch):
    match = new_match([alice, bob], time_control="3d")
    user, seat, action, seq = mover_and_action(match, [alice, bob])
    monkeypatch.setattr(lag, "estimate_ms", lambda *a: pytest.fail("read on a correspondence clock"))
    services.submit_action(match_id=match.pk, user=user, action=action, expected_seq=seq, lag_ms=300)
    assert not Event.objects.filter(match=match, type="lag_credit").exists()


def test_the_players_clocks_carry_their_deadline_for_the_server_clock_and_spectators_do_not(alice, bob, carol):
    match = new_match([alice, bob], time_control="5+10")
    player = Client()
    player.force_login(alice)
    page = player.get(f"/matches/{match.pk}/").content.decode()
    assert 'class="rk-clock running" data-remaining=' in page and "data-deadline=" in page
    spectator = Client()
    spectator.force_login(carol)
    assert "data-deadline=" not in spectator.get(f"/matches/{match.pk}/").content.decode()
