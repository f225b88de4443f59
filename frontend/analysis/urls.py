"""Routes of the analysis's pages, included into the ``frontend`` namespace by frontend/urls.py."""

from django.urls import path

from games.api import converters  # registers the "id" converter

from . import views

urlpatterns = [
    path("matches/<id:match_id>/analysis/", views.ask, name="analysis_ask"),
    path("matches/<id:match_id>/analysis/panel/", views.panel, name="analysis_panel"),
]
