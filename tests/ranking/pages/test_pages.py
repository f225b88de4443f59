"""Ranked-play pages: lobby panel, match panel with clocks and ratings, profile with chart, leaderboards."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Match
from games.ranking.models import QueueEntry, Rating
from tests.ranking.helpers import everyone_moves, new_match
from tests.service.helpers import finish_quickly

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_lobby_offers_rated_and_casual_play_per_game_and_player_count(alice, bob):
    html = client_for(alice).get("/").content.decode()
    for key in ("mountain-goats-2-rated", "mountain-goats-3-casual", "mountain-goats-4-rated", "nanga-parbat-2-casual"):
        assert f'data-play="{key}"' in html
    assert "Your ratings" in html and "1500? ± 500" in html and "Bot ratings" in html


def test_play_joins_the_queue_and_the_panel_shows_it_then_cancel(alice, bob):
    alice_client = client_for(alice)
    answer = alice_client.post("/play/", {"game": "mountain-goats", "players": "2", "time_control": "3+2", "rated": "1"},
                               HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "Looking for 1 opponent" in answer.content.decode()
    panel = client_for(bob).get("/play/panel/").content.decode()
    assert 'data-queue="mountain-goats-2-3+2-rated"' in panel and re.search(r'rk-count">1<', panel)
    assert "Looking for" not in alice_client.post("/play/cancel/", HTTP_HX_REQUEST="true").content.decode()
    assert QueueEntry.objects.get(user=alice).status == "cancelled"
    refused = alice_client.post("/play/", {"game": "mountain-goats", "players": "7"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 400 and "players" in refused.content.decode()


def test_being_paired_from_the_lobby_goes_to_the_match(alice, bob, django_capture_on_commit_callbacks):
    client_for(alice).post("/play/", {"game": "mountain-goats", "players": "2", "time_control": "5+10", "rated": "1"})
    with django_capture_on_commit_callbacks(execute=True):
        answer = client_for(bob).post("/play/", {"game": "mountain-goats", "players": "2", "time_control": "5+10",
                                                 "rated": "1"}, HTTP_HX_REQUEST="true")
    match = Match.objects.get()
    assert answer.headers["HX-Redirect"] == f"/matches/{match.pk}/"
    assert f'data-go-match="/matches/{match.pk}/"' in client_for(alice).get("/").content.decode()


def test_the_match_page_shows_clocks_ratings_and_resign(alice, bob, carol):
    match = new_match([alice, bob], time_control="5+10")
    html = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert 'class="tag">rated<' in html and "5+10" in html
    assert len(re.findall(r'class="rk-clock', html)) == 2 and 'data-running="1"' in html
    assert html.count("1500? ± 500") == 2
    assert ">Abort</button>" in html and ">Resign</button>" in html
    spectator = client_for(carol).get(f"/matches/{match.pk}/").content.decode()
    assert "rk-clock" in spectator and ">Resign</button>" not in spectator

    everyone_moves(match.pk, [alice, bob])
    answer = client_for(bob).post(f"/matches/{match.pk}/end/resign/", HTTP_HX_REQUEST="true")
    assert answer.headers["HX-Redirect"] == f"/matches/{match.pk}/"
    html = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert "Ended by resignation." in html and "rk-changes" in html and "(+" in html
    assert client_for(bob).post(f"/matches/{match.pk}/end/resign/", HTTP_HX_REQUEST="true").status_code == 409


def test_a_bot_seat_shows_its_fixed_rating_and_a_casual_match_says_so(alice):
    from games import services

    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"bot": "random"}])
    html = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert 'class="tag">casual<' in html and "no clock" in html and "Random bot · 800" in html


def test_the_profile_shows_ratings_with_a_chart_and_filtered_history(alice, bob, carol):
    for seed, pair in enumerate([(alice, bob), (alice, carol), (bob, alice)]):
        finish_quickly(new_match(list(pair)), seed=seed)
    finish_quickly(new_match([alice, carol], rated=False), seed=9)
    html = Client().get("/users/alice/").content.decode()
    assert "<svg class=\"rk-chart\"" in html and html.count("<circle") == 3
    assert len(re.findall(r"<tr data-result=", html)) == 4
    rated = Client().get("/users/alice/?rated=true&game=mountain-goats").content.decode()
    assert len(re.findall(r"<tr data-result=", rated)) == 3
    wins = Client().get("/users/alice/?result=win").content.decode()
    assert set(re.findall(r'<tr data-result="(\w+)"', wins)) <= {"win"}
    assert Client().get("/users/nobody/").status_code == 404


def test_the_leaderboard_lists_non_provisional_players_with_rank_rating_deviation_games(alice, bob):
    finish_quickly(new_match([alice, bob]), seed=1)
    Rating.objects.filter(user=alice).update(deviation=95)
    html = Client().get("/ladders/mountain-goats/").content.decode()
    rows = re.findall(r"<tr><td class=\"num\">(\d+)</td><td><a [^>]+>(\w+)</a>", html)
    assert rows == [("1", "alice")] and "± 95" in html and "1 provisional player" in html
    assert "alice" in Client().get("/ladders/").content.decode()
    assert Client().get("/ladders/chess/").status_code == 404


def test_an_aborted_match_page_says_so_and_offers_no_move(alice, bob):
    from games import services

    match = new_match([alice, bob])
    services.abort(match_id=match.pk, user=alice)
    html = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert "The match was aborted: no result." in html and "Aborted: no result, no rating change." in html
    assert "Your turn." not in html and 'class="climb' not in html
