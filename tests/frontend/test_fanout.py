"""One render per distinct view, and one delivery per move to the mover.

The sockets are real consumers over the real Redis channel layer
(``WebsocketCommunicator``); renders are counted at ``fanout.render_for_class``.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser

from frontend import fanout
from games import notify, services

from .helpers import climb_buttons, data_seq, mover, two_player_match
from .test_consumers import TIMEOUT, connect_as

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


@pytest.fixture(autouse=True)
def _fresh_render_pool():
    """Each test gets a fresh render pool, whose threads' database connections are closed after it."""
    from django.db import connections

    yield
    for name in ("_pool", "_side"):
        pool = getattr(fanout, name)
        if pool is not None:
            for future in [pool.submit(connections.close_all) for _ in range(pool._max_workers)]:
                future.result(timeout=10)
            pool.shutdown(wait=True)
            setattr(fanout, name, None)


@pytest.fixture
def renders(monkeypatch):
    """Every render of a viewer class, as (class, match id) in order."""
    calls: list[tuple[str, int]] = []
    real = fanout.render_for_class

    def counted(match, user, cls, position=None):
        calls.append((cls, match.pk))
        return real(match, user, cls, position)

    monkeypatch.setattr(fanout, "render_for_class", counted)
    fanout.renders.clear()
    fanout.positions.clear()
    yield calls
    fanout.renders.clear()
    fanout.positions.clear()


def forget(renders: list) -> None:
    """Forget the set-up's renders and empty the caches they filled."""
    renders.clear()
    fanout.renders.clear()
    fanout.positions.clear()


def test_sockets_of_one_viewer_class_share_one_render(alice, bob, carol, make_user, renders, monkeypatch):
    dave = make_user("dave")
    positions: list[int] = []
    real_position = fanout._load_position
    monkeypatch.setattr(fanout, "_load_position", lambda match: positions.append(match.pk) or real_position(match))
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    other = bob if player == alice else alice
    renders.clear()
    positions.clear()
    # The classes' renders must find the position the first of them read (kept RENDER_TTL, 2 s, which a
    # slow suite run can exceed): what is tested is the sharing, not the TTL.
    monkeypatch.setattr(fanout.positions, "ttl", 60.0)
    viewers = {
        "alice-1": alice, "alice-2": alice, "bob": bob,
        "carol": carol, "dave": dave, "anonymous-1": AnonymousUser(), "anonymous-2": AnonymousUser(),
    }

    async def scenario() -> dict[str, str]:
        sockets = {name: connect_as(user, match.pk, f"?seq={match.seq}") for name, user in viewers.items()}
        for socket in sockets.values():
            connected, _ = await socket.connect(timeout=TIMEOUT)
            assert connected
        await database_sync_to_async(services.submit_action)(
            match_id=match.pk, user=player, action={"climb": []}, expected_seq=match.seq
        )
        pushed = {name: await socket.receive_from(timeout=TIMEOUT) for name, socket in sockets.items()}
        for socket in sockets.values():
            await socket.disconnect()
        return pushed

    pushed = async_to_sync(scenario)()
    # Seven sockets, three distinct views: each seat, and every spectator (logged in or not), all
    # from one read of the position (its fold and ranked panel).
    assert sorted(cls for cls, _ in renders) == ["seat:0", "seat:1", "spectator"]
    assert positions == [match.pk], (positions, fanout.positions.stats)
    seq = data_seq(pushed["bob"])
    assert {data_seq(html) for html in pushed.values()} == {seq}
    assert pushed["alice-1"] == pushed["alice-2"]
    assert pushed["carol"] == pushed["dave"] == pushed["anonymous-1"] == pushed["anonymous-2"]
    # Each seat's render is its own: the player to move has the climbs, nobody else does.
    assert climb_buttons(pushed[other.username if other == bob else "alice-1"]) != []
    assert climb_buttons(pushed[player.username if player == bob else "alice-1"]) == []
    assert climb_buttons(pushed["carol"]) == [] and "(you)" not in pushed["carol"]
    assert "spectating" in pushed["anonymous-1"]


def test_a_waiting_match_renders_logged_in_and_anonymous_spectators_apart(alice, carol, renders):
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}])
    forget(renders)

    async def scenario() -> dict[str, str]:
        out = {}
        for name, user in (("carol", carol), ("anonymous", AnonymousUser())):
            socket = connect_as(user, match.pk)
            connected, _ = await socket.connect(timeout=TIMEOUT)
            assert connected
            out[name] = await socket.receive_from(timeout=TIMEOUT)
            await socket.disconnect()
        return out

    pushed = async_to_sync(scenario)()
    assert "Join this match" in pushed["carol"]
    assert "Join this match" not in pushed["anonymous"] and "Log in" in pushed["anonymous"]
    assert sorted(cls for cls, _ in renders) == ["spectator:in", "spectator:out"]


def test_many_sockets_connecting_at_once_cost_one_render_per_class(alice, bob, carol, renders):
    match = two_player_match(alice, bob)
    users = [alice, bob, carol, AnonymousUser()] * 25  # 100 sockets, all asking to catch up (no ?seq)
    forget(renders)

    async def scenario() -> list[str]:
        sockets = [connect_as(user, match.pk) for user in users]
        results = await asyncio.gather(*(socket.connect(timeout=TIMEOUT) for socket in sockets))
        assert all(connected for connected, _ in results)
        pushed = await asyncio.gather(*(socket.receive_from(timeout=TIMEOUT) for socket in sockets))
        await asyncio.gather(*(socket.disconnect() for socket in sockets))
        return list(pushed)

    pushed = async_to_sync(scenario)()
    assert {data_seq(html) for html in pushed} == {match.seq}
    assert sorted(cls for cls, _ in renders) == ["seat:0", "seat:1", "spectator"]


def test_a_render_is_keyed_by_the_last_hash_so_a_replaced_position_is_never_served(alice, bob, renders):
    match = two_player_match(alice, bob)
    head = fanout._load_head(match.pk)  # the match with its seats, as the consumers read it
    forged = fanout.Head(match=head.match, seq=head.seq, last_hash="f" * 64)
    forget(renders)

    async def scenario() -> None:
        first = await fanout.fragment(head, alice)
        again = await fanout.fragment(head, alice)
        other = await fanout.fragment(forged, alice)
        assert first == again and first.seq == data_seq(first.html) == match.seq
        assert other.seq == data_seq(other.html) == match.seq

    async_to_sync(scenario)()
    # The second ask is served from the cache; the same seq under another hash is rendered anew.
    assert [cls for cls, _ in renders] == ["seat:0", "seat:0"]


def test_the_page_that_made_a_move_gets_it_once_as_its_answer_and_not_pushed(alice, bob, carol):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    other = bob if player == alice else alice

    async def scenario() -> None:
        mine = connect_as(player, match.pk, f"?seq={match.seq}&client=page-of-mover")
        second_tab = connect_as(player, match.pk, f"?seq={match.seq}&client=another-tab")
        theirs = connect_as(other, match.pk, f"?seq={match.seq}&client=page-of-other")
        for socket in (mine, second_tab, theirs):
            connected, _ = await socket.connect(timeout=TIMEOUT)
            assert connected

        def move(user, seq, origin):
            with notify.from_origin(origin):
                return services.submit_action(match_id=match.pk, user=user, action={"climb": []}, expected_seq=seq)

        seq = await database_sync_to_async(move)(player, match.seq, "page-of-mover")
        assert data_seq(await theirs.receive_from(timeout=TIMEOUT)) == seq
        assert data_seq(await second_tab.receive_from(timeout=TIMEOUT)) == seq  # the mover's other tab is told
        assert await mine.receive_nothing(timeout=0.5)  # the page that moved has its HTTP answer
        # The next move is the other player's: the mover's page gets it pushed.
        seq2 = await database_sync_to_async(move)(other, seq, "page-of-other")
        assert data_seq(await mine.receive_from(timeout=TIMEOUT)) == seq2
        assert await theirs.receive_nothing(timeout=0.5)
        for socket in (mine, second_tab, theirs):
            await socket.disconnect()

    async_to_sync(scenario)()


def test_the_move_answer_and_the_push_are_one_delivery_through_the_page(alice, bob):
    """The htmx move view marks its move with the page's id (X-Cairn-Client), as match.html sends it."""
    from .helpers import client_for

    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    page = client_for(player).get(f"/matches/{match.pk}/").content.decode()
    import re

    client_id = re.search(r"client=([0-9a-f]{32})", page).group(1)
    assert f'"X-Cairn-Client": "{client_id}"' in page

    async def scenario() -> None:
        socket = connect_as(player, match.pk, f"?seq={match.seq}&client={client_id}")
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected

        def post():
            return client_for(player).post(
                f"/matches/{match.pk}/move/",
                {"action": '{"climb": []}', "expected_seq": match.seq},
                HTTP_HX_REQUEST="true", HTTP_X_CAIRN_CLIENT=client_id,
            )

        answer = await database_sync_to_async(post)()
        assert answer.status_code == 201, answer.content
        assert data_seq(answer.content.decode()) > match.seq
        assert await socket.receive_nothing(timeout=0.5)
        await socket.disconnect()

    async_to_sync(scenario)()


def test_a_commit_publishes_ids_only_and_each_socket_gets_its_own_classs_render(alice, bob, carol, renders):
    """Mountainhome (hidden hands): the match's group hears the match id and seq; each seat's socket gets
    that seat's own view (its hand) and a spectator's socket the spectators' view, one render per class."""
    from channels.layers import get_channel_layer

    from frontend.live import render_match_fragment
    from games import selectors

    match = services.create_match(user=alice, game_id="mountainhome", seats=[{"human": True}, {"human": True}])
    services.join_match(match_id=match.pk, user=bob)
    match = selectors.get_match(match.pk)
    state = selectors.load_state(match)
    seat = state.to_move()[0]
    player = (alice, bob)[seat]
    action = state.action_to_json(seat, state.legal_actions(seat)[0])
    forget(renders)

    async def scenario() -> dict:
        layer = get_channel_layer()
        raw = await layer.new_channel()
        await layer.group_add(notify.group_name(match.pk), raw)
        sockets = {user.username: connect_as(user, match.pk, f"?seq={match.seq}") for user in (alice, bob, carol)}
        for socket in sockets.values():
            connected, _ = await socket.connect(timeout=TIMEOUT)
            assert connected
        await database_sync_to_async(services.submit_action)(
            match_id=match.pk, user=player, action=action, expected_seq=match.seq
        )
        got = {"match": await asyncio.wait_for(layer.receive(raw), TIMEOUT)}
        for name, socket in sockets.items():
            got[name] = await socket.receive_from(timeout=TIMEOUT)
            assert await socket.receive_nothing(timeout=0.3)  # one push each
            await socket.disconnect()
        return got

    got = async_to_sync(scenario)()
    fresh = selectors.get_match(match.pk)
    # The group every socket hears carries ids only: no fragment, no state, no hash.
    trace = {key: got["match"].pop(key) for key in ("committed_at", "request_id")}  # for operations (games/ops)
    assert isinstance(trace["committed_at"], float)
    assert got["match"] == {"type": "match.changed", "match_id": match.pk, "seq": fresh.seq,
                            "deployment": settings.CAIRN_DEPLOYMENT}
    for user in (alice, bob, carol):
        assert got[user.username] == render_match_fragment(fresh, user, oob=True)
    assert got["alice"] != got["bob"]
    assert sorted(cls for cls, _ in renders) == ["seat:0", "seat:1", "spectator"]


def test_the_commit_path_calls_nothing_of_the_frontend(alice, bob):
    """A move through the service (as the API, the page and a bot's worker make it) renders nothing and
    calls no function of the frontend package: every call made while it runs, hooks after commit included."""
    import sys

    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    frontend_root = str(settings.BASE_DIR / "frontend")
    called: list[str] = []

    def profile(frame, event, arg) -> None:
        if event == "call" and frame.f_code.co_filename.startswith(frontend_root):
            called.append(f"{frame.f_code.co_filename}:{frame.f_code.co_name}")

    sys.setprofile(profile)
    try:
        seq = services.submit_action(match_id=match.pk, user=player, action={"climb": []}, expected_seq=match.seq)
    finally:
        sys.setprofile(None)
    assert seq > match.seq
    assert called == []


def test_a_forked_process_gets_a_render_pool_of_its_own():
    """A process forked from one with a pool (a test server, say) runs its work in threads of its own."""
    import os

    assert fanout.pool().submit(lambda: "parent").result(timeout=10) == "parent"
    for _ in range(fanout.pool()._max_workers):  # every thread of the parent's pool started and idle
        fanout.pool().submit(lambda: None).result(timeout=10)
    child = os.fork()
    if child == 0:  # the child: the parent's pool object came across without its threads
        try:
            ok = fanout.pool().submit(lambda: os.getpid()).result(timeout=5) == os.getpid()
        except BaseException:  # noqa: BLE001 - a timeout: the work waited for a thread that is not there
            ok = False
        os._exit(0 if ok else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0

