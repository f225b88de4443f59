"""Hostile input stops here, with a 4xx, before any view or database sees it.

* A body over ``CAIRN_API_MAX_BODY_BYTES`` (64 KB unless set) to ``/api/``
  gets ``413`` (``body_too_large``); it is not read when its length is
  declared.
* A NUL character or text that is not UTF-8 in the path or a query
  parameter, on any page, gets ``400`` (``bad_parameter``): PostgreSQL
  refuses NUL in text (a ``DataError``, a 500 before).

Bodies themselves are checked by the API's parser (:mod:`games.api.parsers`).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse


def _error(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    if request.path_info.startswith("/api/"):
        return JsonResponse({"error": {"code": code, "message": message}}, status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def _bad_text(raw: bytes) -> str | None:
    if b"\x00" in raw:
        return "contains a NUL character"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return "is not valid UTF-8 text"
    return None


def _query_problem(request: HttpRequest) -> str | None:
    path = request.META.get("PATH_INFO", "")
    if "\x00" in path:
        return "the path contains a NUL character"
    query = request.META.get("QUERY_STRING", "")
    for part in query.replace(";", "&").split("&"):
        if not part:
            continue
        name, _, value = part.partition("=")
        for label, raw in (("name", name), ("value", value)):
            problem = _bad_text(unquote_to_bytes(raw.replace("+", " ")))
            if problem:
                shown = unquote_to_bytes(name.replace("+", " ")).decode("utf-8", "replace")[:40]
                return f"query parameter {shown!r}: its {label} {problem}"
    return None


class HostileInputMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        problem = _query_problem(request)
        if problem:
            return _error(request, 400, "bad_parameter", problem)
        if request.path_info.startswith("/api/"):
            limit = settings.CAIRN_API_MAX_BODY_BYTES
            declared = request.META.get("CONTENT_LENGTH") or ""
            try:
                length = int(declared) if declared else None
            except ValueError:
                return _error(request, 400, "bad_request", "the Content-Length header is not a number")
            if length is None and request.method in ("POST", "PUT", "PATCH", "DELETE"):
                length = len(request.body)  # no length declared (chunked): the server has buffered it
            if length is not None and length > limit:
                return _error(request, 413, "body_too_large",
                              f"the request body is {length} bytes; the API takes at most {limit}")
        return self.get_response(request)
