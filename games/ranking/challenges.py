"""Direct challenges: one user invites another, by name, to a 2-player match with chosen options.

The challenged user accepts (the match starts at once, seats by coin toss) or
declines; the challenger may cancel; a challenge nobody answered expires
(``expires_at``; a periodic task marks it, and an expired challenge can never
be accepted whether or not the task has run).  Row locks make accept, decline,
cancel and expiry exclusive.
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from engine import OptionError, get_game

from .. import clocks, db, notify, services
from ..accounts import sanctions
from ..botapi import bots
from ..errors import BadRequest, Conflict, Forbidden, NotFound
from ..fairplay import reliability
from .models import Challenge

REALTIME_TTL = timedelta(minutes=10)
CORRESPONDENCE_TTL = timedelta(days=2)


def _require_user(user: Any) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise Forbidden("log in first", code="not_authenticated")


def create(
    *, user: Any, opponent: Any, game_id: Any, options: Any = None, rated: Any = False, time_control: Any = None,
) -> Challenge:
    _require_user(user)
    try:
        target = get_user_model().objects.get(username__iexact=str(opponent), is_active=True)
    except get_user_model().DoesNotExist:
        raise NotFound(f"there is no user {opponent!r}", code="user_not_found") from None
    if target.pk == user.pk:
        raise BadRequest("you cannot challenge yourself", code="self_challenge")
    if rated is True:
        sanctions.check_may_play_rated(user)
        reliability.check_may_play_rated(user)
    bots.check_may_meet(user, target, rated=rated is True)
    bots.check_daily_cap(user)
    try:
        game = get_game(game_id) if isinstance(game_id, str) else None
    except KeyError:
        game = None
    if game is None:
        raise BadRequest(f"unknown game {game_id!r}", code="unknown_game")
    try:
        game.check_players(2)
        if options is not None and not isinstance(options, dict):
            raise OptionError(f"'options' must be an object, not {options!r}")
        normalized = game.normalize_options(options)
    except OptionError as exc:
        raise BadRequest(str(exc), code="bad_options") from None
    if rated is not True and rated is not False:
        raise BadRequest(f"'rated' must be true or false, not {rated!r}", code="bad_rated")
    tc = clocks.normalize_time_control(time_control or clocks.DEFAULT_TIME_CONTROL)
    now = timezone.now()
    ttl = CORRESPONDENCE_TTL if (tc or {})["kind"] == clocks.CORRESPONDENCE else REALTIME_TTL
    with transaction.atomic(using=db.alias()):
        challenge = Challenge.objects.create(
            challenger=user, challenged=target, game_id=game.id, options=normalized, rated=rated,
            time_control=tc, created_at=now, expires_at=now + ttl,
        )
        notify.to_user_on_commit(target.pk, {"type": "challenge", "challenge": challenge.pk, "from": user.username})
    return challenge


def _locked(challenge_id: Any) -> Challenge:
    try:
        return Challenge.objects.select_for_update().get(pk=int(challenge_id))
    except (Challenge.DoesNotExist, TypeError, ValueError):
        raise NotFound(f"no challenge {challenge_id}", code="challenge_not_found") from None


def _check_pending(challenge: Challenge, now: datetime) -> None:
    if challenge.status == Challenge.Status.PENDING and challenge.expires_at <= now:
        challenge.status = Challenge.Status.EXPIRED
        challenge.decided_at = now
        challenge.save(update_fields=["status", "decided_at"])
    if challenge.status != Challenge.Status.PENDING:
        raise Conflict(f"challenge {challenge.pk} is {challenge.status}", code=f"challenge_{challenge.status}")


def accept(*, challenge_id: Any, user: Any) -> Challenge:
    _require_user(user)
    now = timezone.now()
    with transaction.atomic(using=db.alias()):
        challenge = _locked(challenge_id)
        if challenge.challenged_id != user.pk:
            raise Forbidden("only the challenged player can accept", code="not_challenged")
        if challenge.rated:
            sanctions.check_may_play_rated(challenge.challenger)
            sanctions.check_may_play_rated(user)
            reliability.check_may_play_rated(challenge.challenger)
            reliability.check_may_play_rated(user)
        _check_pending(challenge, now)
        if challenge.status != Challenge.Status.PENDING:
            return challenge  # expired just now: committed as such, reported below
        bots.check_may_meet(challenge.challenger, challenge.challenged, rated=challenge.rated)
        bots.check_daily_cap(challenge.challenger)
        bots.check_daily_cap(user)
        players = [challenge.challenger, challenge.challenged]
        random.Random(secrets.randbits(64)).shuffle(players)
        match = services.create_match(
            user=players[0], game_id=challenge.game_id, seats=[{"human": True}, {"human": True}],
            options=challenge.options, rated=challenge.rated, time_control=challenge.time_control,
        )
        services.join_match(match_id=match.pk, user=players[1])
        challenge.status = Challenge.Status.ACCEPTED
        challenge.decided_at = now
        challenge.match = match
        challenge.save(update_fields=["status", "decided_at", "match"])
        for player in players:
            notify.match_found(player.pk, match.pk, reason="challenge")
        notify.to_user_on_commit(challenge.challenger_id, {"type": "challenge_accepted", "challenge": challenge.pk,
                                                           "match": match.pk})
    return challenge


def decline(*, challenge_id: Any, user: Any) -> Challenge:
    """The challenged player declines, or the challenger cancels."""
    _require_user(user)
    now = timezone.now()
    with transaction.atomic(using=db.alias()):
        challenge = _locked(challenge_id)
        if user.pk not in (challenge.challenger_id, challenge.challenged_id):
            raise Forbidden("this challenge is not yours", code="not_challenged")
        _check_pending(challenge, now)
        challenge.status = (
            Challenge.Status.CANCELLED if user.pk == challenge.challenger_id else Challenge.Status.DECLINED
        )
        challenge.decided_at = now
        challenge.save(update_fields=["status", "decided_at"])
        other = challenge.challenged_id if user.pk == challenge.challenger_id else challenge.challenger_id
        notify.to_user_on_commit(other, {"type": "challenge_" + challenge.status, "challenge": challenge.pk})
    return challenge


def expire(now: datetime | None = None) -> int:
    now = now or timezone.now()
    with transaction.atomic(using=db.alias()):
        return Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__lte=now).update(
            status=Challenge.Status.EXPIRED, decided_at=now
        )


def of_user(user: Any) -> dict[str, list[Challenge]]:
    """Pending challenges sent and received (expired ones left out), newest first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return {"sent": [], "received": []}
    now = timezone.now()
    pending = Challenge.objects.select_related("challenger", "challenged").filter(
        Q(challenger=user) | Q(challenged=user), status=Challenge.Status.PENDING, expires_at__gt=now
    )
    return {
        "sent": [c for c in pending if c.challenger_id == user.pk],
        "received": [c for c in pending if c.challenged_id == user.pk],
    }


def as_json(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.pk,
        "from": challenge.challenger.username,
        "to": challenge.challenged.username,
        "game": challenge.game_id,
        "options": challenge.options,
        "rated": challenge.rated,
        "time_control": challenge.time_control,
        "time_control_key": clocks.time_control_key(challenge.time_control),
        "status": challenge.status,
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
        "match": challenge.match_id,
        # each side's completion rate (finished ÷ started over their last matches), beside their name
        "completion": {"from": reliability.completion(challenge.challenger)["shown"],
                       "to": reliability.completion(challenge.challenged)["shown"]},
    }
