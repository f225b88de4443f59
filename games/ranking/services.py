"""Ranked-play services: the server's timeout check, and the ranked view of a match.

:func:`check_timeout` is what the scheduled Celery task runs: it reads the
clocks off the match aggregate (folded from the event times) and, if the seat to move is out of time, appends
the ending through the match service (:func:`games.services.command`):

* before every seat has moved once: ``aborted`` (no result, no rating change);
* 2 players: ``timed_out`` and the final event, the opponent wins;
* 3-4 players: ``timed_out`` and ``seat_replaced``: a bot plays the seat for
  the rest of the match, and the seat ranks last for the rating.

It is idempotent: a stale or early check changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from .. import selectors as match_selectors
from .. import services as match_services
from ..aggregate import SYSTEM, MatchAggregate
from ..errors import Conflict, NotFound
from ..models import Match, Seat
from . import clocks, ratings
from .models import MatchClock, Rating


def check_timeout(match_id: int, *, seq: int | None = None, now: datetime | None = None) -> str:
    """End the turn of a seat whose clock ran out.  ``timeout``, ``aborted``, ``in_time`` or ``stale``."""
    outcome = {"value": "in_time"}

    def decide(match: Match, aggregate: Any, seats: list[Seat]) -> None:
        if not match.time_control or not aggregate.started or aggregate.finished:
            outcome["value"] = "stale"
            return
        fold = aggregate.clock
        seat = fold.flagged(now or timezone.now()) if fold else None
        if seat is None:
            return
        seed = bytes.fromhex(match.seed)
        if aggregate.abortable:
            aggregate.abort(None, seed, SYSTEM, reason=f"timeout: seat {seat} did not move in time")
            outcome["value"] = "aborted"
        else:
            aggregate.time_out(seat, seed, bot=settings.CAIRN_REPLACEMENT_BOT)
            outcome["value"] = "timeout"

    try:
        match = Match.objects.only("seq", "status").get(pk=match_id)
    except Match.DoesNotExist:
        return "stale"
    if match.status != Match.Status.ACTIVE or (seq is not None and match.seq != seq):
        return "stale"
    try:
        match_services.command(match_id, decide, expected_seq=match.seq)
    except (NotFound, Conflict):  # deleted, or somebody moved at that moment: the clock is recomputed
        return "stale"
    return outcome["value"]


def due_timeouts(now: datetime | None = None) -> list[int]:
    now = now or timezone.now()
    return list(
        MatchClock.objects.filter(deadline__lte=now, match__status=Match.Status.ACTIVE)
        .order_by("deadline")
        .values_list("match_id", flat=True)[:500]
    )


def sweep_timeouts(now: datetime | None = None) -> dict[int, str]:
    """Check every match whose derived deadline has passed (the periodic task)."""
    return {match_id: check_timeout(match_id, now=now) for match_id in due_timeouts(now)}


def seat_ratings(match: Match, seats: list[Seat]) -> list[dict[str, Any]]:
    """Each seat's rating as shown on the match page: humans from the game's ladder, bots fixed."""
    users = [s.user_id for s in seats if s.user_id]
    ladder = {r.user_id: r for r in Rating.objects.filter(game_id=match.game_id, user_id__in=users)}
    shown = []
    for seat in seats:
        if seat.is_bot and not seat.replaced:
            shown.append({"seat": seat.index, "kind": "bot", **ratings.bot_display(seat.bot_level, match.game_id)})
            continue
        rating = ladder.get(seat.user_id)
        item = {"seat": seat.index, "kind": "human", "user": seat.user.username if seat.user_id else None,
                **ratings.display(rating.rating if rating else None, rating.deviation if rating else None)}
        if seat.replaced:
            item["replaced_by"] = ratings.bot_display(seat.bot_level, match.game_id)
        shown.append(item)
    return shown


def ranked_view(
    match: Match, *, now: datetime | None = None, aggregate: MatchAggregate | None = None
) -> dict[str, Any]:
    """Rated/casual, time control, live clocks, seat ratings and rating changes of one match.

    Clocks, forfeits and who may abort come from the match aggregate (pass the
    caller's, e.g. the one its match view was built from; else it is loaded,
    from the snapshot cache): nothing here replays the events.
    """
    from .models import RatingChange

    now = now or timezone.now()
    seats = list(Seat.objects.select_related("user").filter(match=match).order_by("index"))
    if not seats:
        raise NotFound(f"no match {match.pk}", code="match_not_found")
    if aggregate is None:
        aggregate = match_selectors.load_aggregate(match)
    fold = aggregate.clock
    changes = [
        {"seat": c.seat, "user": c.user.username, "before": round(c.rating_before, 2),
         "after": round(c.rating_after, 2), "delta": round(c.rating_after - c.rating_before, 2),
         "deviation": round(c.deviation_after, 2), "system": c.system}
        for c in RatingChange.objects.select_related("user").filter(match=match).order_by("seat")
    ]
    return {
        "match": match.pk,
        "rated": match.rated,
        "ending": aggregate.ending or None,
        "time_control": match.time_control,
        "clock": clocks.clock_view(match, fold, now),
        "seats": seat_ratings(match, seats),
        "rating_changes": changes,
        "abortable": aggregate.started and aggregate.abortable,
        "forfeits": list(aggregate.forfeits),
    }
