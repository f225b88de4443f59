"""The one exception handler: every API error is ``{"error": {"code", "message"}}``.

Domain errors (games.errors) keep their status and code; DRF's own errors
(validation, authentication, throttling, unknown routes) and Django's
``Http404`` / ``PermissionDenied`` are folded into the same shape.
"""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response

from ..errors import DomainError, shorten
from .throttles import limited_message


def _flatten(detail: Any, prefix: str = "") -> list[str]:
    if isinstance(detail, dict):
        out: list[str] = []
        for key, value in detail.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            out.extend(_flatten(value, "" if key == "non_field_errors" else name))
        return out
    if isinstance(detail, list):
        out = []
        for item in detail:
            out.extend(_flatten(item, prefix))
        return out
    text = str(detail)
    return [f"{prefix}: {text}" if prefix else text]


def error_response(status_code: int, code: str, message: str, headers: dict | None = None) -> Response:
    return Response({"error": {"code": code, "message": message}}, status=status_code, headers=headers)


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, DomainError):
        return error_response(exc.status, exc.code, exc.message)
    if isinstance(exc, Http404):
        return error_response(404, "not_found", str(exc) or "not found")
    if isinstance(exc, PermissionDenied):
        return error_response(403, "forbidden", str(exc) or "permission denied")
    if isinstance(exc, exceptions.Throttled):
        throttles: list[Any] = getattr(context.get("view"), "get_throttles", list)()
        scope = str(getattr(context.get("request"), "cairn_limited_scope", None) or (
            getattr(throttles[0], "scope", "") if throttles else "") or "")
        wait = max(1, math.ceil(getattr(exc, "wait", None) or 1))
        return error_response(429, "rate_limited", limited_message(scope, wait), {"Retry-After": str(wait)})
    if isinstance(exc, exceptions.APIException):
        headers = {}
        if auth_header := getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = auth_header
        if wait_for := getattr(exc, "wait", None):
            headers["Retry-After"] = str(max(1, math.ceil(wait_for)))
        if isinstance(exc, exceptions.ValidationError):
            return error_response(status.HTTP_400_BAD_REQUEST, "invalid", shorten("; ".join(_flatten(exc.detail))))
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
        return error_response(exc.status_code, str(code), shorten("; ".join(_flatten(exc.detail))), headers)
    return None


@csrf_exempt  # a POST to no route is a 404 whoever sends it, not a CSRF page (an id out of range)
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """Unknown routes under /api/ answer in the same error shape."""
    from django.http import JsonResponse

    return JsonResponse({"error": {"code": "not_found", "message": f"no API route {request.path}"}}, status=404)


def server_error(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """handler500: the error shape for the API, Django's page for everything else."""
    from django.http import JsonResponse
    from django.views import defaults

    if request.path.startswith("/api/"):
        return JsonResponse({"error": {"code": "server_error", "message": "internal server error"}}, status=500)
    return defaults.server_error(request, *args, **kwargs)
