"""Ranked-play services: the ranked view of a match (ratings, clocks, forfeits) for its panel."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import connections
from django.utils import timezone

from .. import clocks, db
from .. import selectors as match_selectors
from ..aggregate import MatchAggregate
from ..errors import NotFound
from ..models import Event, Match, Seat
from ..requesters import Requester
from . import ratings
from .models import Rating


def _ladder(game_id: str, user_ids: list[int]) -> dict[int, tuple[float, float]]:
    """{user id: (rating, deviation)} on ``game_id``'s ladder, for those of ``user_ids`` who have one.

    Every move's ranked panel reads this, so it is one plain SQL statement (the ORM's queryset would
    cost four times the CPU to build, for the same rows)."""
    if not user_ids:
        return {}
    connection = connections[db.alias()]
    quote = connection.ops.quote_name
    column = {name: quote(Rating._meta.get_field(name).column)  # type: ignore[union-attr,arg-type]  # concrete fields
              for name in ("user", "game_id", "rating", "deviation")}
    sql = (
        f"SELECT {column['user']}, {column['rating']}, {column['deviation']} FROM {quote(Rating._meta.db_table)} "
        f"WHERE {column['game_id']} = %s AND {column['user']} IN ({', '.join(['%s'] * len(user_ids))})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, *user_ids])
        return {user_id: (rating, deviation) for user_id, rating, deviation in cursor.fetchall()}


def seat_ratings(match: Match, seats: list[Seat]) -> list[dict[str, Any]]:
    """Each seat's rating as shown on the match page: humans from the game's ladder, bots fixed."""
    ladder = _ladder(match.game_id, [s.user_id for s in seats if s.user_id])
    shown = []
    for seat in seats:
        if seat.is_bot and not seat.replaced:
            shown.append({"seat": seat.index, "kind": "bot", **ratings.bot_display(seat.bot_level, match.game_id)})
            continue
        rating, deviation = ladder[seat.user_id] if seat.user_id in ladder else (None, None)
        item = {"seat": seat.index, "kind": "human", "user": seat.user.username if seat.user is not None else None,
                **ratings.display(rating, deviation)}
        if seat.replaced:
            item["replaced_by"] = ratings.bot_display(seat.bot_level, match.game_id)
        shown.append(item)
    return shown


def _shown_moment(match: Match, aggregate: MatchAggregate, now: datetime) -> datetime:
    """The time the clocks of ``aggregate`` are shown at: now, unless it is a spectator's position behind
    the live one: then N seconds ago for a delay in seconds, or the time of the position's last event for
    a delay in moves (the clocks stand still there), so they tell nothing of the moves held back."""
    delay = match_selectors.spectator_delay(match)
    if delay is None or aggregate.seq >= match.seq:
        return now
    if delay[1] == "seconds":
        return now - timedelta(seconds=delay[0])
    at = Event.objects.filter(match=match, seq=aggregate.seq).values_list("timestamp", flat=True).first()
    return at or now


def ranked_view(
    match: Match, *, now: datetime | None = None, aggregate: MatchAggregate | None = None, user: Requester = None
) -> dict[str, Any]:
    """Rated/casual, time control, live clocks, seat ratings and rating changes of one match.

    Clocks, forfeits and who may abort come from the match aggregate (pass the
    caller's, e.g. the one its match view was built from; else it is loaded,
    from the snapshot cache): nothing here replays the events.
    """
    from .models import RatingChange

    now = now or timezone.now()
    if "seats" in getattr(match, "_prefetched_objects_cache", {}):  # selectors.get_match's prefetch (users joined)
        seats = match_selectors.seats_of(match)
    else:
        seats = list(Seat.objects.select_related("user").filter(match=match).order_by("index"))
    if not seats:
        raise NotFound(f"no match {match.pk}", code="match_not_found")
    if aggregate is None:  # a spectator shown the match behind gets that position (``user``: who asks)
        aggregate = match_selectors.delayed_aggregate(match, user) or match_selectors.load_aggregate(match)
    now = _shown_moment(match, aggregate, now)
    fold = aggregate.clock
    changes = [
        {"seat": c.seat, "user": c.user.username, "before": round(c.rating_before, 2),
         "after": round(c.rating_after, 2), "delta": round(c.rating_after - c.rating_before, 2),
         "before_shown": ratings.shown(c.rating_before), "after_shown": ratings.shown(c.rating_after),
         "deviation": round(c.deviation_after, 2), "system": c.system}
        for c in RatingChange.objects.select_related("user").filter(match=match).order_by("seat")
    ] if match.status == Match.Status.FINISHED else []  # ratings change only when a match ends
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
