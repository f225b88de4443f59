"""Fair play's API routes (included from games/api/urls.py)."""

from django.urls import path

from games.api import converters  # noqa: F401 - registers the "id" converter

from . import api

urlpatterns = [
    path("matches/<id:match_id>/claim", api.ClaimView.as_view(), name="api-match-claim"),
    path("matches/<id:match_id>/claim/", api.ClaimView.as_view()),
]
