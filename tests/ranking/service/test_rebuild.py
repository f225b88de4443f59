"""The ladders are a projection: rebuilding them from the match events gives identical numbers."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games import services
from games.ranking.models import Rating, RatingChange
from games.ranking.ratings import rebuild_ladders
from tests.ranking.helpers import everyone_moves, new_match
from tests.service.helpers import finish_quickly

pytestmark = pytest.mark.django_db


def ladder_snapshot() -> list[tuple]:
    """Every ladder row as comparable tuples."""
    return sorted(
        (r.game_id, r.user_id, r.rating, r.deviation, r.volatility, r.games, r.last_played_at, r.ladder_seq)
        for r in Rating.objects.all()
    )


@pytest.fixture
def played(make_user):
    """Rated 2- and 4-player matches, a resignation, a casual match and an abort between six players."""
    users = [make_user(f"player{i}") for i in range(6)]
    pairs = [(0, 1), (1, 2), (2, 0), (3, 4), (0, 3), (4, 5), (5, 1)]
    for n, (a, b) in enumerate(pairs):
        finish_quickly(new_match([users[a], users[b]]), seed=n)
    for n, group in enumerate([(0, 1, 2, 3), (2, 3, 4, 5), (5, 4, 1, 0)]):
        finish_quickly(new_match([users[i] for i in group]), seed=100 + n)
    resigned = new_match([users[1], users[3]])
    everyone_moves(resigned.pk, [users[1], users[3]])  # two moves each, or the resignation rates nothing
    services.resign(match_id=resigned.pk, user=users[3])
    finish_quickly(new_match([users[0], users[1]], rated=False), seed=7)  # casual: never rated
    aborted = new_match([users[2], users[4]])
    services.abort(match_id=aborted.pk, user=users[2])
    return users


def test_rebuilding_the_ladders_from_the_match_events_gives_identical_ratings(played):
    live = ladder_snapshot()
    assert len(live) == 6 and RatingChange.objects.values("match").distinct().count() == 11
    assert sorted(r.games for r in Rating.objects.all()) == [4, 4, 4, 5, 5, 6]

    Rating.objects.all().delete()  # the projection can always be thrown away
    call_command("rebuild_ladders", stdout=open("/dev/null", "w"))
    assert ladder_snapshot() == live

    # ... and it reproduces every recorded rating event, float for float.
    report = rebuild_ladders()
    assert report["mismatches"] == [] and report["added"] == []
    assert report["games"]["mountain-goats"] == {"matches": 11, "players": 6}


def test_a_lost_rating_event_is_restored_by_the_rebuild_and_a_forged_one_is_reported(played):
    last = RatingChange.objects.order_by("-ladder_seq").first()
    live = ladder_snapshot()
    RatingChange.objects.filter(match=last.match).delete()
    report = rebuild_ladders()
    assert report["added"] == [last.match_id] and ladder_snapshot() == live

    first = RatingChange.objects.order_by("ladder_seq", "seat").first()
    RatingChange.objects.filter(pk=first.pk).update(rating_after=first.rating_after + 1)
    report = rebuild_ladders()
    assert report["mismatches"] == [{"match": first.match_id, "user": first.user_id}]

