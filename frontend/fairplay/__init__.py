"""The presence panel of the match page (games.fairplay): each seat's dot, and the claim buttons.

Drawn by ``{% fairplay_presence match %}`` in match.html, pushed again (``table.message`` of kind
``presence``, rendered per viewer by :func:`render_presence`) whenever a seat comes or goes, and read
again by the page itself once a claim becomes possible (``hx-trigger="load delay:Ns"``).
"""

from __future__ import annotations

import math
import time
from typing import Any

from django.template.loader import render_to_string

from games.fairplay import leavers, presence
from games.models import Match, Seat


def _bot_name(level: str) -> str:
    import ai

    return f"{ai.LEVELS.get(level, {}).get('label', level.capitalize())} bot"


def presence_context(match: Match, user: Any) -> dict[str, Any]:
    seats = list(Seat.objects.select_related("user").filter(match=match).order_by("index"))
    active = match.status == Match.Status.ACTIVE
    mine = next((s.index for s in seats if user is not None and getattr(user, "is_authenticated", False)
                 and s.user_id == user.pk and not s.replaced), None)
    try:
        found = presence.seats(match.pk, match.players) if active else {}
        known = True
    except presence.PresenceUnavailable:
        found, known = {}, False
    now = time.time()
    rows = []
    for seat in seats:
        here = found.get(seat.index)
        rows.append({
            "seat": seat.index,
            "name": seat.user.username if seat.user is not None else _bot_name(seat.bot_level),
            "bot": seat.is_bot and not seat.replaced,
            "replaced": seat.replaced,
            "here": bool(here and here.here) or seat.index == mine,  # the viewer is here, looking
            "is_you": seat.index == mine,
            "away": int(now - here.seen) if here is not None and not here.here and here.seen else None,
        })
    claim = None
    if active and known and mine is not None and match.players == 2 and leavers.grace_seconds(match.time_control):
        status = leavers.claim_status(match, seats, mine, now=now, found=found)
        if status.available or status.code == "claim_too_early":
            claim_at = status.claim_at
            wait = None if status.available or claim_at is None else max(1, math.ceil(claim_at - now))
            claim = {"available": status.available, "wait": wait, "grace": status.grace,
                     "opponent": rows[status.absent]["name"] if status.absent is not None else ""}
    return {"match_id": match.pk, "active": active, "known": known, "rows": rows, "claim": claim,
            "takeback": takeback_context(match, seats, mine) if active else None}


def takeback_context(match: Match, seats: list[Seat], mine: int | None) -> dict[str, Any] | None:
    """The takeback button (casual matches of games without hidden information) and a pending offer."""
    from engine import get_game
    from games.fairplay import takebacks

    if mine is None or match.rated or not get_game(match.game_id).perfect_information:
        return None
    people = [s for s in seats if s.index != mine and s.user_id and not s.is_bot]
    if len(people) > 1:
        return None
    offer = takebacks.pending(match)
    return {"with_person": bool(people), "offer": offer, "mine": offer is not None and offer.seat == mine,
            "by": next((s.user.username for s in seats
                        if offer is not None and s.index == offer.seat and s.user is not None), "")}


def render_presence(match: Match, user: Any, *, oob: bool = False, error: str = "") -> str:
    return render_to_string("frontend/fairplay/presence.html",
                            {**presence_context(match, user), "oob": oob, "error": error})
