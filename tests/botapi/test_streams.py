"""The NDJSON streams: a match as its viewer may see it, resuming with ?after=n, the account's events, the caps."""

from __future__ import annotations

import asyncio
import random

import pytest
from rest_framework.test import APIClient

from games import selectors
from games.botapi import streams
from games.models import Match
from games.ranking import challenges
from tests.service.helpers import finish_quickly, play_random_move, two_humans

from .helpers import bearer, open_events, open_match, run

pytestmark = [pytest.mark.django_db(transaction=True, databases="__all__"), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def quick_keepalive(settings):
    settings.CAIRN_STREAM_KEEPALIVE_SECONDS = 1


def _api_get(auth: str, path: str) -> dict:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=auth)
    answer = client.get(path)
    assert answer.status_code == 200, answer.content
    return answer.json()


async def _move(match_id: int, users: dict, rng: random.Random) -> int:
    return await run(play_random_move, match_id, users, rng)


def _until_the_turn_of(match_id: int, users: dict, seat: int) -> None:
    """Random moves until another seat moved and ``seat`` is to move."""
    rng = random.Random(1)
    moved = False
    while not (moved and seat in selectors.load_state(selectors.get_match(match_id)).to_move()):
        play_random_move(match_id, users, rng)
        moved = True


async def test_a_match_stream_opens_with_the_match_body_then_sends_each_move(alice, bob):
    match = await run(two_humans, alice, bob)
    auth = await run(bearer, alice)
    stream = await open_match(auth, match.pk)
    try:
        first = await stream.next()
        body = await run(_api_get, auth, f"/api/matches/{match.pk}/")
        assert {k: v for k, v in first.items() if k != "updated_at"} == {
            k: v for k, v in body.items() if k != "updated_at"}
        rng = random.Random(3)
        seq = await _move(match.pk, {0: alice, 1: bob}, rng)
        line = await stream.next()
        assert line["type"] == "events" and line["seq"] == seq and line["status"] == "active"
        listing = await run(_api_get, auth, f"/api/matches/{match.pk}/events/?after={first['seq']}")
        assert line["events"] == listing["events"]
        assert "clock" in line and line["to_move"] == body["to_move"] or line["seq"] > body["seq"]
    finally:
        await stream.close()


async def test_a_resumed_stream_gives_each_event_after_n_exactly_once(alice, bob):
    match = await run(two_humans, alice, bob)
    rng = random.Random(5)
    start = (await run(selectors.get_match, match.pk)).seq
    for _ in range(3):
        await _move(match.pk, {0: alice, 1: bob}, rng)
    auth = await run(bearer, bob)
    stream = await open_match(auth, match.pk, after=start)
    try:
        body = await stream.next()
        catch_up = await stream.next()
        assert [e["seq"] for e in catch_up["events"]] == list(range(start + 1, body["seq"] + 1))
        seq = await _move(match.pk, {0: alice, 1: bob}, rng)
        line = await stream.next()
        assert [e["seq"] for e in line["events"]] == list(range(body["seq"] + 1, seq + 1))
    finally:
        await stream.close()


async def test_a_match_stream_ends_when_the_match_ends(alice, bob):
    match = await run(two_humans, alice, bob)
    stream = await open_match(await run(bearer, alice), match.pk)
    first = await stream.next()
    await run(finish_quickly, match)
    line = await stream.next()
    assert line["status"] == Match.Status.FINISHED and line["result"] is not None
    assert line["events"][-1]["type"] == "finished" and line["events"][0]["seq"] == first["seq"] + 1
    assert await stream.next() is None


async def test_it_sends_keepalive_lines_while_nothing_happens(alice, bob):
    match = await run(two_humans, alice, bob)
    stream = await open_match(await run(bearer, alice), match.pk)
    try:
        await stream.next()
        chunk = await asyncio.wait_for(stream.iterator.__anext__(), 5)
        assert chunk == b"\n"
    finally:
        await stream.close()


async def test_it_refuses_a_stream_for_a_match_that_does_not_exist_or_without_credentials(alice):
    auth = await run(bearer, alice)
    missing = await open_match(auth, 999999)
    assert missing.status == 404 and missing.error()["code"] == "match_not_found"
    anonymous = await open_match(None, 1)
    assert anonymous.status == 401 and anonymous.error()["code"] == "not_authenticated"
    bad = await open_match("Bearer cairn_nonsense", 1)
    assert bad.status == 401 and bad.error()["message"] == "invalid token"


async def test_it_refuses_a_stream_to_a_token_without_the_read_scope(alice, bob):
    match = await run(two_humans, alice, bob)
    stream = await open_match(await run(bearer, alice, ("play",)), match.pk)
    assert stream.status == 403 and "'read'" in stream.error()["message"]


async def test_it_refuses_more_open_streams_than_the_cap_and_frees_a_slot_on_close(alice, bob, settings):
    settings.CAIRN_STREAM_MAX_PER_USER = 2
    match = await run(two_humans, alice, bob)
    auth = await run(bearer, alice)
    first, second = await open_match(auth, match.pk), await open_events(auth)
    third = await open_match(auth, match.pk)
    assert third.status == 429 and third.error()["code"] == "too_many_streams"
    assert third.response["Retry-After"]
    await first.next()
    await first.close()
    fourth = await open_match(auth, match.pk)
    assert fourth.status == 200
    await fourth.close()
    await second.close()


async def test_a_stream_ends_after_its_maximum_lifetime(alice, bob, settings):
    settings.CAIRN_STREAM_MAX_SECONDS = 1
    match = await run(two_humans, alice, bob)
    stream = await open_match(await run(bearer, alice), match.pk)
    await stream.next()
    assert await stream.next(timeout=5) is None


async def test_the_account_stream_reports_challenges_the_match_start_and_the_turn(alice, bob):
    bob_auth = await run(bearer, bob)
    stream = await open_events(bob_auth)
    try:
        challenge = await run(challenges.create, user=alice, opponent="bob", game_id="mountain-goats")
        line = await stream.next()
        assert line["type"] == "challenge_received" and line["challenge"]["id"] == challenge.pk
        assert line["challenge"]["from"] == "alice"
        accepted = await run(challenges.accept, challenge_id=challenge.pk, user=bob)
        line = await stream.next()
        assert line == {"type": "match_started", "match": accepted.match_id, "reason": "challenge"}
        match = await run(selectors.get_match, accepted.match_id)
        seats = {s.index: s.user_id for s in await run(selectors.seats_of, match)}
        users = {i: alice if uid == alice.pk else bob for i, uid in seats.items()}
        bob_seat = next(i for i, u in users.items() if u == bob)
        await run(_until_the_turn_of, match.pk, users, bob_seat)
        line = await stream.next()
        assert line["type"] == "your_turn" and line["match"] == match.pk
    finally:
        await stream.close()


async def test_the_account_stream_opens_with_waiting_challenges_and_says_when_one_is_cancelled(alice, bob):
    challenge = await run(challenges.create, user=alice, opponent="bob", game_id="mountain-goats")
    stream = await open_events(await run(bearer, bob))
    try:
        line = await stream.next()
        assert line["type"] == "challenge_received" and line["challenge"]["id"] == challenge.pk
        await run(challenges.decline, challenge_id=challenge.pk, user=alice)
        line = await stream.next()
        assert line["type"] == "challenge_cancelled" and line["challenge"]["status"] == "cancelled"
    finally:
        await stream.close()


async def test_the_account_stream_ends_rather_than_buffer_for_a_client_that_stops_reading(alice, bob, monkeypatch):
    monkeypatch.setattr(streams, "QUEUE_SIZE", 2)
    stream = await open_events(await run(bearer, bob))
    pending = asyncio.ensure_future(stream.iterator.__anext__())  # the generator starts, then is not read
    await asyncio.sleep(0.3)
    for _ in range(5):
        await run(challenges.create, user=alice, opponent="bob", game_id="mountain-goats")
    await asyncio.sleep(1.0)
    lines = [await pending]
    while (line := await stream.next(timeout=5)) is not None:
        lines.append(line)
    assert len([x for x in lines if x != b"\n"]) <= 3  # at most the queue and the line in hand, then the end


async def test_a_stream_resumed_after_a_seq_it_has_not_reached_sends_only_the_events_after_it(alice, bob):
    match = await run(two_humans, alice, bob)
    start = (await run(selectors.get_match, match.pk)).seq
    stream = await open_match(await run(bearer, alice), match.pk, after=start + 2)
    try:
        await stream.next()
        rng = random.Random(9)
        seq = start
        while seq <= start + 2:
            seq = await _move(match.pk, {0: alice, 1: bob}, rng)
        line = await stream.next()
        assert line["events"] and all(e["seq"] > start + 2 for e in line["events"])
    finally:
        await stream.close()


async def test_the_streams_of_one_match_share_one_read_per_viewer_class_and_position(alice, bob, carol, monkeypatch):
    match = await run(two_humans, alice, bob)
    reads: list[int] = []
    change_at = streams._change_at
    monkeypatch.setattr(streams, "_change_at", lambda m, user, last: reads.append(last) or change_at(m, user, last))
    auths = [await run(bearer, user) for user in (alice, alice, alice, carol, carol, carol)]
    opened = [await open_match(auth, match.pk) for auth in auths]
    try:
        for stream in opened:
            await stream.next()  # the body
        seq = await _move(match.pk, {0: alice, 1: bob}, random.Random(7))
        lines = [await stream.next() for stream in opened]
        assert all(line["seq"] == seq for line in lines)
        assert lines[0] == lines[1] == lines[2] and lines[3] == lines[4] == lines[5]  # alice's seat, the spectators
        assert len(reads) == 2  # one read per viewer class, not one per stream
    finally:
        for stream in opened:
            await stream.close()
