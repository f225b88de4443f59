from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from games.api import converters  # registers the "id" converter (1 to 2**63 - 1)

from . import views

app_name = "frontend"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("favicon.ico", RedirectView.as_view(url=static("frontend/favicon.svg"), permanent=True)),
    path("signup/", views.signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="frontend/login.html", redirect_authenticated_user=True),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("matches/new/", views.create_match, name="create_match"),
    path("matches/<id:match_id>/", views.match_page, name="match"),
    path("matches/<id:match_id>/join/", views.join_match, name="join_match"),
    path("matches/<id:match_id>/live/", views.match_fragment, name="match_fragment"),
    path("matches/<id:match_id>/replay/", views.replay_page, name="replay"),
    path("matches/<id:match_id>/verify/", views.verify_page, name="verify"),
    path("matches/<id:match_id>/move/", views.submit_move, name="submit_move"),
    path("", include("frontend.table.urls")),  # chat, rematch, watch, help, notifications
    path("", include("frontend.ranking.urls")),  # ranked play: play, challenges, profiles, ladders
    path("", include("frontend.accounts.urls")),  # account settings, password reset, moderation
    path("", include("frontend.fairplay.urls")),  # presence, claims against a leaver, takebacks
    path("", include("frontend.analysis.urls")),  # post-game analysis on the replay page
    path("", include("frontend.botapi.urls")),  # access tokens, accepting bots, bot accounts
    path("", include("frontend.tournaments.urls")),  # tournaments and seasons (docs/TOURNAMENTS.md)
]
