"""Rematch and "new match": play a finished match again.

* :func:`offer` (a player of a finished match): a rematch with the same seats
  (each person in the same seat, each bot at the same level), the same options,
  clock and rated flag.  Bots accept at once, so when the proposer is the only
  person the new match starts straight away; otherwise every other person
  accepts or declines (:func:`answer`), live.  When the last one accepts, the
  new match is created with everyone seated and starts; each person's page goes
  there (``games.notify.match_found``).  One offer per match: a declined
  offer is final.
* :func:`new_match`: "new match" with the same settings (the same bots, the
  other people's seats open to anyone).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from games import notify, services
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Match, Seat

from . import push
from .models import Rematch, RematchAnswer


def _finished_match(match_id: Any) -> Match:
    try:
        match = Match.objects.get(pk=int(match_id))
    except (Match.DoesNotExist, TypeError, ValueError):
        raise NotFound(f"there is no match {match_id!r}", code="match_not_found") from None
    if match.status != Match.Status.FINISHED:
        raise Conflict("a rematch can be offered once the match is over", code="match_not_finished")
    return match


def _seats(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).select_related("user").order_by("index"))


def humans(match: Match) -> list[Any]:
    """The people seated in ``match`` (a forfeited seat's person included), in seat order."""
    return [seat.user for seat in _seats(match) if seat.user_id is not None]


def _require_player(match: Match, user: Any) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise Forbidden("log in first", code="not_authenticated")
    if not any(u.pk == user.pk for u in humans(match)):
        raise Forbidden("only the players of this match can ask for a rematch", code="not_a_player")


def state(match: Match, user: Any) -> dict[str, Any] | None:
    """What the result card shows ``user`` about a rematch (None: no offer yet)."""
    offer = Rematch.objects.filter(match=match).select_related("proposer").first()
    if offer is None:
        return None
    answers = {a.user_id: a.accepted for a in offer.answers.all()}
    people = humans(match)
    waiting = [u.username for u in people if u.pk != offer.proposer_id and u.pk not in answers]
    uid = getattr(user, "pk", None)
    return {
        "status": offer.status,
        "proposer": offer.proposer.username,
        "new_match": offer.new_match_id,
        "waiting_for": waiting,
        "declined_by": [u.username for u in people if answers.get(u.pk) is False],
        "mine": uid == offer.proposer_id,
        "must_answer": offer.status == Rematch.Status.PENDING and uid in {u.pk for u in people}
        and uid != offer.proposer_id and uid not in answers,
    }


def offer(*, user: Any, match_id: Any) -> Rematch:
    """Offer a rematch; with no other person to ask, the new match starts at once."""
    match = _finished_match(match_id)
    _require_player(match, user)
    try:
        with transaction.atomic():
            rematch = Rematch.objects.create(match=match, proposer=user)
            _maybe_start(rematch)
            if rematch.status == Rematch.Status.PENDING:  # the account streams of the others
                for person in humans(match):
                    if person.pk != user.pk:
                        notify.to_user_on_commit(person.pk, {"type": "rematch_offered", "match": match.pk,
                                                             "from": user.username})
    except IntegrityError:
        raise Conflict("a rematch of this match was already offered", code="rematch_exists") from None
    return rematch


def answer(*, user: Any, match_id: Any, accept: bool) -> Rematch:
    """Accept or decline the rematch offered for ``match_id``."""
    match = _finished_match(match_id)
    _require_player(match, user)
    with transaction.atomic():
        rematch = Rematch.objects.select_for_update().filter(match=match).first()
        if rematch is None:
            raise NotFound("no rematch was offered for this match", code="no_rematch")
        if rematch.proposer_id == user.pk:
            raise BadRequest("you offered this rematch yourself", code="own_rematch")
        if rematch.status != Rematch.Status.PENDING:
            raise Conflict(f"this rematch was already {rematch.status}", code="rematch_answered")
        try:
            with transaction.atomic():
                RematchAnswer.objects.create(rematch=rematch, user=user, accepted=accept)
        except IntegrityError:
            raise Conflict("you already answered this rematch", code="rematch_answered") from None
        if not accept:
            rematch.status = Rematch.Status.DECLINED
            rematch.save(update_fields=["status"])
            push.on_commit(push.match_group(match.pk), "rematch", match_id=match.pk)
        else:
            _maybe_start(rematch)
    return rematch


def _maybe_start(rematch: Rematch) -> None:
    """Inside the offer's transaction: create the new match once every other person accepted."""
    match = rematch.match
    people = humans(match)
    accepted = set(rematch.answers.filter(accepted=True).values_list("user_id", flat=True)) | {rematch.proposer_id}
    if any(u.pk not in accepted for u in people):
        push.on_commit(push.match_group(match.pk), "rematch", match_id=match.pk)
        return
    new = _create_copy(match)
    rematch.status = Rematch.Status.ACCEPTED
    rematch.new_match = new
    rematch.save(update_fields=["status", "new_match"])
    push.on_commit(push.match_group(match.pk), "rematch", match_id=match.pk)
    for person in people:
        notify.match_found(person.pk, new.pk, reason="rematch")


def _create_copy(match: Match) -> Match:
    """A new match with the same seats, options, clock and rated flag, every seat filled (so it starts)."""
    seats = _seats(match)
    spec: list[dict[str, Any]] = []
    for seat in seats:
        if seat.user_id is not None:  # a person (also one whose forfeited seat a bot played on)
            spec.append({"human": True})
        else:
            spec.append({"bot": seat.bot_level})
    first = next(seat.user for seat in seats if seat.user_id is not None)
    first_id = next(seat.user_id for seat in seats if seat.user_id is not None)
    new = services.create_match(
        user=first, game_id=match.game_id, seats=spec, options=match.options,
        rated=match.rated, time_control=match.time_control,
    )
    # The others take their seats in seat order: join_match takes the first open seat,
    # and nobody else can join before this transaction commits.
    for seat in seats:
        if seat.user_id is not None and seat.user_id != first_id:
            services.join_match(match_id=new.pk, user=seat.user)
    return new


def new_match(*, user: Any, match_id: Any) -> Match:
    """"New match": the same game, player count, options, clock and bots, ``user`` in the first person's
    seat and the other people's seats open to anyone (the match waits in the lobby until they fill)."""
    match = _finished_match(match_id)
    _require_player(match, user)
    spec = [{"human": True} if seat.user_id is not None or not seat.bot_level else {"bot": seat.bot_level}
            for seat in _seats(match)]
    return services.create_match(
        user=user, game_id=match.game_id, seats=spec, options=match.options,
        rated=match.rated, time_control=match.time_control,
    )
