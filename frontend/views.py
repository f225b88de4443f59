"""Thin page views.  Every write goes through ``games.services``; reads through ``games.selectors``."""

from __future__ import annotations

import time
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

import ai
from engine import all_games, get_game
from games import selectors, services
from games.errors import DomainError, NotFound
from games.models import Match

from . import moves
from .forms import CreateMatchForm, SignUpForm, bot_labels_by_game
from .live import match_context, render_match_fragment, replay_context

LIST_LIMIT = 30


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _get_match(match_id: int) -> Match:
    try:
        return Match.objects.get(pk=match_id)
    except Match.DoesNotExist:
        raise NotFound(f"There is no match {match_id}.") from None


# ---------------------------------------------------------------- accounts


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("frontend:lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Cairn, {user.username}! Start a match below.")
        return redirect("frontend:lobby")
    return render(request, "frontend/signup.html", {"form": form})


# ---------------------------------------------------------------- lobby


def _lobby_context(request: HttpRequest, form: CreateMatchForm | None = None) -> dict[str, Any]:
    user = request.user
    return {
        "games": [game.metadata() for game in all_games()],
        "bot_levels": ai.LEVELS,
        "bot_labels": bot_labels_by_game(),
        "form": form or CreateMatchForm(),
        "waiting": [selectors.match_summary(m, user) for m in selectors.lobby(user)[:LIST_LIMIT]],
        "mine": [selectors.match_summary(m, user) for m in selectors.user_matches(user)[:LIST_LIMIT]],
    }


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    context = _lobby_context(request)
    if _is_htmx(request) and request.GET.get("part") == "lists":
        return render(request, "frontend/partials/lobby_lists.html", context)
    return render(request, "frontend/lobby.html", context)


@login_required
@require_POST
def create_match(request: HttpRequest) -> HttpResponse:
    form = CreateMatchForm(request.POST)
    if form.is_valid():
        try:
            match = services.create_match(
                user=request.user,
                game_id=form.cleaned_data["game"],
                seats=form.seats(),
                options=form.options(),
                time_control=form.chosen_time_control(),
                # the page's share of the dice (receipts.js, crypto.getRandomValues); none: the server makes one
                contribution=request.POST.get("contribution") or None,
                commitment=request.POST.get("commitment") or None,  # the seed offered before the contribution
            )
        except DomainError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("frontend:match", match_id=match.pk)
    return render(request, "frontend/lobby.html", _lobby_context(request, form), status=400)


@login_required
@require_POST
def join_match(request: HttpRequest, match_id: int) -> HttpResponse:
    target = reverse("frontend:match", kwargs={"match_id": match_id})
    try:
        services.join_match(match_id=match_id, user=request.user, contribution=request.POST.get("contribution") or None)
    except DomainError as exc:
        messages.error(request, exc.message)
        if isinstance(exc, NotFound):
            target = reverse("frontend:lobby")
    if _is_htmx(request):
        return HttpResponse(headers={"HX-Redirect": target})
    return redirect(target)


# ---------------------------------------------------------------- the match page


@require_GET
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match = _get_match(match_id)
        context = match_context(match, request.user)
    except DomainError as exc:
        return render(request, "frontend/error.html", {"message": exc.message}, status=exc.status)
    services.nudge_if_stalled(match)  # a bot turn lost with a worker is re-queued on the next look
    context["ws_path"] = f"/ws/matches/{match.pk}/"
    # This page's id: its socket skips the push of a move this page made (the answer shows it).
    context["client_id"] = uuid.uuid4().hex
    return render(request, "frontend/match.html", context)


@require_GET
def replay_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """Step through a match: the board after any event, as the viewer saw it (``?seq=N``)."""
    raw = request.GET.get("seq", "").strip()
    seq: int | None = None
    if raw:
        try:
            seq = int(raw)
        except ValueError:
            return render(
                request, "frontend/error.html", {"message": f"seq must be a whole number, not {raw!r}."}, status=400
            )
    try:
        match = _get_match(match_id)
        context = replay_context(match, request.user, seq)
    except DomainError as exc:
        return render(request, "frontend/error.html", {"message": exc.message}, status=exc.status)
    from .analysis import (
        context as analysis_context,  # the graph, the marks, the accuracy (frontend/analysis)
    )

    context["analysis"] = analysis_context(match, request.user, context["step"]["seq"], context["players"], request.path)
    by_seq = context["analysis"].get("by_seq") or {}
    for item in context["log"]:
        item["analysis"] = by_seq.get(item["seq"])
    return render(request, "frontend/replay.html", context)


AUDIT_CHECKS = [
    ("seq", "Numbering", "The events are numbered 1, 2, 3 … with no gap."),
    ("hash_chain", "Hash chain",
     "Each event stores the previous event's hash, and its own hash is SHA-256 of that plus a salted hash of "
     "the event (SHA-256 of a secret per-event nonce, derived from the seed, and the event's canonical JSON). "
     "Changing, removing or inserting any event breaks the chain from there on, and a sealed event's hash "
     "tells nobody what it hides until the seed, and with it every nonce, is revealed at the end."),
    ("seed_commitment", "Seed commitment",
     "When the match was created, only SHA-256 of its secret seed was published. The seed revealed at the end "
     "hashes to that commitment, so it was fixed before the first roll."),
    ("chance_outcomes", "Fair dice and shuffles",
     "Every chance event (a roll, a shuffle, a draw) equals the one drawn from the seed and its event number "
     "with HMAC-SHA256. Nobody could choose them."),
    ("legality", "Legal moves", "Replayed through the rules engine, every move was legal when it was made."),
    ("result", "Result", "The stored result equals the result of the replayed game."),
    ("endings", "Endings", "Resignations, timeouts, aborts and seats handed to bots follow the clock and the rules "
     "of ranked play."),
]


# While a match is in play its seed is still secret: these checks are worded for that.
AUDIT_LIVE_TEXT = {
    "seed_commitment":
        "When the match was created, only SHA-256 of its secret seed was published, and the server checks its "
        "seed against that commitment. The seed itself stays secret until the match ends; then anyone can check "
        "that it hashes to the commitment, so it was fixed before the first roll.",
    "chance_outcomes":
        "The server checks every chance event so far (a roll, a shuffle, a draw) against the one drawn from the "
        "secret seed and its event number with HMAC-SHA256. Once the seed is revealed at the end, anyone can "
        "repeat this check.",
}


@require_GET
def verify_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """The audit of a match, for people: each check of ``games.verify`` explained, and how to repeat it."""
    try:
        match = _get_match(match_id)
    except DomainError as exc:
        return render(request, "frontend/error.html", {"message": exc.message}, status=exc.status)
    verdict = selectors.verdict_for(match, request.user)  # a delayed spectator: up to the seq shown
    # The checks run event by event, so a failure stops them all there: the others are
    # "stopped" (they held for the events before it), not "passed".
    live = match.status != Match.Status.FINISHED
    checks = [
        {"key": key, "title": title, "text": AUDIT_LIVE_TEXT.get(key, text) if live else text,
         "state": "passed" if verdict.ok else "failed" if key == verdict.check else "stopped"}
        for key, title, text in AUDIT_CHECKS
    ]
    finished = match.status == Match.Status.FINISHED
    game = get_game(match.game_id)
    return render(
        request,
        "frontend/verify.html",
        {
            "match": match,
            "game_name": game.name,
            # every record reveals everything once the match has ended, so any game audits offline
            "hidden_information": not game.perfect_information,
            "chain_version": match.chain_version,
            "verdict": verdict,
            "checks": checks,
            "finished": finished,
            "seed": match.seed if finished else None,
            "record_url": request.build_absolute_uri(f"/api/matches/{match.pk}/record"),
            "api_url": request.build_absolute_uri(f"/api/matches/{match.pk}/verify"),
        },
    )


@require_GET
def match_fragment(request: HttpRequest, match_id: int) -> HttpResponse:
    """The live fragment alone (what the websocket pushes), for a manual refresh."""
    try:
        match = _get_match(match_id)
        html = render_match_fragment(match, request.user, oob=_is_htmx(request), request=request)
    except DomainError as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain; charset=utf-8")
    return HttpResponse(html)


@require_POST
def submit_move(request: HttpRequest, match_id: int) -> HttpResponse:
    """Submit a move (hx-post).  Answers with the viewer's fresh fragment, with the error if any.

    The status code says what happened (201 accepted; 400, 403, 404, 409 as
    in the API); htmx is configured to swap 4xx answers so the message shows.
    The same move may come over the match websocket instead (``frontend.consumers``).
    """
    started = time.perf_counter()
    if not request.user.is_authenticated:
        return _move_answer(request, None, moves.LOG_IN, 403)
    # The answer carries the fragment, so this page's socket is spared the same one (notify.from_origin).
    outcome = moves.play(
        match_id=match_id, user=request.user, fields=request.POST,
        origin=request.headers.get("X-Cairn-Client") if _is_htmx(request) else None,
        lag_ms=moves.lag_of(request.headers.get("X-Cairn-Lag")),
    )
    try:
        match = outcome.match or _get_match(match_id)  # as the move left it, or as it is now, for the answer
    except NotFound as exc:
        return _move_answer(request, None, exc.message, 404)
    answer = _move_answer(request, match, outcome.error, outcome.status)
    if outcome.stored:
        # The page measures its move's round trip less this (lag.js) and sends it with its next move.
        answer["X-Cairn-Server-Ms"] = str(round((time.perf_counter() - started) * 1000))
    return answer


def _move_answer(request: HttpRequest, match: Match | None, error: str | None, status: int) -> HttpResponse:
    if not _is_htmx(request):
        # Without htmx: post/redirect/get, with the error as a message.
        if error:
            messages.error(request, error)
        if match is None:
            return redirect(reverse("frontend:lobby"))
        return redirect("frontend:match", match_id=match.pk)
    if match is None:
        html = render_to_error_fragment(error or "")
    else:
        html = render_match_fragment(match, request.user, error=error, oob=True, request=request)
    return HttpResponse(html, status=status)


def render_to_error_fragment(message: str) -> str:
    from django.template.loader import render_to_string

    return render_to_string("frontend/partials/move_error.html", {"error": message, "oob": True})
