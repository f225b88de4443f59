"""What the sockets tell fair play: a player's match socket opened, is alive, closed; a person's page
(``ws/user/``) opened or closed.  Called by the consumers (from their worker pool: Redis and the
database are blocking); every failure is logged, never raised into a socket.

A change of a seat's presence (the first socket of a seat opening, the last one closing) is pushed to
the match's group as a ``table.message`` of kind ``presence`` (games.table.push), so every board,
players' and spectators' alike, redraws its presence panel for its own viewer.
"""

from __future__ import annotations

import logging

from celery import current_app

from games.table import push

from . import presence

log = logging.getLogger(__name__)

CHECK_LEAVER = "games.fairplay.tasks.check_leaver"
END_QUEUE_ENTRY = "games.fairplay.tasks.end_queue_entry"


def _send_task(name: str, args: tuple, countdown: float) -> None:
    try:
        current_app.send_task(name, args, countdown=countdown)
    except Exception:  # the periodic sweep does it a few seconds later
        log.exception("could not queue %s%r", name, args)


def watch_opened(match_id: int, channel: str) -> None:
    try:
        presence.watch(match_id, channel)
    except Exception:
        log.exception("could not note a presence panel of match %s", match_id)


def watch_closed(match_id: int, channel: str) -> None:
    try:
        presence.unwatch(match_id, channel)
    except Exception:
        log.exception("could not forget a presence panel of match %s", match_id)


def _push(match_id: int, seat: int) -> None:
    """Tell the match's panels that ``seat`` came or went (only if some socket draws a panel)."""
    if presence.watched(match_id):
        push.send(push.match_group(match_id), "presence", seat=seat)


def seat_opened(match_id: int, seat: int, channel: str) -> None:
    try:
        if presence.seat_here(match_id, seat, channel):
            _push(match_id, seat)
    except Exception:  # Redis away: presence is unknown, nothing is decided on it
        log.exception("could not mark seat %s of match %s present", seat, match_id)


def seats_alive(entries: list[tuple[int, int, str]]) -> None:
    """Open player sockets ((match id, seat, channel)) refresh their seats' presence, all in one round
    trip; a seat that had expired meanwhile is pushed as come back."""
    try:
        absent = presence.seats_here_again(entries)
    except Exception:  # Redis away: presence is unknown, nothing is decided on it
        log.exception("could not refresh the presence of %s seats", len(entries))
        return
    for (match_id, seat, _channel), was_absent in zip(entries, absent):
        if was_absent:
            try:
                _push(match_id, seat)
            except Exception:
                log.exception("could not push seat %s of match %s present", seat, match_id)


def seat_closed(match_id: int, seat: int, channel: str) -> None:
    from games.models import Match

    from .leavers import grace_seconds

    try:
        if not presence.seat_gone(match_id, seat, channel):
            return
        _push(match_id, seat)
    except Exception:
        log.exception("could not mark seat %s of match %s gone", seat, match_id)
        return
    match = Match.objects.filter(pk=match_id).only("players", "time_control", "status").first()
    grace = grace_seconds(match.time_control) if match is not None else None
    if grace is not None and match is not None and match.players >= 3 and match.status == Match.Status.ACTIVE:
        _send_task(CHECK_LEAVER, (match_id,), grace + 1)


def page_opened(user_id: int, channel: str) -> None:
    try:
        presence.page_here(user_id, channel)
    except Exception:
        log.exception("could not mark the pages of user %s open", user_id)


def page_closed(user_id: int, channel: str) -> None:
    from django.conf import settings

    try:
        if not presence.page_gone(user_id, channel):
            return
    except Exception:
        log.exception("could not mark a page of user %s closed", user_id)
        return
    _send_task(END_QUEUE_ENTRY, (user_id,), settings.CAIRN_QUEUE_LEAVE_GRACE_SECONDS + 1)
