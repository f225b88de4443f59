"""Direct challenges (accept, decline, expiry) and the clock fold over event times."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from games.errors import BadRequest, Conflict, Forbidden
from games.models import Match
from games.ranking import challenges
from games.clocks import ClockFold, normalize_time_control, time_control_key
from games.ranking.models import Challenge

T0 = datetime(2026, 1, 1, 12, tzinfo=timezone.utc)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_time_controls_read_text_and_objects():
    assert normalize_time_control("5+10") == {"kind": "realtime", "base": 300, "increment": 10}
    assert normalize_time_control("3d") == {"kind": "correspondence", "days": 3}
    assert normalize_time_control(None) is None
    assert time_control_key(normalize_time_control("0.5+0")) == "0.5+0"
    for bad in ("5", "0+0", {"kind": "realtime", "base": 60, "increment": -1}, {"kind": "blitz"}, "99d"):
        with pytest.raises(BadRequest):
            normalize_time_control(bad)


def test_a_realtime_clock_runs_for_the_seat_to_move_and_adds_the_increment():
    fold = ClockFold({"kind": "realtime", "base": 60, "increment": 5}, 2)
    fold.feed("created", {"seats": [{"human": True}, {"human": True}]}, at(0), ())
    fold.feed("started", {}, at(0), ())
    fold.feed("chance", {"chance": {}}, at(0), (0,))
    assert fold.deadline(0) == at(60) and fold.deadline(1) is None
    fold.feed("action", {"player": 0}, at(20), (1,))
    assert fold.bank[0] == 45  # 60 - 20 + 5
    assert fold.deadline(1) == at(80)
    assert fold.flagged(at(79)) is None and fold.flagged(at(80)) == 1
    assert fold.remaining(0, at(100)) == 45


def test_a_correspondence_clock_gives_the_days_for_every_move_and_bots_have_none():
    fold = ClockFold({"kind": "correspondence", "days": 2}, 2)
    fold.feed("created", {"seats": [{"human": True}, {"bot": "random"}]}, at(0), ())
    fold.feed("started", {}, at(0), (0,))
    fold.feed("action", {"player": 0}, at(3600), (1,))
    assert fold.next_deadline() is None  # the bot seat has no clock
    fold.feed("action", {"player": 1}, at(3601), (0,))
    assert fold.deadline(0) == at(3601) + timedelta(days=2)


@pytest.mark.django_db
def test_a_challenge_accepted_starts_a_match_with_the_chosen_options(alice, bob):
    challenge = challenges.create(user=alice, opponent="Bob", game_id="mountain-goats", rated=True,
                                  time_control="15+10")
    assert challenges.of_user(bob)["received"] == [challenge]
    assert challenges.of_user(alice)["sent"] == [challenge]
    with pytest.raises(Forbidden):
        challenges.accept(challenge_id=challenge.pk, user=alice)
    challenge = challenges.accept(challenge_id=challenge.pk, user=bob)
    match = Match.objects.get(pk=challenge.match_id)
    assert challenge.status == "accepted" and match.status == "active" and match.rated
    assert match.time_control == {"kind": "realtime", "base": 900, "increment": 10}
    with pytest.raises(Conflict):
        challenges.accept(challenge_id=challenge.pk, user=bob)


@pytest.mark.django_db
def test_a_challenge_can_be_declined_or_cancelled(alice, bob):
    declined = challenges.create(user=alice, opponent="bob", game_id="nanga-parbat")
    assert challenges.decline(challenge_id=declined.pk, user=bob).status == "declined"
    cancelled = challenges.create(user=alice, opponent="bob", game_id="nanga-parbat")
    assert challenges.decline(challenge_id=cancelled.pk, user=alice).status == "cancelled"
    assert Match.objects.count() == 0


@pytest.mark.django_db
def test_an_expired_challenge_cannot_be_accepted(alice, bob):
    challenge = challenges.create(user=alice, opponent="bob", game_id="mountain-goats")
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=challenge.created_at)
    assert challenges.of_user(bob)["received"] == []
    with pytest.raises(Conflict, match="expired"):
        challenges.accept(challenge_id=challenge.pk, user=bob)
    assert challenges.expire() == 1 and Challenge.objects.get(pk=challenge.pk).status == "expired"


@pytest.mark.django_db
def test_bad_challenges_are_refused(alice, bob):
    from games.errors import NotFound

    with pytest.raises(BadRequest):
        challenges.create(user=alice, opponent="alice", game_id="mountain-goats")
    with pytest.raises(NotFound):
        challenges.create(user=alice, opponent="nobody", game_id="mountain-goats")
    with pytest.raises(BadRequest):
        challenges.create(user=alice, opponent="bob", game_id="mountain-goats", time_control="1h")
