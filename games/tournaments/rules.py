"""The settings a tournament may have: every bad value is a 400 naming the problem."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from engine import get_game
from engine import tournament as T

from .. import clocks
from ..errors import BadRequest, excerpt

MAX_ENTRANTS = 1000
MAX_ROUND_ROBIN = 20
MAX_SWISS_ROUNDS = 20
MIN_ARENA_SECONDS = 30
MAX_ARENA_SECONDS = 24 * 3600
MAX_AHEAD = timedelta(days=90)
PAST_SLACK = timedelta(seconds=5)  # a start "now" that took a moment to arrive is not in the past


def _int(data: dict[str, Any], key: str, low: int, high: int, default: Any = None) -> Any:
    value = data.get(key, default)
    if value is None:
        return None
    if type(value) is not int or not low <= value <= high:
        raise BadRequest(f"'{key}' must be a whole number from {low} to {high}, not {excerpt(value)}", code=f"bad_{key}")
    return value


def _bool(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if value is not True and value is not False:
        raise BadRequest(f"'{key}' must be true or false, not {excerpt(value)}", code=f"bad_{key}")
    return value


def normalize(data: dict[str, Any], now: datetime | None = None) -> dict[str, Any]:
    """The model fields of a new tournament from what a person asked for."""
    now = now or timezone.now()
    name = data.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 80:
        raise BadRequest("'name' must be 1 to 80 characters", code="bad_name")
    try:
        game_id = data.get("game")
        game = get_game(game_id) if isinstance(game_id, str) else None
    except KeyError:
        game = None
    if game is None:
        raise BadRequest(f"unknown game {excerpt(data.get('game'))}", code="unknown_game")
    kind = data.get("kind")
    if kind not in T.KINDS:
        raise BadRequest(f"'kind' must be one of {', '.join(T.KINDS)}, not {excerpt(kind)}", code="bad_kind")
    counts = game.metadata().get("player_counts") or list(range(game.min_players, game.max_players + 1))
    size = data.get("players_per_table", 2)
    if type(size) is not int or size not in counts:
        raise BadRequest(f"{game.name} is played by {', '.join(map(str, counts))} players a table, "
                         f"not {excerpt(size)}", code="bad_players_per_table")
    tc = clocks.normalize_time_control(data.get("time_control") or None)
    if kind == "arena" and (tc is None or tc["kind"] != clocks.REALTIME):
        raise BadRequest("an arena needs a real-time clock such as '3+2'", code="bad_time_control")
    starts = data.get("starts_at")
    if isinstance(starts, str):
        try:
            starts = datetime.fromisoformat(starts)
        except ValueError:
            raise BadRequest(f"'starts_at' must be an ISO 8601 time, not {excerpt(starts)}", code="bad_starts_at") from None
    if starts is None:
        starts = now
    if not isinstance(starts, datetime):
        raise BadRequest(f"'starts_at' must be an ISO 8601 time, not {excerpt(starts)}", code="bad_starts_at")
    if timezone.is_naive(starts):
        raise BadRequest("'starts_at' must name its time zone (e.g. 2026-12-01T18:00:00Z)", code="bad_starts_at")
    if starts < now - PAST_SLACK:
        raise BadRequest(f"'starts_at' {starts.isoformat()} is in the past", code="start_in_past")
    if starts > now + MAX_AHEAD:
        raise BadRequest("'starts_at' may be at most 90 days ahead", code="bad_starts_at")
    limit = MAX_ROUND_ROBIN if kind == "round_robin" else MAX_ENTRANTS
    max_entrants = _int(data, "max_entrants", size, limit, default=min(limit, 200))
    duration = rounds = None
    if kind == "arena":
        duration = _int(data, "duration_seconds", MIN_ARENA_SECONDS, MAX_ARENA_SECONDS)
        if duration is None:
            raise BadRequest("an arena needs 'duration_seconds'", code="bad_duration_seconds")
        if data.get("rounds") is not None:
            raise BadRequest("an arena runs for a time, not a number of rounds", code="bad_rounds")
    elif kind == "swiss":
        rounds = _int(data, "rounds", 1, MAX_SWISS_ROUNDS)
        if rounds is None:
            raise BadRequest("a Swiss needs 'rounds'", code="bad_rounds")
    elif data.get("rounds") is not None:
        raise BadRequest("a round robin's rounds follow from its entrants", code="bad_rounds")
    if kind != "arena" and data.get("duration_seconds") is not None:
        raise BadRequest("only an arena has 'duration_seconds'", code="bad_duration_seconds")
    min_rating = data.get("min_rating")
    if min_rating is not None and (type(min_rating) not in (int, float) or not 0 <= min_rating <= 4000):
        raise BadRequest(f"'min_rating' must be 0 to 4000, not {excerpt(min_rating)}", code="bad_min_rating")
    completion = data.get("min_completion")
    if completion is not None and (type(completion) not in (int, float) or not 0 <= completion <= 1):
        raise BadRequest(f"'min_completion' must be a rate from 0 to 1, not {excerpt(completion)}",
                         code="bad_min_completion")
    return {
        "name": name.strip(), "game_id": game.id, "kind": kind, "table_size": size, "time_control": tc,
        "starts_at": starts, "duration_seconds": duration, "rounds": rounds, "rated": _bool(data, "rated"),
        "min_rating": min_rating, "min_completion": completion, "bots_allowed": _bool(data, "bots_allowed"),
        "max_entrants": max_entrants,
    }


def ends_at(tournament: Any) -> datetime | None:
    """When an arena stops pairing (its start plus its length); None for other kinds."""
    if tournament.kind != "arena":
        return None
    starts_at: datetime = tournament.starts_at
    return starts_at + timedelta(seconds=tournament.duration_seconds or 0)
