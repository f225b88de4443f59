"""Hostile input gets a 4xx and nothing else, on PostgreSQL and SQLite.

Every case here gave a 500 (or answered with the whole input) before.
"""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from games import services

pytestmark = pytest.mark.django_db(databases="__all__")

HUGE = 2**63


def error_of(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:300])
    body = response.json()
    assert set(body) == {"error"} and body["error"]["message"]
    return body["error"]


@pytest.fixture
def waiting_match(backend, alice):
    return services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}])


@pytest.mark.parametrize("verb", ["join", "resign", "abort", "ranked", "record", "verify", "events/", "actions/", ""])
def test_an_id_out_of_range_is_a_404(backend, bob, verb):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    bob_api = APIClient(enforce_csrf_checks=True)  # as a real server does: a non-DRF 404 view must not ask for CSRF
    bob_api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=bob).key}")
    for match_id in (HUGE, 10**30, 0):
        url = f"/api/matches/{match_id}/{verb}"
        response = bob_api.post(url, {"action": {}, "expected_seq": 1}, format="json") if verb in (
            "join", "resign", "abort", "actions/") else bob_api.get(url)
        error_of(response, 404)


def test_challenge_ids_out_of_range_are_a_404(backend, bob_api):
    error_of(bob_api.post(f"/api/ranking/challenges/{HUGE}/accept"), 404)


def test_pages_with_an_id_out_of_range_are_a_404(backend, client):
    assert client.get(f"/matches/{HUGE}/").status_code == 404
    assert client.get(f"/matches/{HUGE}/verify/").status_code == 404


@pytest.mark.parametrize("url", [
    "/api/ranking/users/alice/matches/?game=mountain%00goats",
    "/api/matches/?status=fin%00ished",
    "/api/ranking/users/al%00ice/",
    "/api/matches/?status=%ff%fe",
    "/api/ranking/ladders/?%00=1",
])
def test_nul_or_invalid_text_in_a_parameter_is_a_400(backend, anon_api, url):
    assert error_of(anon_api.get(url), 400)["code"] == "bad_parameter"


def test_nul_in_a_page_parameter_is_a_400_too(backend, client):
    assert client.get("/?next=a%00b").status_code == 400


@pytest.mark.parametrize("body", [
    {"username": "a\u0000b", "password": "correct-horse-battery"},
    {"username": "alice\ud800", "password": "correct-horse-battery"},
])
def test_nul_or_a_lone_surrogate_in_a_json_body_is_a_400(backend, anon_api, body):
    raw = json.dumps(body)  # ensure_ascii: the NUL and the surrogate travel as \\u escapes
    response = anon_api.post("/api/auth/register", raw, content_type="application/json")
    assert error_of(response, 400)["code"] == "malformed_json"


def test_a_nul_inside_an_action_is_a_400(backend, alice_api, waiting_match):
    response = alice_api.post(f"/api/matches/{waiting_match.pk}/actions/",
                              json.dumps({"action": {"climb": ["\u0000"]}, "expected_seq": 1}), content_type="application/json")
    assert error_of(response, 400)["code"] == "malformed_json"


@pytest.mark.parametrize("url", ["/api/auth/register", "/api/auth/token", "/api/matches/"])
def test_json_nested_5000_deep_is_a_400(backend, alice_api, url):
    deep = "[" * 5000 + "]" * 5000
    response = alice_api.post(url, '{"username": ' + deep + "}", content_type="application/json")
    error = error_of(response, 400)
    assert error["code"] == "malformed_json" and "nested deeper than 32" in error["message"]


def test_json_nested_just_deeper_than_the_limit_is_a_400(backend, alice_api, waiting_match):
    action = 0
    for _ in range(33):
        action = [action]
    response = alice_api.post(f"/api/matches/{waiting_match.pk}/actions/", {"action": action, "expected_seq": 1}, format="json")
    assert error_of(response, 400)["code"] == "malformed_json"


def test_nan_is_not_json(backend, alice_api, waiting_match):
    response = alice_api.post(f"/api/matches/{waiting_match.pk}/actions/", '{"action": NaN, "expected_seq": 1}',
                              content_type="application/json")
    assert error_of(response, 400)["code"] == "malformed_json"


def test_a_body_over_the_limit_is_a_413_and_is_not_echoed(backend, alice_api, waiting_match):
    big = json.dumps({"action": {"climb": ["x" * 70_000]}, "expected_seq": 1})
    response = alice_api.post(f"/api/matches/{waiting_match.pk}/actions/", big, content_type="application/json")
    error = error_of(response, 413)
    assert error["code"] == "body_too_large" and "65536" in error["message"]
    assert len(response.content) < 300


@override_settings(CAIRN_API_MAX_BODY_BYTES=10_000_000)
def test_a_400_quotes_at_most_a_short_excerpt_of_the_input(backend, alice_api, bob_api, waiting_match):
    from games.models import Match

    match = Match.objects.get(pk=waiting_match.pk)
    bob_api.post(f"/api/matches/{match.pk}/join")
    match.refresh_from_db()
    junk = "y" * 1_000_000
    response = alice_api.post(f"/api/matches/{match.pk}/actions/", {"action": {"climb": [junk]}, "expected_seq": match.seq},
                              format="json")
    assert response.status_code in (400, 403)
    # the message quotes at most a short excerpt (games.errors.MESSAGE_LIMIT), never the megabyte
    assert len(response.content) < 1000 and junk[:400] not in response.content.decode()
    response = alice_api.post("/api/matches/", {"game": "x" * 100_000, "seats": [{"human": True}]}, format="json")
    assert error_of(response, 400) and len(response.content) < 1000


def test_every_game_refuses_unknown_action_fields_the_same_way(backend, alice, bob, alice_api, bob_api):
    from games import selectors

    for game in ("mountain-goats", "nanga-parbat", "mountainhome"):
        match = services.create_match(user=alice, game_id=game, seats=[{"human": True}, {"human": True}])
        services.join_match(match_id=match.pk, user=bob)
        match = selectors.get_match(match.pk)
        state = selectors.load_state(match)
        seat = state.to_move()[0]
        api = {0: alice_api, 1: bob_api}[seat]
        legal = state.action_to_json(seat, state.legal_actions(seat)[0])
        assert isinstance(legal, dict)
        response = api.post(f"/api/matches/{match.pk}/actions/",
                                  {"action": {**legal, "bogus": 1}, "expected_seq": match.seq}, format="json")
        error = error_of(response, 400)
        assert error["code"] == "malformed_action" and "unknown field 'bogus'" in error["message"], (game, error)


@pytest.mark.parametrize("username", [12, 1.5, True, None, ["alice"], {"a": 1}])
def test_usernames_must_be_strings(backend, anon_api, username):
    for url in ("/api/auth/register", "/api/auth/token"):
        response = anon_api.post(url, {"username": username, "password": "correct-horse-battery"}, format="json")
        error = error_of(response, 400)
        assert "username" in error["message"], error


def test_only_json_bodies_are_accepted(backend, anon_api):
    response = anon_api.post("/api/auth/register", "username=a&password=b", content_type="application/x-www-form-urlencoded")
    assert error_of(response, 415)
