"""The client's address: ``X-Forwarded-For`` is believed only from a trusted proxy.

``TRUSTED_PROXIES`` (comma-separated addresses or networks, e.g. ``10.0.0.5,10.0.1.0/24``; empty by
default) is the one setting.  gunicorn's ``forwarded_allow_ips`` is set from it (config/gunicorn.py),
so uvicorn rewrites a connection's client address from ``X-Forwarded-For`` only when the connection
comes from one of these; and :class:`ClientAddressMiddleware` does the same for Django, whatever
server runs it: when ``REMOTE_ADDR`` is a trusted proxy, the client is the right-most address of
``X-Forwarded-For`` that is not a trusted proxy.  Anywhere else the header is ignored, so a client
cannot choose the address its rate limits count against.  DRF's throttles read ``REMOTE_ADDR``
(``NUM_PROXIES`` is 0).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(raw: str | list[str] | tuple[str, ...]) -> tuple[Network, ...]:
    """``"10.0.0.5, 10.0.1.0/24"`` (or a list of them) as networks; raises ValueError naming a bad one."""
    items = raw.split(",") if isinstance(raw, str) else list(raw)
    networks = []
    for item in (part.strip() for part in items):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"TRUSTED_PROXIES: {item!r} is not an IP address or network") from None
    return tuple(networks)


@lru_cache(maxsize=8)
def _networks(raw: tuple[str, ...]) -> tuple[Network, ...]:
    return parse_networks(raw)


def _is_trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(remote_addr: str, forwarded_for: str | None, trusted: tuple[Network, ...]) -> str:
    """The client's address given the peer ``remote_addr`` and its ``X-Forwarded-For``."""
    if not forwarded_for or not trusted or not _is_trusted(remote_addr, trusted):
        return remote_addr
    client = remote_addr
    for hop in reversed([part.strip() for part in forwarded_for.split(",")]):
        try:
            ipaddress.ip_address(hop.strip("[]"))
        except ValueError:
            break  # a malformed hop: the last good one (a trusted proxy) stands
        client = hop.strip("[]")
        if not _is_trusted(client, trusted):
            break
    return client


class ClientAddressMiddleware:
    """Sets ``REMOTE_ADDR`` to the client behind a trusted proxy (see the module's docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        trusted = _networks(tuple(getattr(settings, "CAIRN_TRUSTED_PROXIES", ())))
        if trusted:
            remote = request.META.get("REMOTE_ADDR", "")
            request.META["REMOTE_ADDR"] = client_address(remote, request.META.get("HTTP_X_FORWARDED_FOR"), trusted)
        return self.get_response(request)
