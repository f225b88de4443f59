"""The load generator reads its moves off the screens as a player does (benchmarks/service_live_load.py)."""

from __future__ import annotations

import json

import pytest

from benchmarks.service_live_load import OFFERED, SEQ, STATUS, Live, Screen, from_screens
from frontend import live
from games import selectors, services

from .helpers import mover, two_player_match

pytestmark = pytest.mark.django_db


def screen_of(html: str) -> Screen:
    screen = Screen(seen=int(SEQ.search(html).group(1)))
    screen.status = STATUS.search(html).group(1)
    screen.offered = OFFERED.findall(html)
    return screen


def test_the_mover_s_screen_offers_exactly_its_legal_moves_and_the_other_screen_none(alice, bob):
    match = two_player_match(alice, bob)
    for _ in range(4):
        match.refresh_from_db()
        screens = [screen_of(live.render_match_fragment(match, user, oob=True)) for user in (alice, bob)]
        game = Live(0, ({}, {}), screens=screens)
        seat, actions, expected = from_screens(game)
        user = mover(match, alice, bob)
        view = selectors.match_view(match, user)
        assert seat == view["my_seat"] and expected == view["seq"] == match.seq
        key = lambda a: json.dumps(a, sort_keys=True)
        assert sorted(map(key, actions)) == sorted(map(key, view["legal_actions"]))
        assert not screens[1 - seat].offered
        services.submit_action(match_id=match.pk, user=user, action=actions[-1], expected_seq=expected)


def test_screens_behind_the_newest_seq_offer_nothing_and_a_finished_match_says_so():
    stale = Screen(seen=5, status="active", offered=['{"climb": []}'])
    fresh = Screen(seen=7, status="active", offered=[])
    assert from_screens(Live(0, ({}, {}), screens=[stale, fresh])) is None  # ask the API instead
    over = Screen(seen=9, status="finished")
    assert from_screens(Live(0, ({}, {}), screens=[stale, over])) == (None, [], 9)
