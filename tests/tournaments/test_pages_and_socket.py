"""Tournament pages and the live socket: standings move when a board ends; players are sent to their board."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from frontend.routing import websocket_urlpatterns
from games.tournaments import services
from games.tournaments.models import Board

TIMEOUT = 10
ARENA = {"name": "Live arena", "game": "mountain-goats", "kind": "arena", "duration_seconds": 600,
         "time_control": "3+2"}


@pytest.mark.django_db(transaction=True, databases="__all__")
def test_a_watcher_sees_the_standings_move_and_each_player_is_sent_to_their_board(alice, bob):
    tournament = services.create(user=alice, data=ARENA)
    for user in (alice, bob):
        services.join(tournament_id=tournament.pk, user=user)

    async def scenario() -> None:
        watcher = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tournaments/{tournament.pk}/")
        watcher.scope["user"] = AnonymousUser()
        player = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/user/")
        player.scope["user"] = alice
        assert (await watcher.connect(timeout=TIMEOUT))[0] and (await player.connect(timeout=TIMEOUT))[0]
        await database_sync_to_async(services.start)(tournament_id=tournament.pk)
        found = json.loads(await player.receive_from(timeout=TIMEOUT))
        board = await database_sync_to_async(Board.objects.get)(tournament=tournament)
        assert found == {"type": "match_found", "match": board.match_id, "url": f"/matches/{board.match_id}/",
                         "reason": "tournament"}
        while "playing" not in (await watcher.receive_from(timeout=TIMEOUT)):
            pass
        await database_sync_to_async(services.record_result)(match_id=board.match_id, places=[0, 1])
        html = await watcher.receive_from(timeout=TIMEOUT)
        while 'class="num t-points">2<' not in html:
            html = await watcher.receive_from(timeout=TIMEOUT)
        assert 'hx-swap-oob="true"' in html and 'id="tournament-live"' in html
        await watcher.disconnect()
        await player.disconnect()

    async_to_sync(scenario)()


@pytest.mark.django_db
def test_the_pages_list_create_show_and_join_a_tournament(alice, bob):
    browser = Client()
    browser.force_login(alice)
    made = browser.post("/tournaments/new/", {"name": "Page cup", "game": "nanga-parbat", "kind": "swiss",
                                              "rounds": "3", "time_control": "5+3", "bots_allowed": "1"})
    assert made.status_code == 302
    page = browser.get(made["Location"])
    assert page.status_code == 200 and b"Page cup" in page.content and b"bots may enter (labelled)" in page.content
    assert browser.post(made["Location"] + "bot/", {"level": "random"}).status_code == 302
    browser.force_login(bob)
    assert browser.post(made["Location"] + "join/").status_code == 302
    page = browser.get(made["Location"]).content.decode()
    assert "bob" in page and 'bot-badge' in page and "Withdraw" in page
    assert b"Page cup" in browser.get("/tournaments/").content
    refused = browser.post("/tournaments/new/", {"name": "Past", "game": "nanga-parbat", "kind": "swiss", "rounds": "3",
                                                 "starts_at": "2020-01-01T00:00:00+00:00"}, follow=True)
    assert b"is in the past" in refused.content
    assert browser.get("/seasons/mountain-goats/").status_code == 200
