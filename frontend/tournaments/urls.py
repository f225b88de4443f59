"""Page routes of tournaments and seasons (included into the ``frontend`` namespace by frontend/urls.py)."""

from django.urls import path

from games.api import converters  # registers the "id" converter

from . import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/new/", views.tournament_create, name="tournament_create"),
    path("tournaments/<id:tournament_id>/", views.tournament_page, name="tournament"),
    path("tournaments/<id:tournament_id>/export/", views.tournament_export, name="tournament_export"),
    path("tournaments/<id:tournament_id>/<str:action>/", views.tournament_action, name="tournament_action"),
    path("seasons/<str:game_id>/", views.season_page, name="season"),
]
