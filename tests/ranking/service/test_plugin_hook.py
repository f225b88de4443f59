"""Ranked play is a plug-in: the match core tells it that a match finished through one typed hook."""

from __future__ import annotations

import pytest

from games import services
from games.models import Event
from games.ranking.models import RatingChange
from games.signals import MatchFinished, match_finished
from tests.ranking.helpers import everyone_moves, new_match

pytestmark = pytest.mark.django_db


def test_the_core_sends_match_finished_once_with_the_stored_final_event(alice, bob):
    match = new_match([alice, bob], rated=False)
    everyone_moves(match.pk, [alice, bob])
    received: list[MatchFinished] = []

    def receiver(sender, *, finished, **kwargs):
        received.append(finished)

    match_finished.connect(receiver)
    try:
        services.resign(match_id=match.pk, user=alice)
    finally:
        match_finished.disconnect(receiver)
    assert len(received) == 1
    finished = received[0]
    assert finished.match.pk == match.pk and finished.event.type == "finished"
    assert finished.event == Event.objects.get(match_id=match.pk, type="finished")
    assert [seat.index for seat in finished.seats] == [0, 1]


def test_ratings_come_from_the_hook_and_roll_back_with_the_match(alice, bob):
    match = new_match([alice, bob], rated=True)
    everyone_moves(match.pk, [alice, bob])

    def failing(sender, *, finished, **kwargs):
        raise RuntimeError("a plug-in failed")

    match_finished.connect(failing)
    try:
        with pytest.raises(RuntimeError):
            services.resign(match_id=match.pk, user=alice)
    finally:
        match_finished.disconnect(failing)
    # the whole ending rolled back: no final event, no rating change
    assert not Event.objects.filter(match_id=match.pk, type="finished").exists()
    assert not RatingChange.objects.filter(match_id=match.pk).exists()
    services.resign(match_id=match.pk, user=alice)  # without the failing receiver: rated as before
    assert RatingChange.objects.filter(match_id=match.pk).count() == 2
