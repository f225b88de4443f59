"""Reliability: each person's completion rate, and escalating waits before rated play (as Lichess's playban).

Both are read from the match events, never stored: an *offence* is an event of a match between people
(no bot seat from the start) that ends it or a seat of it because of this person:

* ``abort``: they aborted the match (``aborted`` with their seat);
* ``no_first_move``: it was aborted because their clock ran out (or they left) before they moved;
* ``walk_away``: they left and the opponent claimed (``claimed`` naming them ``absent``), or a bot took
  their seat of a 3-4 player match (``abandoned``).

**Completion rate**: of their last :data:`WINDOW` finished matches between people, the share without
an offence of theirs (a resignation, a time-out and a loss all complete a match).

**Waits**: the :data:`FIRST_WAIT_AT`-th offence within :data:`WINDOW_HOURS` hours starts a wait of
:data:`FIRST_WAIT` before rated play; each further offence in that window doubles it (15 min, 30 min,
1 h, 2 h ... at most :data:`MAX_WAIT`), counted from the latest offence.  Rated queues and challenges
refuse them meanwhile with 403 ``playban``, naming the reason and the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Exists, OuterRef
from django.utils import timezone

from ..errors import Forbidden
from ..models import Event, Match, Seat

WINDOW = 20  # matches in the completion rate
WINDOW_HOURS = 24  # offences counted toward a wait
FIRST_WAIT_AT = 3  # the offence that starts the first wait
FIRST_WAIT = timedelta(minutes=15)
MAX_WAIT = timedelta(hours=24)
KINDS = {"abort": "aborted", "no_first_move": "did not make a first move in", "walk_away": "left"}
_SEAT_IN_REASON = re.compile(r"\bseat (\d+)\b")


@dataclass(frozen=True)
class Offence:
    match: int
    kind: str
    at: datetime


def _people_only() -> Any:
    """Matches with no seat a bot held from the start."""
    return ~Exists(Seat.objects.filter(match=OuterRef("match_id"), replaced=False).exclude(bot_level=""))


def _blamed(event_type: str, payload: Any) -> tuple[int | None, str]:
    """The seat an ending event blames, and the kind of offence."""
    payload = payload if isinstance(payload, dict) else {}
    if event_type == "claimed":
        return payload.get("absent"), "walk_away"
    if event_type == "abandoned":
        return payload.get("seat"), "walk_away"
    if payload.get("seat") is not None:
        return payload.get("seat"), "abort"
    found = _SEAT_IN_REASON.search(str(payload.get("reason", "")))
    return (int(found.group(1)), "no_first_move") if found else (None, "")


def offences(user: Any, *, since: datetime | None = None, matches: list[int] | None = None) -> list[Offence]:
    """``user``'s offences (newest first), after ``since`` or within ``matches``."""
    events = Event.objects.filter(type__in=("aborted", "abandoned", "claimed")).filter(_people_only())
    events = events.filter(match__seats__user_id=user.pk) if matches is None else events.filter(match_id__in=matches)
    if since is not None:
        events = events.filter(timestamp__gte=since)
    rows = list(events.order_by("-timestamp").values_list("match_id", "type", "payload", "timestamp"))
    seats = dict(Seat.objects.filter(user_id=user.pk, match_id__in={row[0] for row in rows})
                 .values_list("match_id", "index"))
    found = []
    for match_id, type_, payload, at in rows:
        seat, kind = _blamed(type_, payload)
        if seat is not None and seat == seats.get(match_id):
            found.append(Offence(match_id, kind, at))
    return found


def completion(user: Any) -> dict[str, Any]:
    """``{"started", "completed", "rate", "shown"}`` over the last :data:`WINDOW` finished matches between
    people (``rate`` None, ``shown`` "new", before the first)."""
    mine = Seat.objects.filter(match=OuterRef("pk"), user_id=user.pk)
    bots = Seat.objects.filter(match=OuterRef("pk"), replaced=False).exclude(bot_level="")
    ended = list(Match.objects.filter(Exists(mine), ~Exists(bots), status=Match.Status.FINISHED)
                 .order_by("-updated_at", "-id").values_list("pk", flat=True)[:WINDOW])
    if not ended:
        return {"started": 0, "completed": 0, "rate": None, "shown": "new"}
    spoiled = {o.match for o in offences(user, matches=ended)}
    completed = len(ended) - len(spoiled)
    rate = completed / len(ended)
    return {"started": len(ended), "completed": completed, "rate": round(rate, 3), "shown": f"{round(rate * 100)}%"}


@dataclass(frozen=True)
class Wait:
    until: datetime
    offences: list[Offence]

    @property
    def reason(self) -> str:
        counts: dict[str, int] = {}
        for offence in self.offences:
            counts[offence.kind] = counts.get(offence.kind, 0) + 1
        parts = [f"{n} {'match' if n == 1 else 'matches'} you {KINDS[kind]}" for kind, n in sorted(counts.items())]
        return f"{', '.join(parts)} in the last {WINDOW_HOURS} hours"

    def as_json(self) -> dict[str, Any]:
        return {"until": self.until.isoformat(), "reason": self.reason, "offences": len(self.offences)}


def current_wait(user: Any, now: datetime | None = None) -> Wait | None:
    """The wait before rated play in force for ``user`` now, if any."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    now = now or timezone.now()
    recent = offences(user, since=now - timedelta(hours=WINDOW_HOURS))
    if len(recent) < FIRST_WAIT_AT:
        return None
    length = min(FIRST_WAIT * 2 ** (len(recent) - FIRST_WAIT_AT), MAX_WAIT)
    until = recent[0].at + length
    return Wait(until, recent) if until > now else None


def check_may_play_rated(user: Any) -> None:
    """403 ``playban`` while a wait is in force, with its reason and its end."""
    wait = current_wait(user)
    if wait is not None:
        raise Forbidden(f"you may play rated again at {wait.until.isoformat(timespec='seconds')}: {wait.reason}",
                        code="playban")
