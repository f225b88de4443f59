"""The match websocket, driven with channels.testing.WebsocketCommunicator over the real channel layer."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from frontend.routing import websocket_urlpatterns
from games import notify, selectors, services

from .helpers import climb_buttons, data_seq, mover, two_player_match

# The consumer reads the database from its own thread, so the data must be committed.
# ("__all__": the shared tear-down empties the event log of every configured database.)
pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

TIMEOUT = 10


def connect_as(user, match_id: int, query: str = "") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/matches/{match_id}/{query}")
    communicator.scope["user"] = user
    return communicator


def run(scenario) -> None:
    async_to_sync(scenario)()


def test_each_connected_viewer_receives_their_own_fragment_after_a_move(alice, bob, carol):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    other = bob if player == alice else alice
    before = match.seq

    async def scenario() -> None:
        sockets = {user.username: connect_as(user, match.pk) for user in (alice, bob, carol)}
        for socket in sockets.values():
            connected, _ = await socket.connect(timeout=TIMEOUT)
            assert connected
            assert data_seq(await socket.receive_from(timeout=TIMEOUT)) == before  # the catch-up push
        await database_sync_to_async(services.submit_action)(
            match_id=match.pk, user=player, action={"climb": []}, expected_seq=before
        )
        pushed = {name: await socket.receive_from(timeout=TIMEOUT) for name, socket in sockets.items()}
        for socket in sockets.values():
            await socket.disconnect()

        after = (await database_sync_to_async(lambda: type(match).objects.get(pk=match.pk).seq)())
        assert after > before
        for _name, fragment in pushed.items():
            assert fragment.lstrip().startswith('<div id="match-live"')
            assert 'hx-swap-oob="true"' in fragment
            assert data_seq(fragment) == after
        # It is now the other player's turn: only their fragment offers climbs.
        assert climb_buttons(pushed[other.username]) != []
        assert climb_buttons(pushed[player.username]) == []
        assert climb_buttons(pushed["carol"]) == []
        # Each player's fragment is rendered for them.
        assert f"{other.username} <em>(you)</em>" in pushed[other.username]
        assert f"{player.username} <em>(you)</em>" in pushed[player.username]
        assert "(you)" not in pushed["carol"]

    run(scenario)


def test_a_spectator_gets_the_spectator_view(alice, bob, carol):
    match = two_player_match(alice, bob)
    spectator_view = selectors.match_view(match, carol)
    assert spectator_view["my_seat"] is None

    async def scenario() -> None:
        for user in (carol, AnonymousUser()):
            socket = connect_as(user, match.pk)
            connected, _ = await socket.connect(timeout=TIMEOUT)
            assert connected
            fragment = await socket.receive_from(timeout=TIMEOUT)
            await socket.disconnect()
            assert "spectating" in fragment
            assert "(you)" not in fragment
            assert climb_buttons(fragment) == []
            assert 'class="mg-svg"' in fragment

    run(scenario)


def test_a_page_that_is_up_to_date_gets_no_redundant_push(alice, bob):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)

    async def scenario() -> None:
        socket = connect_as(alice, match.pk, f"?seq={match.seq}")
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        assert await socket.receive_nothing(timeout=0.5)
        # A notification for a seq the page already shows is ignored too.
        await get_channel_layer().group_send(
            f"match-{match.pk}", {"type": "match.changed", "match_id": match.pk, "seq": match.seq}
        )
        assert await socket.receive_nothing(timeout=0.5)
        seq = await database_sync_to_async(services.submit_action)(
            match_id=match.pk, user=player, action={"climb": []}, expected_seq=match.seq
        )
        assert data_seq(await socket.receive_from(timeout=TIMEOUT)) == seq
        await socket.disconnect()

    run(scenario)


def test_an_unknown_match_refuses_the_connection(alice):
    async def scenario() -> None:
        socket = connect_as(alice, 987654)
        connected, code = await socket.connect(timeout=TIMEOUT)
        assert not connected
        assert code == 4404

    run(scenario)


def test_the_asgi_stack_authenticates_the_viewer_from_the_session_cookie(alice, bob, monkeypatch):
    import threading

    from channels.auth import get_user
    from django.conf import settings
    from django.test import Client

    from config.asgi import application
    from frontend import routing

    read_in = []

    class Recorded:  # channels.auth.get_user, noting the thread that reads the session's user
        @staticmethod
        def func(scope):
            read_in.append(threading.current_thread().name)
            return get_user.func(scope)

    monkeypatch.setattr(routing, "get_user", Recorded)
    match = two_player_match(alice, bob)
    client = Client()
    client.force_login(alice)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value

    async def scenario() -> None:
        socket = WebsocketCommunicator(
            application,
            f"/ws/matches/{match.pk}/",
            headers=[
                (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()),
                (b"origin", b"http://127.0.0.1"),
                (b"host", b"127.0.0.1"),
            ],
        )
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        fragment = await socket.receive_from(timeout=TIMEOUT)
        await socket.disconnect()
        assert "alice <em>(you)</em>" in fragment

    run(scenario)
    # In the render pool, not on the process's one thread for synchronous code (a connect burst's queue).
    assert len(read_in) == 1 and read_in[0].startswith("cairn-render")


def test_a_foreign_origin_is_refused(alice, bob):
    from config.asgi import application

    match = two_player_match(alice, bob)

    async def scenario() -> None:
        socket = WebsocketCommunicator(
            application, f"/ws/matches/{match.pk}/", headers=[(b"origin", b"http://evil.example")]
        )
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert not connected

    run(scenario)


def test_a_socket_acts_on_no_message_of_another_deployment(alice, bob, monkeypatch):
    """Even on a channel prefix shared by mistake, another deployment's match #N moves no socket of this one's:
    the socket is behind its match here, so acting on any of those messages would push."""
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    monkeypatch.setattr(notify, "on_commit", lambda *args: None)  # the move below is announced by hand

    async def scenario() -> None:
        socket = connect_as(alice, match.pk, f"?seq={match.seq}")
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        assert await socket.receive_nothing(timeout=0.5)  # up to date
        seq = await database_sync_to_async(services.submit_action)(
            match_id=match.pk, user=player, action={"climb": []}, expected_seq=match.seq
        )
        layer = get_channel_layer()
        changed = {"type": "match.changed", "match_id": match.pk, "seq": seq}
        await layer.group_send(f"match-{match.pk}", {**changed, "deployment": "another-deployment"})
        await layer.group_send(f"match-{match.pk}", changed)  # no deployment at all
        await layer.group_send(f"match-{match.pk}", {"type": "table.message", "kind": "chat", "id": 1,
                                                     "deployment": "another-deployment"})
        assert await socket.receive_nothing(timeout=1.0)
        await layer.group_send(f"match-{match.pk}", notify.stamped(changed))  # this deployment's: pushed
        assert data_seq(await socket.receive_from(timeout=TIMEOUT)) == seq
        await socket.disconnect()

    run(scenario)
