"""Ranked-play API routes (included from games/api/urls.py)."""

from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, path

from games.api import converters  # registers the "id" converter

from . import api


def both(route: str, view: Callable[..., Any], name: str) -> list[URLPattern]:
    other = route[:-1] if route.endswith("/") else route + "/"
    return [path(route, view, name=name), path(other, view)]


urlpatterns = [
    *both("ranking/queue/", api.QueueView.as_view(), "api-queue"),
    *both("ranking/challenges/", api.ChallengesView.as_view(), "api-challenges"),
    *both("ranking/challenges/<id:challenge_id>/accept", api.ChallengeAcceptView.as_view(), "api-challenge-accept"),
    *both("ranking/challenges/<id:challenge_id>/decline", api.ChallengeDeclineView.as_view(), "api-challenge-decline"),
    *both("ranking/ladders/", api.LaddersView.as_view(), "api-ladders"),
    *both("ranking/ladders/<str:game_id>/", api.LeaderboardView.as_view(), "api-leaderboard"),
    *both("ranking/users/<str:username>/", api.ProfileView.as_view(), "api-profile"),
    *both("ranking/users/<str:username>/matches/", api.HistoryView.as_view(), "api-history"),
    *both("matches/<id:match_id>/resign", api.ResignView.as_view(), "api-match-resign"),
    *both("matches/<id:match_id>/abort", api.AbortView.as_view(), "api-match-abort"),
    *both("matches/<id:match_id>/ranked", api.RankedMatchView.as_view(), "api-match-ranked"),
]
