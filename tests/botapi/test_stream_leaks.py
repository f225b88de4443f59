"""Mountainhome over the match stream: the opponent and a spectator get exactly their events listing, no hidden card."""

from __future__ import annotations

import json
import random

import pytest
from rest_framework.test import APIClient

from games import selectors
from tests.service.test_mountainhome_service import (
    _commit_something,
    _submit_random,
    assert_none_shown,
    fixed_seed,  # noqa: F401 - a fixture
    mh_match,
    publicly_named,
)

from .helpers import bearer, open_match, run

pytestmark = [pytest.mark.django_db(transaction=True, databases="__all__"), pytest.mark.asyncio]


def _until_seat_1_has_sealed_a_bid(match, users) -> set[str]:
    """Play on until seat 1 holds a sealed bid commitment; the cards seat 0 and spectators may not see."""
    rng = random.Random(7)
    for _ in range(3000):
        state = selectors.load_state(match)
        bid = state.bid
        if bid is not None and state.observation(None)["prompt"] == "bid_commit" and bid.commit[1] and bid.commit[1][0]:
            break
        _submit_random(match, users, rng, prefer=_commit_something)
    else:
        raise AssertionError("no bid with a sealed commitment by seat 1 came up")
    state = selectors.load_state(match)
    hidden = {state.names[c] for c in state.bid.commit[1][0]} | {state.names[c] for c in state.hand[1]}
    hidden -= publicly_named(match, 1)
    return hidden - set(state.observation(None)["seats"][1]["hand_known"])


def _listing(auth: str, match_id: int) -> tuple[dict, list]:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=auth)
    return client.get(f"/api/matches/{match_id}/").json(), client.get(f"/api/matches/{match_id}/events/").json()["events"]


async def test_the_opponent_and_a_spectator_stream_no_hand_nor_sealed_bid_of_seat_1(fixed_seed, alice, bob, carol):  # noqa: F811 - the imported fixture
    match = await run(mh_match, [alice, bob])
    viewers = {"seat 0": await run(bearer, alice), "a spectator": await run(bearer, carol)}
    streams = {who: await open_match(auth, match.pk, after=0) for who, auth in viewers.items()}
    hidden = await run(_until_seat_1_has_sealed_a_bid, match, {0: alice, 1: bob})
    final = (await run(selectors.get_match, match.pk)).seq
    for who, stream in streams.items():
        lines = [await stream.next()]
        while lines[-1].get("seq") != final:
            lines.append(await stream.next(timeout=30))
        await stream.close()
        body, listing = await run(_listing, viewers[who], match.pk)
        events = [e for line in lines[1:] for e in line["events"]]
        assert events == listing, f"{who}'s stream differs from its events listing"
        assert [e["seq"] for e in events] == sorted({e["seq"] for e in events})  # none twice
        assert lines[-1]["legal_actions"] == body["legal_actions"] and lines[-1]["to_move"] == body["to_move"]
        assert_none_shown({"stream": json.dumps(lines)}, hidden, who)
