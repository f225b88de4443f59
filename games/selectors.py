"""Reads: matches, state and per-viewer views.  No writes here.

``match_view(match, user)`` is exactly the body of ``GET /api/matches/{id}/``;
the pages render the same dict.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from engine import State, get_game
from engine.record import FORMAT as RECORD_FORMAT
from engine.record import FORMAT_V3 as RECORD_FORMAT_V3
from engine.record import make_record, taken_back

from . import db, projection, snapshots
from .aggregate import MatchAggregate
from .audit.keys import public_keys
from .audit.receipts import head_receipt
from .errors import NotFound
from .ids import valid_id
from .models import Event, Match, Seat
from .reads import PreparedRead
from .store import load_fold_rows, load_rows


def _match_pk(match_id: Any) -> int:
    """``match_id`` as a database id, or 404: an id out of range never reaches the database."""
    pk = valid_id(match_id)
    if pk is None:
        raise NotFound(f"no match {str(match_id)[:40]}", code="match_not_found")
    return pk


# The read path's one query (compiled once, games/reads.py), and the write path's: a match's seats joined
# with the match, its creator and the seats' users.
_SEATS_WITH_MATCH = PreparedRead(
    lambda pk: Seat.objects.select_related("match", "match__created_by", "user").filter(match_id=pk).order_by("index")
)


def _joined(seats: list[Seat]) -> Match:
    """The match of ``seats`` (rows of one match), each seat pointing at that one instance."""
    match = seats[0].match
    for seat in seats:
        seat.match = match
    return match


def get_match(match_id: Any) -> Match:
    """The match with its creator and its seats (their users), in one query: the read path of every view."""
    pk = _match_pk(match_id)
    seats = _SEATS_WITH_MATCH.rows(pk, db.alias())
    if not seats:  # every match has its seats from its creation; otherwise the two-query read decides
        try:
            return Match.objects.select_related("created_by").prefetch_related(_seats_prefetch()).get(pk=pk)
        except Match.DoesNotExist:
            raise NotFound(f"no match {pk}", code="match_not_found") from None
    return with_seats(_joined(seats), seats)


def with_seats(match: Match, seats: list[Seat]) -> Match:
    """``match`` with ``seats`` (all its seats, their users joined) as its prefetched seats, as
    prefetch_related would leave it (django.db.models.query.prefetch_one_level): match.seats.all() reads
    these rows, and seats_of / seat_of make no query."""
    cached = match.seats.all()
    cached._result_cache = seats
    cached._prefetch_done = True  # type: ignore[attr-defined]  # Django's prefetch cache, not in the stubs
    match._prefetched_objects_cache = {"seats": cached}  # type: ignore[attr-defined]  # the same cache
    return match


def get_match_for_write(match_id: Any) -> tuple[Match, list[Seat]]:
    """The match and its seats in one query (the write path); the same read as :func:`get_match`'s."""
    pk = _match_pk(match_id)
    seats = _SEATS_WITH_MATCH.rows(pk, db.alias())
    if not seats:
        raise NotFound(f"no match {match_id}", code="match_not_found")
    return _joined(seats), seats


def _seats_prefetch() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))


def seats_of(match: Match) -> list[Seat]:
    return sorted(match.seats.all(), key=lambda seat: seat.index)


def seat_of(match: Match, user: Any) -> int | None:
    """The seat ``user`` holds in ``match``, or None (spectator, anonymous)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for seat in seats_of(match):
        if seat.user_id == user.pk:
            return seat.index
    return None


def load_aggregate(match: Match, events: list[Any] | None = None) -> MatchAggregate:
    """The match as the fold of its events: the only source of its state, clocks and endings.

    Without ``events``: the fold of every stored event, from this process's
    snapshot cache (:mod:`games.snapshots`: checked against the stored last
    hash and extended by the events after it) or replayed from the first
    event.  With ``events`` (rows with seq, type, payload, hash, timestamp):
    their fold alone, never cached (a replay step).  The caller owns the
    returned aggregate.
    """
    if events is None:
        return snapshots.load(match)
    return MatchAggregate.replay(match.pk, match.game_id, match.players, match.options, events)


def load_state(match: Match) -> State:
    return load_aggregate(match).state


def seat_json(seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.index,
        "kind": "bot" if seat.is_bot else "human",
        "user": seat.user.username if seat.user is not None else None,
        "bot": seat.bot_level or None,
        "open": seat.is_open,
    }


def match_summary(match: Match, user: Any = None) -> dict[str, Any]:
    """A short description for lists (the lobby, a user's matches)."""
    game = get_game(match.game_id)
    seats = seats_of(match)
    return {
        "id": match.pk,
        "game": match.game_id,
        "game_name": game.name,
        "status": match.status,
        "seq": match.seq,
        "players": match.players,
        "options": match.options,
        "seats": [seat_json(seat) for seat in seats],
        "open_seats": sum(1 for seat in seats if seat.is_open),
        "to_move": list(match.to_move),
        "my_seat": seat_of(match, user),
        "created_by": match.created_by.username if match.created_by_id else None,
        "created_at": match.created_at.isoformat(),
        "updated_at": match.updated_at.isoformat(),
        "result": match.result,
        **as_shown(match, user),
    }


def match_view(match: Match, user: Any, *, aggregate: MatchAggregate | None = None) -> dict[str, Any]:
    """Everything ``user`` may see of ``match``: the body of GET /api/matches/{id}/.

    Status, seq, state and result all come from one read of the events (the
    aggregate), never from the match row, so they always agree with each
    other even while another process appends.
    """
    if aggregate is None:
        aggregate = load_aggregate(match)
    state = aggregate.state
    viewer = seat_of(match, user)
    game = get_game(match.game_id)
    status = aggregate.status
    finished = status == Match.Status.FINISHED
    view = projection.observation(state, viewer)
    return {
        "id": match.pk,
        "game": match.game_id,
        "game_name": game.name,
        "status": status,
        "seq": aggregate.seq,
        "players": match.players,
        "options": match.options,
        "seats": [seat_json(seat) for seat in seats_of(match)],
        "to_move": projection.to_move(state, viewer, view) if status == Match.Status.ACTIVE else [],
        "my_seat": viewer,
        "view": view,
        "legal_actions": projection.legal_actions(state, viewer) if status == Match.Status.ACTIVE else [],
        "result": aggregate.result if finished else None,
        "commitment": match.commitment,
        "seed": match.seed if finished else None,
        "created_by": match.created_by.username if match.created_by_id else None,
        "created_at": match.created_at.isoformat(),
        "updated_at": _updated_at(match, aggregate.seq).isoformat(),
        # the server's signature over the head this view shows (docs/AUDIT.md): keep it to prove it later
        "receipt": head_receipt(match, aggregate),
    }


def _updated_at(match: Match, seq: int) -> Any:
    """When the position at ``seq`` was reached: the row's time, or, for a position behind it (a spectator
    shown the match behind), that event's, so the answer never tells when the newest move was made."""
    if seq >= match.seq:
        return match.updated_at
    return Event.objects.filter(match=match, seq=seq).values_list("timestamp", flat=True).first() or match.updated_at


def match_view_at(match: Match, user: Any, seq: int) -> dict[str, Any]:
    """What ``user`` may see of ``match`` as it stood after event ``seq``: one step of a replay.

    The state is the replay of the events up to ``seq`` and the view is the
    viewer's observation of it, so a player sees what their seat knew then and
    a spectator what a spectator saw.  A replay offers no moves.
    """
    aggregate = load_aggregate(match, load_fold_rows(match.pk, until=seq))
    view = match_view(match, user, aggregate=aggregate)
    view["legal_actions"] = []
    return view


def visible_events(
    match: Match, user: Any, after: int = 0, *, aggregate: MatchAggregate | None = None, last: int | None = None,
    newest: NewestRows | None = None, links: bool = True,
) -> list[dict[str, Any]]:
    """The events after ``after`` that ``user`` may see, oldest first.

    With ``aggregate`` (the caller's, e.g. the one its view was built from):
    only the events up to its ``seq``, so the listing agrees with that view.
    A game with hidden information needs the aggregate (its per-viewer
    redactions are decided during the fold), loaded here if not given; the
    events are then read from ``after`` on only, never replayed again.
    ``last``: only the newest ``last`` of them (a live log: O(last) however
    long the match).  ``newest``: the newest stored rows up to the
    aggregate's seq, already read by the caller for several viewers of one
    position (:func:`newest_rows`); used instead of a query when they suffice.
    ``links=False``: without the chain fields (``body_hash``, ``nonce``), for a page's event log.
    """
    viewer = seat_of(match, user)
    redacts = projection.has_redaction(match.game_id)
    if redacts and aggregate is None:
        aggregate = load_aggregate(match)
    until = aggregate.seq if aggregate is not None else None

    # Once the match has ended every event is public, as stored: the record audits offline.
    reveal = aggregate.finished if aggregate is not None else match.status == Match.Status.FINISHED

    def project(rows: list[Any]) -> list[dict[str, Any]]:
        return projection.project_events(
            match.game_id, rows, viewer, after=after,
            redaction=aggregate.shown if redacts and aggregate is not None else None,
            match=match, reveal=reveal, links=links,
        )

    if last is None:
        return project(load_rows(match.pk, after=after, until=until))
    if last <= 0:
        return []
    fetch = last if not redacts else 2 * last  # some hidden events are not listed at all for this viewer
    while True:
        rows = newest.take(fetch, until) if newest is not None and after == 0 else None
        if rows is None and aggregate is not None and after == 0:
            rows = _kept_rows(aggregate, fetch)
        if rows is None:
            rows = load_rows(match.pk, after=after, until=until, last=fetch)
        shown = project(rows)
        if len(shown) >= last or len(rows) < fetch:
            return shown[-last:]
        fetch *= 2


class NewestRows:
    """The newest stored rows of a match up to one seq, read once and shared by every viewer of that position."""

    def __init__(self, match: Match, until: int, count: int, rows: list[Any] | None = None) -> None:
        self.until = until
        self.rows = load_rows(match.pk, until=until, last=count) if rows is None else rows
        # every row of the match up to ``until`` is here
        self.complete = len(self.rows) < count or bool(self.rows and self.rows[0].seq == 1)

    def take(self, fetch: int, until: int | None) -> list[Any] | None:
        """The newest ``fetch`` rows up to ``until``, as ``load_rows(..., last=fetch)`` reads them, or None."""
        if until != self.until or (len(self.rows) < fetch and not self.complete):
            return None
        return self.rows[-fetch:]


def newest_rows(match: Match, aggregate: MatchAggregate, count: int) -> NewestRows:
    """The newest ``count`` rows up to the aggregate's seq: those it folded last (``MatchAggregate.newest``,
    no query), or read."""
    kept = _kept_rows(aggregate, count)
    return NewestRows(match, aggregate.seq, count, rows=kept)


def _kept_rows(aggregate: MatchAggregate, count: int) -> list[Any] | None:
    """The newest ``count`` rows up to the aggregate's seq as ``load_rows(..., last=count)`` reads them, from
    those it keeps (``MatchAggregate.newest``: the rows it folded or stored last), or None."""
    kept = aggregate.newest
    if kept and kept[-1].seq == aggregate.seq and kept[-1].hash == aggregate.last_hash and (
        len(kept) >= count or kept[0].seq == 1
    ):
        return list(kept[-count:])
    return None


def record(match: Match, user: Any) -> dict[str, Any]:
    """The match as a ``cairn-record/2`` (as ``user`` may see it), with the fairness data and the chain.

    ``events`` are the record entries, ``seqs`` their event numbers, and
    ``log`` every event the viewer may see with its chain fields.  Once the
    match has ended nothing is sealed: ``log`` is the whole stored log and
    ``python -m engine audit`` checks it offline (chain, seed, chance
    outcomes, legality, result).
    """
    aggregate = delayed_aggregate(match, user) or load_aggregate(match)  # a spectator's may be behind
    events = visible_events(match, user, aggregate=aggregate)
    finished = aggregate.finished
    # a match whose seats contributed to its dice is a cairn-record/3: the construction and the contributions
    dice = {"chance_seed": aggregate.dice, "contributions": aggregate.contributions_json()} if aggregate.dice else {}
    undone = taken_back(events)  # taken-back entries stay in the log, out of the replay
    entries = [item for item in events if item["seq"] not in undone]
    return make_record(
        match.game_id,
        match.players,
        match.options,
        projection.record_events(entries),
        format=RECORD_FORMAT_V3 if aggregate.dice else RECORD_FORMAT,
        # each entry's event number in the match: the chance outcome of event n is drawn from (seed, n),
        # so `python -m engine audit` can check the dice once the seed is revealed
        seqs=projection.record_seqs(entries),
        match=match.pk,
        status=aggregate.status,
        seats=[seat_json(seat) for seat in seats_of(match)],
        commitment=match.commitment,
        chain_version=match.chain_version,
        seed=match.seed if finished else None,
        result=aggregate.result if finished else None,
        **dice,
        receipt=head_receipt(match, aggregate),
        receipt_keys=public_keys(),
        log=events,
    )


def _matches() -> QuerySet[Match]:
    return Match.objects.select_related("created_by").prefetch_related(_seats_prefetch())


def lobby(user: Any = None) -> QuerySet[Match]:
    """Waiting matches that still have an open seat, newest first."""
    open_seat = Seat.objects.filter(match=OuterRef("pk"), user__isnull=True, bot_level="")
    return _matches().filter(status=Match.Status.WAITING).filter(Exists(open_seat)).order_by("-created_at")


def user_matches(user: Any) -> QuerySet[Match]:
    """The matches ``user`` holds a seat in, most recently active first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return Match.objects.none()
    mine = Seat.objects.filter(match=OuterRef("pk"), user=user)
    return _matches().filter(Exists(mine)).order_by("-updated_at", "-id")


def matches(status: str | None = None) -> QuerySet[Match]:
    qs = _matches().order_by("-updated_at", "-id")
    if status:
        qs = qs.filter(status=status)
    return qs



def spectator_delay(match: Match) -> tuple[int, str] | None:
    """How far behind spectators see ``match``: ``(N, "moves" | "seconds")``, or None (live).

    ``CAIRN_SPECTATOR_DELAY`` (env ``SPECTATOR_DELAY``: ``"N moves"`` or
    ``"N seconds"``; 0, the default, is live) applies to a rated match in
    play; casual and finished matches are live.  No database read.
    """
    from django.conf import settings

    if not match.rated or match.status != Match.Status.ACTIVE:
        return None
    raw = str(getattr(settings, "CAIRN_SPECTATOR_DELAY", "0 moves") or "0 moves").split()
    amount, unit = int(raw[0]), (raw[1] if len(raw) > 1 else "moves")
    if amount <= 0:
        return None
    return amount, ("seconds" if unit.startswith("s") else "moves")


def spectator_seq(match: Match, seq: int | None = None, *, now: Any = None) -> int:
    """The seq a spectator is shown of ``match`` (at its ``seq``, default the match row's).

    With a delay (:func:`spectator_delay`) of N *moves*: the position just
    before the N-th newest move; of N *seconds*: the newest position at least
    N seconds old (``now``: the time to count from, default the clock's).
    Either way never before the first move, so that spectators cannot relay a
    position to a player.  The spectator's projection of that position still
    applies: this only chooses which position.
    """
    current = match.seq if seq is None else seq
    delay = spectator_delay(match)
    if delay is None:
        return current
    amount, unit = delay
    actions = Event.objects.filter(match=match, type=Event.Type.ACTION)

    def before_first_move() -> int:
        return next(iter(actions.order_by("seq").values_list("seq", flat=True)[:1]), current + 1) - 1

    if unit == "moves":
        moves = actions.filter(seq__lte=current).order_by("-seq").values_list("seq", flat=True)[amount - 1: amount]
        nth = next(iter(moves), None)
        shown = before_first_move() if nth is None else nth - 1  # fewer than N moves so far: before the first
    else:
        from django.utils import timezone

        cutoff = (now or timezone.now()) - timedelta(seconds=amount)
        old = Event.objects.filter(match=match, seq__lte=current, timestamp__lte=cutoff)
        newest = next(iter(old.order_by("-seq").values_list("seq", flat=True)[:1]), 1)
        shown = max(newest, before_first_move())
    return max(1, min(current, shown))


def spectator_reveal_in(match: Match, seq: int | None = None, *, now: Any = None, shown: int | None = None) -> float | None:
    """With a delay in seconds: how long until a spectator is shown more of ``match`` (at its ``seq``).

    The time until the first event after :func:`spectator_seq` is N seconds
    old (0 or more), or None: no delay in seconds, or nothing held back.  The
    websocket uses it to push the spectators' fragment when that moment comes.
    ``shown``: the seq the spectator was actually shown (the websocket's last
    push), counted from instead of :func:`spectator_seq` now: an event that
    came of age since that push gives 0 (push again at once), never None.
    """
    delay = spectator_delay(match)
    if delay is None or delay[1] != "seconds":
        return None
    from django.utils import timezone

    now = now or timezone.now()
    current = match.seq if seq is None else seq
    shown = spectator_seq(match, current, now=now) if shown is None else shown
    if shown >= current:
        return None
    following: datetime | None = (
        Event.objects.filter(match=match, seq=shown + 1).values_list("timestamp", flat=True).first())
    if following is None:
        return None
    return max(0.0, (following + timedelta(seconds=delay[0]) - now).total_seconds())  # type: ignore[no-any-return]  # ``now`` is Any


def delayed_aggregate(match: Match, user: Any, *, seq: int | None = None, shown: int | None = None) -> MatchAggregate | None:
    """For a spectator of a match shown behind: the fold up to the seq they are shown; else None (live).

    Every path a spectator sees a match by (the page, the websocket's
    fragments, the replay, the API's match, events and record) takes this
    fold instead of the live one; the viewer's projection applies to it as
    to any.  ``seq``: the live seq (default the row's); ``shown``: the seq
    already decided by the caller (:func:`spectator_seq`).
    """
    if spectator_delay(match) is None or seat_of(match, user) is not None:
        return None
    current = match.seq if seq is None else seq
    shown = spectator_seq(match, current) if shown is None else min(shown, current)
    if shown >= current:
        return None
    return load_aggregate(match, load_fold_rows(match.pk, until=shown))


def spectator_position(match: Match, user: Any = None) -> tuple[int, Any] | None:
    """For a viewer shown ``match`` behind (:func:`delayed_aggregate`): the seq they are shown and the
    time of that event; None for everyone who sees it live."""
    if spectator_delay(match) is None or seat_of(match, user) is not None:
        return None
    shown = spectator_seq(match)
    if shown >= match.seq:
        return None
    return shown, Event.objects.filter(match=match, seq=shown).values_list("timestamp", flat=True).first()


def as_shown(match: Match, user: Any = None) -> dict[str, Any]:
    """A list row's live fields (seq, whose turn, last change) as a spectator shown ``match`` behind sees
    them; nothing to change for everyone else."""
    position = spectator_position(match, user)
    if position is None:
        return {}
    shown, at = position
    state = load_aggregate(match, load_fold_rows(match.pk, until=shown)).state
    return {"seq": shown, "to_move": [] if state.is_terminal() else list(state.to_move()),
            "updated_at": at.isoformat() if at else None}


def verdict_for(match: Match, user: Any) -> Any:
    """:func:`games.verify.verify_match` as ``user`` may see it: a spectator shown the match behind learns
    the events up to the seq shown, never how many there are."""
    from .verify import verify_match

    verdict = verify_match(match)
    position = spectator_position(match, user)
    if position is None:
        return verdict
    shown = position[0]
    verdict.events = min(verdict.events, shown)
    if verdict.failed_seq is not None and verdict.failed_seq > shown:  # a failure past what they may see
        verdict.ok, verdict.failed_seq, verdict.check, verdict.message = True, None, None, ""
    return verdict
