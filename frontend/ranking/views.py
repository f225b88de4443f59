"""Pages of ranked play: play/cancel from the lobby, challenges, resign/abort, profiles, leaderboards.

Thin like frontend/views.py: every write goes through games.ranking or
games.services, every read through games.ranking.selectors.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from engine import all_games
from frontend.templatetags.ranking import lobby_context
from games import services
from games.errors import DomainError
from games.fairplay import reliability
from games.ranking import challenges, matchmaking, selectors


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _back_to_lobby(request: HttpRequest, error: str | None = None) -> HttpResponse:
    """htmx: the refreshed panel (with the error); otherwise post/redirect/get with a message."""
    if _is_htmx(request):
        context = lobby_context(request.user)
        context["error"] = error
        return render(request, "frontend/ranking/lobby_panel.html", context, status=400 if error else 200)
    if error:
        messages.error(request, error)
    return redirect("frontend:lobby")


@require_GET
def lobby_panel(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/ranking/lobby_panel.html", lobby_context(request.user))


@login_required
@require_POST
def play(request: HttpRequest) -> HttpResponse:
    """"Play rated" / "Play casual": join the queue of a game, player count and time control."""
    try:
        players = int(request.POST.get("players", ""))
    except ValueError:
        return _back_to_lobby(request, "Choose how many players.")
    try:
        matchmaking.join(
            user=request.user, game_id=request.POST.get("game", ""), players=players,
            time_control=request.POST.get("time_control") or None, rated=request.POST.get("rated") == "1",
            min_completion=request.POST.get("min_completion") or None,
        )
    except DomainError as exc:
        return _back_to_lobby(request, exc.message)
    last = matchmaking.last_match(request.user)
    entry = matchmaking.waiting_entry(request.user)
    if entry is None and last is not None:  # paired at once
        target = reverse("frontend:match", kwargs={"match_id": last.match_id})
        return HttpResponse(headers={"HX-Redirect": target}) if _is_htmx(request) else redirect(target)
    return _back_to_lobby(request)


@login_required
@require_POST
def cancel(request: HttpRequest) -> HttpResponse:
    try:
        matchmaking.cancel(user=request.user)
    except DomainError as exc:
        return _back_to_lobby(request, exc.message)
    return _back_to_lobby(request)


@login_required
@require_POST
def challenge(request: HttpRequest) -> HttpResponse:
    try:
        challenges.create(
            user=request.user, opponent=request.POST.get("opponent", "").strip(),
            game_id=request.POST.get("game", ""), rated=request.POST.get("rated") == "1",
            time_control=request.POST.get("time_control") or None,
        )
    except DomainError as exc:
        return _back_to_lobby(request, exc.message)
    return _back_to_lobby(request)


@login_required
@require_POST
def challenge_answer(request: HttpRequest, challenge_id: int, answer: str) -> HttpResponse:
    if answer not in ("accept", "decline"):
        return render(request, "frontend/error.html", {"message": f"No such answer {answer!r}."}, status=404)
    try:
        if answer == "accept":
            accepted = challenges.accept(challenge_id=challenge_id, user=request.user)
            target = reverse("frontend:match", kwargs={"match_id": accepted.match_id})
            return HttpResponse(headers={"HX-Redirect": target}) if _is_htmx(request) else redirect(target)
        challenges.decline(challenge_id=challenge_id, user=request.user)
    except DomainError as exc:
        return _back_to_lobby(request, exc.message)
    return _back_to_lobby(request)


@login_required
@require_POST
def match_ending(request: HttpRequest, match_id: int, ending: str) -> HttpResponse:
    """Resign or abort; the page is updated by the websocket push that follows."""
    if ending not in ("resign", "abort"):
        return render(request, "frontend/error.html", {"message": f"No such ending {ending!r}."}, status=404)
    target = reverse("frontend:match", kwargs={"match_id": match_id})
    try:
        (services.resign if ending == "resign" else services.abort)(match_id=match_id, user=request.user)
    except DomainError as exc:
        if _is_htmx(request):
            return HttpResponse(exc.message, status=exc.status, content_type="text/plain; charset=utf-8")
        messages.error(request, exc.message)
    if _is_htmx(request):
        return HttpResponse(headers={"HX-Redirect": target})
    return redirect(target)


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    try:
        user = selectors.user_or_404(username)
        filters = {k: request.GET.get(k) or None for k in ("game", "rated", "result")}
        history = selectors.match_history(user, game=filters["game"], rated=filters["rated"], result=filters["result"],
                                          viewer=request.user)
    except DomainError as exc:
        return render(request, "frontend/error.html", {"message": exc.message}, status=exc.status)
    charts = selectors.history_of(user)
    ratings = [dict(r, history=charts.get(r["game"], [])) for r in selectors.ratings_of(user)]
    return render(request, "frontend/ranking/profile.html", {
        "profile_user": user, "ratings": ratings, "history": history, "filters": filters,
        "games": [{"id": g.id, "name": g.name} for g in all_games()], "results": selectors.RESULTS,
        "completion": reliability.completion(user),
        # a wait before rated play is shown to its person only
        "rated_wait": reliability.current_wait(user) if request.user.pk == user.pk else None,
    })


@require_GET
def ladders(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/ranking/ladders.html", {"ladders": selectors.ladders(), "bots": selectors.bots()})


@require_GET
def leaderboard(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        board = selectors.leaderboard(game_id)
    except DomainError as exc:
        return render(request, "frontend/error.html", {"message": exc.message}, status=exc.status)
    return render(request, "frontend/ranking/leaderboard.html", {"board": board})
