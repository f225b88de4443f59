"""Outages of the database or Redis answer 503 with a message, never a 500 page or a hang.

:class:`OutageMiddleware` (the first entry of ``MIDDLEWARE``) turns the errors
that mean "a backing service cannot be reached" into ``503 Service
Unavailable`` with ``Retry-After``:

* the database: ``django.db.OperationalError`` and ``InterfaceError``
  (PostgreSQL restarting, refusing connections, a dropped connection);
* Redis, as channel layer or Celery broker: redis-py's ``ConnectionError`` /
  ``TimeoutError``, kombu's ``OperationalError`` and the OS's
  ``ConnectionError`` (a refused socket).

The answer has the shape of what was asked for: ``{"error": {"code":
"service_unavailable", "message"}}`` under ``/api/``; a small HTML fragment for
htmx requests (``HX-Request``), which the page's script shows in its banner
(frontend/static/frontend/offline.js); a plain HTML page otherwise.  None of
them touches the database or a template context processor, so they can be
rendered while the database is down.

Errors raised inside a view reach :meth:`OutageMiddleware.process_exception`.
Errors raised by other middleware (the session middleware saving a session,
for one) are turned into a 500 by Django before this middleware sees them; the
``got_request_exception`` signal marks the request when the cause is an
outage, and :meth:`OutageMiddleware.__call__` replaces that 500 by the 503.

A 503 never hides a stored move: a move is committed before its notification
and its bot task are sent (``transaction.on_commit``), and those two catch
their own errors (games/notify.py, games/services.py); the sweeps send them
again later.  A client that re-sends a move after a 503 names the same
``expected_seq``, so a move that was in fact stored is refused as stale (409),
never played twice.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from html import escape
from typing import Any

from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
CODE = "service_unavailable"
_MARK = "_cairn_outage"


def _redis_errors() -> tuple[type[BaseException], ...]:
    found: list[type[BaseException]] = []
    try:
        from redis import exceptions as redis_exceptions

        found += [redis_exceptions.ConnectionError, redis_exceptions.TimeoutError]
    except ImportError:  # pragma: no cover - redis is a dependency
        pass
    try:
        from kombu.exceptions import OperationalError as KombuOperationalError

        found.append(KombuOperationalError)
    except ImportError:  # pragma: no cover - kombu comes with Celery
        pass
    return tuple(found)


DATABASE_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError)
REDIS_ERRORS: tuple[type[BaseException], ...] = _redis_errors()


def outage_of(exc: BaseException | None) -> str | None:
    """``"database"``, ``"redis"`` or None: which backing service ``exc`` (or its cause) says is down."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, DATABASE_ERRORS):
            return "database"
        if isinstance(exc, REDIS_ERRORS) or isinstance(exc, (ConnectionRefusedError, ConnectionResetError)):
            return "redis"
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


MESSAGES = {
    "database": "Cairn cannot reach its database right now, so nothing was changed. Try again in a few seconds.",
    "redis": "Cairn cannot reach its message service right now, so nothing was changed. Try again in a few seconds.",
}


def outage_response(request: HttpRequest, service: str) -> HttpResponse:
    """The 503 for ``request``: JSON under /api/, a fragment for htmx, a page otherwise."""
    message = MESSAGES[service]
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"error": {"code": CODE, "message": message}}, status=503)
    elif request.headers.get("HX-Request") == "true":
        response = HttpResponse(
            f'<div id="outage-message" class="alert outage" role="alert" data-outage="{service}">{escape(message)}</div>',
            status=503,
            content_type="text/html; charset=utf-8",
        )
    else:
        response = HttpResponse(_PAGE.format(message=escape(message)), status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    response["X-Cairn-Outage"] = service
    return response


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="10"><title>Back in a moment · Cairn</title>
<link rel="stylesheet" href="/static/frontend/cairn.css"></head>
<body><main class="page"><section class="card narrow" role="alert"><h1>Back in a moment</h1>
<p>{message}</p><p class="muted">This page reloads itself every 10 seconds.</p></section></main></body></html>
"""


def _mark_outage(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """``got_request_exception``: remember on the request that its 500 was an outage."""
    service = outage_of(sys.exc_info()[1])
    if request is not None and service:
        setattr(request, _MARK, service)


got_request_exception.connect(_mark_outage, dispatch_uid="cairn-outage-mark")


class OutageMiddleware:
    """Database or Redis unreachable -> 503 with a message and ``Retry-After`` (see the module's docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        service = getattr(request, _MARK, None)
        if service and response.status_code == 500:
            return outage_response(request, service)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        service = outage_of(exception)
        if service is None:
            return None
        logger.warning("503 for %s %s: %s unavailable (%s: %s)", request.method, request.path, service,
                       type(exception).__name__, exception)
        return outage_response(request, service)
