"""Personal access tokens (scopes, expiry, revocation, hashing) and bot accounts (fresh only, accept-bots, caps)."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.botapi.models import AccessToken, BotAccount
from games.ranking import challenges

pytestmark = pytest.mark.django_db(databases="__all__")


def _client(auth: str | None = None) -> APIClient:
    client = APIClient()
    if auth:
        client.credentials(HTTP_AUTHORIZATION=auth)
    return client


def _new_token(api: APIClient, scopes: list[str], **extra) -> dict:
    answer = api.post("/api/account/tokens", {"name": "my bot", "scopes": scopes, **extra}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_a_token_is_shown_once_stored_hashed_listed_and_revoked(alice, alice_api):
    made = _new_token(alice_api, ["read", "play"], expires_in_days=30)
    secret = made["secret"]
    stored = AccessToken.objects.get(pk=made["token"]["id"])
    assert stored.digest == hashlib.sha256(secret.encode()).hexdigest() and secret not in str(vars(stored))
    listed = alice_api.get("/api/account/tokens").json()["tokens"]
    assert [t["name"] for t in listed] == ["my bot"] and "secret" not in listed[0]
    assert listed[0]["scopes"] == ["read", "play"] and listed[0]["expires_at"]
    assert _client(f"Bearer {secret}").get("/api/games/").status_code == 200
    assert AccessToken.objects.get(pk=stored.pk).last_used_at is not None
    assert alice_api.delete(f"/api/account/tokens/{stored.pk}").status_code == 200
    refused = _client(f"Bearer {secret}").get("/api/games/")
    assert refused.status_code == 401 and "revoked" in refused.json()["error"]["message"]
    assert alice_api.get("/api/account/tokens").json()["tokens"] == []


def test_it_refuses_an_out_of_scope_request_naming_the_missing_scope(alice, bob):
    secret = _new_token(_client_for(alice), ["read"])["secret"]
    answer = _client(f"Bearer {secret}").post("/api/matches/", {"game": "mountain-goats", "seats": [
        {"human": True}, {"bot": "random"}]}, format="json")
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "missing_scope" and "'play'" in answer.json()["error"]["message"]
    challenge = _client(f"Bearer {secret}").post("/api/ranking/challenges", {"opponent": "bob", "game": "mountain-goats"},
                                                 format="json")
    assert challenge.status_code == 403 and "'challenge'" in challenge.json()["error"]["message"]


def test_a_token_cannot_make_tokens_nor_change_the_password(alice):
    secret = _new_token(_client_for(alice), ["read", "play", "challenge", "chat", "bot"])["secret"]
    api = _client(f"Bearer {secret}")
    assert api.post("/api/account/tokens", {"name": "x", "scopes": ["read"]}, format="json").status_code == 403
    assert api.post("/api/account/password/change", {}, format="json").status_code == 403


def test_an_expired_token_gets_401_saying_it_expired(alice):
    made = _new_token(_client_for(alice), ["read"], expires_in_days=1)
    AccessToken.objects.filter(pk=made["token"]["id"]).update(expires_at=timezone.now() - timedelta(minutes=1))
    answer = _client(f"Bearer {made['secret']}").get("/api/games/")
    assert answer.status_code == 401 and "expired" in answer.json()["error"]["message"]


def test_it_refuses_bad_token_requests_with_a_clear_400(alice_api):
    for body, code in (({"name": "", "scopes": ["read"]}, "bad_token_name"), ({"name": "a", "scopes": ["admin"]}, "bad_scopes"),
                       ({"name": "a", "scopes": []}, "bad_scopes"),
                       ({"name": "a", "scopes": ["read"], "expires_in_days": 0}, "bad_expiry")):
        answer = alice_api.post("/api/account/tokens", body, format="json")
        assert answer.status_code == 400 and answer.json()["error"]["code"] == code


def test_a_password_change_revokes_every_access_token(alice, alice_api):
    secret = _new_token(alice_api, ["read"])["secret"]
    answer = alice_api.post("/api/account/password/change", {"old_password": "correct-horse-battery",
                                                               "new_password": "another-horse-battery-9"}, format="json")
    assert answer.status_code == 200, answer.content
    refused = _client(f"Bearer {secret}").get("/api/games/")
    assert refused.status_code == 401 and "revoked" in refused.json()["error"]["message"]


def test_the_legacy_token_keeps_every_scope(alice_api):
    answer = alice_api.post("/api/matches/", {"game": "mountain-goats", "seats": [{"human": True}, {"bot": "random"}]},
                            format="json")
    assert answer.status_code == 201


def _client_for(user) -> APIClient:
    from rest_framework.authtoken.models import Token

    token, _ = Token.objects.get_or_create(user=user)
    return _client(f"Token {token.key}")


def test_a_fresh_account_becomes_a_bot_but_not_one_that_played_rated(alice, bob, carol):
    bot_api = _client(f"Bearer {_new_token(_client_for(alice), ['read', 'bot'])['secret']}")
    answer = bot_api.post("/api/account/bot")
    assert answer.status_code == 200 and answer.json()["bot"] is True
    assert bot_api.post("/api/account/bot").json()["error"]["code"] == "already_bot"
    services.create_match(user=bob, game_id="mountain-goats", seats=[{"human": True}, {"human": True}], rated=True)
    refused = _client_for(bob).post("/api/account/bot")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_fresh"


def test_a_person_accepts_bots_in_casual_games_but_not_rated_ones_unless_they_say_so(alice, bob):
    BotAccount.objects.create(user=alice)
    bot = _client_for(alice)
    rated = bot.post("/api/ranking/challenges", {"opponent": "bob", "game": "mountain-goats", "rated": True}, format="json")
    assert rated.status_code == 403 and rated.json()["error"]["code"] == "bots_not_accepted"
    casual = bot.post("/api/ranking/challenges", {"opponent": "bob", "game": "mountain-goats"}, format="json")
    assert casual.status_code == 201
    assert _client_for(bob).put("/api/account/bot-preference", {"rated": True}, format="json").json() == {
        "rated": True, "casual": True}
    rated = bot.post("/api/ranking/challenges", {"opponent": "bob", "game": "mountain-goats", "rated": True}, format="json")
    assert rated.status_code == 201
    assert _client_for(bob).put("/api/account/bot-preference", {"casual": "yes"}, format="json").status_code == 400


def test_a_bot_plays_by_challenge_not_the_queue_and_stops_at_its_daily_cap(alice, bob, settings):
    BotAccount.objects.create(user=alice)
    queued = _client_for(alice).post("/api/ranking/queue/", {"game": "mountain-goats", "players": 2, "rated": False},
                                     format="json")
    assert queued.status_code == 403 and queued.json()["error"]["code"] == "bot_not_queued"
    settings.CAIRN_BOT_DAILY_GAMES = 1
    first = challenges.create(user=bob, opponent="alice", game_id="mountain-goats")
    challenges.accept(challenge_id=first.pk, user=alice)
    second = challenges.create(user=bob, opponent="alice", game_id="mountain-goats")
    answer = _client_for(alice).post(f"/api/ranking/challenges/{second.pk}/accept")
    assert answer.status_code == 429 and answer.json()["error"]["code"] == "bot_daily_cap"


def test_a_bot_account_has_its_own_rate_limit(alice, settings):
    settings.CAIRN_RATE_LIMIT_FACTOR = 1
    settings.CAIRN_RATE_LIMITS = {**settings.CAIRN_RATE_LIMITS, "bot": "3/min"}
    settings.CAIRN_RATE_LIMIT_NAMESPACE = "bot-limit-test"
    api = _client(f"Bearer {_new_token(_client_for(alice), ['read'])['secret']}")
    BotAccount.objects.create(user=alice)
    answers = [api.get("/api/games/").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]


def test_a_bot_takes_an_open_seat_only_beside_people_who_accept_bots(alice, bob, carol):
    BotAccount.objects.create(user=alice)
    casual = services.create_match(user=bob, game_id="mountain-goats", seats=[{"human": True}, {"human": True}])
    assert _client_for(alice).post(f"/api/matches/{casual.pk}/join").status_code == 200
    rated = services.create_match(user=carol, game_id="mountain-goats", seats=[{"human": True}, {"human": True}], rated=True)
    refused = _client_for(alice).post(f"/api/matches/{rated.pk}/join")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "bots_not_accepted"


def test_a_password_change_revokes_the_access_tokens_of_a_person_without_a_legacy_token(alice):
    from django.test import Client

    page = Client()
    page.force_login(alice)
    page.post("/settings/api/", {"do": "token", "name": "web", "scopes": ["read"]})
    token = AccessToken.objects.get(user=alice)
    alice.set_password("a-brand-new-password-5")
    alice.save()
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_reason == "the password changed"
    alice.save(update_fields=["last_login"])  # other saves leave the tokens alone


def test_a_bot_accounts_legacy_token_counts_under_the_bot_limit_too(alice, settings):
    settings.CAIRN_RATE_LIMIT_FACTOR = 1
    settings.CAIRN_RATE_LIMITS = {**settings.CAIRN_RATE_LIMITS, "bot": "2/min"}
    settings.CAIRN_RATE_LIMIT_NAMESPACE = "bot-legacy-limit-test"
    from games.botapi import bots

    bots.make_bot(alice)
    api = _client_for(alice)
    assert [api.get("/api/games/").status_code for _ in range(3)] == [200, 200, 429]
