"""Personal access tokens: create, list, revoke, and the ``Authorization: Bearer <token>`` authentication.

A token's secret is ``cairn_`` and 43 URL-safe characters (32 bytes from ``os.urandom``, URL-safe base64);
only its SHA-256 is stored, so the secret is shown once, when it is made.  Each token carries scopes
(:data:`SCOPES`), and every API route needs one (:mod:`.scopes`): a token without it gets
``403 missing_scope`` naming the scope.  An expired or revoked token gets ``401`` with the reason.  A
legacy ``Token <key>`` (``/api/auth/token``) keeps every scope.
"""

from __future__ import annotations

import base64
import hashlib
import os
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from .. import db
from ..api.authentication import CairnTokenAuthentication
from ..errors import BadRequest, NotFound
from . import throttles
from .models import SCOPES, AccessToken
from .scopes import check_scope

PREFIX = "cairn_"
MAX_TOKENS = 50  # live (not revoked) tokens per account
MAX_DAYS = 366
LAST_USED_RESOLUTION = timedelta(minutes=1)  # last_used_at is written at most once a minute per token


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def create(user: Any, *, name: Any, scopes: Any, expires_in_days: Any = None) -> tuple[AccessToken, str]:
    """A new token for ``user`` and its secret (shown once)."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 60:
        raise BadRequest("'name' must be text of 1 to 60 characters", code="bad_token_name")
    if not isinstance(scopes, list) or not scopes or not all(isinstance(s, str) for s in scopes):
        raise BadRequest(f"'scopes' must be a non-empty list of {', '.join(SCOPES)}", code="bad_scopes")
    unknown = [s for s in scopes if s not in SCOPES]
    if unknown:
        raise BadRequest(f"unknown scope {unknown[0][:40]!r}: the scopes are {', '.join(SCOPES)}", code="bad_scopes")
    expires_at = None
    if expires_in_days is not None:
        if isinstance(expires_in_days, bool) or not isinstance(expires_in_days, int) or not 1 <= expires_in_days <= MAX_DAYS:
            raise BadRequest(f"'expires_in_days' must be a whole number from 1 to {MAX_DAYS}, or null",
                             code="bad_expiry")
        expires_at = timezone.now() + timedelta(days=expires_in_days)
    secret = PREFIX + base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()  # as secrets.token_urlsafe(32)
    with transaction.atomic(using=db.alias()):
        if AccessToken.objects.filter(user=user, revoked_at=None).count() >= MAX_TOKENS:
            raise BadRequest(f"an account holds at most {MAX_TOKENS} tokens: revoke one first", code="too_many_tokens")
        token = AccessToken.objects.create(
            user=user, name=name.strip(), digest=digest(secret), prefix=secret[:10],
            scopes=[s for s in SCOPES if s in scopes], expires_at=expires_at,
        )
    return token, secret


def of_user(user: Any) -> list[AccessToken]:
    return list(AccessToken.objects.filter(user=user, revoked_at=None))


def revoke(user: Any, token_id: Any, reason: str = "revoked by its owner") -> AccessToken:
    try:
        token = AccessToken.objects.get(pk=int(token_id), user=user)
    except (AccessToken.DoesNotExist, TypeError, ValueError):
        raise NotFound(f"you have no token {str(token_id)[:20]}", code="token_not_found") from None
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.revoked_reason = reason
        token.save(update_fields=["revoked_at", "revoked_reason"])
    return token


def as_json(token: AccessToken) -> dict[str, Any]:
    return {
        "id": token.pk, "name": token.name, "prefix": token.prefix, "scopes": token.scopes,
        "created_at": token.created_at.isoformat(), "expires_at": token.expires_at and token.expires_at.isoformat(),
        "last_used_at": token.last_used_at and token.last_used_at.isoformat(),
    }


def revoke_on_legacy_token_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    """The legacy token goes when the password changes or the account closes: so do the access tokens."""
    AccessToken.objects.filter(user_id=instance.user_id, revoked_at=None).update(
        revoked_at=timezone.now(), revoked_reason="the password changed or the account closed")


def revoke_on_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A user saved after ``set_password``: every access token of theirs is revoked.

    Django marks a new password with ``_password`` until the save (as its ``password_changed`` hook
    does); a hash upgraded at log-in keeps the password and is not marked.
    """
    if instance.pk is not None and getattr(instance, "_password", None) is not None:
        AccessToken.objects.filter(user_id=instance.pk, revoked_at=None).update(
            revoked_at=timezone.now(), revoked_reason="the password changed")


def resolve(secret: str) -> AccessToken:
    """The live token of ``secret``, or ``AuthenticationFailed`` saying why not."""
    token = AccessToken.objects.select_related("user", "user__bot_account").filter(digest=digest(secret)).first()
    if token is None:
        raise exceptions.AuthenticationFailed("invalid token")
    if token.revoked_at is not None:
        raise exceptions.AuthenticationFailed(f"this token was revoked ({token.revoked_reason or 'by its owner'})")
    now = timezone.now()
    if token.expires_at is not None and token.expires_at <= now:
        raise exceptions.AuthenticationFailed(f"this token expired at {token.expires_at.isoformat()}")
    if not token.user.is_active:
        raise exceptions.AuthenticationFailed("the token's account is inactive or deleted")
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


class BearerAuthentication(BaseAuthentication):
    """``Authorization: Bearer <secret>``: a personal access token, held to its scopes on every route."""

    keyword = "Bearer"

    def authenticate(self, request: Any) -> tuple[Any, AccessToken] | None:
        auth = get_authorization_header(request).split()
        if not auth or auth[0].lower() != self.keyword.lower().encode():
            return None
        if len(auth) != 2:
            raise exceptions.AuthenticationFailed("the Authorization header must be 'Bearer <token>'")
        try:
            secret = auth[1].decode("ascii")
        except UnicodeError:
            raise exceptions.AuthenticationFailed("invalid token") from None
        token = resolve(secret)
        check_scope(request, token.scopes)
        if hasattr(token.user, "bot_account"):
            throttles.check(request, token.user)
        return token.user, token

    def authenticate_header(self, request: Any) -> str:
        return self.keyword


class LegacyTokenAuthentication(CairnTokenAuthentication):
    """``Authorization: Token <key>`` (every scope), with a bot account's requests counted under ``RATE_LIMIT_BOT``.

    Whether the user is a bot comes from the process's short-lived set of bot names: no query per request.
    """

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        found = super().authenticate(request)
        if found is not None:
            from .bots import bot_usernames

            if found[0].username in bot_usernames():
                throttles.check(request, found[0])
        return found
