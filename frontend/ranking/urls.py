"""Page routes of ranked play (included into the ``frontend`` namespace by frontend/urls.py)."""

from django.urls import path

from games.api import converters  # registers the "id" converter (1 to 2**63 - 1)

from . import views

urlpatterns = [
    path("play/", views.play, name="ranked_play"),
    path("play/cancel/", views.cancel, name="ranked_cancel"),
    path("play/panel/", views.lobby_panel, name="ranked_lobby_panel"),
    path("challenges/new/", views.challenge, name="ranked_challenge"),
    path("challenges/<id:challenge_id>/<str:answer>/", views.challenge_answer, name="ranked_challenge_answer"),
    path("matches/<id:match_id>/end/<str:ending>/", views.match_ending, name="ranked_match_ending"),
    path("users/<str:username>/", views.profile, name="ranked_profile"),
    path("ladders/", views.ladders, name="ranked_ladders"),
    path("ladders/<str:game_id>/", views.leaderboard, name="ranked_leaderboard"),
]
