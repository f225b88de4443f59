"""Post-game analysis's API routes (included from games/api/urls.py)."""

from django.urls import path

from games.api import converters  # noqa: F401 - registers the "id" converter

from . import api


def both(route: str, view, name: str) -> list:  # noqa: ANN001
    other = route[:-1] if route.endswith("/") else route + "/"
    return [path(route, view, name=name), path(other, view)]


urlpatterns = [
    *both("matches/<id:match_id>/analysis", api.AnalysisView.as_view(), "api-match-analysis"),
]
