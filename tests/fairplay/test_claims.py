"""Claims against a 2-player leaver: when they are allowed, what they record, how they rate and verify."""

from __future__ import annotations

import pytest

from engine.record import audit
from games import selectors
from games.errors import BadRequest, Conflict, Forbidden
from games.fairplay import leavers, presence
from games.models import Event, Match
from games.ranking.models import RatingChange
from games.verify import verify_match
from tests.ranking.helpers import everyone_moves, new_match

from .conftest import leave, wait_out

pytestmark = pytest.mark.django_db


def events_of(match: Match) -> list[str]:
    return list(Event.objects.filter(match=match).order_by("seq").values_list("type", flat=True))


def played(alice, bob, **kwargs):
    match = new_match([alice, bob], **kwargs)
    everyone_moves(match.pk, [alice, bob])
    return Match.objects.get(pk=match.pk)


def test_the_grace_period_scales_with_the_time_control_and_only_real_time_clocks_have_one():
    assert leavers.grace_seconds({"kind": "realtime", "base": 300, "increment": 10}) == 60
    assert leavers.grace_seconds({"kind": "realtime", "base": 60, "increment": 0}) == 20
    assert leavers.grace_seconds({"kind": "realtime", "base": 900, "increment": 10}) == 120
    assert leavers.grace_seconds({"kind": "correspondence", "days": 3}) is None
    assert leavers.grace_seconds(None) is None


def test_it_refuses_a_claim_before_the_grace_period_and_changes_nothing(alice, bob):
    match = played(alice, bob)
    leave(match.pk, 1)
    before = events_of(match)
    with pytest.raises(Conflict, match="you may claim once they have been gone for 60 s") as refused:
        leavers.claim(match_id=match.pk, user=alice, result="win")
    assert refused.value.code == "claim_too_early"
    assert events_of(Match.objects.get(pk=match.pk)) == before


def test_it_refuses_a_claim_while_the_opponent_is_connected(alice, bob, short_grace):
    match = played(alice, bob)
    presence.seat_here(match.pk, 1, "bob-socket")
    wait_out(short_grace)
    with pytest.raises(Conflict, match="bob is connected") as refused:
        leavers.claim(match_id=match.pk, user=alice, result="win")
    assert refused.value.code == "opponent_present"


def test_the_remaining_player_claims_the_win_and_it_is_rated_verified_and_audited(alice, bob, short_grace):
    match = played(alice, bob)
    leave(match.pk, 1)
    wait_out(short_grace)
    leavers.claim(match_id=match.pk, user=alice, result="win")
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished" and match.ending == "claimed_win"
    assert match.result["winners"] == [0] and match.result["forfeits"] == [1]
    assert events_of(match)[-2:] == ["claimed", "finished"]
    claimed = Event.objects.get(match=match, type="claimed")
    assert claimed.payload == {"seat": 0, "absent": 1, "result": "win", "grace": 1}
    assert claimed.actor == f"user:{alice.pk}"
    assert verify_match(match).ok
    assert audit(selectors.record(match, alice))["ok"]
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert changes[alice.pk].rating_after > 1500 > changes[bob.pk].rating_after


def test_a_second_claim_is_refused(alice, bob, short_grace):
    match = played(alice, bob)
    leave(match.pk, 1)
    wait_out(short_grace)
    leavers.claim(match_id=match.pk, user=alice, result="draw")
    before = events_of(match)
    with pytest.raises(Conflict, match="already ended") as refused:
        leavers.claim(match_id=match.pk, user=alice, result="win")
    assert refused.value.code == "match_finished"
    assert events_of(match) == before


def test_a_claimed_draw_shares_first_place_and_rates_both_a_half(alice, bob, short_grace):
    match = played(alice, bob)
    leave(match.pk, 0)
    wait_out(short_grace)
    leavers.claim(match_id=match.pk, user=bob, result="draw")
    match = Match.objects.get(pk=match.pk)
    assert match.ending == "claimed_draw" and match.result["ranking"] == [0, 0] and match.result["drawn"] is True
    assert verify_match(match).ok
    assert audit(selectors.record(match, bob))["ok"]
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert len(changes) == 2 and all(c.place == 0 for c in changes.values())


def test_only_the_remaining_player_may_claim(alice, bob, carol, short_grace):
    match = played(alice, bob)
    leave(match.pk, 1)
    presence.seat_here(match.pk, 0, "alice-socket")
    wait_out(short_grace)
    with pytest.raises(Forbidden) as stranger:
        leavers.claim(match_id=match.pk, user=carol, result="win")
    assert stranger.value.code == "not_a_player"
    with pytest.raises(Conflict) as leaver:  # the one who left cannot claim against the one who stayed
        leavers.claim(match_id=match.pk, user=bob, result="win")
    assert leaver.value.code == "opponent_present"
    with pytest.raises(BadRequest, match="'win' or 'draw'"):
        leavers.claim(match_id=match.pk, user=alice, result="everything")
    assert Match.objects.get(pk=match.pk).status == "active"


def test_a_move_by_the_absent_player_restarts_their_grace_period(alice, bob, short_grace):
    """An API player without a socket is present as of their last move."""
    match = played(alice, bob)
    leave(match.pk, 1)
    wait_out(short_grace)
    everyone_moves(match.pk, [alice, bob], times=3)
    with pytest.raises(Conflict) as refused:
        leavers.claim(match_id=match.pk, user=alice, result="win")
    assert refused.value.code == "claim_too_early"


def test_claims_are_only_for_two_player_matches_with_a_real_time_clock(alice, bob, carol, short_grace):
    by_post = played(alice, bob, time_control="3d")
    three = new_match([alice, bob, carol])
    everyone_moves(three.pk, [alice, bob, carol])
    leave(by_post.pk, 1)
    leave(three.pk, 1)
    wait_out(short_grace)
    for match, message in ((by_post, "real-time clock"), (three, "2-player match")):
        with pytest.raises(Conflict, match=message) as refused:
            leavers.claim(match_id=match.pk, user=alice, result="win")
        assert refused.value.code == "claim_not_available"


def test_a_player_who_never_opened_the_page_is_gone_since_the_start(alice, bob, short_grace):
    match = new_match([alice, bob])
    wait_out(short_grace)
    leavers.claim(match_id=match.pk, user=alice, result="win")
    match = Match.objects.get(pk=match.pk)
    assert match.ending == "claimed_win" and verify_match(match).ok
    assert RatingChange.objects.filter(match=match).count() == 0  # fewer than two moves each: not rated
