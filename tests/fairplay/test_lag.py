"""Lag compensation: a move's measured lag is credited back to a real-time clock, within a cap and a quota."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.test import Client

from games import selectors, services
from games.clocks import LAG_CAP, LAG_QUOTA, ClockFold
from games.errors import BadRequest
from games.models import Event, Match
from games.verify import _Failure, _verify_lag_credit, verify_match
from tests.ranking.helpers import new_match

pytestmark = pytest.mark.django_db

REALTIME = {"kind": "realtime", "base": 300, "increment": 10}


def mover_and_action(match: Match, users: list) -> tuple:
    match = selectors.get_match(match.pk)
    state = selectors.load_state(match)
    (seat,) = state.to_move()
    return users[seat], seat, state.action_to_json(seat, state.legal_actions(seat)[0]), match.seq


def test_a_moves_lag_is_credited_back_to_a_real_time_clock_up_to_the_cap_and_verifies(alice, bob):
    match = new_match([alice, bob], time_control="5+10")
    user, seat, action, seq = mover_and_action(match, [alice, bob])
    services.submit_action(match_id=match.pk, user=user, action=action, expected_seq=seq, lag_ms=300)
    credit = Event.objects.get(match=match, type="lag_credit")
    assert credit.seq == seq + 2 and credit.payload == {"seat": seat, "seconds": 0.3}
    assert selectors.load_aggregate(selectors.get_match(match.pk)).clock.credited == {seat: 0.3}
    user, seat, action, seq = mover_and_action(match, [alice, bob])
    services.submit_action(match_id=match.pk, user=user, action=action, expected_seq=seq, lag_ms=4000)
    assert Event.objects.filter(match=match, type="lag_credit").last().payload == {"seat": seat, "seconds": LAG_CAP}
    assert verify_match(Match.objects.get(pk=match.pk)).ok


def test_the_clock_shown_includes_the_credit(alice, bob):
    """Both players' pages and the API read the same fold: the credited seat's bank grew by the credit."""
    match = new_match([alice, bob], time_control="5+10")
    user, seat, action, seq = mover_and_action(match, [alice, bob])
    services.submit_action(match_id=match.pk, user=user, action=action, expected_seq=seq, lag_ms=500)
    fold = selectors.load_aggregate(selectors.get_match(match.pk)).clock
    assert fold.bank[seat] > 300 + 10  # the bank, the increment, and the credit (less the thinking time, ~0)
    assert fold.bank[seat] == pytest.approx(300 + 10 + 0.5, abs=0.25)


def test_no_credit_by_correspondence_without_lag_or_for_a_bad_value(alice, bob):
    post = new_match([alice, bob], time_control="3d")
    user, _, action, seq = mover_and_action(post, [alice, bob])
    services.submit_action(match_id=post.pk, user=user, action=action, expected_seq=seq, lag_ms=800)
    live = new_match([alice, bob], time_control="5+10")
    user, _, action, seq = mover_and_action(live, [alice, bob])
    services.submit_action(match_id=live.pk, user=user, action=action, expected_seq=seq)
    assert not Event.objects.filter(type="lag_credit").exists()
    user, _, action, seq = mover_and_action(live, [alice, bob])
    for bad in (-1, 10_001, "300", 1.5, True):
        with pytest.raises(BadRequest, match="lag_ms"):
            services.submit_action(match_id=live.pk, user=user, action=action, expected_seq=seq, lag_ms=bad)


def test_the_quota_caps_the_credit_over_a_match():
    fold = ClockFold(REALTIME, 2)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    total = 0.0
    for _ in range(20):
        credit = fold.lag_credit_for(0, 2.0)
        if credit:
            fold.feed("lag_credit", {"seat": 0, "seconds": credit}, at, [1])
        total += credit
    assert total == pytest.approx(LAG_QUOTA) and fold.lag_credit_for(0, 2.0) == 0.0
    assert fold.lag_credit_for(1, 0.2) == 0.2  # the other seat's quota is its own
    assert ClockFold({"kind": "correspondence", "days": 3}, 2).lag_credit_for(0, 0.4) == 0.0


def test_the_verifier_refuses_a_credit_over_the_cap_or_not_after_the_seats_action():
    fold = ClockFold(REALTIME, 2)
    action = SimpleNamespace(seq=7, type="action", payload={"player": 0, "action": {}})
    over = SimpleNamespace(seq=8, type="lag_credit", payload={"seat": 0, "seconds": 0.9})
    with pytest.raises(_Failure, match="more than the clock allows"):
        _verify_lag_credit(over, action, fold)
    theirs = SimpleNamespace(seq=8, type="lag_credit", payload={"seat": 1, "seconds": 0.2})
    with pytest.raises(_Failure, match="does not follow an action of seat 1"):
        _verify_lag_credit(theirs, action, fold)
    _verify_lag_credit(SimpleNamespace(seq=8, type="lag_credit", payload={"seat": 0, "seconds": 0.2}), action, fold)


def test_the_page_sends_its_measured_lag_and_learns_the_servers_time(alice, bob):
    match = new_match([alice, bob], time_control="5+10")
    user, seat, action, seq = mover_and_action(match, [alice, bob])
    client = Client()
    client.force_login(user)
    import json

    answer = client.post(f"/matches/{match.pk}/move/", {"action": json.dumps(action), "expected_seq": seq},
                         HTTP_HX_REQUEST="true", HTTP_X_CAIRN_LAG="250")
    assert answer.status_code == 201 and int(answer["X-Cairn-Server-Ms"]) >= 0
    assert Event.objects.get(match=match, type="lag_credit").payload == {"seat": seat, "seconds": 0.25}
