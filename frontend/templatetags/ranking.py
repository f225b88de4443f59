"""Template tags of ranked play: the lobby panel, the match panel (clocks, ratings, resign/abort), charts.

They are the only hooks into the teammates' templates: ``lobby.html`` and
``match_live.html`` (a Jinja2 template) each call one hook here (``ranking_match_panel``).  The match
panel is rendered for one viewer from the match view that template already
has (``match.id``, ``match.my_seat``), so websocket pushes get it too.  It only
formats: the ranked view (clocks, forfeits, ratings) comes in the template
context as ``ranked``, built by the code that already holds the match
aggregate (``frontend.live.match_context``); a context without it gets one built
from the cached aggregate.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from engine import all_games
from games import clocks
from games.errors import DomainError
from games.fairplay import pairing, reliability
from games.models import Match
from games.ranking import challenges, matchmaking, selectors
from games.ranking import services as ranked_services

register = template.Library()

# A page that missed the websocket push still goes to a match found this recently.
READY_SECONDS = 30
# What the lobby's queue form offers as opponents' least completion rate (any 1-100 works through the API).
MIN_COMPLETION_CHOICES = [50, 70, 80, 90, 95]


def play_options() -> list[dict[str, Any]]:
    return [
        {"id": game.id, "name": game.name,
         "counts": game.metadata().get("player_counts") or list(range(game.min_players, game.max_players + 1))}
        for game in all_games()
    ]


def lobby_context(user: Any) -> dict[str, Any]:
    authenticated = bool(getattr(user, "is_authenticated", False))
    entry = matchmaking.waiting_entry(user) if authenticated else None
    last = matchmaking.last_match(user) if authenticated and entry is None else None
    ready = None
    if (last is not None and last.ended_at and last.match_id is not None
            and (timezone.now() - last.ended_at).total_seconds() < READY_SECONDS):
        ready = last.match_id if Match.objects.filter(pk=last.match_id, status=Match.Status.ACTIVE).exists() else None
    return {
        "ready_match": ready,
        "user": user,
        "authenticated": authenticated,
        "games": play_options(),
        "time_controls": clocks.LOBBY_TIME_CONTROLS,
        "default_tc": clocks.DEFAULT_TIME_CONTROL,
        "queues": matchmaking.open_queues(),
        "entry": entry,
        "min_completion_choices": MIN_COMPLETION_CHOICES,
        "entry_min_completion": pairing.minimum_of(entry) if entry else None,
        "waited": int((timezone.now() - entry.joined_at).total_seconds()) if entry else 0,
        "challenges": challenges.of_user(user) if authenticated else {"sent": [], "received": []},
        "ratings": selectors.ratings_of(user) if authenticated else [],
        "bots": selectors.bots(),
        "completion": reliability.completion(user)["shown"] if authenticated else None,
        "rated_wait": reliability.current_wait(user) if authenticated else None,
    }


@register.filter
def completion(user: Any) -> str:
    """A person's completion rate as shown beside their name ("92%", or "new")."""
    return reliability.completion(user)["shown"] if user is not None else ""


@register.inclusion_tag("frontend/ranking/lobby_panel.html", takes_context=True)
def ranking_lobby(context: template.Context) -> dict[str, Any]:
    data = lobby_context(context.get("user"))
    data["csrf_token"] = context.get("csrf_token")
    return data


MATCH_PANEL = "frontend/ranking/match_panel.html"  # a Jinja2 template (frontend/jinja.py)


def match_panel_context(ranked: dict[str, Any] | None, view: dict[str, Any], csrf_token: Any = None) -> dict[str, Any]:
    """The match panel's data for the viewer of ``view``, from ``ranked`` (the ranked view that
    ``frontend.live.match_context`` built from the match aggregate).  Called by the fragment's
    ``ranking_match_panel(match)`` (frontend/jinja.py)."""
    if not ranked or ranked.get("match") != view["id"]:
        # A page that did not pass its ranked view (frontend.live.match_context does): build it here,
        # from the cached aggregate (games.snapshots), so still nothing is replayed for the panel.
        try:
            match = Match.objects.get(pk=view["id"])
            ranked = ranked_services.ranked_view(match)
        except (Match.DoesNotExist, DomainError):
            return {"ranked": None}
    my_seat = view.get("my_seat")
    seats = []
    clock_seats = {s["seat"]: s for s in (ranked["clock"] or {}).get("seats", [])}
    names = {s["seat"]: s for s in view.get("seats", [])}
    for seat in ranked["seats"]:
        index = seat["seat"]
        seats.append({**seat, "clock": clock_seats.get(index), "is_you": index == my_seat,
                      "name": seat.get("user") or f"Bot {index + 1}", "forfeited": index in ranked["forfeits"],
                      "view": names.get(index)})
    live = view.get("status") == "active"
    mine = my_seat is not None and my_seat not in ranked["forfeits"]
    return {
        "ranked": ranked,
        "match_id": view["id"],
        "seats": seats,
        "can_resign": live and mine,
        "can_abort": live and mine and ranked["abortable"],
        "csrf_token": csrf_token,
    }


@register.simple_tag
def clock_text(seconds: float | None) -> str:
    """``m:ss`` under an hour, ``h:mm:ss`` under a day, else ``Nd Nh``."""
    if seconds is None:
        return ""
    total = max(0, int(seconds))
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


@register.simple_tag
def rating_chart(points: list[dict[str, Any]], width: int = 320, height: int = 120) -> dict[str, Any]:
    """Coordinates of an SVG rating-history chart: the rating line and its ± deviation band."""
    if not points:
        return {"empty": True}
    values = [p["rating"] for p in points]
    lows = [p["rating"] - p["deviation"] for p in points]
    highs = [p["rating"] + p["deviation"] for p in points]
    top, bottom = max(highs + [1500.0]), min(lows + [1500.0])
    span = max(1.0, top - bottom)
    pad = 8
    n = len(points)

    def x(i: int) -> float:
        return round(pad + (width - 2 * pad) * (i / (n - 1) if n > 1 else 0.5), 1)

    def y(v: float) -> float:
        return float(round(pad + (height - 2 * pad) * (top - v) / span, 1))

    line = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
    band = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(highs)) + " " + " ".join(
        f"{x(i)},{y(v)}" for i, v in reversed(list(enumerate(lows)))
    )
    return {
        "empty": False, "width": width, "height": height, "line": line, "band": band,
        "dots": [{"x": x(i), "y": y(v), "rating": round(v), "match": p["match"]} for i, (v, p) in
                 enumerate(zip(values, points))],
        "top": round(top), "bottom": round(bottom), "base_y": y(1500.0),
    }
