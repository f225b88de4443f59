"""The match aggregate: a fold over a match's events, and the commands on it.

The aggregate never touches the database.  Services load the events, build
the aggregate (:meth:`MatchAggregate.replay`), call a command, and save the
pending events it returns with the ``seq`` they were decided against
(load -> command -> save).

Engine events (types ``chance`` and ``action``) carry exactly a
``cairn-record/1`` entry as payload, so the engine state is the replay of
those payloads and a match's record is their list.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from engine import (
    ChanceExpectedError,
    EngineError,
    GameOverError,
    IllegalActionError,
    NotationError,
    State,
    WrongSeatError,
    get_game,
)
from engine.fair import chance_rng

from .errors import BadRequest, Conflict, Forbidden
from .store import GENESIS_HASH, PendingEvent

ENGINE_TYPES = ("chance", "action")
SYSTEM = "system"


def result_of(state: State, forfeits: list[int] | tuple[int, ...] = ()) -> dict[str, Any]:
    if not forfeits:
        return {"scores": state.scores(), "winners": state.winners(), "ranking": state.ranking()}
    return forfeit_result(state, list(forfeits))


# ---------------------------------------------------------------------- ranked play: match-level endings
# (issue 7).  ``resigned`` / ``timed_out`` {"seat"} mark a forfeit; in a 3-4 player match
# ``seat_replaced`` {"seat", "bot"} hands the seat to a bot for the rest of the match and the
# forfeiting seats rank last (the earliest forfeit lowest); with one seat left standing, or in a
# 2-player match, the match ends at once.  ``aborted`` {"seat", "reason"} (before every seat has
# moved once) ends it with no result.  The final ``finished`` event carries ``ending``.

MATCH_ENDING_TYPES = ("resigned", "timed_out", "seat_replaced", "aborted")


def forfeit_result(state: State, forfeits: list[int]) -> dict[str, Any]:
    """The result when seats forfeited: the others keep their order (the engine's, if it ended)."""
    players = state.players
    standing = [seat for seat in range(players) if seat not in forfeits]
    if state.is_terminal():
        engine_place = state.ranking()
        places = {seat: sum(1 for other in standing if engine_place[other] < engine_place[seat]) for seat in standing}
    else:
        places = {seat: 0 for seat in standing}
    for order, seat in enumerate(forfeits):  # the later a seat forfeited, the better its place
        places[seat] = len(standing) + (len(forfeits) - 1 - order)
    ranking = [places[seat] for seat in range(players)]
    try:
        scores = state.scores()
    except Exception:  # noqa: BLE001 - a game may not score an unfinished state
        scores = None
    return {"scores": scores, "winners": [seat for seat in standing if places[seat] == 0],
            "ranking": ranking, "forfeits": list(forfeits)}
# ---------------------------------------------------------------------- end ranked play


class MatchAggregate:
    __slots__ = ("match_id", "game", "players", "options", "state", "seq", "last_hash",
                 "started", "finished", "result", "pending", "engine_events",
                 "rated", "time_control", "moved", "forfeits", "replaced", "ending")

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
        self.engine_events = 0
        # ranked play (issue 7)
        self.rated = False
        self.time_control: dict[str, Any] | None = None
        self.moved: set[int] = set()
        self.forfeits: list[int] = []
        self.replaced: dict[int, str] = {}
        self.ending = ""

    # ------------------------------------------------------------------ fold

    @classmethod
    def replay(cls, match_id: int, game_id: str, players: int, options: Mapping[str, Any],
               events: Iterable[Any]) -> "MatchAggregate":
        """Rebuild from stored events (objects with seq, type, payload, hash)."""
        aggregate = cls(match_id, game_id, players, options)
        for event in events:
            aggregate._fold(event.type, event.payload)
            aggregate.seq = event.seq
            aggregate.last_hash = event.hash
        return aggregate

    def _fold(self, type_: str, payload: dict[str, Any]) -> None:
        if type_ in ENGINE_TYPES:
            self.state.apply_event(payload)  # the checked path: a replay re-validates every event
            self.engine_events += 1
            if type_ == "action":
                self.moved.add(payload["player"])
        elif type_ == "started":
            self.started = True
        elif type_ == "finished":
            self.finished = True
            self.result = payload["result"]
            self.ending = payload.get("ending", "normal")
        elif type_ == "created":
            self.rated = bool(payload.get("rated", False))
            self.time_control = payload.get("time_control")
        elif type_ in ("resigned", "timed_out"):
            self.forfeits.append(payload["seat"])
        elif type_ == "seat_replaced":
            self.replaced[payload["seat"]] = payload["bot"]

    def _record(self, type_: str, payload: dict[str, Any], actor: str) -> None:
        self._fold(type_, payload)
        self.seq += 1
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

    def join(self, seat: int, user_id: int, actor: str) -> None:
        if self.started:
            raise Conflict(f"match {self.match_id} has already started", code="match_started")
        self._record("joined", {"seat": seat, "user": user_id}, actor)

    def start(self, seed: bytes) -> None:
        if self.started:
            raise Conflict(f"match {self.match_id} has already started", code="match_started")
        self._record("started", {"players": self.players}, SYSTEM)
        self._advance(seed)

    def act(self, seat: int, action: Any, seed: bytes, actor: str) -> None:
        """A player's action, then every chance event it leads to, then the end if reached."""
        if not self.started:
            raise Conflict(f"match {self.match_id} has not started yet", code="match_not_started")
        if self.finished:
            raise Conflict(f"match {self.match_id} has ended", code="match_finished")
        if seat in self.replaced and not actor.startswith("bot:"):
            raise Forbidden(f"seat {seat} forfeited and is played by a bot now", code="seat_replaced")
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
            raise BadRequest(f"malformed action {action!r}: {exc}", code="malformed_action") from None
        payload = {"player": seat, "action": self.state.action_to_json(seat, decoded)}
        self._record("action", payload, actor)
        self._advance(seed)

    def _advance(self, seed: bytes) -> None:
        """Draw every due chance event from (seed, seq); record the end with the revealed seed."""
        state = self.state
        while state.is_chance_node():
            seq = self.seq + 1
            outcome = state.sample_chance(chance_rng(seed, seq))
            self._record("chance", {"chance": state.chance_to_json(outcome)}, SYSTEM)
        if state.is_terminal() and not self.finished:
            payload = {"result": result_of(state, self.forfeits), "seed": seed.hex()}
            if self.forfeits:
                payload["ending"] = "normal"
            self._record("finished", payload, SYSTEM)

    # ------------------------------------------------------------------ ranked play: endings (issue 7)

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

