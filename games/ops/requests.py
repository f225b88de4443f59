"""The outermost middleware: a request id, request metrics and one access line per request.

The id is the balancer's ``X-Request-ID`` when it is a sane one (letters, digits, ``._:-``, at most 128),
else a fresh one; it is bound for the request's log lines (:mod:`games.ops.logs`) and sent back as
``X-Request-ID``.  The access line (logger ``cairn.access``, level INFO) names the method, the route,
the path (never the query string), the status and the duration.  The route is the URL pattern's name
(``api-match``, ``frontend:match``), so that ``/matches/1/`` and ``/matches/2/`` count as one; static files count as
``static`` and paths that match no pattern as ``unmatched``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from . import logs, metrics

access = logging.getLogger("cairn.access")


def route_of(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is not None:
        # The pattern's name; an unnamed pattern (an alias without its trailing slash) by its route.
        return match.view_name if match.url_name else (match.route or "unnamed")
    if request.path.startswith(settings.STATIC_URL):
        return "static"
    return "unmatched"


class RequestMiddleware:
    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = logs.new_request_id(request.headers.get("X-Request-ID"))
        request.request_id = request_id  # type: ignore[attr-defined]
        token = logs.bind(request_id)
        started = time.perf_counter()
        status = 500
        try:
            response = self.get_response(request)
            status = response.status_code
            response["X-Request-ID"] = request_id
            return response
        finally:
            elapsed = time.perf_counter() - started
            route = route_of(request)
            metrics.HTTP_REQUESTS.labels(route, request.method, str(status)).inc()
            metrics.HTTP_LATENCY.labels(route, request.method).observe(elapsed)
            access.info(
                "%s %s %s %.1fms", request.method, request.path, status, elapsed * 1000,
                extra={"method": request.method, "route": route, "path": request.path, "status": status,
                       "duration_ms": round(elapsed * 1000, 1)},
            )
            logs.unbind(token)
