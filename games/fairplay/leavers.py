"""Leavers: what happens when a player is gone (docs/RANKING.md, "Leavers").

* 2 players, real-time clock: once the opponent has been gone for the grace period
  (:func:`grace_seconds`), the remaining player may claim the win or a draw (:func:`claim`); their own
  clock keeps running meanwhile.  The claim is a ``claimed`` event and the ``finished`` event after it.
* 3-4 players, real-time clock: the seat of a person gone past the grace period is forfeited
  (``abandoned``, by the server) and a bot plays it on (``seat_replaced``), as for a resignation; the
  person ranks last.  :func:`abandon_absent` does it for one match, :func:`sweep` for every match.
* A queue entry of a person whose last page closed ends after ``CAIRN_QUEUE_LEAVE_GRACE_SECONDS``
  (:func:`end_absent_queue_entries`; the pairing pass skips them too).

"Gone since" is the latest of: the seat's last socket (presence), its last action, the match's start,
so a player who moves over the API without a socket is present as of their last move, and one who
never opened the page has been gone since the start.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from .. import services
from ..aggregate import SYSTEM, MatchAggregate
from ..clocks import REALTIME
from ..errors import BadRequest, Conflict, Forbidden
from ..models import Event, Match, Seat
from ..requesters import RawId, Requester
from . import presence

MIN_GRACE = 20  # seconds
MAX_GRACE = 120
RESULTS = ("win", "draw")


def grace_seconds(time_control: dict[str, Any] | None) -> int | None:
    """How long an opponent must be gone before a claim (or a bot) may take over; None: never.

    ``10 s + a tenth of the bank + twice the increment``, within 20 s and 120 s (5+10: 60 s; 1+0: 20 s;
    15+10: 120 s), times ``CAIRN_LEAVER_GRACE_FACTOR``.  A match with no clock or a correspondence clock
    has none: its own clock decides (a day per move is its grace)."""
    if not time_control or time_control.get("kind") != REALTIME:
        return None
    seconds = 10 + time_control["base"] / 10 + 2 * time_control["increment"]
    grace: int = max(1, round(min(max(seconds, MIN_GRACE), MAX_GRACE) * settings.CAIRN_LEAVER_GRACE_FACTOR))
    return grace


def _last_here(match_id: int, seat: int) -> float | None:
    """When ``seat`` last acted, or else when the match started (epoch seconds)."""
    action = (Event.objects.filter(match_id=match_id, type="action", payload__player=seat)
              .order_by("-seq").values_list("timestamp", flat=True).first())
    if action is None:
        action = Event.objects.filter(match_id=match_id, type="started").values_list("timestamp", flat=True).first()
    return action.timestamp() if action is not None else None


def gone_since(match_id: int, seat: int, found: presence.Presence) -> float | None:
    """Since when ``seat`` has been gone (epoch seconds); None while present."""
    if found.here:
        return None
    times = [t for t in (found.seen, _last_here(match_id, seat)) if t is not None]
    return max(times) if times else None


@dataclass(frozen=True)
class ClaimStatus:
    """May ``seat`` claim now?  ``code`` None: yes; else the refusal's code and ``reason``."""

    seat: int | None
    absent: int | None = None
    grace: int | None = None
    since: float | None = None
    code: str | None = None
    reason: str = ""

    @property
    def available(self) -> bool:
        return self.code is None

    @property
    def claim_at(self) -> float | None:
        return None if self.since is None or self.grace is None else self.since + self.grace


def _refused(seat: int | None, code: str, reason: str, **more: Any) -> ClaimStatus:
    return ClaimStatus(seat=seat, code=code, reason=reason, **more)


def claim_status(match: Match, seats: list[Seat], seat: int | None, *, now: float | None = None,
                 found: dict[int, presence.Presence] | None = None, finished: bool | None = None) -> ClaimStatus:
    """Whether ``seat`` may claim against its absent opponent now, and if not, why (never raises but
    503 ``presence_unavailable``)."""
    if seat is None:
        return _refused(None, "not_a_player", f"you hold no seat in match {match.pk}")
    if finished if finished is not None else match.status == Match.Status.FINISHED:
        return _refused(seat, "match_finished", f"match {match.pk} has already ended: nothing is left to claim")
    if match.status == Match.Status.WAITING:
        return _refused(seat, "match_not_started", f"match {match.pk} has not started")
    if match.players != 2:
        return _refused(seat, "claim_not_available", "a claim is for a 2-player match; in a 3-4 player match a bot "
                        "plays the seat of a person who left")
    grace = grace_seconds(match.time_control)
    if grace is None:
        return _refused(seat, "claim_not_available", "only a match with a real-time clock may be claimed; "
                        "a match by correspondence or with no clock waits for its clock")
    absent = 1 - seat
    other = next((s for s in seats if s.index == absent), None)
    if other is None or other.is_bot:
        return _refused(seat, "claim_not_available", "your opponent is a bot: it never leaves")
    found = found if found is not None else presence.seats(match.pk, match.players)
    name = other.user.username if other.user is not None else f"seat {absent}"
    since = gone_since(match.pk, absent, found[absent])
    if since is None:
        return _refused(seat, "opponent_present", f"{name} is connected: a claim needs them gone for {grace} s",
                        absent=absent, grace=grace)
    now = time.time() if now is None else now
    if now < since + grace:
        at = datetime.fromtimestamp(since + grace, tz=timezone.get_current_timezone())
        return _refused(seat, "claim_too_early",
                        f"{name} has been gone for {int(now - since)} s; you may claim once they have been gone "
                        f"for {grace} s (at {at.isoformat(timespec='seconds')})",
                        absent=absent, grace=grace, since=since)
    return ClaimStatus(seat=seat, absent=absent, grace=grace, since=since)


def claim(*, match_id: RawId, user: Requester, result: object) -> Match:
    """Claim the win or a draw against an opponent gone past the grace period (2 players, real-time).

    400 ``bad_result``; 403 ``not_a_player``; 409 ``match_finished`` (a second claim, or a match
    already over), ``claim_not_available``, ``opponent_present``, ``claim_too_early``; 503
    ``presence_unavailable``.  Checked inside the match's append lock against the stored events, so a
    move that arrives first makes the claim too early, and two claims never both land."""
    user = services._require_user(user)
    if result not in RESULTS:
        raise BadRequest(f"'result' must be 'win' or 'draw', not {result!r}", code="bad_result")

    def decide(match: Match, aggregate: MatchAggregate, seats: list[Seat]) -> None:
        seat: int | None
        if not aggregate.finished:
            seat = services._own_seat(aggregate, seats, user)
        else:
            seat = next((s.index for s in seats if s.user_id == user.pk), None)
        status = claim_status(match, seats, seat, finished=aggregate.finished)
        if not status.available:
            raise (Forbidden if status.code == "not_a_player" else Conflict)(status.reason, code=status.code)
        assert seat is not None and status.absent is not None and status.grace is not None  # as available says
        aggregate.claim(seat, status.absent, result, status.grace, bytes.fromhex(match.seed),
                        services.user_actor(user))

    return services.command(match_id, decide)


def abandon_absent(match_id: int, *, now: float | None = None) -> list[int]:
    """Hand every seat of a 3-4 player real-time match whose person is gone past the grace period to a
    bot (an abort instead while some seat has not moved yet, as for a time-out).  The seats handed over."""
    handed: list[int] = []

    def decide(match: Match, aggregate: MatchAggregate, seats: list[Seat]) -> None:
        grace = grace_seconds(match.time_control)
        if grace is None or match.players < 3 or not aggregate.started or aggregate.finished:
            return
        found = presence.seats(match.pk, match.players)
        moment = time.time() if now is None else now
        seed = bytes.fromhex(match.seed)
        for seat in seats:
            if seat.is_bot or seat.index in aggregate.forfeits or aggregate.finished:
                continue
            since = gone_since(match.pk, seat.index, found[seat.index])
            if since is None or moment < since + grace:
                continue
            if aggregate.abortable:
                aggregate.abort(None, seed, SYSTEM, reason=f"seat {seat.index} left before moving")
                return
            aggregate.abandon(seat.index, grace, seed, bot=settings.CAIRN_REPLACEMENT_BOT)
            handed.append(seat.index)

    try:
        row = Match.objects.only("players").filter(pk=match_id).first()
        bots = set(Seat.objects.filter(match_id=match_id).exclude(bot_level="").values_list("index", flat=True))
        if row is None or all(p.here for seat, p in presence.seats(match_id, row.players).items() if seat not in bots):
            return []  # every person is here: nothing to decide, and the match's append lock is not taken
        services.command(match_id, decide)
    except presence.PresenceUnavailable:
        return []
    return handed


def leaver_matches() -> list[int]:
    """Active 3-4 player matches with a real-time clock (the ones :func:`abandon_absent` may act on)."""
    return list(Match.objects.filter(status=Match.Status.ACTIVE, players__gte=3, time_control__kind=REALTIME)
                .order_by("pk").values_list("pk", flat=True)[:1000])


def end_absent_queue_entries(user_ids: list[int] | None = None) -> int:
    """End the waiting queue entries of people whose last page closed, since they joined, over the grace
    period ago."""
    from ..ranking.models import QueueEntry

    waiting = QueueEntry.objects.filter(status=QueueEntry.Status.WAITING)
    if user_ids is not None:
        waiting = waiting.filter(user_id__in=user_ids)
    people = [(user, joined.timestamp()) for user, joined in waiting.values_list("user_id", "joined_at")[:2000]]
    gone = presence.absent_since_joining(people, settings.CAIRN_QUEUE_LEAVE_GRACE_SECONDS)
    if not gone:
        return 0
    return QueueEntry.objects.filter(status=QueueEntry.Status.WAITING, user_id__in=gone).update(
        status=QueueEntry.Status.CANCELLED, ended_at=timezone.now())


def sweep() -> dict[str, int]:
    """The periodic pass: bots for leavers of 3-4 player matches, and absent people's queue entries."""
    handed = sum(len(abandon_absent(match_id)) for match_id in leaver_matches())
    return {"seats_handed_to_bots": handed, "queue_entries_ended": end_absent_queue_entries()}

