"""The analysis button of the replay page (htmx): queue the analysis, answer with the panel."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET, require_POST

from games.analysis import services
from games.errors import DomainError
from games.models import Match

from . import render_panel


@login_required
@require_POST
def ask(request: HttpRequest, match_id: int) -> HttpResponse:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return HttpResponse(f"There is no match {match_id}.", status=404, content_type="text/plain; charset=utf-8")
    error = ""
    try:
        services.request_analysis(match_id=match_id, user=request.user)
    except DomainError as exc:  # in play, already queued, too many: said in the panel
        error = exc.message
    return HttpResponse(render_panel(match, request.user, error=error))


@require_GET
def panel(request: HttpRequest, match_id: int) -> HttpResponse:
    """The panel alone: what a page whose socket missed a push asks for now and then."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return HttpResponse(f"There is no match {match_id}.", status=404, content_type="text/plain; charset=utf-8")
    return HttpResponse(render_panel(match, request.user))
