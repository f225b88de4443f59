"""Password reset and change, with Django's own forms and token generator.

A reset link carries the user id (base64) and a token from Django's
``PasswordResetTokenGenerator``: it expires after ``PASSWORD_RESET_TIMEOUT``
seconds and works once (the token signs the password hash, which the reset
changes).  Mail goes only to an active account's verified address, and the
answer to a reset request is the same whether or not such an account exists.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordChangeForm, PasswordResetForm, SetPasswordForm
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from rest_framework.authtoken.models import Token

from games.errors import BadRequest

from . import emails


class VerifiedPasswordResetForm(PasswordResetForm):
    """Django's form; mail goes only to active accounts whose address is verified."""

    def get_users(self, email: str) -> Iterator[Any]:
        for user in super().get_users(email):
            if emails.is_verified(user):
                yield user

    def save(self, **kwargs: Any) -> None:  # type: ignore[override]  # Django's keyword arguments, passed on
        kwargs.setdefault("email_template_name", "accounts/password_reset_email.txt")
        kwargs.setdefault("subject_template_name", "accounts/password_reset_subject.txt")
        context = dict(kwargs.get("extra_email_context") or {})
        context.update({"site_url": settings.CAIRN_SITE_URL, "hours": max(1, settings.PASSWORD_RESET_TIMEOUT // 3600)})
        kwargs["extra_email_context"] = context
        super().save(**kwargs)


def _form_error(form: Any) -> BadRequest:
    text = "; ".join(f"{'' if field == '__all__' else field + ': '}{error}" for field, errors in form.errors.items()
                     for error in errors)
    return BadRequest(text or "the form is not valid", code="invalid_password")


def request_reset(email: Any, request: Any = None) -> None:
    """Mail a reset link if an active account has this verified address; silent either way."""
    form = VerifiedPasswordResetForm({"email": email if isinstance(email, str) else ""})
    if not form.is_valid():
        raise BadRequest("give an email address", code="bad_email")
    form.save(request=request, use_https=False, domain_override="cairn")


def confirm_reset(uid: Any, token: Any, new_password: Any) -> Any:
    """Set a new password from a reset link's ``uid`` and ``token``; 400 for an expired, used or forged one."""
    User = get_user_model()
    try:
        user = User.objects.get(pk=force_str(urlsafe_base64_decode(str(uid))), is_active=True)
    except (TypeError, ValueError, OverflowError, User.DoesNotExist):
        user = None
    if user is None or not default_token_generator.check_token(user, str(token)):
        raise BadRequest("this reset link has expired, has been used already, or is not one Cairn sent",
                         code="bad_link")
    form = SetPasswordForm(user, {"new_password1": new_password, "new_password2": new_password})
    if not form.is_valid():
        raise _form_error(form)
    form.save()
    Token.objects.filter(user=user).delete()  # an old API token stops working with the old password
    return user


def change(user: Any, old_password: Any, new_password: Any) -> Token:
    """Change the password (the old one confirms); other sessions and the old API tokens end.  Returns a new token."""
    form = PasswordChangeForm(user, {"old_password": old_password, "new_password1": new_password,
                                     "new_password2": new_password})
    if not form.is_valid():
        raise _form_error(form)
    form.save()
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)
