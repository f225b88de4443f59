"""Token authentication with its query compiled once (games/api/authentication.py): DRF's answers, no cache."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connections, reset_queries
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import services

pytestmark = pytest.mark.django_db(databases="__all__")


def _client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _mine(user: User) -> str:
    """The address of a match ``user`` sits at (seat 0): its view names the viewer's seat."""
    match = services.create_match(user=user, game_id="nanga-parbat", seats=[{"human": True}, {"bot": "random"}])
    return f"/api/matches/{match.pk}/"


def test_a_token_names_its_user_in_one_query(backend):
    alice = User.objects.create_user("alice", password="pw-alice-123")
    key = Token.objects.create(user=alice).key
    url = _mine(alice)
    reset_queries()  # as a request does (request_started), so the capture below counts from 0
    with CaptureQueriesContext(connections[backend]) as queries:
        answer = _client(key).get(url)
    assert sum("authtoken_token" in q["sql"] for q in queries.captured_queries) == 1  # read before the next request
    assert answer.status_code == 200, answer.content
    assert answer.json()["my_seat"] == 0
    assert APIClient().get(url).json()["my_seat"] is None


def test_unknown_revoked_and_inactive_are_refused_at_once(backend):
    alice = User.objects.create_user("alice", password="pw-alice-123")
    token = Token.objects.create(user=alice)
    client = _client(token.key)
    url = _mine(alice)
    assert client.get(url).status_code == 200

    unknown = _client("0" * 40).get(url)
    assert unknown.status_code == 401 and "Invalid token" in unknown.content.decode()

    alice.is_active = False
    alice.save()
    inactive = client.get(url)
    assert inactive.status_code == 401 and "inactive" in inactive.content.decode()

    alice.is_active = True
    alice.save()
    assert client.get(url).status_code == 200
    token.delete()  # revoked: the very next request is refused (nothing is cached between requests)
    assert client.get(url).status_code == 401


def test_the_schema_still_names_the_token_scheme(backend):
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "tokenAuth" in schema["components"]["securitySchemes"]
