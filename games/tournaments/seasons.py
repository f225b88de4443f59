"""Seasons: each game's rated play in periods of three months (by default), with a leaderboard.

A rated match counts in the season in which it started (its ``started`` event), whatever its end.
Points per game are an arena's before streaks (2 per opponent finishing behind, 1 per opponent tied),
added to the player's :class:`SeasonLine` as each match ends: the leaderboard is never recomputed.
At a season's end :func:`roll` archives it with its final standings, and the next one begins.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from engine import tournament as T

from .. import db
from ..models import Event, Match
from .models import Season, SeasonGame, SeasonLine


def months() -> int:
    return int(getattr(settings, "CAIRN_SEASON_MONTHS", 3))


def bounds(at: datetime, length: int | None = None) -> tuple[int, datetime, datetime]:
    """The season (its number, start and end) that contains ``at``: seasons of ``length`` months
    from January 2026, in UTC."""
    length = length or months()
    at = at.astimezone(UTC)
    index = ((at.year - 2026) * 12 + at.month - 1) // length
    first = index * length

    def month_start(offset: int) -> datetime:
        return datetime(2026 + offset // 12, offset % 12 + 1, 1, tzinfo=UTC)

    return index + 1, month_start(first), month_start(first + length)


def season_at(game_id: str, at: datetime) -> Season:
    number, starts, ends = bounds(at)
    season, _ = Season.objects.get_or_create(game_id=game_id, number=number,
                                             defaults={"starts_at": starts, "ends_at": ends})
    return season


def count_match(match: Match, seats: list[Any], places: list[int]) -> None:
    """Add a finished rated match to the leaderboard of the season it started in (inside its saving
    transaction).  A season already archived keeps its final standings: a late ending is not added."""
    started = Event.objects.filter(match=match, type=Event.Type.STARTED).values_list("timestamp", flat=True).first()
    season = season_at(match.game_id, started or match.created_at)
    if season.archived:
        return
    if SeasonGame.objects.filter(match=match).exists():  # counted once
        return
    SeasonGame.objects.create(season=season, match=match)
    for seat in seats:
        if not seat.user_id:
            continue
        points = T.arena_base(places, seat.index)
        line, _ = SeasonLine.objects.get_or_create(season=season, user_id=seat.user_id)
        SeasonLine.objects.filter(pk=line.pk).update(points=F("points") + points, games=F("games") + 1,
                                                    wins=F("wins") + int(T.is_win(places, seat.index)))


def leaderboard(season: Season, limit: int = 100) -> list[dict[str, Any]]:
    if season.archived and season.final_standings is not None:
        standings: list[dict[str, Any]] = season.final_standings[:limit]
        return standings
    rows = (SeasonLine.objects.filter(season=season).select_related("user")
            .order_by("-points", "-wins", "games", "user_id")[:limit])
    return [{"rank": rank, "user": line.user.username, "points": line.points, "games": line.games, "wins": line.wins}
            for rank, line in enumerate(rows, start=1)]


def roll(now: datetime | None = None) -> int:
    """Archive every season that has ended, with its final standings; how many were archived."""
    now = now or timezone.now()
    archived = 0
    for pk in Season.objects.filter(archived=False, ends_at__lte=now).values_list("pk", flat=True):
        with transaction.atomic(using=db.alias()):
            season = Season.objects.select_for_update().get(pk=pk)
            if season.archived:
                continue
            season.final_standings = leaderboard(season, limit=10_000)
            season.archived = True
            season.save(update_fields=["final_standings", "archived"])
            archived += 1
    return archived


def current(game_id: str, now: datetime | None = None) -> Season:
    return season_at(game_id, now or timezone.now())


def games(season: Season, limit: int = 20) -> list[dict[str, Any]]:
    """The season's latest counted games: match id, players and places."""
    rows = SeasonGame.objects.filter(season=season).select_related("match").order_by("-id")[:limit]
    out = []
    for row in rows:
        seats = sorted(row.match.seats.select_related("user"), key=lambda s: s.index)
        places = (row.match.result or {}).get("ranking") or []
        out.append({"match": row.match_id, "players": [s.user.username if s.user is not None else s.bot_level for s in seats],
                    "places": list(places)})
    return out
