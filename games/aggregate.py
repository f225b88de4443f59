"""The match aggregate: a fold over a match's events, and the commands on it.

The aggregate never touches the database.  Services load the events, build
the aggregate (:meth:`MatchAggregate.replay`), call a command, and save the
pending events it returns with the ``seq`` they were decided against
(load -> command -> save).

It is the only fold of a match's log: besides the engine state it
carries everything derived from the events that a request needs, so nothing
else replays them:

* the clocks (:class:`games.clocks.ClockFold`, fed each event's
  timestamp; the events a command decides are fed once they are stored and
  have a timestamp, see :meth:`MatchAggregate.stamp`);
* forfeits, replaced seats, who has moved, the ending and the result;
* for games with hidden information, how each viewer may see each engine
  event (``redactions``), decided on the state just before the event as
  :func:`games.projection.project_events` does.

A process keeps recently used aggregates in :mod:`games.snapshots` and
extends them with the events after their ``seq``; :meth:`clone` makes the
independent copies that cache hands out.

Engine events (types ``chance`` and ``action``) carry exactly a
``cairn-record/1`` entry as payload, so the engine state is the replay of
those payloads and a match's record is their list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine import (
    REDACTION,
    ChanceExpectedError,
    EngineError,
    GameOverError,
    IllegalActionError,
    NotationError,
    State,
    WrongSeatError,
    get_game,
)
from engine.fair import CHANCE_SEED_CONSTRUCTION, chance_rng, chance_seed
from engine.record import drawn_result, match_result

from .clocks import ClockFold
from .errors import BadRequest, Conflict, Forbidden, excerpt
from .store import GENESIS_HASH, PendingEvent, canonical_json

ENGINE_TYPES = ("chance", "action")
SYSTEM = "system"


def result_of(state: State, forfeits: list[int] | tuple[int, ...] = ()) -> dict[str, Any]:
    """The match's result (:func:`engine.record.match_result`, shared with the offline audit)."""
    return match_result(state, forfeits)


# ---------------------------------------------------------------------- ranked play: match-level endings
#.  ``resigned`` / ``timed_out`` {"seat"} mark a forfeit; in a 3-4 player match
# ``seat_replaced`` {"seat", "bot"} hands the seat to a bot for the rest of the match and the
# forfeiting seats rank last (the earliest forfeit lowest); with one seat left standing, or in a
# 2-player match, the match ends at once.  ``aborted`` {"seat", "reason"} (before every seat has
# moved once) ends it with no result.  The final ``finished`` event carries ``ending``.
# Fair play (games.fairplay): ``claimed`` {"seat", "absent", "result": "win"|"draw", "grace"} ends a 2-player
# match whose opponent left (a win makes the absent seat a forfeit); ``abandoned`` {"seat", "grace"} is the
# forfeit of a 3-4 player seat whose person left, followed by ``seat_replaced`` as for a resignation.
LEAVER_TYPES = ("claimed", "abandoned")
# ``takeback`` {"seat", "from", "accepted_by"}: the engine events from seq ``from`` on are taken back (nothing is
# removed: the state becomes the replay of the events before ``from``); games.fairplay.takebacks decides when.
# ---------------------------------------------------------------------- end ranked play


def check_action_fields(fields: frozenset[str], action: Any) -> None:
    """Refuse an action field outside the game's ``action_fields`` the same way in every game, before the
    game decodes the action."""
    if not isinstance(action, dict):
        return
    extra = sorted(str(key) for key in action if key not in fields)
    if extra:
        raise BadRequest(
            f"malformed action: action has unknown field {excerpt(extra[0], 40)}; allowed: {', '.join(sorted(fields))}",
            code="malformed_action",
        )


VIEWERS_SPECTATOR = None
# Stored rows an aggregate keeps (``MatchAggregate.newest``): the page's event log reads the newest 48
# (frontend.live.LOG_ROWS: 40 shown, 8 before them), and twice as many in a game that hides events
# from some viewers (:meth:`MatchAggregate.newest_limit`).
NEWEST_ROWS = 48
# Redacted entries by their canonical JSON, shared by every aggregate of the process (read-only once made).
_SEALED: dict[str, Any] = {}
_SEALED_MAX = 20_000


class MatchAggregate:
    __slots__ = ("match_id", "game", "players", "options", "state", "seq", "last_hash",
                 "started", "finished", "result", "pending",
                 "rated", "time_control", "moved", "forfeits", "replaced", "ending",
                 "clock", "unstamped", "redacts", "redactions", "newest", "dice", "contributions",
                 "last_time", "drawn", "applied", "barrier")

    def __init__(self, match_id: int, game_id: str, players: int, options: Mapping[str, Any]) -> None:
        self.match_id = match_id
        self.game = get_game(game_id)
        self.players = players
        self.options = dict(options)
        self.state: State = self.game.new_initial_state(players, self.options)
        self.seq = 0
        self.last_hash = GENESIS_HASH
        self.started = False
        self.finished = False
        self.result: dict[str, Any] | None = None
        self.pending: list[PendingEvent] = []
        # ranked play
        self.rated = False
        self.time_control: dict[str, Any] | None = None
        self.moved: set[int] = set()
        self.forfeits: list[int] = []
        self.replaced: dict[int, str] = {}
        self.ending = ""
        self.drawn = False  # ended by a claimed draw
        # takebacks: the engine events in effect, (seq, payload), and the newest event nothing is taken back across
        self.applied: list[tuple[int, Any]] = []
        self.barrier = 0
        # the clocks of a timed match (from its created event), fed each event's timestamp
        self.clock: ClockFold | None = None
        # events folded by a command, not yet stored: (type, payload, to_move_after) until stamped
        self.unstamped: list[tuple[str, Any, tuple[int, ...]]] = []
        # hidden information: {seq: {viewer: the entry as that viewer sees it}}, only where it differs
        self.redacts = REDACTION in self.game.features
        self.redactions: dict[int, dict[int | None, Any]] = {}
        # The newest stored rows folded (at most newest_limit(), oldest first, the last at ``seq``): the page's
        # event log reads them instead of the database.  Empty when not known (see :meth:`extend`).
        self.newest: tuple[Any, ...] = ()
        # the seats' contributions to the dice (docs/AUDIT.md): the construction the created event names
        # ("" for a match made before contributions: its dice come from the server's seed alone), and
        # {seat: {"seat", "value", "by"}} from the created and joined events
        self.dice = ""
        self.contributions: dict[int, dict[str, Any]] = {}
        # the stored timestamp of the event at ``seq`` (a receipt signs it), None while it is not stored
        self.last_time: Any = None

    # ------------------------------------------------------------------ fold

    @classmethod
    def replay(cls, match_id: int, game_id: str, players: int, options: Mapping[str, Any],
               events: Iterable[Any]) -> MatchAggregate:
        """Rebuild from stored events (objects with seq, type, payload, hash, timestamp)."""
        aggregate = cls(match_id, game_id, players, options)
        aggregate.extend(events)
        return aggregate

    def extend(self, events: Iterable[Any]) -> None:
        """Fold stored events that follow this aggregate's ``seq`` (the rest of the log, or a snapshot's tail).

        Rows that carry every stored field (``games.store.EventRow``, or ``Event`` models) are also kept
        as :attr:`newest`, when they continue the rows kept so far (or start the log)."""
        folded = []
        for event in events:
            if event.seq != self.seq + 1:
                raise ValueError(f"match {self.match_id}: event {event.seq} does not follow seq {self.seq}")
            self._fold(event.type, event.payload, event.seq, event.timestamp)
            self.seq = event.seq
            self.last_hash = event.hash
            self.last_time = event.timestamp
            folded.append(event)
        if folded:
            self.keep_newest(folded)

    def newest_limit(self) -> int:
        """How many stored rows :attr:`newest` keeps: twice as many where some events are hidden."""
        return 2 * NEWEST_ROWS if self.redacts else NEWEST_ROWS

    def keep_newest(self, rows: list[Any]) -> None:
        """Add stored rows just folded (or just stored, after :meth:`stamp`) to :attr:`newest`."""
        first = rows[0]
        kept = self.newest
        limit = self.newest_limit()
        if not hasattr(first, "actor") or not hasattr(first, "prev_hash"):
            self.newest = ()
        elif kept and kept[-1].seq == first.seq - 1:
            self.newest = (kept + tuple(rows))[-limit:]
        elif first.seq == 1 or len(rows) >= limit:
            self.newest = tuple(rows[-limit:])
        else:
            self.newest = ()  # a gap before these rows: not the newest rows of the log

    def clone(self) -> MatchAggregate:
        """An independent copy: commands on it never change this one (the snapshot cache's checkout)."""
        if self.pending or self.unstamped:
            raise ValueError("an aggregate with unsaved events is not cloned")
        other = MatchAggregate.__new__(MatchAggregate)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.state = self.state.clone()
        other.pending = []
        other.unstamped = []
        other.moved = set(self.moved)
        other.forfeits = list(self.forfeits)
        other.replaced = dict(self.replaced)
        other.clock = self.clock.clone() if self.clock is not None else None
        other.redactions = dict(self.redactions)  # the per-event maps are never changed once made
        other.contributions = dict(self.contributions)
        other.applied = list(self.applied)
        return other

    def stamp(self, timestamps: Iterable[Any]) -> None:
        """Feed the clock the stored times of the events the last command decided (in order)."""
        timestamps = list(timestamps)
        if len(timestamps) != len(self.unstamped):
            raise ValueError(f"{len(timestamps)} timestamps for {len(self.unstamped)} unsaved events")
        if self.clock is not None:
            for (type_, payload, to_move_after), timestamp in zip(self.unstamped, timestamps):
                self.clock.feed(type_, payload, timestamp, to_move_after)
        if timestamps:
            self.last_time = timestamps[-1]
        self.unstamped = []

    def _fold(self, type_: str, payload: dict[str, Any], seq: int, timestamp: Any = None) -> None:
        """Fold one event.  ``timestamp`` None: decided by a command, the clock waits for :meth:`stamp`."""
        if type_ in ENGINE_TYPES:
            if self.redacts:
                self._redact(payload, seq)
            self.state.apply_event(payload)  # the checked path: a replay re-validates every event
            self.applied.append((seq, payload))
            if type_ == "action":
                self.moved.add(payload["player"])
            else:
                self.barrier = seq  # a chance event: never taken back
        elif type_ == "takeback":
            self._take_back(payload["from"])
        elif type_ == "started":
            self.started = True
        elif type_ == "finished":
            self.finished = True
            self.result = payload["result"]
            self.ending = payload.get("ending", "normal")
        elif type_ == "joined":
            if "contribution" in payload:
                self.contributions[payload["seat"]] = {"seat": payload["seat"], **payload["contribution"]}
        elif type_ == "created":
            self.dice = payload.get("chance_seed", "")
            if "contribution" in payload:
                self.contributions[payload["contribution"]["seat"]] = dict(payload["contribution"])
            self.rated = bool(payload.get("rated", False))
            self.time_control = payload.get("time_control")
            if self.time_control:
                self.clock = ClockFold(self.time_control, self.players)
        elif type_ in ("resigned", "timed_out", "abandoned"):
            self.forfeits.append(payload["seat"])
            self.barrier = seq
        elif type_ == "claimed":
            if payload["result"] == "win":
                self.forfeits.append(payload["absent"])
            else:
                self.drawn = True
        elif type_ == "seat_replaced":
            self.replaced[payload["seat"]] = payload["bot"]
            self.barrier = seq
        if self.clock is not None or timestamp is None:
            state = self.state
            to_move_after = () if state.is_terminal() else tuple(state.to_move())
            if timestamp is None:
                self.unstamped.append((type_, payload, to_move_after))
            elif self.clock is not None:
                self.clock.feed(type_, payload, timestamp, to_move_after)

    def _take_back(self, start: int) -> None:
        """The state without the engine events from seq ``start`` on: the replay of those before it."""
        kept = [(seq, payload) for seq, payload in self.applied if seq < start]
        state = self.game.new_initial_state(self.players, self.options)
        for _, payload in kept:
            state.apply_event(payload)
        self.state, self.applied = state, kept
        self.moved = {payload["player"] for _, payload in kept if "player" in payload}

    def _redact(self, payload: dict[str, Any], seq: int) -> None:
        """How each viewer (every seat, and ``None``, a spectator) may see this entry, where it differs."""
        redact = self.state.redact_event
        shown: dict[int | None, Any] = {}
        for viewer in (VIEWERS_SPECTATOR, *range(self.players)):
            entry = redact(payload, viewer)
            if entry is not payload and entry != payload:
                # Equal entries share one object (the same sealed entry for every other viewer, and the
                # many alike in a long match): a cached Mountainhome aggregate stays small.
                text = canonical_json(entry)
                shown[viewer] = _SEALED.setdefault(text, entry) if len(_SEALED) < _SEALED_MAX else entry
        if shown:
            self.redactions[seq] = shown

    def shown(self, seq: int, payload: Any, viewer: int | None) -> Any:
        """The engine entry ``seq`` (``payload``) as ``viewer`` may see it."""
        found = self.redactions.get(seq)
        return payload if found is None else found.get(viewer, payload)

    def _record(self, type_: str, payload: dict[str, Any], actor: str) -> None:
        self._fold(type_, payload, self.seq + 1)
        self.seq += 1
        self.last_time = None  # until stored (:meth:`stamp`)
        self.pending.append(PendingEvent(self.seq, type_, payload, actor))

    @property
    def status(self) -> str:
        if self.finished:
            return "finished"
        return "active" if self.started else "waiting"

    # ------------------------------------------------------------------ commands

    def create(self, payload: dict[str, Any], actor: str) -> None:
        if self.seq:
            raise Conflict(f"match {self.match_id} already exists", code="already_created")
        self._record("created", payload, actor)

    def join(self, seat: int, user_id: int, actor: str, contribution: dict[str, Any] | None = None) -> None:
        """A human takes ``seat``; ``contribution`` ({"value", "by"}): its share of the dice, if the match takes them."""
        if self.started:
            raise Conflict(f"match {self.match_id} has already started", code="match_started")
        payload: dict[str, Any] = {"seat": seat, "user": user_id}
        if self.dice and contribution is not None:
            payload["contribution"] = contribution
        self._record("joined", payload, actor)

    def dice_key(self, seed: bytes) -> bytes:
        """The key of the match's chance outcomes: the server's seed, or the chance seed derived from it and
        the seats' contributions in seat order (:func:`engine.fair.chance_seed`)."""
        if self.dice != CHANCE_SEED_CONSTRUCTION:
            return seed
        return chance_seed(seed, [bytes.fromhex(self.contributions[seat]["value"]) for seat in sorted(self.contributions)])

    def contributions_json(self) -> list[dict[str, Any]]:
        return [dict(self.contributions[seat]) for seat in sorted(self.contributions)]

    def start(self, seed: bytes) -> None:
        if self.started:
            raise Conflict(f"match {self.match_id} has already started", code="match_started")
        self._record("started", {"players": self.players}, SYSTEM)
        self._advance(seed)

    def act(self, seat: int, action: Any, seed: bytes, actor: str, *, lag: float = 0.0) -> None:
        """A player's action, then every chance event it leads to, then the end if reached.

        ``lag``: the seconds the mover's network took (measured by their page); on a real-time clock the
        part :meth:`games.clocks.ClockFold.lag_credit_for` allows is credited back by a ``lag_credit``
        event ``{"seat", "seconds"}`` right after the action."""
        if not self.started:
            raise Conflict(f"match {self.match_id} has not started yet", code="match_not_started")
        if self.finished:
            raise Conflict(f"match {self.match_id} has ended", code="match_finished")
        if seat in self.replaced and not actor.startswith("bot:"):
            raise Forbidden(f"seat {seat} forfeited and is played by a bot now", code="seat_replaced")
        check_action_fields(self.game.action_fields, action)
        try:
            _, decoded = self.state.decode_event({"player": seat, "action": action})
        except GameOverError as exc:
            raise Conflict(str(exc), code="match_finished") from None
        except WrongSeatError as exc:
            raise Forbidden(f"not your turn: {exc}", code="not_your_turn") from None
        except ChanceExpectedError as exc:
            raise Conflict(str(exc), code="chance_due") from None
        except NotationError as exc:
            raise BadRequest(f"malformed action: {exc}", code="malformed_action") from None
        except IllegalActionError as exc:
            raise BadRequest(f"illegal action: {exc}", code="illegal_action") from None
        except (EngineError, TypeError, ValueError, KeyError) as exc:
            raise BadRequest(f"malformed action {excerpt(action)}: {exc}", code="malformed_action") from None
        payload = {"player": seat, "action": self.state.action_to_json(seat, decoded)}
        self._record("action", payload, actor)
        credit = self.clock.lag_credit_for(seat, lag) if self.clock is not None and lag > 0 else 0.0
        if credit > 0:
            self._record("lag_credit", {"seat": seat, "seconds": credit}, SYSTEM)
        self._advance(seed)

    def _advance(self, seed: bytes) -> None:
        """Draw every due chance event from (seed, seq); record the end with the revealed seed."""
        state = self.state
        key = self.dice_key(seed) if state.is_chance_node() else seed
        while state.is_chance_node():
            seq = self.seq + 1
            outcome = state.sample_chance(chance_rng(key, seq))
            self._record("chance", {"chance": state.chance_to_json(outcome)}, SYSTEM)
        if state.is_terminal() and not self.finished:
            payload = {"result": result_of(state, self.forfeits), "seed": seed.hex()}
            if self.forfeits:
                payload["ending"] = "normal"
            self._record("finished", payload, SYSTEM)

    # ------------------------------------------------------------------ ranked play: endings

    def _check_live(self, seat: int) -> None:
        if not self.started:
            raise Conflict(f"match {self.match_id} has not started yet", code="match_not_started")
        if self.finished:
            raise Conflict(f"match {self.match_id} has ended", code="match_finished")
        if not 0 <= seat < self.players:
            raise BadRequest(f"no seat {seat} in match {self.match_id}", code="bad_seat")
        if seat in self.forfeits:
            raise Conflict(f"seat {seat} has already forfeited", code="already_forfeited")

    def resign(self, seat: int, seed: bytes, actor: str, *, bot: str) -> None:
        """``seat`` gives up: 2 players, the other wins; 3-4, a ``bot`` plays on and the seat ranks last."""
        self._check_live(seat)
        self._record("resigned", {"seat": seat}, actor)
        self._after_forfeit(seat, seed, bot, "resigned")

    def time_out(self, seat: int, seed: bytes, *, bot: str) -> None:
        """``seat``'s clock ran out (the service checked it): like a resignation, decided by the server."""
        self._check_live(seat)
        self._record("timed_out", {"seat": seat}, SYSTEM)
        self._after_forfeit(seat, seed, bot, "timeout")

    def _after_forfeit(self, seat: int, seed: bytes, bot: str, ending: str) -> None:
        standing = [s for s in range(self.players) if s not in self.forfeits]
        if len(standing) <= 1:
            result = result_of(self.state, self.forfeits)
            self._record("finished", {"result": result, "seed": seed.hex(), "ending": ending}, SYSTEM)
            return
        self._record("seat_replaced", {"seat": seat, "bot": bot}, SYSTEM)

    def claim(self, seat: int, absent: int, result: str, grace: int, seed: bytes, actor: str) -> None:
        """``seat`` claims the win or a draw because ``absent`` left (the service checked the absence)."""
        self._check_live(seat)
        self._check_live(absent)
        self._record("claimed", {"seat": seat, "absent": absent, "result": result, "grace": grace}, actor)
        final = result_of(self.state, self.forfeits) if result == "win" else drawn_result(self.state)
        self._record("finished", {"result": final, "seed": seed.hex(), "ending": f"claimed_{result}"}, SYSTEM)

    def abandon(self, seat: int, grace: int, seed: bytes, *, bot: str) -> None:
        """``seat``'s person left a 3-4 player match (the service checked it): a forfeit, a bot plays on."""
        self._check_live(seat)
        self._record("abandoned", {"seat": seat, "grace": grace}, SYSTEM)
        self._after_forfeit(seat, seed, bot, "abandoned")

    def take_back(self, seat: int, start: int, actor: str, *, accepted_by: int | None) -> None:
        """Take back the engine events from seq ``start`` on (games.fairplay.takebacks checked the rules)."""
        self._check_live(seat)
        self._record("takeback", {"seat": seat, "from": start, "accepted_by": accepted_by}, actor)

    @property
    def abortable(self) -> bool:
        """Before every seat has moved once, a match may be aborted (no result, no rating change)."""
        return not self.finished and len(self.moved) < self.players

    def abort(self, seat: int | None, seed: bytes, actor: str, *, reason: str) -> None:
        if self.finished:
            raise Conflict(f"match {self.match_id} has ended", code="match_finished")
        if not self.abortable:
            raise Conflict(
                f"match {self.match_id} can no longer be aborted: every player has moved; resign instead",
                code="not_abortable",
            )
        self._record("aborted", {"seat": seat, "reason": reason}, actor)
        self._record("finished", {"result": None, "seed": seed.hex(), "ending": "aborted"}, SYSTEM)

