"""Deleting an account and exporting one's data: what goes, what stays, and that records still verify."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from engine.record import audit
from games import selectors
from games.ranking.models import Rating
from games.ranking.selectors import leaderboard
from games.table import chat
from games.table.models import ChatMessage, NotificationSettings
from games.verify import verify_match

from ..frontend.helpers import MG, client_for, two_player_match
from .helpers import finished_match, verified

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery"


def test_the_export_holds_profile_settings_ratings_matches_with_records_and_chat(alice, bob):
    verified(alice, "alice@example.org")
    NotificationSettings.objects.create(user=alice, sound=True)
    match = finished_match(alice, bob)
    chat.post(user=alice, text="good game", match_id=match.pk)
    client = client_for(alice)
    answer = client.get("/settings/account/export/")
    assert answer.status_code == 200 and "attachment" in answer["Content-Disposition"]
    data = json.loads(answer.content)
    assert data["format"] == "cairn-account-export/1"
    assert data["profile"]["username"] == "alice" and data["profile"]["email_verified"] is True
    assert data["settings"]["sound"] is True
    assert [r["game"] for r in data["ratings"]] and isinstance(data["rating_history"], dict)
    (entry,) = data["matches"]
    assert entry["id"] == match.pk and audit(entry["record"])["ok"]
    assert [m["text"] for m in data["chat_messages"]] == ["good game"]
    assert client.get("/settings/account/").content.count(b"/settings/account/export/") == 1


def test_the_api_export_is_the_same_document(alice_api, alice):
    data = alice_api.get("/api/account/export").json()
    assert data["profile"]["username"] == "alice" and data["matches"] == []
    assert Client().get("/settings/account/export/").status_code == 302  # log in first


def test_deletion_needs_the_password(alice):
    client = client_for(alice)
    refused = client.post("/settings/account/delete/", {"password": "wrong", "confirm": "on"})
    assert refused.status_code == 400 and b"the password is not right" in refused.content
    alice.refresh_from_db()
    assert alice.is_active and alice.username == "alice"


def test_a_deleted_account_is_pseudonymised_and_its_finished_matches_still_verify(alice, bob, alice_api):
    verified(alice, "alice@example.org")
    NotificationSettings.objects.create(user=alice, email_turn=True)
    finished = finished_match(alice, bob)
    said = chat.post(user=alice, text="well played", match_id=finished.pk)
    running = two_player_match(alice, bob)
    Rating.objects.create(user=alice, game_id=MG, rating=1700, deviation=60, volatility=0.06, games=30)
    assert [p["user"] for p in leaderboard(MG)["players"]] == ["alice"]
    client = client_for(alice)
    page = client.post("/settings/account/delete/", {"password": PASSWORD, "confirm": "on"})
    assert page.status_code == 200 and b"Your account is deleted" in page.content

    alice.refresh_from_db()
    name = f"deleted player {alice.pk}"
    assert (alice.username, alice.email, alice.is_active, alice.has_usable_password()) == (name, "", False, False)
    assert not NotificationSettings.objects.filter(user=alice).exists()
    # Sign-in, the old session and the old token all end.
    assert client.get("/settings/account/").status_code == 302
    assert alice_api.get("/api/account/").status_code == 401
    assert not Client().login(username="alice", password=PASSWORD)
    # Ratings leave the leaderboards; the running match ended by the existing rules.
    assert leaderboard(MG)["players"] == []
    running.refresh_from_db()
    assert running.status == "finished"
    # The finished match still verifies, offline and on the server, and shows the pseudonym.
    record = selectors.record(finished, bob)
    assert audit(record)["ok"] and verify_match(finished).ok
    assert name in [seat["user"] for seat in record["seats"]]
    assert name in Client().get(f"/matches/{finished.pk}/").content.decode()
    assert ChatMessage.objects.get(pk=said.pk).author.username == name


def test_the_api_deletes_an_account_with_its_password(alice_api, alice):
    wrong = alice_api.post("/api/account/delete", {"password": "nope"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "wrong_password"
    assert alice_api.post("/api/account/delete", {"password": PASSWORD}, format="json").status_code == 200
    assert get_user_model().objects.get(pk=alice.pk).username == f"deleted player {alice.pk}"
    assert alice_api.get("/api/account/").status_code == 401


def test_nobody_can_sign_up_as_a_deleted_player(alice):
    answer = Client().post("/signup/", {"username": "deleted player 1", "password1": "x-long-pass-1",
                                        "password2": "x-long-pass-1"})
    assert answer.status_code == 200 and not get_user_model().objects.filter(username="deleted player 1").exists()
