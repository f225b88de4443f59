"""Email addresses: set one, mail a verification link, verify it.

The link carries a value signed with ``SECRET_KEY`` by Django's signing
(:func:`django.core.signing.dumps`, salted for this use and timestamped): the
user id and the address.  It verifies that address for that user only, and only
for ``EMAIL_VERIFY_MAX_AGE`` seconds; a changed address makes an older link
useless.  Mail other than the verification itself (a "your turn" email, a
password reset) goes only to a verified address (:func:`is_verified`).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string

from games.errors import BadRequest, DomainError

from .models import VerifiedEmail

SALT = "cairn.accounts.verify-email"
logger = logging.getLogger(__name__)


class MailNotSent(DomainError):
    status = 503


def is_verified(user: Any) -> bool:
    return bool(user.email) and VerifiedEmail.objects.filter(user=user, email__iexact=user.email).exists()


def check_address(email: Any) -> str:
    if not isinstance(email, str):
        raise BadRequest("the email address must be text", code="bad_email")
    email = email.strip()
    try:
        validate_email(email)
    except ValidationError:
        raise BadRequest(f"{email[:80]!r} is not an email address", code="bad_email") from None
    return get_user_model().objects.normalize_email(email)


def make_token(user: Any, email: str) -> str:
    return signing.dumps({"u": user.pk, "e": email}, salt=SALT, compress=True)


def verify_url(user: Any, email: str) -> str:
    return f"{settings.CAIRN_SITE_URL}/settings/account/email/verify/{make_token(user, email)}/"


def send_verification(user: Any) -> None:
    """Mail a link that verifies the person's current address."""
    if not user.email:
        raise BadRequest("you have no email address to verify", code="no_email")
    context = {"user": user, "email": user.email, "url": verify_url(user, user.email),
               "hours": settings.CAIRN_EMAIL_VERIFY_MAX_AGE // 3600}
    message = render_to_string("accounts/verify_email.txt", context)
    try:
        send_mail("Verify your email address for Cairn", message, None, [user.email])
    except OSError as exc:  # the mail server is away: the address is saved, the link can be sent again
        logger.warning("could not mail a verification link to user %s: %s", user.pk, exc)
        raise MailNotSent("the address is saved, but the mail server did not take the verification mail; "
                          "send the link again later", code="mail_not_sent") from None


def set_address(user: Any, email: Any) -> bool:
    """Change (or clear, with "") the person's address; a new address gets a verification mail.

    Returns True when a verification mail was sent.
    """
    email = "" if email in ("", None) else check_address(email)
    if user.email == email:
        return False
    user.email = email
    user.save(update_fields=["email"])
    if email and not is_verified(user):
        send_verification(user)
        return True
    return False


def verify(token: Any) -> Any:
    """Verify the address a link names; returns the user.  400 for a forged, expired or stale link."""
    try:
        data = signing.loads(str(token), salt=SALT, max_age=settings.CAIRN_EMAIL_VERIFY_MAX_AGE)
    except signing.SignatureExpired:
        raise BadRequest("this verification link has expired; ask for a new one on your account page",
                         code="link_expired") from None
    except signing.BadSignature:
        raise BadRequest("this verification link is not valid", code="bad_link") from None
    user = get_user_model().objects.filter(pk=data.get("u"), is_active=True).first()
    if user is None or not user.email or user.email.lower() != str(data.get("e", "")).lower():
        raise BadRequest("this link verifies an address the account no longer has", code="stale_link")
    try:
        with transaction.atomic():
            VerifiedEmail.objects.get_or_create(user=user, email=user.email)
    except IntegrityError:
        pass
    return user
