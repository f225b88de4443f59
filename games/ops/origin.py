"""Websocket handshakes from the page's own origin only: scheme, host and port, not the host alone.

Channels' ``AllowedHostsOriginValidator`` compares the ``Origin`` header's host with
``ALLOWED_HOSTS`` and ignores its scheme and port, so a page served from ``http://cairn.example.org:8080``
(another service on the same host name) could open a socket with the visitor's session cookie.
:class:`SameOriginValidator` accepts a handshake when its ``Origin`` is exactly the origin the socket
was opened on (the ``Host`` header, one of ``ALLOWED_HOSTS``, with the scheme: ``wss`` or, behind a TLS
proxy, ``SECURE_PROXY_SSL_HEADER``, means https) or one of ``CSRF_TRUSTED_ORIGINS``; anything else,
and a handshake with no ``Origin``, is refused (403 before the socket opens).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(scheme: str, host: str, port: int | None) -> tuple[str, str, int]:
    return scheme, host.lower().strip("[]"), port or DEFAULT_PORTS.get(scheme, 0)


def _parse(origin: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return _origin(parts.scheme, parts.hostname, port)


def _own_scheme(scope: dict[str, Any], headers: dict[bytes, bytes]) -> str:
    if scope.get("scheme") in ("wss", "https"):
        return "https"
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name, value = proxy_header
        header = name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        if headers.get(header, b"").decode("latin-1").split(",")[0].strip() == value:
            return "https"
    return "http"


def origin_allowed(scope: dict[str, Any]) -> bool:
    headers = {name.lower(): value for name, value in scope.get("headers", [])}
    given = headers.get(b"origin")
    if not given:
        return False
    origin = _parse(given.decode("latin-1"))
    if origin is None:
        return False
    trusted = {_parse(item) for item in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}
    if origin in trusted:
        return True
    host_header = headers.get(b"host", b"").decode("latin-1")
    domain, port = split_domain_port(host_header)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    scheme = _own_scheme(scope, headers)
    try:
        own = _origin(scheme, domain, int(port) if port else None)
    except ValueError:
        return False
    return origin == own


class SameOriginValidator:
    """ASGI middleware: refuses a websocket handshake whose ``Origin`` is not the socket's own origin."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
