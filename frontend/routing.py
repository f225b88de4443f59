from django.urls import path

from games.api import converters  # registers the "id" converter (1 to 2**63 - 1)

from .consumers import MatchConsumer
from .ranking.consumers import UserConsumer
from .table.consumers import LobbyConsumer
from .tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/matches/<id:match_id>/", MatchConsumer.as_asgi()),
    path("ws/user/", UserConsumer.as_asgi()),  # ranked play: matchmaking and challenge news per user
    path("ws/lobby/", LobbyConsumer.as_asgi()),  # the lobby's chat
    path("ws/tournaments/<id:tournament_id>/", TournamentConsumer.as_asgi()),  # standings and boards, live
]
