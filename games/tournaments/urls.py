"""Tournament and season API routes (included from games/api/urls.py)."""

from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, path

from games.api import converters  # registers the "id" converter

from . import api


def both(route: str, view: Callable[..., Any], name: str) -> list[URLPattern]:
    other = route[:-1] if route.endswith("/") else route + "/"
    return [path(route, view, name=name), path(other, view)]


urlpatterns = [
    *both("tournaments/", api.TournamentsView.as_view(), "api-tournaments"),
    *both("tournaments/<id:tournament_id>/", api.StandingsView.as_view(), "api-tournament"),
    *both("tournaments/<id:tournament_id>/join", api.JoinView.as_view(), "api-tournament-join"),
    *both("tournaments/<id:tournament_id>/withdraw", api.WithdrawView.as_view(), "api-tournament-withdraw"),
    *both("tournaments/<id:tournament_id>/pause", api.PauseView.as_view(), "api-tournament-pause"),
    *both("tournaments/<id:tournament_id>/berserk", api.BerserkView.as_view(), "api-tournament-berserk"),
    *both("tournaments/<id:tournament_id>/bots", api.BotEntryView.as_view(), "api-tournament-bots"),
    *both("tournaments/<id:tournament_id>/export", api.ExportView.as_view(), "api-tournament-export"),
    *both("seasons/<str:game_id>/", api.SeasonView.as_view(), "api-season"),
]
