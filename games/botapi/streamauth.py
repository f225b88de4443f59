"""Who opens a stream: the session, a legacy ``Token <key>``, or a ``Bearer`` access token with ``read``.

The streams are plain Django async views (DRF's views are synchronous), so the same authentication
classes run here in a worker thread, once per stream.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header

from .tokens import BearerAuthentication, LegacyTokenAuthentication


class StreamRefused(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers or {}


def _authenticate(request: Any) -> Any:
    header = get_authorization_header(request).split()
    try:
        if header:
            for cls in (BearerAuthentication, LegacyTokenAuthentication):
                found = cls().authenticate(request)
                if found is not None:
                    return found[0]
            raise exceptions.AuthenticationFailed("the Authorization header must be 'Bearer <token>' or 'Token <key>'")
    except exceptions.APIException as exc:
        status = 401 if isinstance(exc, exceptions.AuthenticationFailed) else exc.status_code
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
        raise StreamRefused(status, str(code), str(exc.detail), {"WWW-Authenticate": "Bearer"} if status == 401 else None) from None
    user = request.user  # the session (Django's AuthenticationMiddleware)
    if not user.is_authenticated:
        raise StreamRefused(401, "not_authenticated", "a stream needs a token (Authorization: Bearer <token>) "
                            "or a logged-in session", {"WWW-Authenticate": "Bearer"})
    return user


async def authenticate(request: Any) -> Any:
    """The stream's user, or :class:`StreamRefused` (401, or 403 for a token without ``read``)."""
    return await sync_to_async(with_db, thread_sensitive=False)(_authenticate, request)


def with_db(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` as a request would run it: stale database connections closed before and after."""
    close_old_connections()
    try:
        return fn(*args)
    finally:
        close_old_connections()
