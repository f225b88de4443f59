"""The ranked-play API: queue, challenges, resign/abort, clocks, leaderboards, profiles, history, schema."""

from __future__ import annotations

import pytest

from games.models import Match
from games.ranking.models import Rating
from tests.ranking.helpers import everyone_moves, new_match
from tests.service.helpers import finish_quickly

pytestmark = pytest.mark.django_db


def test_the_queue_join_list_pair_and_cancel(alice_api, bob_api, carol_api, anon_api,
                                            django_capture_on_commit_callbacks):
    body = {"game": "mountain-goats", "players": 2, "time_control": "5+10", "rated": True}
    first = alice_api.post("/api/ranking/queue/", body, format="json")
    assert first.status_code == 201 and first.json()["status"] == "waiting"
    assert alice_api.post("/api/ranking/queue/", body, format="json").json()["error"]["code"] == "already_queued"
    queues = anon_api.get("/api/ranking/queue/").json()["queues"]
    assert queues == [dict(queues[0], game="mountain-goats", players=2, time_control="5+10", rated=True, waiting=1)]
    with django_capture_on_commit_callbacks(execute=True):  # the pairing runs once the join commits
        second = bob_api.post("/api/ranking/queue/", body, format="json")
    assert second.status_code == 201
    mine = alice_api.get("/api/ranking/queue/").json()
    assert mine["mine"] is None and mine["last_match"] is not None
    match = Match.objects.get(pk=mine["last_match"])
    assert match.rated and match.status == "active"
    assert carol_api.post("/api/ranking/queue/", dict(body, players=5), format="json").status_code == 400
    carol_api.post("/api/ranking/queue/", body, format="json")
    assert carol_api.delete("/api/ranking/queue/").json()["status"] == "cancelled"
    assert carol_api.delete("/api/ranking/queue/").status_code == 404
    assert anon_api.post("/api/ranking/queue/", body, format="json").status_code in (401, 403)


def test_challenges_through_the_api(alice_api, bob_api, bob):
    sent = alice_api.post("/api/ranking/challenges/", {"opponent": "bob", "game": "nanga-parbat",
                                                       "rated": True, "time_control": "2d"}, format="json")
    assert sent.status_code == 201 and sent.json()["time_control_key"] == "2d"
    received = bob_api.get("/api/ranking/challenges/").json()["received"]
    assert [c["id"] for c in received] == [sent.json()["id"]]
    assert alice_api.post(f"/api/ranking/challenges/{sent.json()['id']}/accept").status_code == 403
    accepted = bob_api.post(f"/api/ranking/challenges/{sent.json()['id']}/accept").json()
    assert accepted["status"] == "accepted" and Match.objects.get(pk=accepted["match"]).game_id == "nanga-parbat"
    assert bob_api.post(f"/api/ranking/challenges/{sent.json()['id']}/decline").status_code == 409
    assert bob_api.post("/api/ranking/challenges/999999/accept").status_code == 404


def test_resign_abort_and_the_ranked_view(alice, bob, alice_api, bob_api, anon_api):
    match = new_match([alice, bob], time_control="3+2")
    ranked = anon_api.get(f"/api/matches/{match.pk}/ranked").json()
    assert ranked["rated"] and ranked["abortable"] and ranked["clock"]["key"] == "3+2"
    running = [s for s in ranked["clock"]["seats"] if s["running"]]
    assert len(running) == 1 and 170 < running[0]["remaining"] <= 180
    assert [s["text"] for s in ranked["seats"]] == ["1500?", "1500?"]
    assert anon_api.post(f"/api/matches/{match.pk}/abort").status_code in (401, 403)
    aborted = bob_api.post(f"/api/matches/{match.pk}/abort")
    assert aborted.status_code == 200 and aborted.json()["status"] == "finished"

    match = new_match([alice, bob])
    everyone_moves(match.pk, [alice, bob])
    assert alice_api.post(f"/api/matches/{match.pk}/abort").json()["error"]["code"] == "not_abortable"
    assert alice_api.post(f"/api/matches/{match.pk}/resign").json()["result"]["winners"] == [1]
    ranked = anon_api.get(f"/api/matches/{match.pk}/ranked").json()
    assert ranked["ending"] == "resigned" and [c["delta"] > 0 for c in ranked["rating_changes"]] == [False, True]
    assert anon_api.get("/api/matches/999999/ranked").status_code == 404


def test_a_rated_match_can_be_created_through_the_match_api(alice_api):
    made = alice_api.post("/api/matches/", {"game": "mountain-goats", "seats": [{"human": True}, {"human": True}],
                                             "rated": True, "time_control": "15+10"}, format="json")
    assert made.status_code == 201 and Match.objects.get(pk=made.json()["id"]).rated
    refused = alice_api.post("/api/matches/", {"game": "mountain-goats", "seats": [{"human": True}, {"bot": "random"}],
                                                "rated": True}, format="json")
    assert refused.status_code == 400 and "bots are never rated" in refused.json()["error"]["message"]


def test_leaderboards_show_only_non_provisional_players_and_profiles_show_history(make_user, anon_api):
    users = [make_user(f"climber{i}") for i in range(3)]
    for n, (a, b) in enumerate([(0, 1), (1, 2), (0, 2)]):
        finish_quickly(new_match([users[a], users[b]]), seed=n)
    Rating.objects.filter(user=users[0]).update(deviation=80)  # pretend climber0 is established
    board = anon_api.get("/api/ranking/ladders/mountain-goats/").json()
    assert [p["user"] for p in board["players"]] == ["climber0"] and board["players"][0]["rank"] == 1
    assert board["provisional_players"] == 2 and {b["bot"] for b in board["bots"]} >= {"random"}
    assert anon_api.get("/api/ranking/ladders/").status_code == 200
    assert anon_api.get("/api/ranking/ladders/chess/").status_code == 404

    profile = anon_api.get("/api/ranking/users/climber1/").json()
    goats = next(r for r in profile["ratings"] if r["game"] == "mountain-goats")
    assert goats["games"] == 2 and goats["provisional"] and goats["text"].endswith("?")
    assert len(profile["history"]["mountain-goats"]) == 2
    history = anon_api.get("/api/ranking/users/climber1/matches/?game=mountain-goats&rated=true").json()["matches"]
    assert len(history) == 2 and all(m["rating_delta"] is not None for m in history)
    wins = anon_api.get("/api/ranking/users/climber1/matches/?result=win").json()["matches"]
    assert all(m["result"] == "win" for m in wins)
    assert anon_api.get("/api/ranking/users/climber1/matches/?result=maybe").status_code == 400
    assert anon_api.get("/api/ranking/users/nobody/").status_code == 404


def test_the_openapi_schema_documents_ranked_play(anon_api):
    schema = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content.decode()
    for route in ("/api/ranking/queue/", "/api/ranking/challenges/", "/api/matches/{match_id}/resign",
                  "/api/ranking/ladders/{game_id}/", "/api/ranking/users/{username}/matches/"):
        assert route in schema


def test_a_match_created_through_the_api_without_a_time_control_gets_a_day_per_move(alice_api):
    created = alice_api.post("/api/matches/", {"game": "mountain-goats", "seats": [{"human": True}, {"bot": "random"}]},
                             format="json")
    assert created.status_code == 201
    match = Match.objects.get(pk=created.json()["id"])
    assert match.time_control == {"kind": "correspondence", "days": 1}
    ranked = alice_api.get(f"/api/matches/{match.pk}/ranked").json()
    assert ranked["time_control"] == {"kind": "correspondence", "days": 1} and ranked["clock"]["key"] == "1d"
    named = alice_api.post("/api/matches/", {"game": "mountain-goats", "seats": [{"human": True}, {"bot": "random"}],
                                             "time_control": "5+10"}, format="json")
    assert Match.objects.get(pk=named.json()["id"]).time_control == {"kind": "realtime", "base": 300, "increment": 10}
