"""The help pages and game cards, the styled error pages (DEBUG off), human names, rating rounding, the chat API."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import path

from frontend.table import help as game_help
from frontend.templatetags.table import clock_name, game_name
from games.ranking.ratings import display, shown

from ..frontend.helpers import client_for, two_player_match

pytestmark = pytest.mark.django_db


def test_every_game_has_a_help_page_and_a_card_in_the_lobby():
    lobby = Client().get("/").content.decode()
    for game in ("mountain-goats", "nanga-parbat", "mountainhome"):
        page = Client().get(f"/help/{game}/")
        assert page.status_code == 200
        info = game_help.game_info(game)
        assert f"How to play {info['name']}" in page.content.decode() and info["line"] in page.content.decode()
        assert f'data-game="{game}"' in lobby and f'data-help="{game}"' in lobby
    assert Client().get("/help/chess/").status_code == 404


def test_a_game_without_a_help_file_gets_the_fallback(monkeypatch):
    monkeypatch.setattr(game_help, "help_template", lambda game_id: "frontend/help/_fallback.html")
    page = Client().get("/help/mountainhome/").content.decode()
    assert "Random</em> bot" in page and "2–4 players" in page


def test_the_match_page_has_a_how_to_play_panel(alice, bob):
    match = two_player_match(alice, bob)
    page = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert 'data-help="mountain-goats"' in page and "How to play Mountain Goats" in page


def _boom(request):
    raise RuntimeError("boom")


urlpatterns = [path("boom/", _boom), path("api/boom/", _boom)]
handler404 = "frontend.errors.page_not_found"
handler500 = "frontend.errors.server_error"


@override_settings(DEBUG=False)
def test_an_unknown_address_gets_the_styled_404_page():
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "Nothing here" in body and "/no/such/page/" in body and "Go to the lobby" in body and "cairn.css" in body
    api = Client().get("/api/no-such-thing/")
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"


@override_settings(DEBUG=False, ROOT_URLCONF=__name__)
def test_a_server_error_gets_the_styled_500_page():
    client = Client(raise_request_exception=False)
    response = client.get("/boom/")
    assert response.status_code == 500 and "Something went wrong" in response.content.decode()
    api = client.get("/api/boom/")
    assert api.status_code == 500 and api.json()["error"]["code"] == "server_error"


def test_games_and_clocks_have_human_names():
    assert game_name("mountain-goats") == "Mountain Goats"
    assert clock_name("1d") == "1 day per move" and clock_name("3d") == "3 days per move"
    assert clock_name({"kind": "realtime", "base": 300, "increment": 10}) == "5 min + 10 s per move"


def test_one_rounding_rule_for_ratings():
    assert shown(1258.46) == 1258 and shown(1258.5) == 1259 and shown(1257.5) == 1258
    assert display(1258.5, 60)["text"] == "1259"  # Python's round() would say 1258


def test_the_profile_names_games_and_clocks_and_says_aborted_once(alice, bob):
    from games import services

    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}],
                                  options={}, time_control="1d")
    services.join_match(match_id=match.pk, user=bob)
    services.abort(match_id=match.pk, user=alice)
    page = client_for(alice).get("/users/alice/").content.decode()
    assert "Mountain Goats, 2 players, 1 day per move" in page
    assert "aborted (aborted)" not in page and "aborted" in page


def test_the_audit_page_of_a_live_match_does_not_claim_the_seed_was_revealed(alice, bob):
    match = two_player_match(alice, bob)
    page = client_for(alice).get(f"/matches/{match.pk}/verify/").content.decode()
    assert "revealed at the end hashes" not in page and "stays secret until the match ends" in page


def test_the_chat_api_posts_and_lists(alice_api, bob_api, anon_api, alice, bob):
    match = two_player_match(alice, bob)
    posted = alice_api.post("/api/chat/", {"match": match.pk, "text": "hello <i>"}, format="json")
    assert posted.status_code == 201 and posted.json()["channel"] == "players"
    listed = anon_api.get(f"/api/chat/?match={match.pk}&channel=players")
    assert [m["text"] for m in listed.json()] == ["hello <i>"]
    too_long = bob_api.post("/api/chat/", {"text": "x" * 501}, format="json")
    assert too_long.status_code == 400 and too_long.json()["error"]["code"] == "chat_too_long"
    assert anon_api.post("/api/chat/", {"text": "hi"}, format="json").status_code == 403
    assert anon_api.get("/api/chat/").status_code == 403
