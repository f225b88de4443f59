"""Which scope each API route needs from a personal access token.

Reads (``GET``) need ``read``.  Writes need the scope their route names in :data:`WRITES`; a write
route not listed there (the password, e-mail, export, deletion, and making tokens) takes only the
session or the legacy ``Token`` key, never an access token.
"""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions

WRITES = {  # the view (module.class, so a route's aliases share it) -> the scope its writes need
    "games.api.views.MatchListView": "play",
    "games.api.views.JoinView": "play",
    "games.api.views.ActionsView": "play",
    "games.ranking.api.ResignView": "play",
    "games.ranking.api.AbortView": "play",
    "games.ranking.api.QueueView": "play",
    "games.ranking.api.ChallengesView": "challenge",
    "games.ranking.api.ChallengeAcceptView": "challenge",
    "games.ranking.api.ChallengeDeclineView": "challenge",
    "games.table.api.ChatView": "chat",
    "games.botapi.api.BotAccountView": "bot",
    "games.botapi.api.BotPreferenceView": "play",
    "games.tournaments.api.TournamentsView": "play",
    "games.tournaments.api.JoinView": "play",
    "games.tournaments.api.WithdrawView": "play",
    "games.tournaments.api.PauseView": "play",
    "games.tournaments.api.BerserkView": "play",
    "games.tournaments.api.BotEntryView": "play",
}
READ_ONLY = {"games.accounts.api.ExportView", "games.accounts.api.AccountView"}  # reads that hand over the whole account: never to an access token
SAFE = {"GET", "HEAD", "OPTIONS"}


class MissingScope(exceptions.PermissionDenied):
    default_code = "missing_scope"


def view_name(request: Any) -> str:
    match = getattr(getattr(request, "_request", request), "resolver_match", None)
    view = getattr(match.func, "view_class", None) if match is not None else None
    return f"{view.__module__}.{view.__qualname__}" if view is not None else ""


def required_scope(view: str, method: str) -> str | None:
    """The scope the route needs, or ``None`` when no access token may use it."""
    if method in SAFE:
        return None if view in READ_ONLY else "read"
    return WRITES.get(view)


def check_scope(request: Any, scopes: list[str]) -> None:
    needed = required_scope(view_name(request), request.method)
    if needed is None:
        raise MissingScope(f"{request.method} {request.path} takes the session or the legacy token, "
                           "not a personal access token")
    if needed not in scopes:
        raise MissingScope(f"this token lacks the '{needed}' scope that {request.method} {request.path} needs")
