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
