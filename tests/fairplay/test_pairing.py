"""Pairing only with people above a completion rate: the queue's choice, honoured for both sides."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.test import Client
from django.utils import timezone

from games.errors import BadRequest
from games.fairplay.models import QueueFilter
from games.ranking import matchmaking
from games.ranking.models import QueueEntry
from tests.ranking.helpers import new_match
from tests.service.helpers import finish_quickly

from .test_reliability import aborts

pytestmark = pytest.mark.django_db

CASUAL = {"game_id": "mountain-goats", "players": 2, "time_control": "5+10", "rated": False}


@pytest.fixture
def rates(alice, bob, carol, dave):
    """alice completes 25% of her matches; bob, carol and dave 100%."""
    aborts(alice, bob, 3)
    finish_quickly(new_match([alice, bob], rated=False), seed=2)  # (casual: ratings stay close)
    finish_quickly(new_match([carol, dave], rated=False), seed=3)
    return {"alice": "25%", "bob": "100%", "carol": "100%", "dave": "100%"}


def test_a_person_asking_for_a_completion_rate_is_paired_only_with_people_who_have_it(alice, carol, dave, rates):
    picky = matchmaking.join(user=carol, min_completion=80, **CASUAL)
    assert QueueFilter.objects.get(entry=picky).min_completion == 80
    assert matchmaking.join(user=alice, **CASUAL).status == "waiting"  # 25% < 80%: not paired
    assert QueueEntry.objects.get(pk=picky.pk).status == "waiting"
    entry = matchmaking.join(user=dave, **CASUAL)  # 100%: paired with carol, passing alice over
    assert entry.status == "matched"
    assert QueueEntry.objects.get(pk=picky.pk).match_id == entry.match_id
    assert QueueEntry.objects.get(user=alice).status == "waiting"


def test_the_matchmaker_honours_the_choice_of_the_side_that_made_it_whoever_joins_first(alice, bob, carol, rates):
    matchmaking.join(user=alice, **CASUAL)  # alice asks nothing
    entry = matchmaking.join(user=bob, min_completion=30, **CASUAL)  # bob asks 30%: alice has 25%
    assert entry.status == "waiting" and QueueEntry.objects.get(user=alice).status == "waiting"
    assert matchmaking.join(user=carol, **CASUAL).status == "matched"  # carol and the one who waited longest
    assert QueueEntry.objects.get(user=alice).match_id == QueueEntry.objects.get(user=carol).match_id
    assert QueueEntry.objects.get(user=bob).status == "waiting"


def test_a_person_with_no_finished_match_meets_no_minimum_but_anybody_else(alice, bob, carol, make_user, rates):
    newcomer = make_user("erin")
    matchmaking.join(user=bob, min_completion=1, **CASUAL)
    assert matchmaking.join(user=newcomer, **CASUAL).status == "waiting"  # no rate yet
    matchmaking.cancel(user=bob)
    assert matchmaking.join(user=carol, **CASUAL).status == "matched"  # nobody asked anything: paired


def test_the_pairing_rule_needs_every_member_to_accept_every_other():
    now = timezone.now()
    entries = [SimpleNamespace(pk=i, user_id=i, rating=1500.0, joined_at=now - timedelta(seconds=10 - i))
               for i in range(4)]
    refuses = {(0, 1), (1, 0), (2, 3), (3, 2)}
    groups = matchmaking.choose_groups(entries, 2, now, lambda a, b: (a.pk, b.pk) not in refuses)
    assert [[e.pk for e in g] for g in groups] == [[0, 2], [1, 3]]
    three = matchmaking.choose_groups(entries, 3, now, lambda a, b: {a.pk, b.pk} != {1, 2})
    assert [[e.pk for e in g] for g in three] == [[0, 1, 3]]


@pytest.mark.parametrize("value", [0, 101, -5, True, 50.5, "lots", [80]])
def test_it_rejects_a_minimum_that_is_not_a_whole_percent_from_1_to_100(alice, value):
    with pytest.raises(BadRequest, match="'min_completion' must be a whole percent from 1 to 100") as refused:
        matchmaking.join(user=alice, min_completion=value, **CASUAL)
    assert refused.value.code == "bad_min_completion"
    assert not QueueEntry.objects.filter(user=alice).exists()


def test_the_queue_route_takes_the_minimum_shows_it_and_refuses_bad_values(alice_api, anon_api):
    for bad in (0, 101, "lots", 50.5):
        answer = alice_api.post("/api/ranking/queue/", {"game": "mountain-goats", "players": 2,
                                                           "rated": False, "min_completion": bad}, format="json")
        assert answer.status_code == 400, (bad, answer.content)
        assert "min_completion" in answer.content.decode()
    answer = alice_api.post("/api/ranking/queue/", {"game": "mountain-goats", "players": 2, "rated": False,
                                                    "min_completion": 90}, format="json")
    assert answer.status_code == 201 and answer.json()["min_completion"] == 90
    assert alice_api.get("/api/ranking/queue/").json()["mine"]["min_completion"] == 90
    schema = anon_api.get("/api/schema/", {"format": "json"}).json()
    join = schema["components"]["schemas"]["QueueJoinRequest"]["properties"]["min_completion"]
    assert join["minimum"] == 1 and join["maximum"] == 100 and join.get("nullable") is True
    assert "min_completion" in schema["components"]["schemas"]["QueueEntry"]["properties"]


def test_the_lobby_form_offers_the_choice_and_says_it_while_waiting(alice):
    client = Client()
    client.force_login(alice)
    panel = client.get("/play/panel/").content.decode()
    assert 'id="rk-min-completion"' in panel and 'hx-include="#rk-min-completion"' in panel
    refused = client.post("/play/", {"game": "mountain-goats", "players": "2", "rated": "0",
                                     "min_completion": "150"}, HTTP_HX_REQUEST="true").content.decode()
    assert "a whole percent from 1 to 100" in refused
    waiting = client.post("/play/", {"game": "mountain-goats", "players": "2", "rated": "0",
                                     "min_completion": "90"}, HTTP_HX_REQUEST="true").content.decode()
    assert "opponents completing at least 90%" in waiting
    assert QueueFilter.objects.get(entry__user=alice).min_completion == 90
