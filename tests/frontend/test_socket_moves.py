"""Moves sent over the match websocket: the same guarantees as the POST route, one answer to the mover."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.test.utils import CaptureQueriesContext

from frontend import fanout
from games import moved, selectors, services
from games.models import Event, Match

from .helpers import client_for, data_seq, mover, two_player_match
from .test_consumers import TIMEOUT, connect_as

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

CLIMB_NOTHING = json.dumps({"climb": []})


def move_message(seq: int, ident: str = "1", action: str = CLIMB_NOTHING) -> str:
    return json.dumps({"type": "move", "id": ident, "fields": [["expected_seq", str(seq)], ["action", action]]})


async def answer_of(socket) -> tuple[str | None, dict]:
    """What a socket move gets back: (the fragment or None, the ``move.answer``)."""
    fragment = None
    while True:
        text = await socket.receive_from(timeout=TIMEOUT)
        if text.startswith("{"):
            return fragment, json.loads(text)
        fragment = text


async def connected(user, match: Match, query: str = ""):
    socket = connect_as(user, match.pk, query or f"?seq={match.seq}&client=page-{user}")
    ok, _ = await socket.connect(timeout=TIMEOUT)
    assert ok
    return socket


def actions_stored(match: Match) -> list[int]:
    return list(Event.objects.filter(match_id=match.pk).order_by("seq").values_list("seq", flat=True))


def test_a_move_over_the_socket_is_stored_and_answered_with_the_movers_fragment_once(alice, bob):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    other = bob if player == alice else alice

    async def scenario() -> None:
        mine, theirs = await connected(player, match), await connected(other, match)
        await mine.send_to(text_data=move_message(match.seq, "7"))
        fragment, answer = await answer_of(mine)
        after = await database_sync_to_async(lambda: Match.objects.get(pk=match.pk).seq)()
        assert after > match.seq
        assert answer == {"type": "move.answer", "id": "7", "status": 201, "error": None, "seq": after,
                          "server_ms": answer["server_ms"]}
        assert data_seq(fragment) == after
        assert f"{player.username} <em>(you)</em>" in fragment
        assert data_seq(await theirs.receive_from(timeout=TIMEOUT)) == after  # the other screen's push
        assert await mine.receive_nothing(timeout=0.5)  # the mover's push is its answer: nothing more
        for socket in (mine, theirs):
            await socket.disconnect()

    async_to_sync(scenario)()
    assert Event.objects.filter(match_id=match.pk, type="action").count() == 1


def test_a_refused_socket_move_says_why_on_the_board_and_changes_nothing(alice, bob, carol):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    other = bob if player == alice else alice
    cases = [
        (other, move_message(match.seq), 403, "not your turn"),
        (player, move_message(match.seq - 1), 409, "The board below shows the current position."),
        (player, move_message(match.seq, action='{"climb": [99]}'), 400, ""),
        (player, move_message(match.seq, action="{not json"), 400, "not valid JSON"),
        (player, json.dumps({"type": "move", "id": "1", "fields": "expected_seq=3"}), 400, "[name, value] pairs"),
        (player, json.dumps({"type": "move", "id": "1", "fields": [["expected_seq", "x"]]}), 400, "which position"),
        (carol, move_message(match.seq), 403, "you hold no seat"),
        (AnonymousUser(), move_message(match.seq), 403, "Log in to play."),
    ]

    async def scenario() -> None:
        for user, message, status, reason in cases:
            socket = await connected(user, match, f"?seq={match.seq}")
            await socket.send_to(text_data=message)
            fragment, answer = await answer_of(socket)
            assert answer["status"] == status, (message, answer)
            assert reason in answer["error"]
            assert fragment is not None and 'id="move-error"' in fragment and data_seq(fragment) == match.seq
            await socket.disconnect()

    async_to_sync(scenario)()
    assert Match.objects.get(pk=match.pk).seq == match.seq


def test_any_other_message_is_answered_with_a_fresh_fragment_and_moves_nothing(alice, bob):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)

    async def scenario() -> None:
        socket = await connected(player, match)
        for text in ("hello", "{", '["move"]', '{"type": "refresh"}', "{" + "x" * 70_000):
            await socket.send_to(text_data=text)
            assert data_seq(await socket.receive_from(timeout=TIMEOUT)) == match.seq
        await socket.disconnect()

    async_to_sync(scenario)()
    assert Match.objects.get(pk=match.pk).seq == match.seq


def test_two_tabs_and_a_post_racing_in_one_position_store_exactly_one_move(alice, bob):
    """Two sockets of the mover (two tabs) and a POST from a third, all naming the same expected_seq."""
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    seq = match.seq

    def post() -> int:
        try:
            return client_for(player).post(f"/matches/{match.pk}/move/", {"expected_seq": seq, "action": CLIMB_NOTHING},
                                           HTTP_HX_REQUEST="true").status_code
        finally:
            connections.close_all()

    async def scenario() -> list[int]:
        tabs = [await connected(player, match, f"?seq={seq}&client=tab-{n}") for n in (1, 2)]
        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(1) as pool:
            posted = loop.run_in_executor(pool, post)
            for tab in tabs:
                await tab.send_to(text_data=move_message(seq))
            answers = [(await answer_of(tab))[1]["status"] for tab in tabs]
            statuses = answers + [await posted]
        for tab in tabs:
            await tab.disconnect()
        return statuses

    statuses = async_to_sync(scenario)()
    assert sorted(statuses) == [201, 409, 409]
    assert Event.objects.filter(match_id=match.pk, type="action").count() == 1
    stored = actions_stored(match)
    assert stored == list(range(1, len(stored) + 1)) and stored[-1] == Match.objects.get(pk=match.pk).seq


def test_socket_moves_count_against_the_moves_rate_limit(alice, bob, settings):
    settings.CAIRN_RATE_LIMIT_FACTOR = 1
    settings.CAIRN_RATE_LIMITS = {**settings.CAIRN_RATE_LIMITS, "actions": "1/min"}
    settings.CAIRN_RATE_LIMIT_NAMESPACE = f"socket-moves-{alice.pk}"
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)

    async def scenario() -> None:
        socket = await connected(player, match)
        await socket.send_to(text_data=move_message(match.seq - 1))  # refused as stale, but counted
        assert (await answer_of(socket))[1]["status"] == 409
        await socket.send_to(text_data=move_message(match.seq))
        fragment, answer = await answer_of(socket)
        assert answer["status"] == 429 and "too many moves" in answer["error"]
        await socket.disconnect()

    async_to_sync(scenario)()
    assert Match.objects.get(pk=match.pk).seq == match.seq


def test_the_movers_answer_and_its_other_tabs_push_share_one_render(alice, bob, monkeypatch):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    fanout.renders.clear()
    drawn = []
    real = fanout.render_for_class
    monkeypatch.setattr(fanout, "render_for_class", lambda *args, **kwargs: drawn.append(args[2]) or real(*args, **kwargs))

    async def scenario() -> None:
        first, second = [await connected(player, match, f"?seq={match.seq}&client=tab-{n}") for n in (1, 2)]
        await first.send_to(text_data=move_message(match.seq))
        fragment, answer = await answer_of(first)
        assert answer["status"] == 201
        assert await second.receive_from(timeout=TIMEOUT) == fragment  # the same seat's push: the same render
        for socket in (first, second):
            await socket.disconnect()

    async_to_sync(scenario)()
    assert drawn == [f"seat:{selectors.seat_of(match, player)}"]  # one render, of the mover's class


def test_a_socket_move_answers_from_the_match_it_stored_without_reading_the_head_again(alice, bob, monkeypatch):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    heads: list[int] = []
    real = fanout._load_head
    monkeypatch.setattr(fanout, "_load_head", lambda match_id, *rest: heads.append(match_id) or real(match_id, *rest))

    async def scenario() -> None:
        mine = await connected(player, match, f"?seq=0&client=page-{player}")
        await mine.receive_from(timeout=TIMEOUT)  # the catch-up push: the connection's head reads are done
        read_on_connecting = len(heads)
        await mine.send_to(text_data=move_message(match.seq))
        fragment, answer = await answer_of(mine)
        assert answer["status"] == 201
        assert data_seq(fragment) == answer["seq"] > match.seq
        assert f"{player.username} <em>(you)</em>" in fragment  # the head's seats put the mover in its own class
        assert len(heads) == read_on_connecting  # the move's own match was the head: no read after the commit
        await mine.disconnect()

    async_to_sync(scenario)()


def test_a_head_finds_each_viewers_seat_as_the_selectors_do(alice, bob, carol):
    match = selectors.get_match(two_player_match(alice, bob).pk)
    head = fanout.head_of(match)
    for user in (alice, bob, carol, AnonymousUser(), None):
        assert head.seat_of(user) == selectors.seat_of(match, user)
        assert fanout.class_of(match, user, head.seat_of(user)) == fanout.viewer_class(match, user)


def test_a_connecting_socket_reads_the_head_once_and_draws_its_fragment_in_the_same_trip(alice, bob, monkeypatch):
    match = two_player_match(alice, bob)
    fanout.renders.clear()
    fanout.positions.clear()
    trips: list[str] = []
    real_in_pool = fanout.in_pool
    heads: list[int] = []
    real_head = fanout._load_head

    async def counted(fn, *args):
        trips.append(getattr(fn, "__name__", repr(fn)))
        return await real_in_pool(fn, *args)

    monkeypatch.setattr(fanout, "in_pool", counted)
    monkeypatch.setattr(fanout, "_load_head", lambda match_id, *rest: heads.append(match_id) or real_head(match_id, *rest))

    async def scenario() -> None:
        socket = await connected(alice, match, "?seq=0")
        assert data_seq(await socket.receive_from(timeout=TIMEOUT)) == match.seq  # the catch-up push
        await socket.disconnect()

    async_to_sync(scenario)()
    assert heads == [match.pk]  # joined the group first, so one read of the head is enough
    # One trip to the render pool for the head and the fragment (the patched _load_head); the socket's
    # bookkeeping (socket_opened, socket_closed) goes to its own thread.
    assert trips == ["<lambda>"], trips
    assert fanout.renders.stats["computed"] == 0  # the push found its fragment drawn


def test_another_socket_here_takes_the_head_the_move_left_and_a_later_seq_is_read(alice, bob, monkeypatch):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    other = bob if player == alice else alice
    heads: list[int] = []
    real = fanout._load_head
    monkeypatch.setattr(fanout, "_load_head", lambda match_id, *rest: heads.append(match_id) or real(match_id, *rest))

    async def scenario() -> None:
        mine, theirs = await connected(player, match), await connected(other, match)
        read_on_connecting = len(heads)
        await mine.send_to(text_data=move_message(match.seq))
        fragment, answer = await answer_of(mine)
        assert answer["status"] == 201
        assert data_seq(await theirs.receive_from(timeout=TIMEOUT)) == answer["seq"]
        assert len(heads) == read_on_connecting  # the mover's head served the other socket in this process

        # A move made elsewhere (another process, which keeps its match there, not here) leaves a seq this
        # process has no head of: read.
        with monkeypatch.context() as elsewhere:
            elsewhere.setattr(moved, "keep", lambda match: None)
            await database_sync_to_async(lambda: services.submit_action(
                match_id=match.pk, user=other, action=json.loads(CLIMB_NOTHING), expected_seq=answer["seq"]))()
        assert data_seq(await mine.receive_from(timeout=TIMEOUT)) > answer["seq"]
        assert len(heads) > read_on_connecting
        for socket in (mine, theirs):
            await socket.disconnect()

    async_to_sync(scenario)()


def test_a_kept_head_is_used_only_for_its_own_seq(alice, bob):
    match = two_player_match(alice, bob)
    who = mover(match, alice, bob)
    moved.forget()
    seq = services.submit_action(match_id=match.pk, user=who, action=json.loads(CLIMB_NOTHING), expected_seq=match.seq)
    with CaptureQueriesContext(connections["default"]) as queries:
        head = fanout._known_head(match.pk, seq)
    assert head is not None and head.seq == seq and not queries.captured_queries  # no read of the row
    assert fanout._known_head(match.pk, seq + 1) is None  # a newer move: read from the database
    assert fanout._known_head(match.pk + 1, seq) is None


def test_every_path_keeps_the_match_its_move_left_for_this_processs_sockets(alice, bob):
    """The REST API's move, the page's POST and its socket all end in the service's move, which keeps it."""
    match = two_player_match(alice, bob)
    moved.forget()
    who = mover(match, alice, bob)
    client = client_for(who)
    answer = client.post(f"/api/matches/{match.pk}/actions/", {"action": json.loads(CLIMB_NOTHING),
                                                                "expected_seq": match.seq}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    seq = answer.json()["seq"]
    kept = moved.left(match.pk, seq, within=2.0)
    assert kept is not None and kept.seq == seq
    head = fanout._known_head(match.pk, seq)
    assert head is not None and head.last_hash == selectors.get_match(match.pk).last_hash
    assert set(head.seats.values()) == {0, 1}  # its seats came with it


def test_a_move_rolled_back_with_its_transaction_is_not_kept(alice, bob):
    from django.db import transaction

    match = two_player_match(alice, bob)
    moved.forget()
    who = mover(match, alice, bob)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.submit_action(match_id=match.pk, user=who, action=json.loads(CLIMB_NOTHING), expected_seq=match.seq)
        raise RuntimeError("rolled back")
    assert moved.left(match.pk, match.seq + 1, within=2.0) is None
    assert moved.left(match.pk, match.seq + 2, within=2.0) is None


def test_the_match_is_kept_before_the_move_is_announced(alice, bob, monkeypatch):
    """A socket of this process hearing ``match.changed`` finds the move's match already kept."""
    from games import notify

    match = two_player_match(alice, bob)
    moved.forget()
    who = mover(match, alice, bob)
    found_when_announced: list[object] = []
    monkeypatch.setattr(notify, "match_changed",
                        lambda match_id, seq, origin="": found_when_announced.append(moved.left(match_id, seq, 2.0)))
    seq = services.submit_action(match_id=match.pk, user=who, action=json.loads(CLIMB_NOTHING), expected_seq=match.seq)
    assert found_when_announced and found_when_announced[-1] is not None
    assert found_when_announced[-1].seq == seq  # type: ignore[attr-defined]
