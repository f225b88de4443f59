from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import converters, views  # noqa: F401 - registers the "id" converter
from .errors import api_not_found


def both(route: str, view: Callable[..., Any], name: str) -> list[URLPattern]:
    """The route as the API documents it, and the same with/without the trailing slash."""
    other = route[:-1] if route.endswith("/") else route + "/"
    return [path(route, view, name=name), path(other, view)]


urlpatterns = [
    *both("auth/register", views.RegisterView.as_view(), "api-register"),
    *both("auth/token", views.TokenView.as_view(), "api-token"),
    *both("games/", views.GamesView.as_view(), "api-games"),
    *both("matches/", views.MatchListView.as_view(), "api-matches"),
    *both("matches/<id:match_id>/", views.MatchDetailView.as_view(), "api-match"),
    *both("matches/<id:match_id>/join", views.JoinView.as_view(), "api-match-join"),
    *both("matches/<id:match_id>/actions/", views.ActionsView.as_view(), "api-match-actions"),
    *both("matches/<id:match_id>/events/", views.EventsView.as_view(), "api-match-events"),
    *both("matches/<id:match_id>/record", views.RecordView.as_view(), "api-match-record"),
    *both("matches/<id:match_id>/verify", views.VerifyView.as_view(), "api-match-verify"),
    path("", include("games.botapi.urls")),  # access tokens, bot accounts, NDJSON streams
    path("", include("games.ranking.urls")),  # ranked play: queue, challenges, ladders, resign/abort
    path("", include("games.audit.urls")),  # receipts and the public log of heads
    path("", include("games.tournaments.urls")),  # tournaments and seasons (docs/TOURNAMENTS.md)
    path("", include("games.fairplay.urls")),  # fair play: claims against a leaver
    path("", include("games.analysis.urls")),  # post-game analysis
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file (no inline script: the CSP), and the
    # template keeps its styles in a stylesheet.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="games/swagger_ui.html"),
         name="api-docs"),
    re_path(r"^.*$", api_not_found),  # last: any other /api/ path is a JSON 404
]
