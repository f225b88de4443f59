"""Direct challenges through the service: accept, decline, cancel, expiry, bad requests."""

from __future__ import annotations

import pytest

from games.errors import BadRequest, Conflict, Forbidden
from games.models import Match
from games.ranking import challenges
from games.ranking.models import Challenge

pytestmark = pytest.mark.django_db


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


def test_a_challenge_can_be_declined_or_cancelled(alice, bob):
    declined = challenges.create(user=alice, opponent="bob", game_id="nanga-parbat")
    assert challenges.decline(challenge_id=declined.pk, user=bob).status == "declined"
    cancelled = challenges.create(user=alice, opponent="bob", game_id="nanga-parbat")
    assert challenges.decline(challenge_id=cancelled.pk, user=alice).status == "cancelled"
    assert Match.objects.count() == 0


def test_an_expired_challenge_cannot_be_accepted(alice, bob):
    challenge = challenges.create(user=alice, opponent="bob", game_id="mountain-goats")
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=challenge.created_at)
    assert challenges.of_user(bob)["received"] == []
    with pytest.raises(Conflict, match="expired"):
        challenges.accept(challenge_id=challenge.pk, user=bob)
    assert challenges.expire() == 1 and Challenge.objects.get(pk=challenge.pk).status == "expired"


def test_bad_challenges_are_refused(alice, bob):
    from games.errors import NotFound

    with pytest.raises(BadRequest):
        challenges.create(user=alice, opponent="alice", game_id="mountain-goats")
    with pytest.raises(NotFound):
        challenges.create(user=alice, opponent="nobody", game_id="mountain-goats")
    with pytest.raises(BadRequest):
        challenges.create(user=alice, opponent="bob", game_id="mountain-goats", time_control="1h")
