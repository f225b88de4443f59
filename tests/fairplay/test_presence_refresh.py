"""Open player sockets keep their seats present: each every few seconds, those due together in one refresh."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync

from frontend import consumers, fanout
from frontend.table import render as table
from games.fairplay import presence
from tests.frontend.helpers import two_player_match
from tests.frontend.test_consumers import TIMEOUT, connect_as

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


def test_every_open_player_socket_is_refreshed_together_and_stays_present(alice, bob, settings, monkeypatch):
    settings.CAIRN_PRESENCE_TTL_SECONDS = 3  # a refresh every second
    match = two_player_match(alice, bob)
    rounds: list[list[tuple[int, str, int]]] = []
    real = table.sockets_alive

    def counted(entries: list[tuple[int, str, int]]) -> None:
        rounds.append(sorted(entries, key=lambda entry: entry[2]))
        real(entries)

    monkeypatch.setattr(table, "sockets_alive", counted)
    trips: list[str] = []
    real_aside = fanout.aside

    async def aside(fn, *args):
        trips.append(getattr(fn, "__name__", ""))
        return await real_aside(fn, *args)

    monkeypatch.setattr(fanout, "aside", aside)

    async def scenario() -> None:
        sockets = [connect_as(user, match.pk, f"?seq={match.seq}") for user in (alice, bob)]
        for socket in sockets:
            assert (await socket.connect(timeout=TIMEOUT))[0]
        await asyncio.sleep(4.5)  # past the 3 s expiry: present only if refreshed
        seats = await fanout.in_pool(presence.seats, match.pk, 2)
        assert all(seat.here for seat in seats.values()), seats
        for socket in sockets:
            await socket.disconnect()
        assert asyncio.get_running_loop() not in consumers._alive  # the last socket stopped the refresh

    async_to_sync(scenario)()
    refreshed = [seat for entries in rounds for _match, _channel, seat in entries]
    assert refreshed.count(0) >= 3 and refreshed.count(1) >= 3  # each about once a second
    assert trips.count("counted") == len(rounds)  # one trip to the bookkeeping thread per round, whatever it holds
