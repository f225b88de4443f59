"""Takebacks in casual matches and matches against bots (docs/RANKING.md, "Takebacks").

A takeback undoes the asking seat's latest action and everything after it, and is itself an appended
``takeback`` event ``{"seat", "from", "accepted_by"}``: nothing is removed from the log; the state is
the replay of the engine events before ``from`` (:meth:`games.aggregate.MatchAggregate._take_back`).

Never across a chance event (a die roll, a shuffle, a draw), a resignation, time-out or seat handed to
a bot, or another person's action: only bots' actions may follow the one taken back.  Never in a
rated match, and never in a game with hidden information (Mountainhome: an action may reveal what was
hidden).  Against bots only, a takeback is taken at once; against a person (2 players), they must
accept the offer (:func:`offer`, :func:`answer`); the offer lapses as soon as the match moves on.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from .. import db, services
from ..aggregate import MatchAggregate
from ..errors import BadRequest, Conflict, Forbidden, NotFound
from ..models import Match, Seat
from .models import TakebackOffer


def _humans(seats: list[Seat], but: int) -> list[Seat]:
    return [s for s in seats if s.index != but and s.user_id and not s.is_bot]


def start_of(match: Match, aggregate: MatchAggregate, seats: list[Seat], seat: int) -> int:
    """The seq from which ``seat`` may take back now (its latest action), or 409 naming why not."""
    if match.rated or aggregate.rated:
        raise Conflict("a rated match has no takebacks", code="takeback_not_allowed")
    if not aggregate.game.perfect_information:
        raise Conflict(f"{aggregate.game.name} has hidden information: an action may reveal it, so nothing is "
                       "taken back", code="takeback_not_allowed")
    if aggregate.finished:
        raise Conflict(f"match {match.pk} has ended", code="match_finished")
    if not aggregate.started:
        raise Conflict(f"match {match.pk} has not started", code="match_not_started")
    if len(_humans(seats, seat)) > 1:
        raise Conflict("takebacks with people are for 2-player matches", code="takeback_not_allowed")
    bots = {s.index for s in seats if s.is_bot}
    mine = [seq for seq, payload in aggregate.applied if payload.get("player") == seat]
    if not mine:
        raise Conflict("you have no action to take back", code="nothing_to_take_back")
    start = mine[-1]
    if start <= aggregate.barrier:
        raise Conflict("your last action came before a die roll, a shuffle or a draw (or a seat changing hands): "
                       "it is never taken back", code="takeback_across_chance")
    for seq, payload in aggregate.applied:
        if seq > start and "chance" in payload:  # (a barrier already; kept for clarity)
            raise Conflict("a die roll, a shuffle or a draw followed your action", code="takeback_across_chance")
        if seq > start and payload.get("player") not in bots:
            raise Conflict("another player has acted since your last action", code="takeback_across_player")
    return start


def _load(match_id: Any) -> tuple[Match, list[Seat], MatchAggregate]:
    from .. import selectors

    match, seats = selectors.get_match_for_write(match_id)
    return match, seats, selectors.load_aggregate(match)


def take_back(*, match_id: Any, user: Any) -> Match:
    """Against bots only: take back your latest action (and the bots' replies) at once."""
    services._require_user(user)

    def decide(match: Match, aggregate: MatchAggregate, seats: list[Seat]) -> None:
        seat = services._own_seat(aggregate, seats, user)
        start = start_of(match, aggregate, seats, seat)
        if _humans(seats, seat):
            raise Conflict("your opponent is a person: offer the takeback and they may accept it",
                           code="takeback_needs_acceptance")
        aggregate.take_back(seat, start, services.user_actor(user), accepted_by=None)

    return services.command(match_id, decide)


def offer(*, match_id: Any, user: Any) -> TakebackOffer:
    """Ask the other player to let you take back your latest action."""
    services._require_user(user)
    match, seats, aggregate = _load(match_id)
    seat = services._own_seat(aggregate, seats, user)
    start_of(match, aggregate, seats, seat)
    if not _humans(seats, seat):
        raise Conflict("your opponents are bots: take it back at once", code="takeback_no_acceptance_needed")
    TakebackOffer.objects.filter(match=match, status=TakebackOffer.Status.PENDING).exclude(seq=aggregate.seq).update(
        status=TakebackOffer.Status.DECLINED, answered_at=timezone.now())  # lapsed: the match moved on
    try:
        with transaction.atomic(using=db.alias()):
            return TakebackOffer.objects.create(match=match, seat=seat, by=user, seq=aggregate.seq)
    except IntegrityError:
        raise Conflict("a takeback is already offered in this match", code="takeback_pending") from None


def pending(match: Match) -> TakebackOffer | None:
    found = TakebackOffer.objects.filter(match=match, status=TakebackOffer.Status.PENDING).first()
    return found if found is not None and found.seq == match.seq else None


def answer(*, match_id: Any, user: Any, accept: Any) -> TakebackOffer:
    """The other player accepts (the takeback event is appended) or declines the pending offer."""
    services._require_user(user)
    if accept is not True and accept is not False:
        raise BadRequest(f"'accept' must be true or false, not {accept!r}", code="bad_answer")
    decided: dict[str, TakebackOffer] = {}

    def decide(match: Match, aggregate: MatchAggregate, seats: list[Seat]) -> None:
        seat = services._own_seat(aggregate, seats, user)
        found = TakebackOffer.objects.select_for_update().filter(
            match=match, status=TakebackOffer.Status.PENDING).first()
        if found is None:
            raise NotFound("no takeback is offered in this match", code="no_takeback_offer")
        if found.seat == seat:
            raise Forbidden("you cannot answer your own offer", code="own_takeback_offer")
        now = timezone.now()
        if found.seq != aggregate.seq:
            found.status, found.answered_at = TakebackOffer.Status.DECLINED, now
            found.save(update_fields=["status", "answered_at"])
            decided["offer"] = found
            raise Conflict("the offer lapsed: the match has moved on since", code="takeback_lapsed")
        if accept:
            start = start_of(match, aggregate, seats, found.seat)
            aggregate.take_back(found.seat, start, services.user_actor(user), accepted_by=seat)
        found.status = TakebackOffer.Status.ACCEPTED if accept else TakebackOffer.Status.DECLINED
        found.answered_at = now
        found.save(update_fields=["status", "answered_at"])
        decided["offer"] = found

    try:
        services.command(match_id, decide)
    except Conflict as exc:
        if exc.code == "takeback_lapsed":  # the lapse is stored even though nothing is appended
            TakebackOffer.objects.filter(pk=decided["offer"].pk).update(status=TakebackOffer.Status.DECLINED)
        raise
    return decided["offer"]


def as_json(offer: TakebackOffer) -> dict[str, Any]:
    return {"id": offer.pk, "match": offer.match_id, "seat": offer.seat, "by": offer.by.username, "seq": offer.seq,
            "status": offer.status, "created_at": offer.created_at.isoformat(),
            "answered_at": offer.answered_at.isoformat() if offer.answered_at else None}
