from django.urls import path

from .consumers import MatchConsumer
from .ranking.consumers import UserConsumer
from .table.consumers import LobbyConsumer

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/user/", UserConsumer.as_asgi()),  # ranked play: matchmaking and challenge news per user
    path("ws/lobby/", LobbyConsumer.as_asgi()),  # the lobby's chat (issue 16)
]
