"""Fair play's API routes (included from games/api/urls.py)."""

from django.urls import path

from games.api import converters  # noqa: F401 - registers the "id" converter

from . import api


def both(route: str, view, name: str) -> list:  # noqa: ANN001
    other = route[:-1] if route.endswith("/") else route + "/"
    return [path(route, view, name=name), path(other, view)]


urlpatterns = [
    *both("matches/<id:match_id>/claim", api.ClaimView.as_view(), "api-match-claim"),
    *both("matches/<id:match_id>/takeback", api.TakebackView.as_view(), "api-match-takeback"),
    *both("matches/<id:match_id>/takeback/accept", api.TakebackAcceptView.as_view(), "api-match-takeback-accept"),
    *both("matches/<id:match_id>/takeback/decline", api.TakebackDeclineView.as_view(), "api-match-takeback-decline"),
]
