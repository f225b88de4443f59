"""Seasons: a rated game counts in the season it started; a season is archived at its end."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest

from games import services as match_services
from games.tournaments import seasons
from games.tournaments.models import Season
from tests.service.helpers import finish_quickly

pytestmark = pytest.mark.django_db


def rated_match(alice, bob):
    match = match_services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}] * 2,
                                        options={}, rated=True, time_control="10+5")
    return match_services.join_match(match_id=match.pk, user=bob)


def test_a_rated_game_counts_in_its_season_and_the_season_is_archived_at_its_end(alice, bob):
    finished = finish_quickly(rated_match(alice, bob))
    season = seasons.current("mountain-goats")
    board = seasons.leaderboard(season)
    assert sorted(r["user"] for r in board) == ["alice", "bob"] and all(r["games"] == 1 for r in board)
    assert seasons.games(season) == [{"match": finished.pk, "players": ["alice", "bob"],
                                      "places": finished.result["ranking"]}]
    winner = finished.result["winners"]
    assert board[0]["points"] >= board[1]["points"] and len(winner) >= 1
    # the clock moves past the season's end: it is archived with its final standings
    assert seasons.roll(season.ends_at - timedelta(seconds=1)) == 0
    assert seasons.roll(season.ends_at + timedelta(seconds=1)) == 1
    season.refresh_from_db()
    assert season.archived and season.final_standings == board
    # a game that ends after the archive is not added to it
    finish_quickly(rated_match(alice, bob), seed=3)
    assert Season.objects.get(pk=season.pk).final_standings == board


def test_a_casual_game_is_not_on_the_season_leaderboard(alice, bob):
    match = match_services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}] * 2, options={})
    finish_quickly(match_services.join_match(match_id=match.pk, user=bob))
    assert seasons.leaderboard(seasons.current("mountain-goats")) == []


def test_seasons_are_three_months_long_by_default():
    from datetime import datetime

    number, starts, ends = seasons.bounds(datetime(2026, 5, 17, tzinfo=UTC))
    assert (number, starts.month, ends.month) == (2, 4, 7)
    assert seasons.bounds(datetime(2027, 1, 1, tzinfo=UTC))[0] == 5


def test_the_season_api_shows_the_leaderboard(anon_api):
    answer = anon_api.get("/api/seasons/mountain-goats/")
    assert answer.status_code == 200 and answer.json()["archived"] is False
    assert anon_api.get("/api/seasons/chess/").status_code == 404
    assert anon_api.get("/api/seasons/mountain-goats/?number=x").status_code == 400
