"""The presence panel on the match page, and the claim buttons."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Match
from tests.ranking.helpers import everyone_moves, new_match

from .conftest import leave, wait_out

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_match_page_shows_presence_and_offers_the_claim_once_the_grace_period_is_over(alice, bob, carol,
                                                                                        short_grace):
    match = new_match([alice, bob])
    everyone_moves(match.pk, [alice, bob])
    leave(match.pk, 1)
    page = logged_in(alice).get(f"/matches/{match.pk}/").content.decode()
    assert 'id="presence-panel"' in page and 'data-seat="1" data-present="0"' in page
    assert "bob has left: if they are still gone in" in page and 'hx-trigger="load delay:' in page
    wait_out(short_grace)
    panel = logged_in(alice).get(f"/matches/{match.pk}/presence/").content.decode()
    assert 'data-claim="win"' in panel and 'data-claim="draw"' in panel
    watching = Client().get(f"/matches/{match.pk}/presence/").content.decode()
    assert 'data-seat="1" data-present="0"' in watching and "data-claim" not in watching  # spectators see, never claim
    refused = logged_in(carol).post(f"/matches/{match.pk}/claim/", {"result": "win"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 403 and b"you hold no seat" in refused.content
    claimed = logged_in(alice).post(f"/matches/{match.pk}/claim/", {"result": "win"}, HTTP_HX_REQUEST="true")
    assert claimed.status_code == 200 and "data-claim" not in claimed.content.decode()
    assert Match.objects.get(pk=match.pk).ending == "claimed_win"
