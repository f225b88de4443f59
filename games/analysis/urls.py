"""Post-game analysis's API routes (included from games/api/urls.py)."""

from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, path

from games.api import converters  # registers the "id" converter

from . import api


def both(route: str, view: Callable[..., Any], name: str) -> list[URLPattern]:
    other = route[:-1] if route.endswith("/") else route + "/"
    return [path(route, view, name=name), path(other, view)]


urlpatterns = [
    *both("matches/<id:match_id>/analysis", api.AnalysisView.as_view(), "api-match-analysis"),
]
