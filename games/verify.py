"""Verification of a stored match: names the first ``seq`` that fails.

Checked, event by event in ``seq`` order:

1. ``seq`` runs 1, 2, 3 ... with no gap;
2. the hash chain: each ``prev_hash`` is the previous event's ``hash`` (64
   zeros for the first) and each ``hash`` is recomputed from the stored
   columns under the match's chain version (:mod:`engine.chain`: version 1,
   SHA-256(prev_hash + canonical JSON of the event); version 2, SHA-256(prev_hash
   + SHA-256(nonce + canonical JSON of the event)) with the nonce derived from
   the seed);
3. the seed matches the commitment: SHA-256(seed) equals the match's public
   commitment, which the ``created`` event also carries, and the seed revealed
   in the ``finished`` event is that seed;
4. every chance outcome equals the one drawn from (seed, seq) with
   ``engine.fair.chance_rng``;
5. every action is legal on replay (the engine's checked path);
6. the result stored in the ``finished`` event and on the match equals the
   replayed one, and a terminal state has exactly one ``finished`` event, last.

Ranked play adds match-level endings, checked the same way
(``endings``): the rated flag and time control of the ``created`` event are
the match's; a ``resigned`` / ``timed_out`` seat is a live seat of a running
match; a ``timed_out`` event comes at or after that seat's deadline on the
clocks rebuilt from the event times; ``seat_replaced`` follows that seat's
forfeit and a replaced seat's later actions are the bot's; ``aborted`` comes
before every seat has moved once; and the final event's result is the
forfeit ranking (or none for an abort).

Fair play adds ``lag_credit`` (:func:`_verify_lag_credit`: right after its seat's action, on a
real-time clock, within the per-move cap and the match's quota); ``takeback``
(:func:`_verify_takeback`: once the undone events were checked like any others, the state is
restored from before the first of them); and ``claimed`` and ``abandoned`` (:func:`_verify_leaver`):
a real-time match, live seats, a claim by a player of a 2-player match, an abandonment by the server
in a 3-4 player one, and the absent seat's last action (or the start) at least the recorded grace
period before the event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import EngineError, get_game
from engine.chain import CHAIN_VERSIONS
from engine.fair import CHANCE_SEED_CONSTRUCTION, chance_rng, chance_seed, commitment

from .aggregate import LEAVER_TYPES, result_of
from .models import Match
from .store import GENESIS_HASH, load_rows, row_hash


@dataclass
class Verdict:
    match: int
    ok: bool = True
    failed_seq: int | None = None
    check: str | None = None
    message: str = ""
    events: int = 0
    checks: list[str] = field(default_factory=lambda: [
        "seq", "hash_chain", "seed_commitment", "chance_outcomes", "legality", "result", "endings",
    ])

    def as_json(self) -> dict[str, Any]:
        return {
            "match": self.match,
            "ok": self.ok,
            "failed_seq": self.failed_seq,
            "check": self.check,
            "message": self.message or ("all checks passed" if self.ok else ""),
            "events": self.events,
            "checks": self.checks,
        }


class _Failure(Exception):
    def __init__(self, seq: int | None, check: str, message: str) -> None:
        super().__init__(message)
        self.seq, self.check, self.message = seq, check, message


def verify_match(match: Match) -> Verdict:
    verdict = Verdict(match=match.pk)
    try:
        verdict.events = _verify(match)
    except _Failure as failure:
        verdict.ok = False
        verdict.failed_seq = failure.seq
        verdict.check = failure.check
        verdict.message = f"seq {failure.seq}: {failure.message}" if failure.seq else failure.message
    return verdict


def _verify(match: Match) -> int:
    rows = load_rows(match.pk)
    try:
        seed = bytes.fromhex(match.seed)
    except ValueError:
        raise _Failure(None, "seed_commitment", "the stored seed is not hex") from None
    if match.chain_version not in CHAIN_VERSIONS:
        raise _Failure(None, "hash_chain", f"unknown hash chain version {match.chain_version!r}")
    seed_ok = commitment(seed) == match.commitment
    game = get_game(match.game_id)
    state = game.new_initial_state(match.players, match.options)
    prev_hash = GENESIS_HASH
    finished_at = None
    # ranked play: forfeits, replaced seats, who has moved, aborts, clocks
    from .clocks import ClockFold

    forfeits: list[int] = []
    replaced: set[int] = set()
    moved: set[int] = set()
    aborted = False
    dice = ""  # the chance seed's construction the created event names ("" before contributions)
    contributions: dict[int, bytes] = {}
    dice_key = seed
    drawn = False  # a claimed draw (fair play)
    clock = ClockFold(match.time_control, match.players) if match.time_control else None
    takebacks = {row.payload.get("from"): row.seq for row in rows
                 if row.type == "takeback" and isinstance(row.payload, dict)}
    saved: dict[int, Any] = {}  # the state before each run of taken-back events
    for expected_seq, row in enumerate(rows, start=1):
        seq = row.seq
        if seq != expected_seq:
            raise _Failure(expected_seq, "seq", f"event {expected_seq} is missing (found {seq} in its place)")
        if row.type == "created" and not seed_ok:  # before the chain: version 2 derives its nonces from the seed
            raise _Failure(seq, "seed_commitment", "SHA-256 of the seed is not the published commitment")
        if row.prev_hash != prev_hash:
            raise _Failure(seq, "hash_chain", "prev_hash is not the previous event's hash")
        if row_hash(row, match) != row.hash:
            raise _Failure(seq, "hash_chain", "the stored hash does not match the event's content")
        prev_hash = row.hash
        if finished_at is not None:
            raise _Failure(seq, "result", f"an event follows the final event {finished_at}")
        payload = row.payload
        if row.seq in takebacks:
            saved[row.seq] = (state.clone(), set(moved))
        if row.type == "created":
            if not isinstance(payload, dict) or payload.get("commitment") != match.commitment:
                raise _Failure(seq, "seed_commitment", "the created event does not carry the match's commitment")
            if not seed_ok:
                raise _Failure(seq, "seed_commitment", "SHA-256 of the seed is not the published commitment")
            dice = payload.get("chance_seed", "")
            _take_contribution(seq, contributions, payload.get("contribution"), dice)
        elif row.type == "joined" and dice:
            share = payload.get("contribution") if isinstance(payload, dict) else None
            _take_contribution(seq, contributions, {"seat": payload.get("seat"), **share} if isinstance(share, dict) else None, dice)
        elif row.type == "started" and dice:
            if dice != CHANCE_SEED_CONSTRUCTION:
                raise _Failure(seq, "chance_outcomes", f"unknown chance seed construction {dice!r}")
            dice_key = chance_seed(seed, [contributions[s] for s in sorted(contributions)])
        elif row.type == "chance":
            if not state.is_chance_node():
                raise _Failure(seq, "legality", "a chance event where no chance event is due")
            expected = state.chance_to_json(state.sample_chance(chance_rng(dice_key, seq)))
            if not isinstance(payload, dict) or payload.get("chance") != expected:
                raise _Failure(
                    seq, "chance_outcomes",
                    f"chance outcome {payload.get('chance') if isinstance(payload, dict) else payload!r} "
                    f"is not {expected!r}, drawn from the seed",
                )
            try:
                state.apply_event(payload)
            except EngineError as exc:
                raise _Failure(seq, "legality", str(exc)) from None
        elif row.type == "action":
            if isinstance(payload, dict) and payload.get("player") in replaced and not row.actor.startswith("bot:"):
                raise _Failure(seq, "endings", f"seat {payload.get('player')} was handed to a bot, not played by {row.actor}")
            try:
                state.apply_event(payload)
            except EngineError as exc:
                raise _Failure(seq, "legality", str(exc)) from None
            moved.add(payload["player"])
        elif row.type in ("resigned", "timed_out"):
            seat = payload.get("seat") if isinstance(payload, dict) else None
            if state.is_terminal() or not isinstance(seat, int) or not 0 <= seat < match.players or seat in forfeits:
                raise _Failure(seq, "endings", f"{row.type} of seat {seat!r} is not a live seat of a running match")
            if row.type == "timed_out":
                deadline = clock.deadline(seat) if clock else None
                if deadline is None or deadline > row.timestamp:
                    raise _Failure(seq, "endings", f"seat {seat} timed out before its clock ran out (deadline {deadline})")
            forfeits.append(seat)
        elif row.type == "seat_replaced":
            seat = payload.get("seat") if isinstance(payload, dict) else None
            if seat not in forfeits or seat in replaced:
                raise _Failure(seq, "endings", f"seat {seat!r} handed to a bot without forfeiting first")
            replaced.add(seat)
        elif row.type == "takeback":
            _verify_takeback(row, rows, match, state)
            state, moved = saved.pop(payload["from"])
        elif row.type == "lag_credit":
            _verify_lag_credit(row, rows[seq - 2] if seq > 1 else None, clock)
        elif row.type in LEAVER_TYPES:
            drawn = _verify_leaver(row, rows[: seq - 1], state, forfeits, match) or drawn
        elif row.type == "aborted":
            if len(moved) >= match.players or state.is_terminal():
                raise _Failure(seq, "endings", "an abort after every seat has moved")
            aborted = True
        elif row.type == "finished" and drawn:
            finished_at = seq
            _verify_drawn_end(seq, payload, state, match)
        elif row.type == "finished" and (aborted or forfeits):
            finished_at = seq
            _verify_forfeit_end(seq, payload, state, forfeits, aborted, match)
        elif row.type == "finished":
            finished_at = seq
            if not state.is_terminal():
                raise _Failure(seq, "result", "a final event before the game has ended")
            revealed = payload.get("seed") if isinstance(payload, dict) else None
            try:
                revealed_ok = isinstance(revealed, str) and commitment(bytes.fromhex(revealed)) == match.commitment
            except ValueError:
                revealed_ok = False
            if not revealed_ok:
                raise _Failure(seq, "seed_commitment", "the revealed seed does not match the commitment")
            replayed = result_of(state)
            if payload.get("result") != replayed:
                raise _Failure(seq, "result", f"stored result {payload.get('result')!r} is not the replayed {replayed!r}")
            if match.result != replayed:
                raise _Failure(seq, "result", f"the match's result {match.result!r} is not the replayed {replayed!r}")
        elif row.type not in ("joined", "started"):
            raise _Failure(seq, "legality", f"unknown event type {row.type!r}")
        if row.type == "created" and (
            payload.get("rated", False) != match.rated or payload.get("time_control") != match.time_control
        ):
            raise _Failure(seq, "endings", "the match's rated flag or time control is not the created event's")
        if clock is not None:
            clock.feed(row.type, payload, row.timestamp, () if state.is_terminal() else state.to_move())
    last = len(rows)
    if state.is_terminal() and finished_at is None:
        raise _Failure(last, "result", "the game has ended but no final event reveals the seed")
    if match.status == Match.Status.FINISHED and finished_at is None:
        raise _Failure(last or None, "result", "the match is marked finished without a final event")
    if match.seq != last:
        raise _Failure(last or None, "seq", f"the match says seq {match.seq} but {last} events are stored")
    return last


def _take_contribution(seq: int, contributions: dict[int, bytes], share: Any, dice: str) -> None:
    """A seat's contribution to the dice from a created or joined event (docs/AUDIT.md)."""
    if not dice:
        return
    from engine.fair import ContributionError, parse_contribution

    if not isinstance(share, dict) or not isinstance(share.get("seat"), int) or share.get("by") not in ("player", "server"):
        raise _Failure(seq, "chance_outcomes", "the event's contribution to the dice is malformed")
    try:
        raw = parse_contribution(share.get("value"))
    except ContributionError as exc:
        raise _Failure(seq, "chance_outcomes", str(exc)) from None
    if share["seat"] in contributions:
        raise _Failure(seq, "chance_outcomes", f"seat {share['seat']} contributed twice")
    contributions[share["seat"]] = raw


def _verify_forfeit_end(seq: int, payload: Any, state: Any, forfeits: list[int], aborted: bool, match: Match) -> None:
    """The final event of a match that was aborted or had a seat forfeit (ranked play)."""
    if not isinstance(payload, dict):
        raise _Failure(seq, "result", "the final event is not an object")
    revealed = payload.get("seed")
    try:
        revealed_ok = isinstance(revealed, str) and commitment(bytes.fromhex(revealed)) == match.commitment
    except ValueError:
        revealed_ok = False
    if not revealed_ok:
        raise _Failure(seq, "seed_commitment", "the revealed seed does not match the commitment")
    if aborted:
        if payload.get("result") is not None or payload.get("ending") != "aborted" or match.result is not None:
            raise _Failure(seq, "result", "an aborted match must end with no result")
        return
    standing = [s for s in range(match.players) if s not in forfeits]
    if not state.is_terminal() and len(standing) > 1:
        raise _Failure(seq, "result", "a final event while the game runs on and more than one seat stands")
    replayed = result_of(state, forfeits)
    if payload.get("result") != replayed:
        raise _Failure(seq, "result", f"stored result {payload.get('result')!r} is not the replayed {replayed!r}")
    if match.result != replayed:
        raise _Failure(seq, "result", f"the match's result {match.result!r} is not the replayed {replayed!r}")


def _verify_leaver(row: Any, before: list[Any], state: Any, forfeits: list[int], match: Match) -> bool:
    """A ``claimed`` or ``abandoned`` event (fair play): a real-time match, live seats, and the absent
    seat's last action (or the start) at least the recorded grace period before it.  A claimed win adds
    the absent seat to ``forfeits``; True for a claimed draw."""
    payload = row.payload if isinstance(row.payload, dict) else {}
    seat, absent = payload.get("seat"), payload.get("absent", payload.get("seat"))
    grace = payload.get("grace")
    live = [s for s in range(match.players) if s not in forfeits]

    def fail(message: str) -> _Failure:
        return _Failure(row.seq, "endings", f"{row.type}: {message}")

    if state.is_terminal() or seat not in live or absent not in live:
        raise fail(f"seat {seat!r} or {absent!r} is not a live seat of a running match")
    if (match.time_control or {}).get("kind") != "realtime":
        raise fail("only a match with a real-time clock ends for an absent player")
    if type(grace) is not int or grace < 0:
        raise fail(f"the grace period {grace!r} is not a whole number of seconds")
    if row.type == "claimed":
        if match.players != 2 or seat == absent or payload.get("result") not in ("win", "draw"):
            raise fail("a claim is a win or a draw of one seat of a 2-player match against the other")
        if not row.actor.startswith("user:"):
            raise fail(f"a claim is made by a player, not {row.actor}")
    elif match.players < 3 or row.actor != "system":
        raise fail("a seat is handed to a bot for absence only in a 3-4 player match, by the server")
    seen = [e.timestamp for e in before if e.type == "started"
            or (e.type == "action" and isinstance(e.payload, dict) and e.payload.get("player") == absent)]
    if not seen or (row.timestamp - max(seen)).total_seconds() < grace:
        raise fail(f"seat {absent} acted less than {grace} s before it")
    if row.type == "claimed" and payload["result"] == "draw":
        return True
    forfeits.append(absent)
    return False


def _verify_drawn_end(seq: int, payload: Any, state: Any, match: Match) -> None:
    """The final event after a claimed draw: every seat shares first place, the seed revealed."""
    from engine.record import drawn_result

    revealed = payload.get("seed") if isinstance(payload, dict) else None
    try:
        revealed_ok = isinstance(revealed, str) and commitment(bytes.fromhex(revealed)) == match.commitment
    except ValueError:
        revealed_ok = False
    if not revealed_ok:
        raise _Failure(seq, "seed_commitment", "the revealed seed does not match the commitment")
    replayed = drawn_result(state)
    if payload.get("result") != replayed or match.result != replayed:
        raise _Failure(seq, "result", f"stored result {payload.get('result')!r} is not the claimed draw {replayed!r}")


def _verify_takeback(row: Any, rows: list[Any], match: Match, state: Any) -> None:
    """A ``takeback``: a casual match of a game without hidden information; it undoes, from its asking seat's
    own action on, nothing but that seat's and bots' actions (no chance, no other person's action, no
    match-level event); a person's acceptance where another person plays."""
    payload = row.payload if isinstance(row.payload, dict) else {}
    seat, start, accepted_by = payload.get("seat"), payload.get("from"), payload.get("accepted_by")

    def fail(message: str) -> _Failure:
        return _Failure(row.seq, "endings", f"takeback: {message}")

    if match.rated or not get_game(match.game_id).perfect_information or state.is_terminal():
        raise fail("only a casual match of a game without hidden information, in play, has takebacks")
    if type(start) is not int or not 0 < start < row.seq:
        raise fail(f"it undoes from {start!r}, not an earlier event")
    undone = rows[start - 1: row.seq - 1]
    first = undone[0]
    if first.type != "action" or not isinstance(first.payload, dict) or first.payload.get("player") != seat:
        raise fail(f"event {start} is not an action of seat {seat!r}")
    for event in undone[1:]:
        if event.type in ("takeback", "lag_credit"):
            continue
        if event.type != "action" or (not event.actor.startswith("bot:") and event.payload.get("player") != seat):
            raise fail(f"event {event.seq} ({event.type} by {event.actor}) is never taken back")
    people = [s for s in match.seats.all() if s.index != seat and s.user_id and not s.is_bot]
    if people and (type(accepted_by) is not int or accepted_by == seat or not row.actor.startswith("user:")):
        raise fail("a takeback against a person needs that person's acceptance")


def _verify_lag_credit(row: Any, before: Any, clock: Any) -> None:
    """A ``lag_credit``: right after that seat's action, on a real-time clock, no more than the cap per
    move and what is left of the seat's quota (:meth:`games.clocks.ClockFold.lag_credit_for`)."""
    payload = row.payload if isinstance(row.payload, dict) else {}
    seat, seconds = payload.get("seat"), payload.get("seconds")
    if before is None or before.type != "action" or not isinstance(before.payload, dict) \
            or before.payload.get("player") != seat:
        raise _Failure(row.seq, "endings", f"lag_credit: it does not follow an action of seat {seat!r}")
    if clock is None or not isinstance(seconds, (int, float)) or seconds <= 0 \
            or clock.lag_credit_for(seat, float(seconds)) != seconds:
        raise _Failure(row.seq, "endings", f"lag_credit: {seconds!r} s is more than the clock allows seat {seat!r}")
