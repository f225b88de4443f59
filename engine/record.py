"""``cairn-record/1``: game records that replay without a random generator."""

from __future__ import annotations

from typing import Any, Mapping

from .core import EngineError, Game, InvalidRecordError, OptionError, State
from .registry import get_game

FORMAT = "cairn-record/1"


def make_record(
    game_id: str, players: int, options: Mapping[str, Any], events: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    record: dict[str, Any] = {"format": FORMAT, "game": game_id, "players": players, "options": dict(options)}
    record.update(extra)
    record["events"] = list(events)
    return record


def open_record(record: Any) -> tuple[Game, State, list[Any]]:
    """Check the envelope; return the game, its initial state and the events.

    Raises :class:`InvalidRecordError` with ``index=None`` for a bad envelope.
    """
    if not isinstance(record, dict):
        raise InvalidRecordError("a record must be a JSON object")
    if record.get("format") != FORMAT:
        raise InvalidRecordError(f"'format' must be {FORMAT!r}, not {record.get('format')!r}")
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


def audit(record: Any) -> dict[str, Any]:
    """The verdict of ``python -m engine audit``: a replay that also checks the dice and shuffles.

    Needs what Cairn's export carries once a match has ended: ``seed`` (hex),
    ``commitment`` and ``seqs`` (the match's event number of each entry of
    ``events``).  Checks that SHA-256 of the seed is the commitment, then
    replays the events through the checked path, and checks each chance
    outcome against the one drawn from (seed, seq) by ``engine.fair.chance_rng``.
    """
    from .fair import chance_rng, commitment

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
        return fail(None, f"'seed' must be hex, not {seed_hex!r}")
    if commitment(seed) != record.get("commitment"):
        return fail(None, f"SHA-256 of the seed is {commitment(seed)}, not the record's commitment {record.get('commitment')!r}")
    seqs = record.get("seqs")
    if not isinstance(seqs, list) or len(seqs) != len(events) or not all(type(n) is int for n in seqs):
        return fail(None, "'seqs' must list the match's event number of each entry of 'events'")
    chance_events = 0
    for index, (event, seq) in enumerate(zip(events, seqs)):
        if isinstance(event, dict) and "chance" in event and state.is_chance_node():
            expected = state.chance_to_json(state.sample_chance(chance_rng(seed, seq)))
            if event["chance"] != expected:
                return fail(index, f"event {index}: chance outcome {event['chance']!r} is not {expected!r}, "
                                   f"the one the seed gives at seq {seq}")
            chance_events += 1
        try:
            state.apply_event(event)
        except EngineError as exc:
            return fail(index, f"event {index}: {exc}")
    return {
        "ok": True,
        "terminal": state.is_terminal(),
        "scores": state.scores(),
        "winners": state.winners(),
        "chance_events": chance_events,
    }
