"""Pages of fair play: the presence panel alone, and the claim buttons."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET, require_POST

from games.errors import DomainError
from games.fairplay import leavers
from games.models import Match
from games.table import push

from . import render_presence


@require_GET
def presence_panel(request: HttpRequest, match_id: int) -> HttpResponse:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return HttpResponse(f"no match {match_id}", status=404, content_type="text/plain; charset=utf-8")
    return HttpResponse(render_presence(match, request.user))


@login_required
@require_POST
def claim(request: HttpRequest, match_id: int) -> HttpResponse:
    """Claim the win or a draw (htmx): the panel comes back, the board follows by its websocket push."""
    try:
        match = leavers.claim(match_id=match_id, user=request.user, result=request.POST.get("result"))
    except DomainError as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain; charset=utf-8")
    push.send(push.match_group(match.pk), "presence")
    match.refresh_from_db()
    return HttpResponse(render_presence(match, request.user))


@login_required
@require_POST
def takeback(request: HttpRequest, match_id: int) -> HttpResponse:
    """Take back at once (against bots) or offer it (to a person); the panel comes back, with the reason if
    refused; the board follows by its websocket push."""
    from games.fairplay import takebacks

    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return HttpResponse(f"no match {match_id}", status=404, content_type="text/plain; charset=utf-8")
    error = ""
    try:
        if any(s.user_id and not s.is_bot and s.user_id != request.user.pk for s in match.seats.all()):
            takebacks.offer(match_id=match_id, user=request.user)
            push.send(push.match_group(match.pk), "presence")
        else:
            takebacks.take_back(match_id=match_id, user=request.user)
    except DomainError as exc:
        error = exc.message
    match.refresh_from_db()
    return HttpResponse(render_presence(match, request.user, error=error))


@login_required
@require_POST
def takeback_answer(request: HttpRequest, match_id: int, answer: str) -> HttpResponse:
    from games.fairplay import takebacks

    if answer not in ("accept", "decline"):
        return HttpResponse(f"no answer {answer!r}", status=404, content_type="text/plain; charset=utf-8")
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return HttpResponse(f"no match {match_id}", status=404, content_type="text/plain; charset=utf-8")
    error = ""
    try:
        takebacks.answer(match_id=match_id, user=request.user, accept=answer == "accept")
        push.send(push.match_group(match.pk), "presence")
    except DomainError as exc:
        error = exc.message
    match.refresh_from_db()
    return HttpResponse(render_presence(match, request.user, error=error))
