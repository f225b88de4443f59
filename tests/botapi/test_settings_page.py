"""/settings/api/: a person makes a token (its secret shown once), sees it listed, revokes it; accepts bots; becomes a bot."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.botapi.models import AccessToken, BotAccount, BotPreference

pytestmark = pytest.mark.django_db(databases="__all__")


@pytest.fixture
def page(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def test_a_person_makes_a_token_on_the_settings_page_uses_it_and_revokes_it(page, alice):
    answer = page.post("/settings/api/", {"do": "token", "name": "laptop", "scopes": ["read", "play"], "expires_in_days": "7"})
    html = answer.content.decode()
    secret = re.search(r'id="token-secret">([^<]+)<', html).group(1)
    assert "laptop" in html and "read, play" in html
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert api.get("/api/games/").status_code == 200
    listed = page.get("/settings/api/").content.decode()
    assert secret not in listed and "laptop" in listed
    token = AccessToken.objects.get(user=alice)
    assert token.last_used_at is not None and token.expires_at is not None
    page.post(f"/settings/api/tokens/{token.pk}/revoke/")
    assert api.get("/api/games/").status_code == 401
    assert "No tokens yet." in page.get("/settings/api/").content.decode()


def test_the_settings_page_refuses_a_token_without_scopes_with_a_message(page):
    answer = page.post("/settings/api/", {"do": "token", "name": "x"})
    assert answer.status_code == 400 and "scopes" in answer.content.decode()


def test_a_person_chooses_to_accept_bots_and_turns_an_account_into_a_bot(page, alice):
    page.post("/settings/api/", {"do": "accept_bots", "rated": "1", "casual": "1"})
    assert BotPreference.objects.get(user=alice).rated is True
    refused = page.post("/settings/api/", {"do": "become_bot"})
    assert refused.status_code == 400 and not BotAccount.objects.filter(user=alice).exists()
    page.post("/settings/api/", {"do": "become_bot", "confirm": "1"})
    assert BotAccount.objects.filter(user=alice).exists()
    assert 'id="bot-status"' in page.get("/settings/api/").content.decode()
