from django.urls import path

from .consumers import MatchConsumer
from .ranking.consumers import UserConsumer

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/user/", UserConsumer.as_asgi()),  # ranked play: matchmaking and challenge news per user
]
