"""Template tags of the table plug-in: the one hook each page includes.

``match.html`` calls ``{% table_match_panels match %}`` (the chat and the
spectator count), ``match_live.html`` (Jinja2) calls ``table_rematch(match)`` in
the result card (``rematch_data`` here), ``lobby.html`` ``{% table_lobby_chat %}`` and
``{% table_game_cards %}``, and ``base.html`` ``{% table_notify_attrs %}`` (the
viewer's notification opt-ins as data attributes for ``table.js``).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.utils.html import format_html

from games.models import Match, Seat
from games.table import chat, watch

from ..table import help as game_help
from ..table.render import chat_panel_context, rematch_context

register = template.Library()


def _match(view: dict[str, Any]) -> Match | None:
    return Match.objects.filter(pk=view["id"]).first()


@register.inclusion_tag("frontend/table/chat_panel.html", takes_context=True)
def table_chat(context: template.Context, view: dict[str, Any]) -> dict[str, Any]:
    match = _match(view)
    if match is None:
        return {}
    return chat_panel_context(match, context.get("user"))


@register.inclusion_tag("frontend/table/spectators.html")
def table_spectators(view: dict[str, Any]) -> dict[str, Any]:
    return {"count": watch.spectator_count(view["id"]), "match_id": view["id"]}


REMATCH = "frontend/table/rematch.html"


def rematch_data(view: dict[str, Any], csrf_token: Any = None) -> dict[str, Any]:
    """The rematch card's context for the viewer of ``view`` (empty when the match is gone); the
    match fragment draws it with ``table_rematch(match)`` (frontend/jinja.py)."""
    match = _match(view)
    if match is None:
        return {}
    # A fragment rendered for a websocket has no user in its context: the view's seat says whom it is for.
    seat = Seat.objects.filter(match=match, index=view["my_seat"]).select_related("user").first() \
        if view.get("my_seat") is not None else None
    data = rematch_context(match, seat.user if seat is not None else None)
    data["csrf_token"] = csrf_token
    return data


@register.inclusion_tag("frontend/table/lobby_chat.html", takes_context=True)
def table_lobby_chat(context: template.Context) -> dict[str, Any]:
    user = context.get("user")
    authenticated = bool(user is not None and getattr(user, "is_authenticated", False))
    return {
        "messages": chat.history(user=user) if authenticated else [],
        "viewer_authenticated": authenticated,
        "viewer_name": user.username if authenticated and user is not None else None,
        "max_length": settings.CAIRN_CHAT_MAX_LENGTH,
    }


@register.inclusion_tag("frontend/table/game_cards.html")
def table_game_cards() -> dict[str, Any]:
    return {"games": game_help.game_cards()}


@register.simple_tag(takes_context=True)
def table_notify_attrs(context: template.Context) -> str:
    """``data-notify-sound="1" data-notify-browser="1"`` for a logged-in viewer who opted in."""
    from games.table.notifications import settings_of

    user = context.get("user")
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    prefs = settings_of(user)
    return format_html(' data-notify-sound="{}" data-notify-browser="{}"',
                       "1" if prefs.sound else "0", "1" if prefs.browser else "0")


# ---------------------------------------------------------------- human names (used by every page)


@register.filter
def game_name(game_id: str) -> str:
    """``mountain-goats`` -> ``Mountain Goats``."""
    from engine import get_game

    try:
        return get_game(game_id).name
    except KeyError:
        return game_id


@register.filter
def clock_name(value: Any) -> str:
    """A time control (its dict or its short key) in words: ``1 day per move``, ``5 min + 10 s per move``."""
    from games.clocks import normalize_time_control
    from games.errors import DomainError

    if value in (None, "", "untimed"):
        return "no clock"
    try:
        tc = normalize_time_control(value)
    except DomainError:
        return str(value)
    if tc is None:
        return "no clock"
    if tc["kind"] == "correspondence":
        return f"{tc['days']} day{'s' if tc['days'] != 1 else ''} per move"
    minutes = tc["base"] / 60
    base = f"{minutes:g} min" if minutes >= 1 else f"{tc['base']} s"
    return f"{base} + {tc['increment']} s per move" if tc["increment"] else f"{base} per move"


@register.inclusion_tag("frontend/help/_panel.html")
def table_help_panel(game_id: str, open: bool = False) -> dict[str, Any]:
    """The "How to play" panel of one game (its help file, or the fallback)."""
    return {"game": game_help.game_info(game_id), "open": open}
