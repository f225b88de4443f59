"""Pages and htmx endpoints of the table plug-in.

Thin like frontend/views.py: every write goes through ``games.table`` (which
creates matches through ``games.services``), every read through its selectors.
htmx answers: 201/200 with out-of-band fragments, 4xx with the message in the
form's error line (``#chat-error``, ``#rematch-error``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from engine import all_games
from games.accounts import emails
from games.errors import DomainError
from games.requesters import logged_in
from games.table import chat, notifications, rematch, watch

from . import help as game_help


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _error(template: str, exc: DomainError) -> HttpResponse:
    return HttpResponse(render_to_string(template, {"error": exc.message}), status=exc.status)


# ---------------------------------------------------------------- chat


@require_POST
def chat_post(request: HttpRequest, match_id: int | None = None) -> HttpResponse:
    """Post a message (hx-post); it reaches every page, this one included, over the websocket."""
    try:
        chat.post(user=request.user, text=request.POST.get("text"), match_id=match_id,
                  channel=request.POST.get("channel") or None)
    except DomainError as exc:
        return _error("frontend/table/chat_error.html", exc)
    return HttpResponse(render_to_string("frontend/table/chat_error.html", {"error": ""}), status=201)


@require_POST
def chat_mute(request: HttpRequest) -> HttpResponse:
    unmute = request.POST.get("unmute") == "1"
    try:
        chat.mute(user=request.user, username=request.POST.get("username", ""), muted=not unmute)
    except DomainError as exc:
        return _error("frontend/table/chat_error.html", exc)
    # table.js removes the muted author's messages already on the page.
    return HttpResponse(status=204)


@require_POST
def chat_report(request: HttpRequest, message_id: int) -> HttpResponse:
    try:
        chat.report(user=request.user, message_id=message_id)
    except DomainError as exc:
        return HttpResponse(render_to_string("frontend/table/reported.html", {"error": exc.message}), status=exc.status)
    return HttpResponse(render_to_string("frontend/table/reported.html", {"error": None}))


@require_POST
def chat_toggle(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        chat.set_players_chat(user=request.user, match_id=match_id, enabled=request.POST.get("enabled") == "1")
    except DomainError as exc:
        return _error("frontend/table/chat_error.html", exc)
    return HttpResponse(status=204)  # the new form arrives over the websocket (chat_state)


# ---------------------------------------------------------------- rematch and new match


@require_POST
def rematch_offer(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        offer = rematch.offer(user=request.user, match_id=match_id)
    except DomainError as exc:
        return _error("frontend/table/rematch_error.html", exc)
    if offer.new_match_id:  # nobody to ask (bots accept at once): straight to the new match
        return HttpResponse(status=201, headers={"HX-Redirect": reverse("frontend:match", args=[offer.new_match_id])})
    return HttpResponse(status=201)  # the panel arrives over the websocket


@require_POST
def rematch_answer(request: HttpRequest, match_id: int, answer: str) -> HttpResponse:
    if answer not in ("accept", "decline"):
        return HttpResponse("answer must be accept or decline", status=400, content_type="text/plain")
    try:
        offer = rematch.answer(user=request.user, match_id=match_id, accept=answer == "accept")
    except DomainError as exc:
        return _error("frontend/table/rematch_error.html", exc)
    if offer.new_match_id:
        return HttpResponse(status=200, headers={"HX-Redirect": reverse("frontend:match", args=[offer.new_match_id])})
    return HttpResponse(status=200)


@require_POST
def new_match_like(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match = rematch.new_match(user=request.user, match_id=match_id)
    except DomainError as exc:
        if _is_htmx(request):
            return _error("frontend/table/rematch_error.html", exc)
        messages.error(request, exc.message)
        return redirect("frontend:match", match_id=match_id)
    target = reverse("frontend:match", args=[match.pk])
    if _is_htmx(request):
        return HttpResponse(status=201, headers={"HX-Redirect": target})
    return redirect(target)


# ---------------------------------------------------------------- watching


@require_GET
def watch_page(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game") or None
    kind = request.GET.get("kind") or "all"
    try:
        rows = watch.watch_list(game=game, kind=kind)
    except DomainError as exc:
        return render(request, "frontend/error.html", {"message": exc.message}, status=exc.status)
    context: dict[str, Any] = {
        "rows": rows, "games": [{"id": g.id, "name": g.name} for g in all_games()],
        "filters": {"game": game or "", "kind": kind}, "kinds": watch.KINDS,
    }
    if _is_htmx(request) and request.GET.get("part") == "list":
        return render(request, "frontend/table/watch_list.html", context)
    return render(request, "frontend/table/watch.html", context)


@require_GET
def spectators(request: HttpRequest, match_id: int) -> HttpResponse:
    """The "N watching" count alone (the match page reads it every few seconds)."""
    return render(request, "frontend/table/spectators.html",
                  {"count": watch.spectator_count(match_id), "match_id": match_id})


# ---------------------------------------------------------------- help


@require_GET
def help_page(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        game = game_help.game_info(game_id)
    except KeyError:
        raise Http404(f"There is no game {game_id!r}.") from None
    others = [g for g in game_help.game_cards() if g["id"] != game_id]
    return render(request, "frontend/help/page.html", {"game": game, "others": others,
                                                      "queue_grace": settings.CAIRN_QUEUE_LEAVE_GRACE_SECONDS})


# ---------------------------------------------------------------- notification settings


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request: HttpRequest) -> HttpResponse:
    from games.fairplay import reminders

    prefs = notifications.settings_of(request.user)
    error = None
    if request.method == "POST":
        email = request.POST.get("email", "").strip()
        try:
            notifications.update(
                user=request.user, sound=request.POST.get("sound") == "1", browser=request.POST.get("browser") == "1",
                email_turn=request.POST.get("email_turn") == "1", email=email,
            )
            reminders.set_reminders(user=request.user, on=request.POST.get("correspondence_reminder") == "1")
        except DomainError as exc:
            error = exc.message
        else:
            messages.success(request, "Your notification settings are saved.")
            return redirect("frontend:notification_settings")
        prefs = notifications.settings_of(request.user)
    return render(request, "frontend/table/settings.html",
                  {"prefs": prefs, "error": error, "email": logged_in(request.user).email,
                   "reminders": reminders.wants_reminders(request.user),
                   "email_verified": emails.is_verified(request.user)}, status=400 if error else 200)
