"""The audit page: verify_match's verdict explained for people, and how to repeat it offline."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Match

from .helpers import two_player_match
from .test_replay import play

pytestmark = pytest.mark.django_db


def states(page: str) -> dict[str, str]:
    """Each check's title and state as the page lists them."""
    return dict(
        (title, state)
        for state, title in re.findall(r'<li class="audit-(\w+)">.*?<strong>([^<]+)</strong>', page, re.S)
    )


def test_a_finished_match_passes_every_check_and_shows_its_seed(alice, bob):
    match = two_player_match(alice, bob)
    play(match, (alice, bob))
    match.refresh_from_db()
    page = Client().get(f"/matches/{match.pk}/verify/").content.decode()
    assert "All checks passed" in page and f"over {match.seq} events" in page
    assert set(states(page).values()) == {"passed"} and len(states(page)) == 7
    assert match.commitment in page and match.seed in page
    assert f"/api/matches/{match.pk}/record" in page and "python -m engine audit" in page
    live = Client().get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/verify/"' in live


def test_an_active_match_is_checked_but_its_seed_stays_secret(alice, bob):
    match = two_player_match(alice, bob)
    play(match, (alice, bob), moves=3)
    match.refresh_from_db()
    assert match.status == "active"
    page = Client().get(f"/matches/{match.pk}/verify/").content.decode()
    assert "All checks passed" in page
    assert match.seed not in page  # the seed would let a player predict every roll still to come
    assert match.commitment in page and "secret until the match ends" in page


def test_a_failed_check_is_named_with_its_event_and_a_link_to_it(alice, bob):
    match = two_player_match(alice, bob)
    play(match, (alice, bob))
    match.refresh_from_db()
    Match.objects.filter(pk=match.pk).update(result={"scores": [0, 0], "winners": [0, 1], "ranking": [0, 0]})
    page = Client().get(f"/matches/{match.pk}/verify/").content.decode()
    assert f"Check failed at event {match.seq}" in page
    assert states(page) == {
        "Numbering": "stopped", "Hash chain": "stopped", "Seed commitment": "stopped",
        "Fair dice and shuffles": "stopped", "Legal moves": "stopped", "Result": "failed", "Endings": "stopped",
    }
    assert f"held before event {match.seq}, then stopped" in page
    assert f'href="/matches/{match.pk}/replay/?seq={match.seq}"' in page


def test_an_unknown_match_is_a_404_page():
    assert Client().get("/matches/987654/verify/").status_code == 404


def test_a_hidden_information_game_says_its_record_audits_offline_once_it_has_ended(alice, bob):
    from games import services

    match = services.create_match(user=alice, game_id="mountainhome", seats=[{"human": True}, {"human": True}], options={})
    services.join_match(match_id=match.pk, user=bob)
    page = Client().get(f"/matches/{match.pk}/verify/").content.decode()
    assert "All checks passed" in page
    assert "Mountainhome has hidden information" in page and "python -m engine audit" in page
    assert "This works once the match has ended" in page and "Once the match has ended they are all revealed" in page
