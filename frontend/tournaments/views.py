"""Pages of tournaments and seasons.  Thin: every write goes through games.tournaments.services."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

import ai
from engine import all_games
from games.errors import DomainError
from games.tournaments import seasons, selectors, services
from games.tournaments.models import Season

from .render import live_context


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    rows = [selectors.summary(t) for t in selectors.listing()[:100]]
    return render(request, "frontend/tournaments/list.html", {"tournaments": rows, "games": all_games()})


def _number(value: str | None) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isdigit() else None


@login_required
@require_POST
def tournament_create(request: HttpRequest) -> HttpResponse:
    post = request.POST
    data = {
        "name": post.get("name", ""), "game": post.get("game", ""), "kind": post.get("kind", ""),
        "players_per_table": _number(post.get("players_per_table")) or 2,
        "time_control": post.get("time_control") or None, "rated": post.get("rated") == "1",
        "bots_allowed": post.get("bots_allowed") == "1",
    }
    for key in ("duration_seconds", "rounds", "max_entrants"):
        if _number(post.get(key)) is not None:
            data[key] = _number(post.get(key))
    if post.get("duration_minutes"):
        minutes = _number(post.get("duration_minutes"))
        data["duration_seconds"] = minutes * 60 if minutes is not None else post.get("duration_minutes")
    if post.get("starts_at"):
        data["starts_at"] = post["starts_at"]
    if _number(post.get("min_rating")) is not None:
        data["min_rating"] = _number(post.get("min_rating"))
    try:
        tournament = services.create(user=request.user, data=data)
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("frontend:tournaments")
    return redirect("frontend:tournament", tournament_id=tournament.pk)


@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        tournament = selectors.get(tournament_id)
    except DomainError:
        raise Http404("no such tournament") from None
    context = live_context(tournament)
    context.update({"entry": selectors.entry_of(tournament, request.user), "levels": list(ai.LEVELS),
                    "oob": False})
    return render(request, "frontend/tournaments/page.html", context)


@login_required
@require_POST
def tournament_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    try:
        if action == "join":
            services.join(tournament_id=tournament_id, user=request.user)
        elif action == "withdraw":
            services.withdraw(tournament_id=tournament_id, user=request.user)
        elif action in ("pause", "resume"):
            services.pause(tournament_id=tournament_id, user=request.user, paused=action == "pause")
        elif action in ("berserk", "calm"):
            services.berserk(tournament_id=tournament_id, user=request.user, on=action == "berserk")
        elif action == "bot":
            services.add_bot(tournament_id=tournament_id, user=request.user, level=request.POST.get("level", ""))
        else:
            raise Http404("no such action")
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("frontend:tournament", tournament_id=tournament_id)


@require_GET
def tournament_export(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        tournament = selectors.get(tournament_id)
    except DomainError:
        raise Http404("no such tournament") from None
    response = HttpResponse(json.dumps(selectors.export(tournament), indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="cairn-tournament-{tournament.pk}.json"'
    return response


@require_GET
def season_page(request: HttpRequest, game_id: str) -> HttpResponse:
    games = {g.id: g for g in all_games()}
    if game_id not in games:
        raise Http404("no such game")
    season = seasons.current(game_id)
    archived = Season.objects.filter(game_id=game_id, archived=True).order_by("-number")[:8]
    return render(request, "frontend/tournaments/season.html", {
        "game": games[game_id], "season": season, "rows": seasons.leaderboard(season),
        "season_games": seasons.games(season),
        "archived": [(s, (s.final_standings or [])[:3]) for s in archived],
    })
