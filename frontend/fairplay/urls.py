"""Routes of fair play's pages, included into the ``frontend`` namespace by frontend/urls.py."""

from django.urls import path

from games.api import converters  # registers the "id" converter (1 to 2**63 - 1)

from . import views

urlpatterns = [
    path("matches/<id:match_id>/presence/", views.presence_panel, name="presence_panel"),
    path("matches/<id:match_id>/claim/", views.claim, name="claim"),
    path("matches/<id:match_id>/takeback/", views.takeback, name="takeback"),
    path("matches/<id:match_id>/takeback/<str:answer>/", views.takeback_answer, name="takeback_answer"),
]
