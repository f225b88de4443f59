"""The tournament API: create, join, withdraw, list, standings, export; every bad input a clear 4xx."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.tournaments import services
from games.tournaments.models import Tournament

pytestmark = pytest.mark.django_db

SWISS = {"name": "Cup", "game": "nanga-parbat", "kind": "swiss", "rounds": 3, "time_control": "10+5"}


def error(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code, response.json()


@pytest.mark.parametrize("change, code", [
    ({"starts_at": "2020-01-01T00:00:00Z"}, "start_in_past"),
    ({"starts_at": "tomorrow"}, "bad_starts_at"),
    ({"max_entrants": 1_000_000}, "bad_max_entrants"),
    ({"rounds": 500}, "bad_rounds"),
    ({"players_per_table": 3}, "bad_players_per_table"),  # Nanga Parbat is for two
    ({"game": "chess"}, "unknown_game"),
    ({"kind": "arena", "rounds": None, "duration_seconds": 600, "time_control": "3d"}, "bad_time_control"),
    ({"kind": "arena", "rounds": None, "duration_seconds": 10 ** 9}, "bad_duration_seconds"),
    ({"min_completion": 3}, "bad_min_completion"),
    ({"name": ""}, "bad_name"),
])
def test_it_refuses_settings_that_make_no_tournament(alice_api, change, code):
    body = {**SWISS, **change}
    body = {k: v for k, v in body.items() if v is not None}
    response = alice_api.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] in (code, "invalid"), response.json()


def test_it_creates_lists_joins_and_shows_standings(alice_api, bob_api, anon_api):
    created = alice_api.post("/api/tournaments/", SWISS, format="json")
    assert created.status_code == 201, created.content
    tid = created.json()["id"]
    assert bob_api.post(f"/api/tournaments/{tid}/join").status_code == 201
    error(bob_api.post(f"/api/tournaments/{tid}/join"), 409, "already_joined")
    listed = anon_api.get("/api/tournaments/?status=scheduled").json()
    assert [t["id"] for t in listed] == [tid] and listed[0]["entrants"] == 1
    shown = anon_api.get(f"/api/tournaments/{tid}/").json()
    assert [r["name"] for r in shown["standings"]] == ["bob"]
    error(anon_api.post(f"/api/tournaments/{tid}/join"), 401, "not_authenticated")
    error(anon_api.get("/api/tournaments/999999/"), 404, "no_tournament")
    assert anon_api.get(f"/api/tournaments/{tid}/export?records=false").json()["format"] == "cairn-tournament/1"


def test_it_refuses_to_join_a_full_or_started_tournament_and_to_leave_a_finished_one(alice, bob, carol, alice_api, bob_api,
                                                                                       carol_api):
    full = services.create(user=alice, data={**SWISS, "max_entrants": 2})
    for user in (alice, bob):
        services.join(tournament_id=full.pk, user=user)
    error(carol_api.post(f"/api/tournaments/{full.pk}/join"), 409, "tournament_full")
    robin = services.create(user=alice, data={"name": "RR", "game": "mountain-goats", "kind": "round_robin"})
    for user in (alice, bob):
        services.join(tournament_id=robin.pk, user=user)
    services.start(tournament_id=robin.pk)
    error(carol_api.post(f"/api/tournaments/{robin.pk}/join"), 409, "tournament_started")
    Tournament.objects.filter(pk=robin.pk).update(status=Tournament.Status.FINISHED)
    error(bob_api.post(f"/api/tournaments/{robin.pk}/withdraw"), 409, "tournament_finished")


def test_it_keeps_bots_out_unless_the_tournament_admits_them(alice, alice_api):
    closed = services.create(user=alice, data=SWISS)
    error(alice_api.post(f"/api/tournaments/{closed.pk}/bots", {"level": "random"}, format="json"), 403, "no_bots")
    open_ = services.create(user=alice, data={**SWISS, "bots_allowed": True})
    answer = alice_api.post(f"/api/tournaments/{open_.pk}/bots", {"level": "random"}, format="json")
    assert answer.status_code == 201 and answer.json()["bot"] is True
    error(alice_api.post(f"/api/tournaments/{open_.pk}/bots", {"level": "grandmaster"}, format="json"), 400, "bad_bot")


def test_it_asks_for_the_minimum_rating(alice, bob_api):
    strict = services.create(user=alice, data={**SWISS, "min_rating": 2500})
    error(bob_api.post(f"/api/tournaments/{strict.pk}/join"), 403, "rating_too_low")


def test_a_tournament_due_starts_at_the_tick(alice, bob):
    soon = services.create(user=alice, data={**SWISS, "starts_at": (timezone.now() + timedelta(minutes=5)).isoformat()})
    for user in (alice, bob):
        services.join(tournament_id=soon.pk, user=user)
    assert services.tick()["started"] == 0
    assert services.tick(timezone.now() + timedelta(minutes=6))["started"] == 1
    soon.refresh_from_db()
    assert soon.status == Tournament.Status.RUNNING and soon.current_round == 1


def test_every_tournament_route_is_in_the_openapi_schema(anon_api):
    schema = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = set(schema["paths"])
    for route in ("/api/tournaments/", "/api/tournaments/{tournament_id}/", "/api/tournaments/{tournament_id}/join",
                  "/api/tournaments/{tournament_id}/withdraw", "/api/tournaments/{tournament_id}/export",
                  "/api/seasons/{game_id}/"):
        assert route in paths, sorted(p for p in paths if "tourn" in p)
