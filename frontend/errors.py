"""The styled error pages (handler404 and handler500 in config/urls.py).

The API keeps its JSON error shape (``{"error": {"code", "message"}}``) under ``/api/``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string


def page_not_found(request: HttpRequest, exception: Any = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"error": {"code": "not_found", "message": f"no such address: {request.path}"}},
                            status=404)
    return render(request, "frontend/404.html", {"request_path": request.path}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"error": {"code": "server_error", "message": "internal server error"}}, status=500)
    # No request context: the database or the session may be what failed.
    return HttpResponse(render_to_string("frontend/500.html"), status=500)
