"""``/settings/api/``: make, list and revoke access tokens; accept bots; turn the account into a bot."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games.api.throttles import AccountThrottle
from games.botapi import bots, tokens
from games.botapi.models import SCOPES, BotAccount
from games.errors import DomainError

SCOPE_HELP = {
    "read": "read matches, profiles and both streams",
    "play": "create, join and play matches; resign; the queue",
    "challenge": "send, accept and decline challenges",
    "chat": "write in match chat",
    "bot": "turn this account into a bot account",
}


def _page(request: HttpRequest, *, error: str | None = None, secret: str | None = None, status: int = 200) -> HttpResponse:
    user = request.user
    account = BotAccount.objects.filter(user_id=user.pk).first()  # type: ignore[misc]  # login_required
    return render(request, "frontend/botapi/settings.html", {
        "tokens": tokens.of_user(user), "scopes": [(s, SCOPE_HELP[s]) for s in SCOPES], "error": error,
        "secret": secret, "pref": bots.preference(user), "bot_account": account,
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def api_settings(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return _page(request)
    action = request.POST.get("do")
    try:
        if action == "token":
            if not AccountThrottle().allow_request(request, None):
                return _page(request, error="Too many account changes; try again later.", status=429)
            days = request.POST.get("expires_in_days", "").strip()
            token, secret = tokens.create(
                request.user, name=request.POST.get("name", ""), scopes=request.POST.getlist("scopes"),
                expires_in_days=int(days) if days.isdigit() else (None if not days else -1),
            )
            return _page(request, secret=secret)
        if action == "accept_bots":
            bots.set_preference(request.user, rated=request.POST.get("rated") == "1",
                                casual=request.POST.get("casual") == "1")
            messages.success(request, "Saved.")
        elif action == "become_bot":
            if request.POST.get("confirm") != "1":
                return _page(request, error="Tick the box to confirm: a bot account cannot be turned back.", status=400)
            bots.make_bot(request.user)
            messages.success(request, "This account is now a bot account.")
        else:
            return _page(request, error="Unknown request.", status=400)
    except DomainError as exc:
        return _page(request, error=exc.message, status=exc.status)
    return redirect("frontend:api_settings")


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        revoked = tokens.revoke(request.user, token_id)
    except DomainError as exc:
        return _page(request, error=exc.message, status=exc.status)
    messages.success(request, f"The token {revoked.name!r} is revoked.")
    return redirect("frontend:api_settings")
