"""Writes: create, join, act, bot turns.  Every service owns its transaction.

Each command follows load -> decide -> save: the match's events are loaded
and folded into a :class:`~games.aggregate.MatchAggregate` (from this
process's snapshot cache, extended by the events after it: only new events
are folded), the aggregate decides the new events, and
:func:`games.store.append` stores them against the ``seq`` they were decided
on.  The unique ``(match, seq)`` constraint turns a race into
:class:`~games.errors.Conflict`; the cache is checked against the stored
events at every load, so any number of processes can serve the same match.

Side effects (websocket notification, bot tasks) run only after commit.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

import ai
from engine import OptionError, get_game
from engine.fair import CHANCE_SEED_CONSTRUCTION, ContributionError, parse_contribution
from engine.fair import commitment as seed_commitment

from . import db, dispatch, moved, notify, projection, selectors, signals, snapshots, store, writes
from .aggregate import SYSTEM, MatchAggregate
from .errors import BadRequest, Conflict, Forbidden, NotFound, excerpt
from .models import Match, MatchClock, Seat
from .ops import metrics
from .requesters import RawId, Requester

logger = logging.getLogger(__name__)

MAX_JOIN_ATTEMPTS = 5

# A Celery ETA task further ahead than the broker's visibility timeout would be delivered twice;
# those deadlines are left to the periodic sweep (sweep_timeouts).
MAX_ETA_SECONDS = 240


def user_actor(user: User) -> str:
    return f"user:{user.pk}"


def bot_actor(level: str) -> str:
    return f"bot:{level}"


def bot_seed(match_id: int, seq: int) -> int:
    """The seed a bot uses for its move at ``seq``: reproducible, different per move."""
    digest = hashlib.sha256(f"cairn-bot:{match_id}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _require_user(user: Requester) -> User:
    """The person asking, or 403 for anyone not logged in."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise Forbidden("log in first", code="not_authenticated")
    return cast(User, user)  # only a person's account is authenticated


# ---------------------------------------------------------------------- saving


def _save(match: Match, aggregate: MatchAggregate, seats: list[Seat], *, expected_seq: int, prev_hash: str) -> None:
    """Append the aggregate's pending events and refresh the match's derived columns."""
    rows = store.append(match, aggregate.pending, expected_seq=expected_seq, prev_hash=prev_hash)
    aggregate.last_hash = rows[-1].hash if rows else prev_hash
    aggregate.stamp(row.timestamp for row in rows)  # the clocks run on the stored times
    if rows:
        aggregate.keep_newest(store.stored_rows(rows))  # the event log's newest rows, as a read would give them
    state = aggregate.state
    live = aggregate.started and not aggregate.finished
    bots = {seat.index for seat in seats if seat.is_bot}
    bot_to_move = live and any(seat in bots for seat in state.to_move())
    # The row's to_move is what lists show everyone: the public one (a hidden
    # reaction window, Mountainhome §10.5, is not named there).
    to_move = projection.to_move(state, None) if live else []
    now = timezone.now()
    fields = {
        "seq": aggregate.seq,
        "last_hash": aggregate.last_hash,
        "status": aggregate.status,
        "to_move": to_move,
        "bot_to_move": bot_to_move,
        "result": aggregate.result,
        "ending": aggregate.ending,
        "updated_at": now,
    }
    updated = writes.update(Match, {"id": match.pk, "seq": expected_seq}, fields)
    if updated != 1:  # belt and braces: the event insert already guards the race
        raise Conflict(f"match {match.pk} moved on; reload and try again", code="stale_seq")
    for name, value in fields.items():
        setattr(match, name, value)
    aggregate.pending = []
    if match.time_control:
        _update_deadline(match, aggregate)
    finished = next((row for row in rows if row.type == "finished"), None)
    if finished is not None:  # plug-ins (ranked play's ratings) react in this transaction
        signals.match_finished.send(sender=signals.MatchFinished,
                                    finished=signals.MatchFinished(match=match, seats=seats, event=finished))
    signals.match_saved.send(sender=Match, match=match, seats=seats)  # plug-ins (turn emails) queue after commit
    snapshots.remember(match, aggregate)  # this process's next load of the match starts here (after commit)
    notify.on_commit(match.pk, match.seq)
    if bot_to_move:
        _queue_bot_turn_on_commit(match.pk, match.seq)


def _update_deadline(match: Match, aggregate: MatchAggregate) -> None:
    """Index the next clock deadline (the aggregate's clocks) for the sweep, and schedule its check."""
    deadline = seat = None
    if aggregate.started and not aggregate.finished and aggregate.clock is not None:
        nxt = aggregate.clock.next_deadline()
        if nxt:
            deadline, seat = nxt
    # One UPDATE on every move; the row is created by the first save of a timed match.
    fields = {"seq": match.seq, "deadline": deadline, "seat": seat}
    if not writes.update(MatchClock, {"match_id": match.pk}, fields):
        MatchClock.objects.create(match_id=match.pk, **fields)
    if deadline is None or (deadline - timezone.now()).total_seconds() > MAX_ETA_SECONDS:
        return
    match_id, seq = match.pk, match.seq

    def schedule() -> None:
        try:
            dispatch.timeout_check(match_id, seq, eta=deadline)
        except Exception:  # the sweep still finds it
            logger.exception("could not schedule the timeout check of match %s at seq %s", match_id, seq)

    transaction.on_commit(schedule, using=db.alias())


def _queue_bot_turn_on_commit(match_id: int, seq: int) -> None:
    def queue() -> None:
        try:
            dispatch.bot_turn(match_id, seq, retry=True, retry_policy={"max_retries": 3})
        except Exception:  # the recovery task re-queues stalled bot turns
            logger.exception("could not queue the bot turn of match %s at seq %s", match_id, seq)

    transaction.on_commit(queue, using=db.alias())


# ---------------------------------------------------------------------- create / join


def _parse_seats(seats: object) -> list[dict[str, Any]]:
    if not isinstance(seats, list) or not seats:
        raise BadRequest("'seats' must be a non-empty list of {\"human\": true} or {\"bot\": LEVEL}", code="bad_seats")
    parsed: list[dict[str, Any]] = []
    for index, seat in enumerate(seats):
        if isinstance(seat, dict) and set(seat) == {"human"} and seat["human"] is True:
            parsed.append({"human": True})
        elif isinstance(seat, dict) and set(seat) == {"bot"} and isinstance(seat["bot"], str):
            if seat["bot"] not in ai.LEVELS:
                raise BadRequest(
                    f"seat {index}: unknown bot level {excerpt(seat['bot'])}; known levels: {', '.join(ai.LEVELS)}",
                    code="bad_seats",
                )
            parsed.append({"bot": seat["bot"]})
        else:
            raise BadRequest(
                f"seat {index} must be {{\"human\": true}} or {{\"bot\": LEVEL}}, not {excerpt(seat)}", code="bad_seats"
            )
    if not any("human" in seat for seat in parsed):
        raise BadRequest("at least one seat must be human: the creator takes the first one", code="bad_seats")
    return parsed


# The chance seed construction of every new match (docs/AUDIT.md); matches made before it name none and
# draw their dice from the server's seed alone.
NEW_CHANCE_SEED = CHANCE_SEED_CONSTRUCTION


def contribution_of(value: object) -> dict[str, str]:
    """A seat's share of the dice (docs/AUDIT.md): the client's, checked, or one the server makes for it.

    Missing (None): the server draws 32 random bytes and marks them ``"by": "server"``.  Anything else
    must be 32 bytes as 64 hex digits and not all zeros, or it is refused with 400 naming the problem.
    """
    if value is None:
        return {"value": secrets.token_bytes(32).hex(), "by": "server"}
    try:
        raw = parse_contribution(value.lower() if isinstance(value, str) else value)
    except ContributionError as exc:
        raise BadRequest(f"'contribution': {exc}", code="bad_contribution") from None
    return {"value": raw.hex(), "by": "player"}


def create_match(
    *, user: Requester, game_id: str, seats: object, options: dict[str, Any] | None = None,
    rated: bool = False, time_control: object = None, contribution: object = None, commitment: object = None,
    berserk: list[int] | None = None,
) -> Match:
    """Create a match; the creator takes the first human seat.  It starts once every seat is filled.

    ``contribution``: the creator's share of the dice (:func:`contribution_of`); every human seat
    adds one as it is taken, and the dice come from the server's seed and all of them.  ``commitment``:
    one offered to ``user`` before (:mod:`games.audit.offers`), whose seed the match then uses, so the
    seed was fixed before the creator's contribution was made.

    Ranked play: ``rated`` needs every seat human (one account per seat is a constraint);
    ``time_control`` is checked by :func:`games.clocks.normalize_time_control`.  ``berserk``: the
    seats that start with half their real-time clock (an arena's berserk, games.tournaments), named in
    the ``created`` event so the clocks fold it.
    """
    user = _require_user(user)
    try:
        game = get_game(game_id) if isinstance(game_id, str) else None
    except KeyError:
        game = None
    if game is None:
        raise BadRequest(f"unknown game {excerpt(game_id)}", code="unknown_game")
    parsed = _parse_seats(seats)
    try:
        players = game.check_players(len(parsed))
        if options is not None and not isinstance(options, dict):
            raise OptionError(f"'options' must be an object, not {excerpt(options)}")
        normalized = game.normalize_options(options)
    except OptionError as exc:
        raise BadRequest(str(exc), code="bad_options") from None

    from .clocks import normalize_time_control

    time_control = normalize_time_control(time_control)
    if rated is not False and rated is not True:
        raise BadRequest(f"'rated' must be true or false, not {excerpt(rated)}", code="bad_rated")
    if rated and any("bot" in seat for seat in parsed):
        raise BadRequest("a rated match has only human seats: bots are never rated", code="bad_seats")
    berserk = sorted(set(berserk or []))
    if berserk and (not time_control or time_control["kind"] != "realtime"
                    or any(type(seat) is not int or not 0 <= seat < len(parsed) for seat in berserk)):
        raise BadRequest("'berserk' names seats of a match with a real-time clock", code="bad_berserk")
    share = contribution_of(contribution)
    if commitment is not None:
        from .audit.offers import take

        seed = take(user, commitment)
    else:
        seed = secrets.token_bytes(32)
    creator_seat = next(i for i, seat in enumerate(parsed) if "human" in seat)
    with store.appending():
        match = Match.objects.create(
            game_id=game.id,
            players=players,
            options=normalized,
            seed=seed.hex(),
            commitment=seed_commitment(seed),
            chain_version=store.NEW_CHAIN_VERSION,
            created_by=user,
            rated=rated,
            time_control=time_control,
        )
        seat_rows = [
            Seat(
                match=match,
                index=i,
                user=user if i == creator_seat else None,
                bot_level=seat.get("bot", ""),
            )
            for i, seat in enumerate(parsed)
        ]
        Seat.objects.bulk_create(seat_rows)
        aggregate = MatchAggregate(match.pk, game.id, players, normalized)
        aggregate.create(
            {
                "game": game.id,
                "players": players,
                "options": normalized,
                "commitment": match.commitment,
                **({"chance_seed": NEW_CHANCE_SEED, "contribution": {"seat": creator_seat, **share}}
                   if NEW_CHANCE_SEED else {}),
                "seats": [
                    {"bot": seat.bot_level} if seat.is_bot else {"human": True, "user": seat.user_id}
                    for seat in seat_rows
                ],
                **({"rated": rated, "time_control": time_control} if rated or time_control else {}),
                **({"berserk": berserk} if berserk else {}),
            },
            user_actor(user),
        )
        if not any(seat.is_open for seat in seat_rows):
            aggregate.start(seed)
        _save(match, aggregate, seat_rows, expected_seq=0, prev_hash=store.GENESIS_HASH)
    return match


def join_match(*, match_id: RawId, user: Requester, contribution: object = None) -> Match:
    """Take the first open seat of a waiting match; the match starts when the last seat fills.

    ``contribution``: the seat's share of the dice (:func:`contribution_of`).
    """
    user = _require_user(user)
    share = contribution_of(contribution)
    for attempt in range(MAX_JOIN_ATTEMPTS):
        try:
            return _join_once(match_id, user, share)
        except Conflict as exc:  # someone else joined at the same moment: look again
            if exc.code != "stale_seq" or attempt == MAX_JOIN_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _join_once(match_id: RawId, user: User, share: dict[str, str]) -> Match:
    with store.appending(match_id):
        match, seats = selectors.get_match_for_write(match_id)
        if any(seat.user_id == user.pk for seat in seats):
            raise Conflict(f"you already hold a seat in match {match.pk}", code="already_seated")
        if match.status != Match.Status.WAITING:
            raise Conflict(f"match {match.pk} is {match.status}: no seat is open", code="match_started")
        open_seats = [seat for seat in seats if seat.is_open]
        if not open_seats:
            raise Conflict(f"match {match.pk} has no open seat", code="match_full")
        seat = open_seats[0]
        aggregate = selectors.load_aggregate(match)
        expected_seq, prev_hash = aggregate.seq, aggregate.last_hash
        aggregate.join(seat.index, user.pk, user_actor(user), share)
        if Seat.objects.filter(pk=seat.pk, user__isnull=True).update(user=user) != 1:
            raise Conflict(f"seat {seat.index} of match {match.pk} was just taken", code="stale_seq")
        seat.user = user
        seat.user_id = user.pk
        if len(open_seats) == 1:
            aggregate.start(bytes.fromhex(match.seed))
        _save(match, aggregate, seats, expected_seq=expected_seq, prev_hash=prev_hash)
    return match


# ---------------------------------------------------------------------- actions


def _check_expected_seq(expected_seq: object) -> int:
    if type(expected_seq) is not int or expected_seq < 0:
        raise BadRequest(f"'expected_seq' must be a non-negative integer, not {excerpt(expected_seq)}", code="bad_expected_seq")
    return expected_seq


def _act(
    match_id: RawId, *, seat_for: Callable[[MatchAggregate, list[Seat]], int], action: object, expected_seq: int,
    actor: str, lag: float | Callable[[int, int], float] = 0.0,
) -> Match:
    """The match as this move left it (its seats, with their users, prefetched as ``selectors.get_match``
    leaves them).  ``lag``: seconds, or a function of (match id, the mover's seat) that gives them (called
    on real-time clocks only)."""
    with store.appending(match_id):
        match, seats = selectors.get_match_for_write(match_id)
        if match.status == Match.Status.FINISHED:
            raise Conflict(f"match {match.pk} has ended", code="match_finished")
        if match.status == Match.Status.WAITING:
            raise Conflict(f"match {match.pk} has not started: seats are still open", code="match_not_started")
        if expected_seq != match.seq:
            raise Conflict(
                f"stale expected_seq {expected_seq}: match {match.pk} is at seq {match.seq}; reload and try again",
                code="stale_seq",
            )
        aggregate = selectors.load_aggregate(match)
        if aggregate.seq != expected_seq:
            raise Conflict(
                f"stale expected_seq {expected_seq}: match {match.pk} is at seq {aggregate.seq}", code="stale_seq"
            )
        seat = seat_for(aggregate, seats)
        if callable(lag):
            lag = lag(match.pk, seat) if aggregate.clock is not None and aggregate.clock.realtime else 0.0
        prev_hash = aggregate.last_hash
        aggregate.act(seat, action, bytes.fromhex(match.seed), actor, lag=lag)
        # Once committed, this process's sockets of the match take the match as the move left it
        # (games/moved.py); registered before _save's announcement, so it is kept before anyone hears.
        transaction.on_commit(partial(moved.keep, match), using=db.alias())
        _save(match, aggregate, seats, expected_seq=expected_seq, prev_hash=prev_hash)
        transaction.on_commit(metrics.MOVES.labels(match.game_id).inc, using=db.alias())
        return selectors.with_seats(match, seats)


def submit_action(
    *, match_id: RawId, user: Requester, action: object, expected_seq: object, lag_ms: object = None
) -> int:
    """Play ``action`` (record notation) for ``user``'s seat; the new last ``seq`` (:func:`play_action`)."""
    return play_action(match_id=match_id, user=user, action=action, expected_seq=expected_seq, lag_ms=lag_ms).seq


def play_action(
    *, match_id: RawId, user: Requester, action: object, expected_seq: object, lag_ms: object = None
) -> Match:
    """Play ``action`` (record notation) for ``user``'s seat; the match as the move left it, with its seats
    (what ``selectors.get_match`` would read once the move is committed, for a caller that shows it next).

    400 for an illegal or malformed action, 403 when ``user`` holds no seat or
    it is not their turn, 404 for an unknown match, 409 for a stale
    ``expected_seq`` (or a match that is over or not started).  ``lag_ms``: the
    network lag the mover's page measured (0 to 10000), capped by the round trip
    their match socket measured (games.fairplay.lag) and credited back in part on
    a real-time clock (docs/RANKING.md, "Lag compensation"); 400 ``bad_lag`` otherwise.
    """
    user = _require_user(user)
    expected = _check_expected_seq(expected_seq)
    if lag_ms is not None and (type(lag_ms) is not int or not 0 <= lag_ms <= 10_000):
        raise BadRequest(f"'lag_ms' must be a whole number of milliseconds from 0 to 10000, not {excerpt(lag_ms)}",
                         code="bad_lag")

    def seat_for(aggregate: MatchAggregate, seats: list[Seat]) -> int:
        mine = [seat.index for seat in seats if seat.user_id == user.pk]
        if not mine:
            raise Forbidden(f"you hold no seat in match {aggregate.match_id}", code="not_a_player")
        to_move = aggregate.state.to_move()
        for index in mine:
            if index in to_move:
                _check_clock(aggregate, index)
                return index
        movers = " or ".join(f"seat {s}" for s in to_move) or "nobody"
        raise Forbidden(f"not your turn: it is {movers} to move, and you hold seat {mine[0]}", code="not_your_turn")

    try:
        from .fairplay import lag as socket_lag

        return _act(match_id, seat_for=seat_for, action=action, expected_seq=expected, actor=user_actor(user),
                    lag=lambda pk, seat: socket_lag.seconds_for_move(pk, seat, lag_ms))
    except _ClockRanOut as exc:
        # The move is refused and the time-out recorded now, whether or not a timeout task has run
        # (workers down, a lost ETA task): a clock is decided by the events' times, not by when it is checked.
        outcome = check_timeout(exc.match_id)
        ended = {"timeout": "you lost the match on time", "aborted": "the match was aborted"}.get(outcome, "")
        raise Conflict(
            f"your clock ran out at {exc.deadline.isoformat(timespec='seconds')}: the move was not played"
            + (f"; {ended}" if ended else ""),
            code="clock_expired",
        ) from None


class _ClockRanOut(Exception):
    def __init__(self, match_id: int, deadline: datetime) -> None:
        super().__init__(match_id, deadline)
        self.match_id, self.deadline = match_id, deadline


def _check_clock(aggregate: MatchAggregate, seat: int) -> None:
    """Refuse a move made after the mover's clock ran out (raised inside the transaction: nothing is stored)."""
    deadline = aggregate.clock.deadline(seat) if aggregate.clock is not None else None
    if deadline is not None and deadline <= timezone.now():
        raise _ClockRanOut(aggregate.match_id, deadline)


# ---------------------------------------------------------------------- ranked play: endings


def command(
    match_id: RawId, decide: Callable[[Match, MatchAggregate, list[Seat]], None], *, expected_seq: int | None = None
) -> Match:
    """Load -> ``decide(match, aggregate, seats)`` -> save, for the match-level commands.

    Seats that the decision handed to a bot (``seat_replaced``) are updated in
    the same transaction, so the bot-turn machinery plays them from then on.
    """
    with store.appending(match_id):
        match, seats = selectors.get_match_for_write(match_id)
        aggregate = selectors.load_aggregate(match)
        if expected_seq is not None and aggregate.seq != expected_seq:
            raise store.stale(match_id)
        before, prev_hash = aggregate.seq, aggregate.last_hash
        decide(match, aggregate, seats)
        if not aggregate.pending:
            return match
        for seat in seats:
            level = aggregate.replaced.get(seat.index)
            if level and not seat.replaced:
                Seat.objects.filter(pk=seat.pk).update(bot_level=level, replaced=True)
                seat.bot_level, seat.replaced = level, True
        _save(match, aggregate, seats, expected_seq=before, prev_hash=prev_hash)
    return match


def _own_seat(aggregate: MatchAggregate, seats: list[Seat], user: User) -> int:
    mine = [seat.index for seat in seats if seat.user_id == user.pk and seat.index not in aggregate.replaced]
    if not mine:
        raise Forbidden(f"you hold no seat in match {aggregate.match_id}", code="not_a_player")
    return mine[0]


def resign(*, match_id: RawId, user: Requester) -> Match:
    """Resign: 2 players, the opponent wins; 3-4, a bot takes the seat and it ranks last."""
    user = _require_user(user)

    def decide(match: Match, aggregate: MatchAggregate, seats: list[Seat]) -> None:
        seat = _own_seat(aggregate, seats, user)
        aggregate.resign(seat, bytes.fromhex(match.seed), user_actor(user), bot=settings.CAIRN_REPLACEMENT_BOT)

    return command(match_id, decide)


def abort(*, match_id: RawId, user: Requester) -> Match:
    """Abort before every player has moved once: no result, no rating change."""
    user = _require_user(user)

    def decide(match: Match, aggregate: MatchAggregate, seats: list[Seat]) -> None:
        seat = _own_seat(aggregate, seats, user)
        aggregate.abort(seat, bytes.fromhex(match.seed), user_actor(user), reason="player")

    return command(match_id, decide)


# ---------------------------------------------------------------------- clocks: timeouts


def check_timeout(match_id: int, *, seq: int | None = None, now: datetime | None = None) -> str:
    """End the turn of a seat whose clock ran out.  ``timeout``, ``aborted``, ``in_time`` or ``stale``."""
    outcome = {"value": "in_time"}

    def decide(match: Match, aggregate: MatchAggregate, seats: list[Seat]) -> None:
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
        command(match_id, decide, expected_seq=match.seq)
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


# ---------------------------------------------------------------------- bots


def play_bot_turn(*, match_id: int, seq: int) -> str:
    """Play the move of the bot seat to move at ``seq``, if it still is.

    Returns what happened: ``played``, ``stale`` (the match moved on: another
    copy of this task, or a retry, already played), ``not_bot`` or ``missing``.
    Safe to run any number of times: the append names ``seq``.
    """
    try:
        match, seats = selectors.get_match_for_write(match_id)
    except NotFound:
        return "missing"
    if match.status != Match.Status.ACTIVE or match.seq != seq:
        return "stale"
    aggregate = selectors.load_aggregate(match)
    if aggregate.seq != seq:
        return "stale"
    state = aggregate.state
    bot_seats = [seat for seat in seats if seat.is_bot and seat.index in state.to_move()]
    if not bot_seats:
        return "not_bot"
    seat = bot_seats[0]
    # The bot gets its seat's observation only: never the state, never the seed.
    observation = projection.observation(state, seat.index)
    # The worker's clock enforces the level's thinking time (ai/ reads no clock itself);
    # the iteration cap still bounds the search on a fast machine.
    with metrics.BOT_THINK.labels(seat.bot_level).time():
        move = ai.choose_move(
            match.game_id, observation, seat.index, level=seat.bot_level, seed=bot_seed(match.pk, seq),
            clock=time.perf_counter,
        )

    def seat_for(aggregate: MatchAggregate, seats: list[Seat]) -> int:
        return seat.index

    try:
        _act(match_id, seat_for=seat_for, action=move, expected_seq=seq, actor=bot_actor(seat.bot_level))
    except Conflict:
        return "stale"
    return "played"


def stalled_bot_matches(*, older_than: timedelta | None = None) -> list[tuple[int, int]]:
    """(match, seq) of active matches waiting on a bot for longer than ``older_than``."""
    if older_than is None:
        older_than = timedelta(seconds=settings.CAIRN_BOT_STALL_SECONDS)
    cutoff = timezone.now() - older_than
    return list(
        Match.objects.filter(status=Match.Status.ACTIVE, bot_to_move=True, updated_at__lt=cutoff)
        .order_by("updated_at")
        .values_list("pk", "seq")[:500]
    )


def requeue_stalled_bot_turns(*, older_than: timedelta | None = None) -> int:
    """Queue a bot task for every stalled match (a lost task, a dead worker); how many."""
    stalled = stalled_bot_matches(older_than=older_than)
    for match_id, seq in stalled:
        dispatch.bot_turn(match_id, seq)
    return len(stalled)


def nudge_if_stalled(match: Match) -> bool:
    """On a match load: re-queue its bot turn if it has waited too long.  True if queued."""
    if match.status != Match.Status.ACTIVE or not match.bot_to_move:
        return False
    if match.updated_at > timezone.now() - timedelta(seconds=settings.CAIRN_BOT_STALL_SECONDS):
        return False
    try:
        dispatch.bot_turn(match.pk, match.seq)
    except Exception:
        logger.exception("could not re-queue the bot turn of match %s", match.pk)
        return False
    return True
