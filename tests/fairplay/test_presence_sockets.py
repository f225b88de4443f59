"""Presence through the real match and user sockets: marked in Redis, kept alive, pushed to every viewer."""

from __future__ import annotations

import asyncio
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from frontend.routing import websocket_urlpatterns
from games.fairplay import presence
from tests.ranking.helpers import new_match

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

TIMEOUT = 10


def socket(user, path: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    communicator.scope["user"] = user
    return communicator


async def until(communicator: WebsocketCommunicator, predicate) -> str:
    """The first message that satisfies ``predicate`` (others are skipped)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + TIMEOUT
    while loop.time() < end:
        message = await communicator.receive_from(timeout=end - loop.time())
        if predicate(message):
            return message
    raise AssertionError("no such message")


def seat_state(html: str, seat: int) -> str | None:
    found = re.search(rf'class="presence-seat (\w+)" data-seat="{seat}"', html)
    return found.group(1) if found else None


def test_a_players_socket_marks_the_seat_present_and_every_viewer_sees_them_go(alice, bob, carol, settings):
    settings.CAIRN_PRESENCE_TTL_SECONDS = 3  # refreshed every second while open
    match = new_match([alice, bob])
    path = f"/ws/matches/{match.pk}/?presence=1"  # as the match page asks
    async def scenario() -> None:
        watcher, stayer, leaver = socket(carol, path), socket(alice, path), socket(bob, path)
        for communicator in (watcher, stayer):
            assert (await communicator.connect(timeout=TIMEOUT))[0]
        await until(watcher, lambda m: seat_state(m, 0) == "here")  # alice arrived: pushed to the spectator
        assert (await leaver.connect(timeout=TIMEOUT))[0]
        await until(watcher, lambda m: seat_state(m, 1) == "here")
        await asyncio.sleep(4)  # past the expiry: the open sockets kept their seats present
        found = await database_sync_to_async(presence.seats)(match.pk, 2)
        assert found[0].here and found[1].here
        await leaver.disconnect()
        seen_by_spectator = await until(watcher, lambda m: seat_state(m, 1) == "gone")
        seen_by_player = await until(stayer, lambda m: seat_state(m, 1) == "gone")
        assert 'hx-swap-oob="true"' in seen_by_spectator and "Claim victory" not in seen_by_spectator
        assert "bob has left: if they are still gone in" in seen_by_player  # the claim is offered after the grace
        found = await database_sync_to_async(presence.seats)(match.pk, 2)
        assert found[0].here and not found[1].here and found[1].seen is not None
        await watcher.disconnect()
        await stayer.disconnect()
        quiet = socket(carol, f"/ws/matches/{match.pk}/")  # a socket that draws no panel is sent none
        assert (await quiet.connect(timeout=TIMEOUT))[0]
        await quiet.receive_from(timeout=TIMEOUT)  # the catch-up push
        again = socket(bob, path)
        assert (await again.connect(timeout=TIMEOUT))[0]
        assert await quiet.receive_nothing(timeout=1.0)
        await again.disconnect()
        await quiet.disconnect()

    async_to_sync(scenario)()


def test_the_user_socket_marks_a_persons_pages_open_and_closed(alice):
    async def scenario() -> None:
        first, second = socket(alice, "/ws/user/"), socket(alice, "/ws/user/")
        for communicator in (first, second):
            assert (await communicator.connect(timeout=TIMEOUT))[0]
        assert (await database_sync_to_async(presence.pages)([alice.pk]))[alice.pk].here
        await first.disconnect()
        assert (await database_sync_to_async(presence.pages)([alice.pk]))[alice.pk].here  # a tab is still open
        await second.disconnect()
        closed = (await database_sync_to_async(presence.pages)([alice.pk]))[alice.pk]
        assert not closed.here and closed.seen is not None

    async_to_sync(scenario)()
