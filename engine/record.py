"""Game records that replay without a random generator.

* ``cairn-record/1``: ``game``, ``players``, ``options`` and ``events``, the
  entries (chance outcomes and actions) in order.  The engine's own records
  (``python -m engine sample``) are this.
* ``cairn-record/2``: a match exported by Cairn.  The same entries,
  plus ``seqs`` (each entry's event number), ``commitment``, ``chain_version``
  and ``log``: every event the viewer may see with its hash-chain fields
  (:mod:`engine.chain`).  Once the match has ended, ``seed`` and ``result``
  are set and ``log`` is the whole match, nothing sealed, so :func:`audit`
  checks everything offline.
* ``cairn-record/3``: a match whose seats contributed to its dice.  As
  ``cairn-record/2``, plus ``chance_seed`` (the construction,
  ``cairn-chance-seed/1``, :func:`engine.fair.chance_seed`) and
  ``contributions``: each human seat's ``{"seat", "value", "by"}`` in seat
  order (``by``: ``player``, or ``server`` when the client sent none), as
  the ``created`` and ``joined`` events carry them.  The chance outcomes are
  drawn from the chance seed, not the server's seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import chain
from .core import EngineError, Game, InvalidRecordError, OptionError, State
from .fair import CHANCE_SEED_CONSTRUCTION as CHANCE_SEED
from .registry import get_game

FORMAT_V1 = "cairn-record/1"
FORMAT = "cairn-record/2"
FORMAT_V3 = "cairn-record/3"
FORMATS = (FORMAT_V1, FORMAT, FORMAT_V3)
LOGGED_FORMATS = (FORMAT, FORMAT_V3)
ENGINE_TYPES = ("chance", "action")


def make_record(
    game_id: str, players: int, options: Mapping[str, Any], events: list[dict[str, Any]], *,
    format: str = FORMAT_V1, **extra: Any,
) -> dict[str, Any]:
    record: dict[str, Any] = {"format": format, "game": game_id, "players": players, "options": dict(options)}
    record.update(extra)
    record["events"] = list(events)
    return record


def open_record(record: Any) -> tuple[Game, State, list[Any]]:
    """Check the envelope; return the game, its initial state and the events.

    Raises :class:`InvalidRecordError` with ``index=None`` for a bad envelope.
    """
    if not isinstance(record, dict):
        raise InvalidRecordError("a record must be a JSON object")
    if record.get("format") not in FORMATS:
        raise InvalidRecordError(f"'format' must be one of {', '.join(map(repr, FORMATS))}, not {record.get('format')!r}")
    game_id = record.get("game")
    try:
        game = get_game(game_id) if isinstance(game_id, str) else None
    except KeyError as exc:
        raise InvalidRecordError(str(exc.args[0])) from None
    if game is None:
        raise InvalidRecordError(f"'game' must be a game id, not {game_id!r}")
    events = record.get("events")
    if not isinstance(events, list):
        raise InvalidRecordError("'events' must be a list")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise InvalidRecordError("'options' must be an object")
    try:
        state = game.new_initial_state(game.check_players(record.get("players")), options)
    except OptionError as exc:
        raise InvalidRecordError(str(exc)) from None
    return game, state, events


def replay(record: Any) -> State:
    """Replay every event through the checked path; the final state.

    Raises :class:`InvalidRecordError` naming the first event that fails.
    """
    _, state, events = open_record(record)
    for index, event in enumerate(events):
        try:
            state.apply_event(event)
        except EngineError as exc:
            raise InvalidRecordError(f"event {index}: {exc}", index=index) from None
    return state


def summary(record: Any) -> dict[str, Any]:
    """The one-line verdict that ``python -m engine replay`` prints."""
    try:
        state = replay(record)
    except InvalidRecordError as exc:
        return {"ok": False, "index": exc.index, "error": exc.message}
    return {
        "ok": True,
        "terminal": state.is_terminal(),
        "scores": state.scores(),
        "winners": state.winners(),
    }


def match_result(state: State, forfeits: list[int] | tuple[int, ...] = ()) -> dict[str, Any]:
    """A match's result: the engine's, or with forfeits (Cairn's ranked endings) the forfeit ranking.

    Forfeiting seats rank last (the earliest forfeit lowest); the others keep
    the engine's order if the game ended, else share first place.
    """
    if not forfeits:
        return {"scores": state.scores(), "winners": state.winners(), "ranking": state.ranking()}
    forfeits = list(forfeits)
    standing = [seat for seat in range(state.players) if seat not in forfeits]
    if state.is_terminal():
        engine_place = state.ranking()
        places = {seat: sum(1 for other in standing if engine_place[other] < engine_place[seat]) for seat in standing}
    else:
        places = dict.fromkeys(standing, 0)
    for order, seat in enumerate(forfeits):  # the later a seat forfeited, the better its place
        places[seat] = len(standing) + (len(forfeits) - 1 - order)
    try:
        scores = state.scores()
    except Exception:  # noqa: BLE001 - a game may not score an unfinished state
        scores = None
    return {"scores": scores, "winners": [seat for seat in standing if places[seat] == 0],
            "ranking": [places[seat] for seat in range(state.players)], "forfeits": forfeits}


def taken_back(log: list[Any]) -> set[int]:
    """The seqs a log's ``takeback`` events undo: from each one's ``from`` up to the takeback itself."""
    undone: set[int] = set()
    for item in log:
        payload = item.get("payload") if isinstance(item, dict) else None
        if item.get("type") == "takeback" and isinstance(payload, dict) and isinstance(payload.get("from"), int):
            undone.update(range(payload["from"], item["seq"]))
    return undone


def drawn_result(state: State) -> dict[str, Any]:
    """The result of a match drawn by claim (an opponent left): every seat shares first place."""
    try:
        scores = state.scores()
    except Exception:  # noqa: BLE001 - a game may not score an unfinished state
        scores = None
    return {"scores": scores, "winners": list(range(state.players)), "ranking": [0] * state.players, "drawn": True}


class _AuditFailure(Exception):
    def __init__(self, index: int | None, message: str) -> None:
        super().__init__(message)
        self.index, self.message = index, message


def _check_log(record: dict[str, Any], seed: bytes, events: list[Any], seqs: list[int]) -> dict[str, Any]:
    """Check a ``cairn-record/2`` log: the chain, the entries, the final event.  Facts for the result check."""
    version = record.get("chain_version")
    if version not in chain.CHAIN_VERSIONS:
        raise _AuditFailure(None, f"'chain_version' must be one of {chain.CHAIN_VERSIONS}, not {version!r}")
    log = record.get("log")
    if not isinstance(log, list) or not log:
        raise _AuditFailure(None, "a cairn-record/2 of a finished match needs its 'log': every event of the match")
    match_id = record.get("match")
    if not isinstance(match_id, int) or isinstance(match_id, bool):
        raise _AuditFailure(None, f"'match' must be the match's id (a whole number), not {match_id!r}")
    prev_hash = chain.GENESIS_HASH
    entries: list[Any] = []
    entry_seqs: list[int] = []
    forfeits: list[int] = []
    drawn = False
    aborted = False
    final: dict[str, Any] | None = None
    contributions = _Contributions(record.get("format") == FORMAT_V3)
    heads: dict[int, str] = {}
    for position, item in enumerate(log, start=1):
        if not isinstance(item, dict) or item.get("seq") != position:
            raise _AuditFailure(None, f"log entry {position} must be event {position} (nothing left out or reordered)")
        if item.get("redacted") or "skipped" in item:
            raise _AuditFailure(None, f"event {position} is sealed: audit a record exported after the match ended")
        for key in ("type", "actor", "timestamp"):
            if not isinstance(item.get(key), str):
                raise _AuditFailure(None, f"event {position}: '{key}' must be text")
        body = chain.body(match_id, position, item["type"], item.get("payload"), item["actor"], item["timestamp"])
        if item.get("prev_hash") != prev_hash:
            raise _AuditFailure(None, f"event {position}: prev_hash is not the previous event's hash")
        if version == 2:
            nonce = chain.nonce(seed, position)
            if "nonce" in item and item["nonce"] != nonce.hex():
                raise _AuditFailure(None, f"event {position}: its nonce is not the one the seed gives")
            if item.get("body_hash") != chain.body_hash(nonce, body):
                raise _AuditFailure(None, f"event {position}: body_hash does not match the event's content")
        expected = chain.event_hash(version, prev_hash, body, seed)
        if item.get("hash") != expected:
            raise _AuditFailure(None, f"event {position}: the hash does not match the event's content")
        prev_hash = expected
        heads[position] = expected
        payload = item.get("payload")
        contributions.feed(position, item["type"], payload)
        if item["type"] in ENGINE_TYPES:
            entries.append(payload)
            entry_seqs.append(position)
        elif item["type"] == "claimed" and isinstance(payload, dict):  # a claim against a leaver
            if payload.get("result") == "draw":
                drawn = True
            elif isinstance(payload.get("absent"), int) and not isinstance(payload.get("absent"), bool):
                forfeits.append(payload["absent"])
            else:
                raise _AuditFailure(None, f"event {position}: a claimed event names no absent seat")
        elif item["type"] in ("resigned", "timed_out", "abandoned") and isinstance(payload, dict):
            seat = payload.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise _AuditFailure(None, f"event {position}: a {item['type']} event names no seat")
            forfeits.append(seat)
        elif item["type"] == "aborted":
            aborted = True
        elif item["type"] == "finished":
            if position != len(log):
                raise _AuditFailure(None, f"event {position}: an event follows the final event")
            final = payload if isinstance(payload, dict) else {}
    if final is None:
        raise _AuditFailure(None, "the log has no final event: the match has not ended")
    undone = taken_back(log)  # a takeback's entries are in the log, not in the record's replay
    entries = [entry for entry, seq in zip(entries, entry_seqs) if seq not in undone]
    entry_seqs = [seq for seq in entry_seqs if seq not in undone]
    if entries != events or entry_seqs != seqs:
        raise _AuditFailure(None, "'events' and 'seqs' are not the log's chance and action events")
    if final.get("seed") != seed.hex():
        raise _AuditFailure(None, "the final event does not reveal the record's seed")
    return {"forfeits": forfeits, "aborted": aborted, "drawn": drawn, "final": final, "last_hash": prev_hash,
            "heads": heads, "contributions": contributions.check(record)}


class _Contributions:
    """The seats' contributions to the dice, as the ``created`` and ``joined`` events of a ``cairn-record/3`` carry them."""

    def __init__(self, expected: bool) -> None:
        self.expected = expected
        self.human: list[int] = []
        self.values: dict[int, dict[str, Any]] = {}
        self.started = False

    def _take(self, position: int, seat: Any, entry: Any) -> None:
        from .fair import ContributionError, parse_contribution

        if not isinstance(entry, dict) or entry.get("by") not in ("player", "server"):
            raise _AuditFailure(None, f"event {position}: the contribution must be {{\"value\", \"by\": player|server}}")
        try:
            parse_contribution(entry.get("value"))
        except ContributionError as exc:
            raise _AuditFailure(None, f"event {position}: {exc}") from None
        if seat not in self.human or seat in self.values:
            raise _AuditFailure(None, f"event {position}: seat {seat!r} is not a human seat without a contribution")
        if self.started:
            raise _AuditFailure(None, f"event {position}: a contribution after the match started")
        self.values[seat] = {"seat": seat, "value": entry["value"], "by": entry["by"]}

    def feed(self, position: int, type_: str, payload: Any) -> None:
        if not self.expected or not isinstance(payload, dict):
            return
        if type_ == "created":
            if payload.get("chance_seed") != CHANCE_SEED:
                raise _AuditFailure(None, f"a cairn-record/3's created event must name the chance seed {CHANCE_SEED!r}")
            seats = payload.get("seats")
            if not isinstance(seats, list):
                raise _AuditFailure(None, "the created event lists no seats")
            self.human = [index for index, seat in enumerate(seats) if isinstance(seat, dict) and seat.get("human")]
            contribution = payload.get("contribution")
            self._take(position, contribution.get("seat") if isinstance(contribution, dict) else None, contribution)
        elif type_ == "joined":
            self._take(position, payload.get("seat"), payload.get("contribution"))
        elif type_ == "started":
            self.started = True

    def check(self, record: dict[str, Any]) -> list[dict[str, Any]] | None:
        if not self.expected:
            return None
        if record.get("chance_seed") != CHANCE_SEED:
            raise _AuditFailure(None, f"'chance_seed' must be {CHANCE_SEED!r}, not {record.get('chance_seed')!r}")
        missing = [seat for seat in self.human if seat not in self.values]
        if missing and self.started:
            raise _AuditFailure(None, f"human seats {missing} started without a contribution")
        found = [self.values[seat] for seat in sorted(self.values)]
        if record.get("contributions") != found:
            raise _AuditFailure(None, "'contributions' are not the ones the created and joined events carry")
        return found


def audit(record: Any, receipts: list[Any] | None = None, keys: dict[str, bytes] | None = None) -> dict[str, Any]:
    """The verdict of ``python -m engine audit``: a replay that also checks the dice and shuffles.

    Needs what Cairn's export carries once a match has ended: ``seed`` (hex),
    ``commitment`` and ``seqs`` (the match's event number of each entry of
    ``events``).  Checks that SHA-256 of the seed is the commitment, then
    replays the events through the checked path, and checks each chance
    outcome (dice, shuffles, selections) against the one drawn from (seed,
    seq) by ``engine.fair.chance_rng``.  A ``cairn-record/2`` also has its
    ``log`` checked: every event's hash chained from the first
    (:mod:`engine.chain`), the entries being the log's, and the final event's
    result being the replayed one.  A ``cairn-record/3`` draws the chance
    outcomes from the chance seed derived from the server's seed and the
    seats' contributions (:func:`engine.fair.chance_seed`).

    ``receipts`` (with ``keys``, ``{key id: raw public key}``, added to the
    record's ``receipt_keys``): every receipt must be correctly signed and the
    record's chain must pass through each receipted head of this match
    (:func:`engine.receipt.check_heads`).
    """
    from .fair import chance_rng, chance_seed, commitment

    def fail(index: int | None, message: str) -> dict[str, Any]:
        return {"ok": False, "index": index, "error": message}

    try:
        _, state, events = open_record(record)
    except InvalidRecordError as exc:
        return fail(None, exc.message)
    seed_hex = record.get("seed")
    if not isinstance(seed_hex, str) or not seed_hex:
        return fail(None, "the record has no 'seed': a match's seed is revealed when it ends")
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return fail(None, f"'seed' must be hex, not {seed_hex[:80]!r}")
    if commitment(seed) != record.get("commitment"):
        return fail(None, f"SHA-256 of the seed is {commitment(seed)}, not the record's commitment {record.get('commitment')!r}")
    seqs = record.get("seqs")
    if not isinstance(seqs, list) or len(seqs) != len(events) or not all(type(n) is int for n in seqs):
        return fail(None, "'seqs' must list the match's event number of each entry of 'events'")
    facts = None
    dice_key = seed
    if record.get("format") in LOGGED_FORMATS:
        try:
            facts = _check_log(record, seed, events, seqs)
        except _AuditFailure as exc:
            return fail(exc.index, exc.message)
        if facts["contributions"] is not None:
            dice_key = chance_seed(seed, [bytes.fromhex(item["value"]) for item in facts["contributions"]])
    receipt_facts: dict[str, Any] | None = None
    if receipts is not None:
        checked = _check_receipts(record, facts, receipts, keys or {})
        if isinstance(checked, str):
            return fail(None, checked)
        receipt_facts = checked
    chance_events = 0
    for index, (event, seq) in enumerate(zip(events, seqs)):
        if isinstance(event, dict) and "chance" in event and state.is_chance_node():
            expected = state.chance_to_json(state.sample_chance(chance_rng(dice_key, seq)))
            if event["chance"] != expected:
                return fail(index, f"event {index}: chance outcome {event['chance']!r} is not {expected!r}, "
                                   f"the one the seed gives at seq {seq}")
            chance_events += 1
        try:
            state.apply_event(event)
        except EngineError as exc:
            return fail(index, f"event {index}: {exc}")
    verdict: dict[str, Any] = {
        "ok": True,
        "terminal": state.is_terminal(),
        "scores": state.scores(),
        "winners": state.winners(),
        "chance_events": chance_events,
    }
    if facts is not None:
        if facts["aborted"]:
            replayed = None
        elif facts["drawn"]:
            replayed = drawn_result(state)
        elif not facts["forfeits"] and not state.is_terminal():
            return fail(None, "the final event comes before the game has ended")
        else:
            replayed = match_result(state, facts["forfeits"])
        stored = facts["final"].get("result")
        if stored != replayed or record.get("result") != replayed:
            return fail(None, f"the stored result {stored!r} is not the replayed {replayed!r}")
        verdict.update({"chain": True, "chain_version": record["chain_version"], "events_checked": len(record["log"]),
                        "result": replayed, "last_hash": facts["last_hash"]})
        if facts["contributions"] is not None:
            verdict.update({"chance_seed": CHANCE_SEED, "contributions": len(facts["contributions"])})
    if receipt_facts is not None:
        verdict.update(receipt_facts)
    return verdict


def _check_receipts(record: dict[str, Any], facts: dict[str, Any] | None, receipts: list[Any],
                    keys: dict[str, bytes]) -> dict[str, Any] | str:
    """The receipts' verdict facts, or the message of the first receipt that fails."""
    from .receipt import ReceiptError, check_heads, parse_keys

    if facts is None:
        return "receipts need a record with its hash chain ('log'): a cairn-record/2 or /3 export"
    try:
        known = dict(parse_keys(record["receipt_keys"])) if record.get("receipt_keys") is not None else {}
        known.update(keys)
        return check_heads(record["match"], facts["heads"], receipts, known)
    except ReceiptError as exc:
        return str(exc)
