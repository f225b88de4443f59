from typing import Any

from channels.auth import AuthMiddleware, get_user
from channels.sessions import SessionMiddlewareStack
from django.urls import path

from games.api import converters  # registers the "id" converter (1 to 2**63 - 1)

from . import fanout
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


class PooledAuthMiddleware(AuthMiddleware):
    """Channels' ``AuthMiddleware``, reading the session's user in the render pool (:mod:`frontend.fanout`).

    Channels reads it on the process's one thread for synchronous code, so a thousand sockets connecting
    at once (after a restart) would read their sessions and users one after another."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        scope["user"]._wrapped = await fanout.in_pool(get_user.func, scope)


def auth_stack(inner: Any) -> Any:
    """The session cookie, the session, the user: ``AuthMiddlewareStack`` with :class:`PooledAuthMiddleware`."""
    return SessionMiddlewareStack(PooledAuthMiddleware(inner))
