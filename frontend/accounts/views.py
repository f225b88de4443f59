"""Account pages: the settings page, email verification, export, deletion, password change and reset.

Thin like frontend/views.py: every change goes through ``games.accounts``.  The
password pages are Django's own views (tokens from Django's
``PasswordResetTokenGenerator``: a link expires after ``PASSWORD_RESET_TIMEOUT``
and works once, since the new password changes the hash it signs).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from rest_framework.authtoken.models import Token

from games.accounts import emails, export, lifecycle, sanctions
from games.accounts.passwords import VerifiedPasswordResetForm
from games.errors import DomainError
from games.requesters import logged_in

from .forms import DeleteAccountForm, EmailForm


def _account_context(request: HttpRequest, **extra: object) -> dict[str, Any]:
    user = logged_in(request.user)
    return {
        "email": user.email, "verified": emails.is_verified(user),
        "sanctions": sanctions.in_force(user), "warnings": sanctions.warnings(user, limit=5),
        "delete_form": DeleteAccountForm(), **extra,
    }


@login_required
@require_GET
def account(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/accounts/account.html", _account_context(request))


@login_required
@require_POST
def account_email(request: HttpRequest) -> HttpResponse:
    """Set a new address (a verification mail goes to it), or mail a new link for the current one."""
    try:
        if request.POST.get("resend") == "1":
            emails.send_verification(request.user)
            messages.success(request, f"A new verification link is on its way to {logged_in(request.user).email}.")
        else:
            form = EmailForm(request.POST)
            address = form.data.get("email", "")
            if emails.set_address(request.user, address):
                messages.success(request, f"Check your mail: a link to verify {logged_in(request.user).email} is on its way.")
            elif not logged_in(request.user).email:
                messages.success(request, "Your email address is removed.")
            else:
                messages.success(request, "Your email address is unchanged.")
    except DomainError as exc:
        return render(request, "frontend/accounts/account.html", _account_context(request, error=exc.message),
                      status=exc.status)
    return redirect("frontend:account")


@require_GET
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the verification mail: works signed in or not (it names the account itself)."""
    try:
        user = emails.verify(token)
    except DomainError as exc:
        return render(request, "frontend/accounts/link_invalid.html", {"message": exc.message}, status=exc.status)
    return render(request, "frontend/accounts/email_verified.html", {"email": user.email})


@login_required
@require_GET
def account_export(request: HttpRequest) -> HttpResponse:
    body = json.dumps(export.export(request.user), indent=2, ensure_ascii=False)
    stamp = timezone.now().strftime("%Y%m%d")
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="cairn-{request.user.pk}-{stamp}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    form = DeleteAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            lifecycle.delete_account(request.user, form.cleaned_data["password"])
        except DomainError as exc:
            form.add_error("password", exc.message)
        else:
            logout(request)
            return render(request, "frontend/accounts/deleted.html")
    status = 400 if request.method == "POST" else 200
    return render(request, "frontend/accounts/delete.html", {"form": form}, status=status)


# ---------------------------------------------------------------- Django's password views, in the site's look


password_reset = auth_views.PasswordResetView.as_view(
    form_class=VerifiedPasswordResetForm,
    template_name="frontend/accounts/password_reset.html",
    email_template_name="accounts/password_reset_email.txt",
    subject_template_name="accounts/password_reset_subject.txt",
    success_url=reverse_lazy("frontend:password_reset_sent"),
)
password_reset_sent = auth_views.PasswordResetDoneView.as_view(template_name="frontend/accounts/password_reset_sent.html")
class _EndsTokens:
    """A new password ends the account's API tokens too (sessions end by Django's session hash)."""

    def form_valid(self, form: Any) -> HttpResponse:
        response: HttpResponse = super().form_valid(form)  # type: ignore[misc]  # a mixin of Django's form views
        Token.objects.filter(user=form.user).delete()
        return response


class PasswordResetConfirm(_EndsTokens, auth_views.PasswordResetConfirmView):
    template_name = "frontend/accounts/password_reset_confirm.html"
    success_url = reverse_lazy("frontend:password_reset_complete")


class PasswordChange(_EndsTokens, auth_views.PasswordChangeView):
    template_name = "frontend/accounts/password_change.html"
    success_url = reverse_lazy("frontend:password_changed")


password_reset_confirm = PasswordResetConfirm.as_view()
password_reset_complete = auth_views.PasswordResetCompleteView.as_view(
    template_name="frontend/accounts/password_reset_complete.html")
password_change = PasswordChange.as_view()


@login_required
@require_GET
def password_changed(request: HttpRequest) -> HttpResponse:
    messages.success(request, "Your password is changed. Your other sessions are signed out.")
    return redirect("frontend:account")
