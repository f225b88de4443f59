"""Writes of tournaments: create, join, withdraw, pause, start, pair, and a board's result.

Every service owns its transaction and locks the tournament row (``SELECT ... FOR UPDATE``) before it
changes entries, rounds or boards, so two workers never pair the same entrant twice.  Matches are
made through the core's ``services.create_match`` and ``join_match``; a round (its boards, matches and
byes) is created in one transaction: a worker that dies while pairing leaves nothing, and the next
run pairs it again (:func:`pair_round` does nothing for a round that exists).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import cast

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

import ai
from engine import tournament as T
from engine.tournament_audit import recompute_pairing

from .. import db, notify
from .. import services as match_services
from ..errors import BadRequest, Conflict, Forbidden, NotFound, excerpt
from ..requesters import RawId, Requester
from . import live, rules
from .models import Board, Entry, Round, Tournament
from .rules import ends_at

logger = logging.getLogger(__name__)


def _require_user(user: Requester) -> User:
    """The person asking, or 403 for anyone not logged in."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise Forbidden("log in first", code="not_authenticated")
    return cast(User, user)  # only a person's account is authenticated


def _locked(tournament_id: object) -> Tournament:
    found = Tournament.objects.select_for_update().filter(pk=tournament_id).first() if type(tournament_id) is int else None
    if found is None:
        raise NotFound(f"no tournament {excerpt(tournament_id)}", code="no_tournament")
    return found


def _arena_over(tournament: Tournament, now: datetime) -> bool:
    """Whether an arena's time is up (``ends_at`` is None for the other kinds)."""
    end = ends_at(tournament)
    return end is not None and end <= now


def total_rounds(tournament: Tournament, entrants: int) -> int:
    if tournament.kind == Tournament.Kind.SWISS:
        return tournament.rounds or 0
    if tournament.kind == Tournament.Kind.ROUND_ROBIN:
        return T.berger_rounds(entrants, tournament.table_size)
    return 0


# ---------------------------------------------------------------------- create, join, withdraw


def create(*, user: Requester, data: object, now: datetime | None = None) -> Tournament:
    user = _require_user(user)
    if not isinstance(data, dict):
        raise BadRequest("the body must be an object", code="bad_body")
    fields = rules.normalize(data, now)
    if fields["rated"]:
        from ..accounts import sanctions

        sanctions.check_may_play_rated(user)
    return Tournament.objects.create(created_by=user, **fields)


def _rating(user: User, game_id: str) -> float:
    from ..ranking.models import Rating
    from ..ranking.ratings import START_RATING

    rating = Rating.objects.filter(user=user, game_id=game_id).first()
    return rating.rating if rating else START_RATING


def _check_open(tournament: Tournament) -> int:
    """The round a new entrant starts in; 409 when no one may join now."""
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(f"tournament {tournament.pk} has finished", code="tournament_finished")
    if tournament.status == Tournament.Status.RUNNING:
        if tournament.kind == Tournament.Kind.ROUND_ROBIN:
            raise Conflict(f"round robin {tournament.pk} has started: its tables are fixed", code="tournament_started")
        if tournament.kind == Tournament.Kind.SWISS:
            if tournament.current_round >= (tournament.rounds or 0):
                raise Conflict(f"Swiss {tournament.pk} is in its last round", code="tournament_started")
            return tournament.current_round + 1  # late join: from the next round, with no points
        if _arena_over(tournament, timezone.now()):
            raise Conflict(f"arena {tournament.pk} is over", code="tournament_finished")
        return tournament.current_round + 1
    return 1


def _check_room(tournament: Tournament) -> None:
    count = Entry.objects.filter(tournament=tournament, withdrawn_round__isnull=True).count()
    if count >= tournament.max_entrants:
        raise Conflict(f"tournament {tournament.pk} is full ({tournament.max_entrants} entrants)", code="tournament_full")


def _next_number(tournament: Tournament) -> int:
    last = Entry.objects.filter(tournament=tournament).order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def join(*, tournament_id: RawId, user: Requester) -> Entry:
    """Enter a tournament.  409 if full, started (round robin), finished or joined already; 403 if the
    rating, completion rate or bot rule keeps the person out."""
    user = _require_user(user)
    from ..botapi import bots

    with transaction.atomic(using=db.alias()):
        tournament = _locked(tournament_id)
        start_round = _check_open(tournament)
        existing = Entry.objects.filter(tournament=tournament, user=user).first()
        if existing is not None and existing.withdrawn_round is None:
            raise Conflict(f"you have already joined tournament {tournament.pk}", code="already_joined")
        if existing is not None and tournament.status != Tournament.Status.SCHEDULED:
            raise Conflict("you withdrew from this tournament once it had started: you cannot rejoin",
                           code="withdrawn")
        _check_room(tournament)
        bot_account = bots.is_bot(user)
        if bot_account and not tournament.bots_allowed:
            raise Forbidden("this tournament admits no bots", code="no_bots")
        rating = _rating(user, tournament.game_id)
        if tournament.rated and not bot_account:
            from ..accounts import sanctions
            from ..fairplay import reliability

            sanctions.check_may_play_rated(user)
            reliability.check_may_play_rated(user)
        if tournament.min_rating is not None and rating < tournament.min_rating:
            raise Forbidden(f"this tournament asks for a rating of {tournament.min_rating:g}; yours is {rating:.0f}",
                            code="rating_too_low")
        if tournament.min_completion is not None:
            from ..fairplay import reliability

            rate = reliability.completion(user)["rate"]
            if rate is None or rate < tournament.min_completion:
                raise Forbidden(f"this tournament asks for a completion rate of {tournament.min_completion:.0%}; "
                                f"yours is {'not known yet' if rate is None else f'{rate:.0%}'}", code="completion_too_low")
        if existing is not None:  # withdrew before the start: back in, same number
            existing.withdrawn_round = None
            existing.rating = rating
            existing.save(update_fields=["withdrawn_round", "rating"])
            entry = existing
        else:
            entry = Entry.objects.create(
                tournament=tournament, number=_next_number(tournament), user=user, name=user.username,
                is_bot_account=bot_account, rating=rating, joined_round=start_round,
                free_since=timezone.now(),
            )
        _changed(tournament)
    return entry


def add_bot(*, tournament_id: RawId, user: Requester, level: object) -> Entry:
    """The creator enters a house bot (labelled as a bot everywhere).  403 unless bots are allowed."""
    user = _require_user(user)
    if not isinstance(level, str) or level not in ai.LEVELS:
        raise BadRequest(f"unknown bot level {excerpt(level)}; known levels: {', '.join(ai.LEVELS)}", code="bad_bot")
    with transaction.atomic(using=db.alias()):
        tournament = _locked(tournament_id)
        if tournament.created_by_id != user.pk:
            raise Forbidden("only the tournament's creator enters house bots", code="not_creator")
        if not tournament.bots_allowed:
            raise Forbidden("this tournament admits no bots", code="no_bots")
        start_round = _check_open(tournament)
        _check_room(tournament)
        number = _next_number(tournament)
        rating = float(ai.LEVELS[level]["rating"].get(tournament.game_id, 1500))
        entry = Entry.objects.create(
            tournament=tournament, number=number, bot_level=level, name=f"{ai.LEVELS[level]['label']} bot {number}",
            rating=rating, joined_round=start_round, free_since=timezone.now(),
        )
        _changed(tournament)
    return entry


def withdraw(*, tournament_id: RawId, user: Requester) -> Entry:
    """Leave: no new boards from now on (a game in progress is played out).  409 once finished."""
    user = _require_user(user)
    with transaction.atomic(using=db.alias()):
        tournament = _locked(tournament_id)
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict(f"tournament {tournament.pk} has finished: there is nothing to withdraw from",
                           code="tournament_finished")
        entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user).first()
        if entry is None or entry.withdrawn_round is not None:
            raise NotFound(f"you are not in tournament {tournament.pk}", code="not_entered")
        entry.withdrawn_round = 0 if tournament.status == Tournament.Status.SCHEDULED else tournament.current_round + 1
        entry.save(update_fields=["withdrawn_round"])
        _changed(tournament)
    return entry


def pause(*, tournament_id: RawId, user: Requester, paused: object) -> Entry:
    """Arena: a paused entrant gets no new board until they come back."""
    entry = _set_arena_flag(tournament_id, user, "paused", paused, not_arena="only an arena can be paused; withdraw "
                            "from a Swiss or round robin", changed=True)
    if not paused:
        live.queue_pairing(entry.tournament_id, 0)
    return entry


def berserk(*, tournament_id: RawId, user: Requester, on: object) -> Entry:
    """Arena: start one's next game with half the clock, for a bonus point if it is won."""
    return _set_arena_flag(tournament_id, user, "berserk_next", on, not_arena="berserk is an arena's", changed=False,
                           name="berserk")


def _set_arena_flag(tournament_id: RawId, user: Requester, field: str, value: object, *, not_arena: str, changed: bool,
                    name: str | None = None) -> Entry:
    """Set an arena entrant's own ``field`` to ``value`` (true or false) in an arena that has not finished."""
    user = _require_user(user)
    name = name or field
    if value is not True and value is not False:
        raise BadRequest(f"'{name}' must be true or false, not {excerpt(value)}", code=f"bad_{name}")
    with transaction.atomic(using=db.alias()):
        tournament = _locked(tournament_id)
        if tournament.kind != Tournament.Kind.ARENA:
            raise BadRequest(not_arena, code="not_arena")
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict(f"tournament {tournament.pk} has finished", code="tournament_finished")
        entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user,
                                                         withdrawn_round__isnull=True).first()
        if entry is None:
            raise NotFound(f"you are not in tournament {tournament.pk}", code="not_entered")
        setattr(entry, field, value)
        entry.save(update_fields=[field])
        if changed:
            _changed(tournament)
    return entry


def _changed(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    tournament.refresh_from_db(fields=["version"])
    live.changed_on_commit(tournament.pk, tournament.version)


# ---------------------------------------------------------------------- start and pair


def active_entries(tournament: Tournament, round_number: int) -> list[Entry]:
    return [e for e in Entry.objects.filter(tournament=tournament).order_by("number")
            if e.joined_round <= round_number and (e.withdrawn_round is None or e.withdrawn_round > round_number)]


def start_due(now: datetime | None = None) -> int:
    """Start every tournament whose start time has come; how many started."""
    now = now or timezone.now()
    started = 0
    for pk in Tournament.objects.filter(status=Tournament.Status.SCHEDULED, starts_at__lte=now).values_list("pk", flat=True):
        started += int(start(tournament_id=pk))
    return started


def start(*, tournament_id: int) -> bool:
    with transaction.atomic(using=db.alias()):
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.SCHEDULED:
            return False
        entrants = active_entries(tournament, 1)
        tournament.status = Tournament.Status.RUNNING
        if len(entrants) < tournament.table_size or (
                tournament.kind != Tournament.Kind.ARENA and total_rounds(tournament, len(entrants)) < 1):
            tournament.status = Tournament.Status.FINISHED  # nobody to play: it ends as it starts
            tournament.finished_at = timezone.now()
        elif tournament.kind == Tournament.Kind.ROUND_ROBIN:
            tournament.rounds = total_rounds(tournament, len(entrants))
        tournament.save(update_fields=["status", "finished_at", "rounds"])
        _changed(tournament)
    if tournament.status == Tournament.Status.RUNNING:
        if tournament.kind == Tournament.Kind.ARENA:
            pair_arena(tournament_id=tournament.pk)
        else:
            pair_round(tournament_id=tournament.pk, number=1)
    return True


def _make_board(tournament: Tournament, round_row: Round, table: int, seats: list[Entry], now: datetime) -> Board:
    """One table: its match through the core's create and join (a table with a bot is casual)."""
    if any(e.board_id for e in seats):
        raise Conflict("an entrant is already at a board", code="already_playing")  # never two games at once
    arena = tournament.kind == Tournament.Kind.ARENA
    board = Board(tournament=tournament, round=round_row, table=table, seats=[e.number for e in seats],
                  berserk=[arena and e.berserk_next for e in seats], started_at=now)
    humans = [e for e in seats if e.user_id]
    if not humans:  # bots alone make no match: the table is a draw (docs/TOURNAMENTS.md)
        board.places, board.finished_at = [0] * len(seats), now
        board.save()
        return board
    spec = [{"bot": e.bot_level} if e.bot_level else {"human": True} for e in seats]
    rated = tournament.rated and all(e.user_id and not e.is_bot_account for e in seats)
    match = match_services.create_match(user=humans[0].user, game_id=tournament.game_id, seats=spec, options={},
                                        rated=rated, time_control=tournament.time_control,
                                        berserk=[seat for seat, on in enumerate(board.berserk) if on])
    for entry in humans[1:]:
        match = match_services.join_match(match_id=match.pk, user=entry.user)
    board.match = match
    board.save()
    for entry in seats:
        entry.board, entry.berserk_next = board, False
        entry.save(update_fields=["board", "berserk_next"])
        if entry.user_id:
            notify.match_found(entry.user_id, match.pk, reason="tournament")
    return board


def pair_round(*, tournament_id: int, number: int) -> Round | None:
    """Pair Swiss or round-robin round ``number`` (all its boards start together).  Idempotent: a round
    that exists, or one whose previous round is still being played, is left alone."""
    from .selectors import export_entries, export_rounds

    with transaction.atomic(using=db.alias()):
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.RUNNING or tournament.current_round >= number:
            return None
        if tournament.current_round != number - 1 or Round.objects.filter(
                tournament=tournament, number=number - 1, closed=False).exists():
            return None
        entries = export_entries(tournament)
        boards, byes = recompute_pairing(tournament.kind, tournament.table_size, entries, export_rounds(tournament),
                                         number, tournament.rounds or 0)
        by_number = {e.number: e for e in Entry.objects.select_for_update().filter(tournament=tournament)}
        round_row = Round.objects.create(tournament=tournament, number=number, byes=sorted(byes))
        now = timezone.now()
        for table, seats in enumerate(boards, start=1):
            _make_board(tournament, round_row, table, [by_number[n] for n in seats], now)
        for n in byes:
            Entry.objects.filter(pk=by_number[n].pk).update(points=F("points") + T.BYE_POINTS, byes=F("byes") + 1)
        tournament.current_round = number
        tournament.save(update_fields=["current_round"])
        _changed(tournament)
        if not Board.objects.filter(round=round_row, finished_at__isnull=True).exists():
            live.queue_round_close(tournament.pk, number)  # bots only, or byes only: nothing to wait for
    return round_row


def pair_arena(*, tournament_id: int, now: datetime | None = None) -> Round | None:
    """Arena: every free entrant gets a board with the free entrants nearest in score, at once."""
    now = now or timezone.now()
    with transaction.atomic(using=db.alias()):
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.RUNNING or _arena_over(tournament, now):
            return None
        free = [e for e in Entry.objects.select_for_update().filter(
            tournament=tournament, board__isnull=True, paused=False, withdrawn_round__isnull=True)
            .order_by("free_since", "number")]
        busy = set(Entry.objects.filter(user_id__in=[e.user_id for e in free if e.user_id], board__isnull=False)
                   .exclude(tournament=tournament).values_list("user_id", flat=True))
        free = [e for e in free if e.user_id not in busy]  # playing in another tournament: wait for that board
        if len(free) < tournament.table_size:
            return None
        last = _last_opponents(tournament, [e.number for e in free])
        tables = T.arena_pairs([e.number for e in free], {e.number: e.points for e in free},
                               tournament.table_size, last, {e.number for e in free if e.bot_level})
        by_number = {e.number: e for e in free}
        if not tables:
            return None
        number = tournament.current_round + 1
        round_row = Round.objects.create(tournament=tournament, number=number)
        for table, seats in enumerate(tables, start=1):
            _make_board(tournament, round_row, table, [by_number[n] for n in seats], now)
        tournament.current_round = number
        tournament.save(update_fields=["current_round"])
        _changed(tournament)
    return round_row


def _last_opponents(tournament: Tournament, numbers: list[int]) -> dict[int, set[int]]:
    last: dict[int, set[int]] = {}
    for board in Board.objects.filter(tournament=tournament).order_by("-round__number")[: 4 * len(numbers) + 4]:
        for n in board.seats:
            if n in numbers and n not in last:
                last[n] = set(board.seats) - {n}
    return last


# ---------------------------------------------------------------------- results


def record_result(*, match_id: int, places: list[int]) -> Board | None:
    """A board's match has finished (called inside the match's saving transaction): fold its result
    into the standings of the entrants at it, one line each, and free them."""
    with transaction.atomic(using=db.alias()):
        return _record_result(match_id, places)


def _record_result(match_id: int, places: list[int]) -> Board | None:
    board = Board.objects.select_for_update().filter(match_id=match_id).first()
    if board is None or board.places is not None:
        return None
    tournament = _locked(board.tournament_id)  # the pairers' order: the tournament, then its entries
    now = timezone.now()
    board.places, board.finished_at = list(places), now
    board.save(update_fields=["places", "finished_at"])
    entries = {e.number: e for e in Entry.objects.select_for_update().filter(tournament=tournament,
                                                                             number__in=board.seats)}
    for seat, number in enumerate(board.seats):
        entry = entries[number]
        if tournament.kind == Tournament.Kind.ARENA:
            line = T.ArenaLine(points=int(entry.points), games=entry.games, wins=entry.wins, streak=entry.streak)
            line.add(places, seat, bool(board.berserk[seat]) if seat < len(board.berserk) else False)
            entry.points, entry.games, entry.wins, entry.streak = line.points, line.games, line.wins, line.streak
        else:
            entry.points += T.game_points(places, seat)
            entry.games += 1
            entry.wins += int(T.is_win(places, seat))
        entry.board, entry.free_since = None, now
        entry.save(update_fields=["points", "games", "wins", "streak", "board", "free_since"])
    _changed(tournament)
    if tournament.kind == Tournament.Kind.ARENA:
        live.queue_pairing(tournament.pk, 0)
        if _arena_over(tournament, now):
            live.queue_round_close(tournament.pk, 0)
    elif not Board.objects.filter(round_id=board.round_id, finished_at__isnull=True).exists():
        live.queue_round_close(tournament.pk, board.round.number)
    return board


def close_round(*, tournament_id: int, number: int) -> bool:
    """Swiss and round robin: once every board of round ``number`` has finished, compute the tie-breaks
    (once per round) and pair the next round, or finish.  Arena (``number`` 0): finish once the time is
    up and no board is in play.  Idempotent."""
    from .selectors import compute_standings

    with transaction.atomic(using=db.alias()):
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return False
        if tournament.kind == Tournament.Kind.ARENA:
            if not _arena_over(tournament, timezone.now()) or Board.objects.filter(
                    tournament=tournament, finished_at__isnull=True).exists():
                return False
            return _finish(tournament)
        round_row = Round.objects.filter(tournament=tournament, number=number).first()
        if round_row is None or round_row.closed or Board.objects.filter(round=round_row, finished_at__isnull=True).exists():
            return False
        round_row.closed = True
        round_row.save(update_fields=["closed"])
        rows = {row["entry"]: row for row in compute_standings(tournament)}
        for entry in Entry.objects.filter(tournament=tournament):
            row = rows.get(entry.number)
            if row:
                Entry.objects.filter(pk=entry.pk).update(buchholz=row["buchholz"],
                                                         sonneborn_berger=row["sonneborn_berger"])
        last = number >= (tournament.rounds or 0)
        if last:
            return _finish(tournament)
        _changed(tournament)
    pair_round(tournament_id=tournament_id, number=number + 1)
    return True


def _finish(tournament: Tournament) -> bool:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    _changed(tournament)
    return True


def tick(now: datetime | None = None) -> dict[str, int]:
    """The beat task's pass: start what is due, pair free arena entrants, close what is done (each step
    idempotent, so a lost task or a crashed worker is made good here)."""
    now = now or timezone.now()
    done = {"started": start_due(now), "paired": 0, "closed": 0}
    for tournament in Tournament.objects.filter(status=Tournament.Status.RUNNING):
        try:
            if tournament.kind == Tournament.Kind.ARENA:
                done["paired"] += int(pair_arena(tournament_id=tournament.pk, now=now) is not None)
                done["closed"] += int(close_round(tournament_id=tournament.pk, number=0))
            else:
                if tournament.current_round:
                    done["closed"] += int(close_round(tournament_id=tournament.pk, number=tournament.current_round))
                # a round whose pairing was lost (a crashed worker) is paired here; an existing one is left alone
                done["paired"] += int(pair_round(tournament_id=tournament.pk, number=tournament.current_round + 1)
                                      is not None)
        except (Conflict, IntegrityError):
            logger.exception("tournament %s: this pass failed; the next one tries again", tournament.pk)
    return done
