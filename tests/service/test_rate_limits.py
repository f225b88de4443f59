"""Rate limits: 429 with Retry-After and a message, per address or per user.

The suite runs with every limit multiplied by 1000 (``RATE_LIMIT_FACTOR``);
these tests set the factor back to 1 and use small rates.
"""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache
from django.test import override_settings

from games import services

pytestmark = pytest.mark.django_db(databases="__all__")

SMALL = {"register": "3/hour", "login": "3/hour", "create": "2/min", "actions": "4/min"}


@pytest.fixture(autouse=True)
def small_limits():
    """Small limits, counted from zero: a fresh key namespace (never a flush of a shared Redis)."""
    with override_settings(CAIRN_RATE_LIMITS=SMALL, CAIRN_RATE_LIMIT_FACTOR=1,
                           CAIRN_RATE_LIMIT_NAMESPACE=f"test-{uuid.uuid4().hex}"):
        yield


def test_the_counters_live_in_the_configured_cache(backend, anon_api):
    anon_api.post("/api/auth/register", {"username": "counted", "password": "correct-horse-battery"}, format="json")
    from django.conf import settings

    key = f"cairn-throttle:{settings.CAIRN_RATE_LIMIT_NAMESPACE}:register:addr-127.0.0.1"
    counted = cache.get(key)  # Redis: a window's count; the local-memory cache: DRF's list of times
    assert (counted if isinstance(counted, int) else len(counted)) == 1


def limited(response) -> dict:
    assert response.status_code == 429, (response.status_code, response.content[:200])
    assert int(response["Retry-After"]) >= 1
    return response.json()["error"]


def test_registration_is_limited_per_address(backend, anon_api):
    for n in range(3):
        assert anon_api.post("/api/auth/register", {"username": f"user{n}", "password": "correct-horse-battery"},
                             format="json").status_code == 201
    error = limited(anon_api.post("/api/auth/register", {"username": "user9", "password": "correct-horse-battery"},
                                  format="json"))
    assert error["code"] == "rate_limited" and "sign-ups" in error["message"] and "3/hour" in error["message"]
    # another address is not limited
    other = anon_api.post("/api/auth/register", {"username": "user8", "password": "correct-horse-battery"},
                          format="json", REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 201


def test_tokens_are_limited_per_address_and_a_forged_forwarded_for_does_not_help(backend, alice, anon_api):
    body = {"username": "alice", "password": "wrong-password"}
    for n in range(3):
        assert anon_api.post("/api/auth/token", body, format="json", HTTP_X_FORWARDED_FOR=f"1.2.3.{n}").status_code == 400
    error = limited(anon_api.post("/api/auth/token", {"username": "alice", "password": "correct-horse-battery"},
                                  format="json", HTTP_X_FORWARDED_FOR="9.9.9.9"))
    assert "log-in" in error["message"]


def test_the_log_in_and_sign_up_forms_share_the_limits(backend, client, alice):
    for _ in range(3):
        assert client.post("/login/", {"username": "alice", "password": "wrong"}).status_code == 200
    response = client.post("/login/", {"username": "alice", "password": "correct-horse-battery"})
    assert response.status_code == 429 and int(response["Retry-After"]) >= 1
    assert "too many log-in attempts" in response.content.decode()
    assert client.get("/login/").status_code == 200  # only POSTs count


def test_match_creation_is_limited_per_user(backend, alice_api, bob_api):
    body = {"game": "mountain-goats", "seats": [{"human": True}, {"bot": "random"}]}
    for _ in range(2):
        assert alice_api.post("/api/matches/", body, format="json").status_code == 201
    assert "new matches" in limited(alice_api.post("/api/matches/", body, format="json"))["message"]
    assert bob_api.post("/api/matches/", body, format="json").status_code == 201  # per user
    assert alice_api.get("/api/matches/").status_code == 200  # listing is not creating


def test_actions_are_limited_per_user_and_bots_are_not(backend, alice, bob, alice_api):
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}])
    services.join_match(match_id=match.pk, user=bob)
    for _ in range(4):  # refused moves count too: the limit is on requests
        response = alice_api.post(f"/api/matches/{match.pk}/actions/", {"action": {"climb": [99]}, "expected_seq": 0},
                                  format="json")
        assert response.status_code in (400, 403, 409)
    assert "moves" in limited(alice_api.post(f"/api/matches/{match.pk}/actions/",
                                             {"action": {}, "expected_seq": 0}, format="json"))["message"]
    # A bot's moves go through the services, never through a throttle.
    bot_match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"bot": "random"}])
    bot_match.refresh_from_db()
    played = 0
    import random

    from games import selectors
    from tests.service.helpers import play_random_move

    rng = random.Random(1)
    while played < 10 and bot_match.status != "finished":
        if bot_match.bot_to_move:
            assert services.play_bot_turn(match_id=bot_match.pk, seq=bot_match.seq) == "played"
            played += 1
        else:
            play_random_move(bot_match.pk, {0: alice}, rng)
        bot_match = selectors.get_match(bot_match.pk)
    assert played == 10


def test_the_factor_lifts_every_limit(backend, anon_api):
    with override_settings(CAIRN_RATE_LIMIT_FACTOR=10):
        for n in range(31):
            response = anon_api.post("/api/auth/register", {"username": f"many{n}", "password": "correct-horse-battery"},
                                     format="json")
            assert response.status_code == (201 if n < 30 else 429)
