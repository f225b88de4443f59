"""Rendering the table plug-in's pushes, for one viewer at a time.

``games.table`` sends ``{"type": "table.message", "kind", ...ids}`` to a match's
group (or the lobby's).  A consumer hands each to :func:`render_push` with its
own user and sends what comes back (nothing: not for this viewer).  The HTML
is templates only (autoescaped), marked for htmx's out-of-band swap:

* ``chat``: the message appended to its channel's list, unless the viewer muted its author;
* ``chat_hidden``: a message a moderator hid, deleted from the page;
* ``chat_state``: the players' chat form (turned off or on);
* ``rematch``: the result card's rematch panel, for this viewer;
* ``presence``: the seats' presence panel and the claim buttons (frontend/fairplay.py), for this viewer.

Socket bookkeeping for the spectator count and the players' presence (games.fairplay):
:func:`socket_opened`, :func:`sockets_alive` and :func:`socket_closed`, called by the match
consumer when it joins its group, every few seconds while open, and when it leaves.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string

from games.errors import DomainError, NotFound
from games.models import Match
from games.selectors import get_match, seat_of
from games.table import chat, rematch, watch

log = logging.getLogger(__name__)


def _authenticated(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))


def chat_panel_context(match: Match, user: Any) -> dict[str, Any]:
    """The match page's chat: the players' channel and the spectators' (players may hide it)."""
    seated = seat_of(match, user) is not None
    return {
        "match_id": match.pk,
        "players_messages": chat.history(user=user, match_id=match.pk, channel="players"),
        "spectators_messages": chat.history(user=user, match_id=match.pk, channel="spectators"),
        **chat_form_context(match, user, seated=seated),
    }


def chat_form_context(match: Match, user: Any, *, seated: bool | None = None) -> dict[str, Any]:
    from games.table.models import MatchChat

    if seated is None:
        seated = seat_of(match, user) is not None
    state = MatchChat.objects.filter(match=match).first()
    return {
        "match_id": match.pk,
        "viewer_authenticated": _authenticated(user),
        "viewer_name": user.username if _authenticated(user) else None,
        "seated": seated,
        "players_chat_on": state is None,
        "chat_off_by_me": state is not None and _authenticated(user) and state.disabled_by_id == user.pk,
        "rated": match.rated,
        "max_length": settings.CAIRN_CHAT_MAX_LENGTH,
    }


def rematch_context(match: Match, user: Any) -> dict[str, Any]:
    seated = seat_of(match, user) is not None
    return {
        "match_id": match.pk,
        "finished": match.status == Match.Status.FINISHED,
        "seated": seated,
        "rematch": rematch.state(match, user) if match.status == Match.Status.FINISHED else None,
    }


def render_chat_message(message: Any, user: Any, *, oob: bool = False) -> str:
    return render_to_string(
        "frontend/table/chat_push.html" if oob else "frontend/table/chat_message.html",
        {"m": message, "viewer_authenticated": _authenticated(user),
         "viewer_name": user.username if _authenticated(user) else None},
    )


def render_push(event: dict[str, Any], user: Any, match_id: int | None = None) -> str | None:
    """The HTML to send this viewer for a ``table.message`` (None: nothing for them)."""
    kind = event.get("kind")
    try:
        if kind == "chat_hidden":  # a moderator hid a message: it leaves every open page
            return render_to_string("frontend/table/chat_hidden.html", {"id": int(event["id"])})
        if kind == "chat":
            message = chat.get_message(event.get("id"))
            if message.match_id != match_id or not chat.visible_to(message, user):
                return None
            return render_chat_message(message, user, oob=True)
        if match_id is None:
            return None
        match = Match.objects.get(pk=match_id)
        if kind == "chat_state":
            return render_to_string("frontend/table/chat_form.html", {**chat_form_context(match, user), "oob": True})
        if kind == "rematch":
            return render_to_string("frontend/table/rematch.html", {**rematch_context(match, user), "oob": True})
        if kind == "analysis":  # the post-game analysis's progress, or its end (frontend/analysis)
            from ..analysis import render_panel

            return render_panel(match, user, oob=True)
        if kind == "presence":  # news for everyone but the player whose own seat it is about
            from .. import fairplay

            if event.get("seat") is not None and seat_of(match, user) == event.get("seat"):
                return None
            return fairplay.render_presence(match, user, oob=True)
    except (DomainError, Match.DoesNotExist) as exc:
        log.info("table push %s for match %s not rendered: %s", kind, match_id, exc)
    return None


def socket_opened(
    match_id: int, channel_name: str, user: Any, presence_panel: bool = False, match: Match | None = None
) -> int | None:
    """A match socket joined its group: a spectator's counts; a player's marks the match attended
    (the watch list, :func:`games.table.watch.in_play`) and its seat present (games.fairplay).
    (Pages read the count every few seconds, ``/matches/<id>/spectators/``: a push to every socket
    per arrival would cost more.)  ``presence_panel``: the page draws the presence panel (``?presence=1``),
    so presence changes are pushed.  ``match``: the match with its seats, as the socket read it on
    connecting (``selectors.get_match``), so that a thousand sockets connecting at once read nothing
    more.  Returns the viewer's seat, or None for a spectator."""
    from games.fairplay import sockets as presence

    if presence_panel:
        presence.watch_opened(match_id, channel_name)

    if match is None:
        try:
            match = get_match(match_id)
        except NotFound:
            return None
    seat = seat_of(match, user)
    try:
        if seat is not None:
            watch.player_joined(match_id, channel_name)  # the watch list's "a player is here"
        else:
            watch.spectator_joined(match_id, channel_name)
    except Exception:  # Redis away: the count is decoration
        log.exception("could not count a spectator of match %s", match_id)
    if seat is not None:
        presence.seat_opened(match_id, seat, channel_name)
    return seat


def sockets_alive(entries: list[tuple[int, str, int]]) -> None:
    """Players' sockets still open ((match id, channel name, seat): those of a process due at one tick,
    every few seconds each): their seats stay present and counted, in one Redis round trip each."""
    from games.fairplay import sockets as presence

    try:
        watch.players_still_here([(match_id, channel_name) for match_id, channel_name, _seat in entries])
    except Exception:
        log.exception("could not refresh %s players' sockets", len(entries))
    presence.seats_alive([(match_id, seat, channel_name) for match_id, channel_name, seat in entries])


def socket_closed(match_id: int, channel_name: str, user: Any, seat: int | None = None) -> None:
    from games.fairplay import sockets as presence

    try:
        watch.spectator_left(match_id, channel_name)
        watch.player_left(match_id, channel_name)
    except Exception:
        log.exception("could not uncount a spectator of match %s", match_id)
    presence.watch_closed(match_id, channel_name)
    if seat is not None:
        presence.seat_closed(match_id, seat, channel_name)
