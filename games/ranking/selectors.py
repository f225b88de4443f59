"""Reads of ranked play: leaderboards, profiles, rating history, match history.  No writes."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef

import ai
from engine import all_games, get_game

from ..botapi import bots as bot_accounts
from ..clocks import time_control_key
from ..errors import BadRequest, NotFound
from ..models import Match, Seat
from .models import PROVISIONAL_DEVIATION, Rating, RatingChange
from .ratings import bot_display, display, shown

RESULTS = ("win", "draw", "loss", "aborted", "playing")


def game_or_404(game_id: str) -> Any:
    try:
        return get_game(game_id)
    except KeyError:
        raise NotFound(f"no game {game_id!r}", code="unknown_game") from None


def user_or_404(username: str) -> Any:
    try:
        return get_user_model().objects.get(username__iexact=username)
    except get_user_model().DoesNotExist:
        raise NotFound(f"there is no user {username!r}", code="user_not_found") from None


def bots(game_id: str | None = None) -> list[dict[str, Any]]:
    """Every bot level with its fixed, published rating (from the bots' arena results)."""
    return [bot_display(level, game_id) for level in ai.LEVELS]


def leaderboard(game_id: str, *, limit: int = 100) -> dict[str, Any]:
    """Non-provisional players of one game's ladder, best first: rank, rating, deviation, games.

    Deleted and banned accounts (inactive) are left out; their ratings stay in the ladder's history.
    """
    game = game_or_404(game_id)
    rows = (
        Rating.objects.select_related("user")
        .filter(game_id=game.id, deviation__lt=PROVISIONAL_DEVIATION, user__is_active=True)
        .order_by("-rating", "deviation", "user__username")[:limit]
    )
    provisional = Rating.objects.filter(game_id=game.id, deviation__gte=PROVISIONAL_DEVIATION,
                                        user__is_active=True).count()
    return {
        "game": game.id,
        "game_name": game.name,
        "players": [
            {"rank": rank, "user": r.user.username, "rating": round(r.rating, 1), "deviation": round(r.deviation, 1),
             "games": r.games, "shown": display(r.rating, r.deviation)["full"]}
            for rank, r in enumerate(rows, start=1)
        ],
        "provisional_players": provisional,
        "bots": bots(game.id),
    }


def ladders() -> list[dict[str, Any]]:
    out = []
    for game in all_games():
        board = leaderboard(game.id, limit=5)
        out.append({"game": game.id, "game_name": game.name, "top": board["players"],
                    "provisional_players": board["provisional_players"]})
    return out


def ratings_of(user: Any) -> list[dict[str, Any]]:
    """A user's rating on every game (the starting 1500? ± 500 where they have played no rated match)."""
    mine = {r.game_id: r for r in Rating.objects.filter(user=user)}
    out = []
    for game in all_games():
        r = mine.get(game.id)
        out.append({
            "game": game.id, "game_name": game.name, "games": r.games if r else 0,
            **display(r.rating if r else None, r.deviation if r else None),
        })
    return out


def history_of(user: Any, game_id: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """Rating after each rated match, per game, oldest first (the profile's chart)."""
    qs = RatingChange.objects.filter(user=user).order_by("game_id", "ladder_seq")
    if game_id:
        qs = qs.filter(game_id=game_id)
    out: dict[str, list[dict[str, Any]]] = {}
    for c in qs:
        out.setdefault(c.game_id, []).append({
            "match": c.match_id, "at": c.at.isoformat(), "rating": round(c.rating_after, 2),
            "deviation": round(c.deviation_after, 2), "delta": round(c.rating_after - c.rating_before, 2),
            "place": c.place, "players": c.players, "system": c.system,
        })
    return out


def result_for(match: Match, seat: int) -> str:
    if match.status != Match.Status.FINISHED:
        return "playing"
    if match.ending == "aborted" or not match.result:
        return "aborted"
    winners = match.result.get("winners") or []
    if seat in winners:
        return "win" if len(winners) == 1 else "draw"
    return "loss"


def match_history(
    user: Any, *, game: str | None = None, rated: str | None = None, result: str | None = None, limit: int = 50,
    viewer: Any = None,
) -> list[dict[str, Any]]:
    """The user's matches, newest first, filtered by game, rated (``true``/``false``) and result.

    ``viewer``: who asks.  A rated match in play that they watch behind (the spectator delay) shows the
    time of the event they are shown as ``updated_at``, not its last move's."""
    from ..selectors import spectator_position
    if rated not in (None, "", "true", "false"):
        raise BadRequest(f"rated must be true or false, not {rated!r}", code="bad_filter")
    if result not in (None, "", *RESULTS):
        raise BadRequest(f"result must be one of {', '.join(RESULTS)}, not {result!r}", code="bad_filter")
    mine = Seat.objects.filter(match=OuterRef("pk"), user=user)
    qs = Match.objects.filter(Exists(mine)).prefetch_related("seats__user").order_by("-updated_at", "-id")
    if game:
        qs = qs.filter(game_id=game)
    if rated:
        qs = qs.filter(rated=rated == "true")
    changes = {c.match_id: c for c in RatingChange.objects.filter(user=user)}
    out = []
    for match in qs[: limit * 4 if result else limit]:
        seats = sorted(match.seats.all(), key=lambda s: s.index)
        seat = next(s.index for s in seats if s.user_id == user.pk)
        outcome = result_for(match, seat)
        if result and outcome != result:
            continue
        change = changes.get(match.pk)
        out.append({
            "match": match.pk,
            "url": f"/matches/{match.pk}/",
            "game": match.game_id,
            "players": match.players,
            "rated": match.rated,
            "time_control": time_control_key(match.time_control),
            "status": match.status,
            "ending": match.ending or None,
            "result": outcome,
            "seat": seat,
            "opponents": [
                s.user.username if not (s.is_bot and not s.replaced) and s.user is not None else f"bot ({s.bot_level})"
                for s in seats if s.index != seat
            ],
            "rating_delta": round(change.rating_after - change.rating_before, 1) if change else None,
            "rating_after": round(change.rating_after, 1) if change else None,
            "rating_shown": shown(change.rating_after) if change else None,
            "updated_at": match.updated_at.isoformat(),
        })
        position = spectator_position(match, viewer)  # None for its players (the user among them)
        if position is not None and position[1] is not None:
            out[-1]["updated_at"] = position[1].isoformat()
        if len(out) >= limit:
            break
    return out


def profile(user: Any) -> dict[str, Any]:
    return {"user": user.username, "bot_account": bot_accounts.is_bot(user), "ratings": ratings_of(user),
            "history": history_of(user)}
