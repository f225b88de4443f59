"""Rate limits, with DRF's throttling on Django's cache.

Scopes and their defaults (``CAIRN_RATE_LIMITS`` in settings, each overridable
by an environment variable; see docs/API.md, "Limits"):

============  =============  ======================================================
scope         counted per    requests
============  =============  ======================================================
``register``  address        ``POST /api/auth/register``, the sign-up form
``login``     address        ``POST /api/auth/token``, the log-in form
``create``    user           ``POST /api/matches/``, the lobby's new-match form
``actions``   user           ``POST /api/matches/{id}/actions/``, the board's moves
``login_account`` username   ``POST /api/auth/token``, the log-in form (guessing one
                             account's password from many addresses)
``password_reset`` address   ``POST /api/account/password/reset``, the reset form
``verify_email`` user        verification mails (API and account page)
``account``   user           password change, export, deletion
============  =============  ======================================================

The rates are read at every request (not at import as DRF's own classes
do), so settings overrides take effect at once.  On Redis a limit is a fixed
window counted in one round trip (``SET key 0 EX period NX`` and ``INCR key``,
pipelined): a burst across a window's edge may reach twice the rate, never
more.  On another cache (the local-memory one of a single machine) it is DRF's
sliding window, a list of times read and written back.  ``RATE_LIMIT_FACTOR``
multiplies every limit (a load benchmark's way to lift them).  Bots never
pass through here: their moves go through the services directly
(``games.services.play_bot_turn``).  A limited request gets ``429`` with
``Retry-After`` and a message saying which limit and when to retry.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import SimpleRateThrottle

PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600, "d": 86400, "day": 86400}


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"30/min"`` -> (30, 60); None or ``"off"`` -> None.  Multiplied by ``CAIRN_RATE_LIMIT_FACTOR``."""
    if rate is None or rate == "off":
        return None
    count, _, period = rate.partition("/")
    if period not in PERIODS:
        raise ValueError(f"a rate is N/s, N/min, N/hour or N/day, not {rate!r}")
    return int(count) * max(1, int(getattr(settings, "CAIRN_RATE_LIMIT_FACTOR", 1))), PERIODS[period]


@functools.cache
def shared_cache() -> Any:
    """One cache backend for the whole process.

    ``django.core.cache.cache`` is a new backend object in every request's context (Django's handler is
    context-local), and a new ``RedisCache`` opens a new connection pool: under ASGI that was a fresh Redis
    connection for every throttled request.  This one keeps its pool (redis-py's pools are thread-safe).
    """
    return caches.create_connection("default")


@functools.cache
def redis_client() -> Any:
    """The Redis client under the shared cache, or None when the cache is not Redis.

    One per process: Django's ``get_client`` builds a new ``redis.Redis`` (its command tables and
    callbacks) on every call, which cost a socket move a twentieth of its trip through the service.  The
    client is thread-safe, and its pool checks the process id, so a forked process gets its own connections."""
    backend = shared_cache()
    if not isinstance(backend, RedisCache):
        return None
    return backend._cache.get_client(write=True)  # type: ignore[attr-defined]  # Django's RedisCache internals


class CairnThrottle(SimpleRateThrottle):
    """One scope of ``CAIRN_RATE_LIMITS``; per address, or per user (``per_user``)."""

    per_user = False
    scope = ""

    @property
    def cache(self) -> Any:  # type: ignore[override]  # DRF's class attribute is the context-local default cache
        return shared_cache()

    def __init__(self) -> None:  # SimpleRateThrottle reads the rate here; ours is read per request
        pass

    window_key: str | None = None  # the Redis counter of a refused request, for wait()

    def allow_request(self, request: Any, view: Any) -> bool:
        self.rate = settings.CAIRN_RATE_LIMITS.get(self.scope)
        parsed = parse_rate(self.rate)
        if parsed is None:
            return True
        self.num_requests, self.duration = parsed
        client = redis_client()
        if client is None:
            allowed = super().allow_request(request, view)
        else:
            allowed = self._count_in_window(client, request, view)
        if not allowed and not getattr(request, "cairn_limited_scope", None):
            request.cairn_limited_scope = self.scope  # the 429's message names the limit that was hit
        return allowed

    def _count_in_window(self, client: Any, request: Any, view: Any) -> bool:
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        key = shared_cache().make_and_validate_key(key)
        pipe = client.pipeline(transaction=False)
        pipe.set(key, 0, ex=self.duration, nx=True)
        pipe.incr(key)
        _, count = pipe.execute()
        if count > self.num_requests:
            self.window_key = key
            return False
        return True

    def wait(self) -> float | None:
        if self.window_key is None:
            return super().wait()
        left = redis_client().ttl(self.window_key)
        return float(left) if left and left > 0 else 1.0

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = getattr(request, "user", None)
        if self.per_user and user is not None and user.is_authenticated:
            ident = f"user-{user.pk}"
        else:
            ident = f"addr-{self.get_ident(request)}"
        namespace = getattr(settings, "CAIRN_RATE_LIMIT_NAMESPACE", "")
        return f"cairn-throttle:{namespace}:{self.scope}:{ident}"


class RegisterThrottle(CairnThrottle):
    scope = "register"


class LoginThrottle(CairnThrottle):
    scope = "login"


class AccountLoginThrottle(CairnThrottle):
    """Counted per username tried (case-folded), whatever the address: the guesses at one account."""

    scope = "login_account"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        data = getattr(request, "data", None)
        if data is None or not hasattr(data, "get"):
            data = request.POST
        username = data.get("username")  # a malformed body raises the view's own 400 here
        if not isinstance(username, str) or not username.strip():
            return None
        namespace = getattr(settings, "CAIRN_RATE_LIMIT_NAMESPACE", "")
        digest = hashlib.sha256(username.strip().casefold().encode("utf-8", "replace")).hexdigest()[:32]
        return f"cairn-throttle:{namespace}:{self.scope}:{digest}"  # any text makes a safe cache key


class PasswordResetThrottle(CairnThrottle):
    scope = "password_reset"


class VerifyEmailThrottle(CairnThrottle):
    scope = "verify_email"
    per_user = True


class AccountThrottle(CairnThrottle):
    scope = "account"
    per_user = True


class CreateMatchThrottle(CairnThrottle):
    scope = "create"
    per_user = True


class ActionThrottle(CairnThrottle):
    scope = "actions"
    per_user = True


WHAT = {
    "register": "sign-ups from your address",
    "login": "log-in attempts from your address",
    "create": "new matches",
    "actions": "moves",
    "login_account": "log-in attempts for this account",
    "password_reset": "password reset requests from your address",
    "verify_email": "verification mails",
    "account": "account changes",
}


def limited_message(scope: str, wait: float | None) -> str:
    seconds = max(1, int(round(wait or 1)))
    rate = settings.CAIRN_RATE_LIMITS.get(scope)
    return f"too many {WHAT.get(scope, 'requests')} (the limit is {rate}); try again in {seconds} s"


USER_THROTTLES = {cls.scope: cls for cls in (ActionThrottle, CreateMatchThrottle, AccountThrottle)}


def limited_user(user: Any, scope: str) -> str | None:
    """Count one request of ``user`` (signed in) against ``scope``'s limit, from outside an HTTP request (a move
    over the match websocket); the 429 message when the limit is hit, else None."""
    throttle = USER_THROTTLES[scope]()
    if throttle.allow_request(_Caller(user), None):
        return None
    return limited_message(scope, throttle.wait())


class _Caller:
    """What a throttle reads of a request: its user (and, for DRF's fallback, an empty ``META``)."""

    def __init__(self, user: Any) -> None:
        self.user = user
        self.META: dict[str, str] = {}


# ---------------------------------------------------------------------- the pages


PAGE_THROTTLES: dict[str, Any] = {
    "frontend:signup": RegisterThrottle,
    "frontend:login": (LoginThrottle, AccountLoginThrottle),
    "frontend:password_reset": PasswordResetThrottle,
    "frontend:account_email": VerifyEmailThrottle,
    "frontend:password_change": AccountThrottle,
    "frontend:account_delete": AccountThrottle,
    "frontend:create_match": CreateMatchThrottle,
    "frontend:submit_move": ActionThrottle,
}


class PageThrottleMiddleware:
    """The same limits for the pages' forms (POST only), so the API's are not side-stepped."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func: Any, view_args: Any, view_kwargs: Any) -> HttpResponse | None:
        if request.method != "POST" or request.resolver_match is None:
            return None
        classes = PAGE_THROTTLES.get(request.resolver_match.view_name)
        if classes is None:
            return None
        for throttle_class in classes if isinstance(classes, tuple) else (classes,):
            throttle = throttle_class()
            if not throttle.allow_request(request, None):
                break
        else:
            return None
        wait = throttle.wait()
        response = HttpResponse(limited_message(throttle.scope, wait), status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(max(1, int(round(wait or 1))))
        return response
