"""The per-user websocket: when the queue pairs players, each is told live where the match is."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from frontend.routing import websocket_urlpatterns
from games.models import Match
from games.ranking import challenges, matchmaking

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

TIMEOUT = 10


def socket_for(user) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/user/")
    communicator.scope["user"] = user
    return communicator


def test_both_players_are_told_the_match_when_the_queue_pairs_them(alice, bob):
    async def scenario() -> None:
        sockets = [socket_for(alice), socket_for(bob)]
        for socket in sockets:
            assert (await socket.connect(timeout=TIMEOUT))[0]
        for user in (alice, bob):
            await database_sync_to_async(matchmaking.join)(
                user=user, game_id="mountain-goats", players=2, time_control="5+10", rated=True
            )
        messages = [json.loads(await socket.receive_from(timeout=TIMEOUT)) for socket in sockets]
        for socket in sockets:
            await socket.disconnect()
        match = await database_sync_to_async(Match.objects.get)()
        assert messages == [{"type": "match_found", "match": match.pk, "url": f"/matches/{match.pk}/",
                             "reason": "queue"}] * 2

    async_to_sync(scenario)()


def test_a_challenge_reaches_the_challenged_player_and_anonymous_sockets_are_refused(alice, bob):
    async def scenario() -> None:
        anonymous = socket_for(AnonymousUser())
        assert not (await anonymous.connect(timeout=TIMEOUT))[0]
        socket = socket_for(bob)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        await database_sync_to_async(challenges.create)(user=alice, opponent="bob", game_id="nanga-parbat")
        message = json.loads(await socket.receive_from(timeout=TIMEOUT))
        await socket.disconnect()
        assert message["type"] == "challenge" and message["from"] == "alice"

    async_to_sync(scenario)()
