"""Matchmaking: a queue per (game, player count, time control, rated or casual), in the database.

* :func:`join` adds a waiting :class:`QueueEntry` (one per user: a partial
  unique constraint), commits, then tries to pair that queue at once.
* :func:`pair_queue` locks the queue's waiting rows (``SELECT ... FOR UPDATE``
  in id order, so two pairers never deadlock; on SQLite the write transaction
  itself is exclusive) and forms matches: the longest-waiting player first,
  with the closest ratings, when every rating in the group lies within the
  acceptable gap of every member.  The gap widens with waiting time
  (:func:`acceptable_gap`), so nobody waits forever while others are queued.
  Entries become ``matched`` in the same transaction that creates the match,
  so a player is never placed twice, and an entry is only ever left by being
  matched or cancelled, so nobody is lost.  The entry of a person whose last
  page closed (games.fairplay.presence) is cancelled there instead of paired.
* :func:`pair_all` runs every queue; a periodic Celery task calls it.

Every matched player is told over their websocket (``user-<id>``) and goes to
the match.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from engine import get_game

from .. import clocks, db, notify, services
from ..accounts import sanctions
from ..botapi import bots
from ..errors import BadRequest, Conflict, NotFound
from ..fairplay import pairing, reliability
from ..models import Match
from .models import QueueEntry, Rating
from .ratings import START_DEVIATION, START_RATING

BASE_GAP = 100.0  # rating points accepted at once
GAP_PER_SECOND = 10.0  # how fast the acceptable gap widens while waiting
MAX_GAP = None  # no cap: after a few minutes anybody in the same queue will do


def acceptable_gap(waited_seconds: float) -> float:
    gap = BASE_GAP + GAP_PER_SECOND * max(0.0, waited_seconds)
    return gap if MAX_GAP is None else min(gap, MAX_GAP)


def _require_user(user: Any) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        from ..errors import Forbidden

        raise Forbidden("log in first", code="not_authenticated")


def _check_game(game_id: Any, players: Any) -> tuple[str, int]:
    try:
        game = get_game(game_id) if isinstance(game_id, str) else None
    except KeyError:
        game = None
    if game is None:
        raise BadRequest(f"unknown game {game_id!r}", code="unknown_game")
    counts = game.metadata().get("player_counts") or list(range(game.min_players, game.max_players + 1))
    if type(players) is not int or players not in counts:
        raise BadRequest(
            f"{game.name} is played by {', '.join(map(str, counts))} players, not {players!r}", code="bad_players"
        )
    return game.id, players


def join(*, user: Any, game_id: Any, players: Any, time_control: Any = None, rated: Any = True,
         min_completion: Any = None) -> QueueEntry:
    """Wait for opponents in one queue.  409 ``already_queued`` if already waiting anywhere.
    ``min_completion``: pair only with people whose completion rate is at least this many percent
    (games.fairplay.pairing); 400 ``bad_min_completion``."""
    _require_user(user)
    bots.check_may_queue(user)  # people only: a bot account plays by challenge
    game, count = _check_game(game_id, players)
    if rated is not True and rated is not False:
        raise BadRequest(f"'rated' must be true or false, not {rated!r}", code="bad_rated")
    min_completion = pairing.check_min_completion(min_completion)
    if rated:
        sanctions.check_may_play_rated(user)  # a moderator's suspension: 403 with the reason and the end
        reliability.check_may_play_rated(user)  # a wait after repeated aborts or walk-aways: 403 playban
    tc = clocks.normalize_time_control(time_control or clocks.DEFAULT_TIME_CONTROL)
    rating = Rating.objects.filter(user=user, game_id=game).first()
    try:
        with transaction.atomic(using=db.alias()):
            entry = QueueEntry.objects.create(
                user=user, game_id=game, players=count, time_control=tc, tc_key=clocks.time_control_key(tc),
                rated=rated, rating=rating.rating if rating else START_RATING,
                deviation=rating.deviation if rating else START_DEVIATION, joined_at=timezone.now(),
            )
            pairing.save_filter(entry, min_completion)
    except IntegrityError:
        raise Conflict("you are already waiting in a queue; cancel it first", code="already_queued") from None
    # The entry is committed (or visible to the caller's own transaction): try this queue at once.
    _pair_quietly(entry.game_id, entry.players, entry.tc_key, entry.rated)
    entry.refresh_from_db()
    return entry


def _pair_quietly(game_id: str, players: int, tc_key: str, rated: bool) -> None:
    import logging

    try:
        pair_queue(game_id=game_id, players=players, tc_key=tc_key, rated=rated)
    except Exception:  # the periodic task pairs them a few seconds later
        logging.getLogger(__name__).exception("pairing %s after a join failed", (game_id, players, tc_key, rated))


def cancel(*, user: Any) -> QueueEntry:
    """Leave the queue.  404 ``not_queued`` when not waiting (already paired: see the entry's match)."""
    _require_user(user)
    with transaction.atomic(using=db.alias()):
        entry = QueueEntry.objects.select_for_update().filter(user=user, status=QueueEntry.Status.WAITING).first()
        if entry is None:
            raise NotFound("you are not waiting in any queue", code="not_queued")
        entry.status = QueueEntry.Status.CANCELLED
        entry.ended_at = timezone.now()
        entry.save(update_fields=["status", "ended_at"])
    return entry


def waiting_entry(user: Any) -> QueueEntry | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return QueueEntry.objects.filter(user=user, status=QueueEntry.Status.WAITING).first()


def last_match(user: Any) -> QueueEntry | None:
    """The user's most recent matched entry (a page that missed the push can still find its match)."""
    return QueueEntry.objects.filter(user=user, status=QueueEntry.Status.MATCHED).order_by("-ended_at").first()


def open_queues() -> list[dict[str, Any]]:
    """Every queue with somebody waiting, and how many."""
    from django.db.models import Count, Max, Min

    rows = (
        QueueEntry.objects.filter(status=QueueEntry.Status.WAITING)
        .values("game_id", "players", "tc_key", "rated")
        .annotate(waiting=Count("id"), since=Min("joined_at"), low=Min("rating"), high=Max("rating"))
        .order_by("game_id", "players", "tc_key", "-rated")
    )
    return [
        {"game": r["game_id"], "players": r["players"], "time_control": r["tc_key"], "rated": r["rated"],
         "waiting": r["waiting"], "oldest_since": r["since"].isoformat(),
         "ratings": [round(r["low"]), round(r["high"])]}
        for r in rows
    ]


def choose_groups(entries: list[Any], players: int, now: datetime,
                  accepts: Callable[[Any, Any], bool] | None = None) -> list[list[Any]]:
    """Pure pairing rule: longest waiting first, closest ratings, spread within every member's gap, and
    (``accepts``) every pair of members willing to sit together (games.fairplay.pairing)."""
    pool = sorted(entries, key=lambda e: (e.joined_at, e.pk))
    groups: list[list[Any]] = []
    used: set[int] = set()
    for anchor in pool:
        if anchor.pk in used:
            continue
        others = sorted(
            (e for e in pool if e.pk not in used and e.pk != anchor.pk and e.user_id != anchor.user_id),
            key=lambda e: (abs(e.rating - anchor.rating), e.joined_at, e.pk),
        )
        group = [anchor]
        for candidate in others:
            if len(group) == players:
                break
            if candidate.user_id in {e.user_id for e in group}:
                continue
            if accepts is not None and not all(accepts(e, candidate) for e in group):
                continue
            trial = group + [candidate]
            spread = max(e.rating for e in trial) - min(e.rating for e in trial)
            gaps = [acceptable_gap((now - e.joined_at).total_seconds()) for e in trial]
            if spread <= min(gaps):
                group = trial
        if len(group) == players:
            groups.append(group)
            used.update(e.pk for e in group)
    return groups


def pair_queue(*, game_id: str, players: int, tc_key: str, rated: bool, now: datetime | None = None) -> list[Match]:
    """Form every match this queue allows now.  Safe to run from any number of processes at once."""
    made: list[Match] = []
    with transaction.atomic(using=db.alias()):
        entries = list(
            QueueEntry.objects.select_for_update()
            .filter(status=QueueEntry.Status.WAITING, game_id=game_id, players=players, tc_key=tc_key, rated=rated)
            .order_by("pk")
        )
        if len(entries) < players:
            return []
        now = now or timezone.now()
        entries = _without_absent(entries, now)
        for group in choose_groups(entries, players, now, pairing.acceptance(entries)):
            made.append(_start_match(group, rated=rated))
    return made


def _without_absent(entries: list[QueueEntry], now: datetime) -> list[QueueEntry]:
    """End the (locked) entries of people whose last page closed, since they joined, over the grace period
    ago (games.fairplay.presence): nobody absent is paired.  The others, to pair."""
    from django.conf import settings

    from ..fairplay import presence

    gone = presence.absent_since_joining([(e.user_id, e.joined_at.timestamp()) for e in entries],
                                         settings.CAIRN_QUEUE_LEAVE_GRACE_SECONDS)
    if not gone:
        return entries
    QueueEntry.objects.filter(pk__in=[e.pk for e in entries if e.user_id in gone]).update(
        status=QueueEntry.Status.CANCELLED, ended_at=now)
    return [e for e in entries if e.user_id not in gone]


def _start_match(group: list[QueueEntry], *, rated: bool) -> Match:
    order = list(group)
    random.Random(secrets.randbits(64)).shuffle(order)  # who sits first is a coin toss
    first = order[0]
    match = services.create_match(
        user=first.user, game_id=first.game_id, seats=[{"human": True}] * len(order), options={},
        rated=rated, time_control=first.time_control,
    )
    for entry in order[1:]:
        match = services.join_match(match_id=match.pk, user=entry.user)
    now = timezone.now()
    ids = [e.pk for e in group]
    updated = QueueEntry.objects.filter(pk__in=ids, status=QueueEntry.Status.WAITING).update(
        status=QueueEntry.Status.MATCHED, match=match, ended_at=now
    )
    if updated != len(ids):  # impossible while the rows are locked; never place anybody twice
        raise Conflict("a queue entry changed while it was locked", code="queue_race")
    for entry in group:
        notify.match_found(entry.user_id, match.pk, reason="queue")
    return match


def pair_all(now: datetime | None = None) -> int:
    """Pair every queue that has enough players waiting; how many matches were made."""
    from django.db.models import Count

    keys = (
        QueueEntry.objects.filter(status=QueueEntry.Status.WAITING)
        .values_list("game_id", "players", "tc_key", "rated")
        .annotate(n=Count("id"))
    )
    made = 0
    for game_id, players, tc_key, rated, n in keys:
        if n >= players:
            made += len(pair_queue(game_id=game_id, players=players, tc_key=tc_key, rated=rated, now=now))
    return made
