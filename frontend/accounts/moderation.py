"""The moderators' pages: the queue of reported messages, one report with its context, the action log.

Only people with ``accounts.moderate`` see them (others get 403); every action
goes through :func:`games.accounts.moderation.act`, which checks again.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from games.accounts import moderation
from games.accounts.models import ModerationAction
from games.errors import DomainError
from games.table.models import ChatMessage


def _refused(request: HttpRequest, exc: DomainError) -> HttpResponse:
    return render(request, "frontend/error.html", {"message": exc.message}, status=exc.status)


@login_required
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    filters = {key: request.GET.get(key, "") for key in ("status", "channel", "reported", "reporter")}
    filters["status"] = filters["status"] or "open"
    try:
        moderation.require_moderator(request.user)
        rows = moderation.reported_messages(status=filters["status"], channel=filters["channel"] or None,
                                            reported=filters["reported"] or None,
                                            reporter=filters["reporter"] or None)
    except DomainError as exc:
        return _refused(request, exc)
    page = Paginator(rows, 25).get_page(request.GET.get("page"))
    items = [moderation.report_json(message) for message in page.object_list]
    return render(request, "frontend/accounts/moderation_queue.html", {
        "items": items, "page": page, "filters": filters, "statuses": moderation.STATUSES,
        "channels": ChatMessage.Channel.values, "kinds": ModerationAction.Kind.choices,
    })


@login_required
@require_GET
def report_detail(request: HttpRequest, message_id: int) -> HttpResponse:
    try:
        moderation.require_moderator(request.user)
        message = moderation._message(message_id)
    except DomainError as exc:
        return _refused(request, exc)
    return render(request, "frontend/accounts/moderation_report.html", {
        "item": moderation.report_json(message), "kinds": ModerationAction.Kind.choices,
    })


@login_required
@require_POST
def act(request: HttpRequest) -> HttpResponse:
    minutes = request.POST.get("minutes") or None
    try:
        action = moderation.act(
            moderator=request.user, kind=request.POST.get("kind"), reason=request.POST.get("reason"),
            username=request.POST.get("username") or None, message_id=request.POST.get("message") or None,
            minutes=int(minutes) if minutes and minutes.isdigit() else minutes,
        )
    except DomainError as exc:
        return _refused(request, exc)
    messages.success(request, f"Done: {action.get_kind_display().lower()} ({action.subject.username}).")
    back = request.POST.get("next") or ""
    return redirect(back if back.startswith("/moderation/") else "frontend:moderation_queue")


@login_required
@require_GET
def action_log(request: HttpRequest) -> HttpResponse:
    try:
        moderation.require_moderator(request.user)
    except DomainError as exc:
        return _refused(request, exc)
    username = request.GET.get("user", "")
    return render(request, "frontend/accounts/moderation_log.html", {
        "actions": moderation.actions(username=username or None), "user_filter": username,
        "kinds": ModerationAction.Kind.choices,
    })
