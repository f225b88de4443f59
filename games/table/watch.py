"""Watching: the list of live matches, and how many spectators each has.

A match is listed while it is in play: active, and, unless it is played by correspondence, either
moved within ``IDLE_SECONDS`` (10 minutes) or with one of its players' sockets connected.  A
real-time (or unclocked) match whose players have all left is not shown as in play.  Each row says
the score and whose turn it is, as a spectator sees it (a rated match's spectator delay included).

The spectator count is kept in Redis so that it is right across several web
processes: a sorted set per match (``cairn:spectators:<id>``) whose members are
the spectators' socket channel names, scored by when they connected.  A socket
adds itself when it connects and removes itself when it disconnects; one that
never said goodbye (a killed process) stops counting after
``CAIRN_SPECTATOR_TTL_SECONDS``, and the whole key expires with it.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from engine import all_games, get_game
from games.errors import BadRequest
from games.models import Match, Seat

KINDS = ("all", "people", "bots")
WATCH_LIMIT = 60


@lru_cache(maxsize=1)
def _redis() -> Any:
    import redis

    return redis.Redis.from_url(settings.REDIS_URL)


IDLE_SECONDS = 10 * 60


def _key(match_id: int, who: str = "spectators") -> str:
    prefix = getattr(settings, "CHANNEL_LAYERS", {}).get("default", {}).get("CONFIG", {}).get("prefix", "cairn")
    return f"{prefix}:{who}:{match_id}"


def player_joined(match_id: int, channel_name: str) -> None:
    """A player's socket connected (counted apart from spectators: the watch list's "players here")."""
    players_still_here([(match_id, channel_name)])


def players_still_here(entries: list[tuple[int, str]]) -> None:
    """:func:`player_joined` for many open sockets ((match id, channel)) at once, in one round trip."""
    if not entries:
        return
    now, ttl = time.time(), settings.CAIRN_SPECTATOR_TTL_SECONDS
    pipe = _redis().pipeline()
    for match_id, channel_name in entries:
        key = _key(match_id, "players")
        pipe.zadd(key, {channel_name: now}).zremrangebyscore(key, "-inf", now - ttl).expire(key, ttl)
    pipe.execute()


def player_left(match_id: int, channel_name: str) -> None:
    _redis().zrem(_key(match_id, "players"), channel_name)


def players_connected(match_ids: list[int]) -> set[int]:
    """Of ``match_ids``, those with a player's socket connected now."""
    if not match_ids:
        return set()
    try:
        since = time.time() - settings.CAIRN_SPECTATOR_TTL_SECONDS
        pipe = _redis().pipeline()
        for match_id in match_ids:
            pipe.zcount(_key(match_id, "players"), since, "+inf")
        return {m for m, n in zip(match_ids, pipe.execute()) if int(n)}
    except Exception:  # noqa: BLE001 - Redis away: judge by the moves alone
        return set()


def spectator_joined(match_id: int, channel_name: str) -> int:
    """A spectator's socket connected; returns the new count."""
    r, key, now = _redis(), _key(match_id), time.time()
    ttl = settings.CAIRN_SPECTATOR_TTL_SECONDS
    pipe = r.pipeline()
    pipe.zadd(key, {channel_name: now})
    pipe.zremrangebyscore(key, "-inf", now - ttl)
    pipe.expire(key, ttl)
    pipe.zcard(key)
    return int(pipe.execute()[-1])


def spectator_left(match_id: int, channel_name: str) -> int:
    """A spectator's socket closed; returns the new count."""
    r, key = _redis(), _key(match_id)
    pipe = r.pipeline()
    pipe.zrem(key, channel_name)
    pipe.zremrangebyscore(key, "-inf", time.time() - settings.CAIRN_SPECTATOR_TTL_SECONDS)
    pipe.zcard(key)
    return int(pipe.execute()[-1])


def spectator_count(match_id: int) -> int:
    try:
        return int(_redis().zcount(_key(match_id), time.time() - settings.CAIRN_SPECTATOR_TTL_SECONDS, "+inf"))
    except Exception:  # noqa: BLE001 - a count is decoration; Redis being away must not break the page
        return 0


def spectator_counts(match_ids: list[int]) -> dict[int, int]:
    if not match_ids:
        return {}
    try:
        since = time.time() - settings.CAIRN_SPECTATOR_TTL_SECONDS
        pipe = _redis().pipeline()
        for match_id in match_ids:
            pipe.zcount(_key(match_id), since, "+inf")
        return {m: int(n) for m, n in zip(match_ids, pipe.execute())}
    except Exception:  # noqa: BLE001 - Redis away: no spectator counts rather than a broken list
        return dict.fromkeys(match_ids, 0)


def live_matches(*, game: str | None = None, kind: str | None = None) -> QuerySet[Match]:
    """Matches in play, most recently moved first; ``game`` filters by game id, ``kind`` by who plays:
    ``people`` (no bot seat), ``bots`` (at least one bot seat: matches against bots, and ranked
    matches a bot plays on), ``all``."""
    if game:
        try:
            get_game(game)
        except KeyError:
            known = ", ".join(g.id for g in all_games())
            raise BadRequest(f"unknown game {game!r}; the games are {known}", code="unknown_game") from None
    kind = kind or "all"
    if kind not in KINDS:
        raise BadRequest(f"kind must be one of {', '.join(KINDS)}, not {kind!r}", code="bad_filter")
    bot_seat = Seat.objects.filter(match=OuterRef("pk")).exclude(bot_level="")
    qs = (
        Match.objects.filter(status=Match.Status.ACTIVE)
        .select_related("created_by")
        .prefetch_related("seats__user")
        .annotate(bot_seats=Count("seats", filter=~Q(seats__bot_level="")))
        .order_by("-updated_at", "-id")
    )
    if game:
        qs = qs.filter(game_id=game)
    if kind == "people":
        qs = qs.filter(~Exists(bot_seat))
    elif kind == "bots":
        qs = qs.filter(Exists(bot_seat))
    return qs


def watch_list(*, game: str | None = None, kind: str | None = None, limit: int = WATCH_LIMIT) -> list[dict[str, Any]]:
    """The watch page's rows: game, players, clock, moves so far and spectators (public facts only)."""
    from games.clocks import time_control_key
    from games.selectors import spectator_position

    rows = in_play(list(live_matches(game=game, kind=kind)[: limit * 2]))[:limit]
    counts = spectator_counts([m.pk for m in rows])
    out = []
    for match in rows:
        shown = spectator_position(match)  # a rated match's spectator delay: its seq and time as shown
        seats = sorted(match.seats.all(), key=lambda s: s.index)
        players = [
            {"seat": s.index, "name": s.user.username if s.user is not None else _bot_name(s.bot_level),
             "bot": bool(s.bot_level), "user": s.user.username if s.user is not None else None}
            for s in seats
        ]
        out.append({
            "id": match.pk,
            "game": match.game_id,
            "game_name": get_game(match.game_id).name,
            "players": players,
            **summary(match, players),
            "rated": match.rated,
            "time_control": time_control_key(match.time_control),
            "seq": shown[0] if shown else match.seq,
            "spectators": counts.get(match.pk, 0),
            "updated_at": (shown[1] if shown and shown[1] else match.updated_at).isoformat(),
        })
    return out


def _bot_name(level: str) -> str:
    import ai

    return f"{ai.LEVELS.get(level, {}).get('label', level.capitalize())} bot"


def in_play(matches: list[Match], *, now: float | None = None) -> list[Match]:
    """Those of ``matches`` (active) still in play: played by correspondence, moved within
    ``IDLE_SECONDS``, or with a player's socket connected."""
    now = time.time() if now is None else now
    idle = [m.pk for m in matches if (m.time_control or {}).get("kind") != "correspondence"
            and now - m.updated_at.timestamp() > IDLE_SECONDS]
    present = players_connected(idle)
    return [m for m in matches if m.pk not in idle or m.pk in present]


def summary(match: Match, players: list[dict[str, Any]]) -> dict[str, Any]:
    """The score and whose turn it is, as a spectator sees the match now (public facts only)."""
    from django.contrib.auth.models import AnonymousUser

    from games import selectors

    spectator = AnonymousUser()
    aggregate = selectors.delayed_aggregate(match, spectator)
    view = selectors.match_view(match, spectator, aggregate=aggregate)
    observation = view["view"] if isinstance(view["view"], dict) else {}
    raw = observation.get("scores")
    if raw is None:  # Mountainhome: each seat's public VP
        raw = [seat.get("vp") for seat in observation.get("seats") or [] if isinstance(seat, dict)]
    names = {p["seat"]: p["name"] for p in players}
    scores = [{"seat": i, "name": names.get(i, f"Player {i + 1}"), "score": v} for i, v in enumerate(raw or [])
              if isinstance(v, (int, float))]
    return {"scores": scores, "to_move": [{"seat": i, "name": names.get(i, f"Player {i + 1}")} for i in view["to_move"]]}
