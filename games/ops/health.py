"""``/healthz`` and ``/readyz``: is the process up, and can it serve.

``/healthz`` answers 200 ``{"status": "ok"}`` whenever the process runs; it touches nothing (a
liveness probe: restart the process when it fails).

``/readyz`` runs every check at once, each in a thread of its own, and waits at most
``READYZ_TIMEOUT`` seconds (default 1) for all of them; a check that has not answered by then fails
as ``timeout``, so a dependency that accepts connections and never answers cannot hang the probe.
200 when every check passed, else 503; the body names each check, whether it passed, how long it took
(milliseconds) and, when it failed, why::

    {"status": "ready", "checks": {"database": {"ok": true, "ms": 1.4}, ...}}

The checks:

* ``database``: ``SELECT 1`` on the default database;
* ``migrations``: no migration of the code is unapplied (remembered once true);
* ``redis``: the Celery broker's Redis answers ``PING`` (the cache uses it too unless ``CACHE_URL``
  names another, which is checked as ``cache``);
* ``channel_layer``: every Redis server of the channel layer answers ``PING``;
* ``workers``: a Celery worker of this deployment's queue wrote its heartbeat within
  ``WORKER_HEARTBEAT_STALE_SECONDS`` (:mod:`games.ops.heartbeat`); ``READYZ_WORKERS=0`` leaves it
  out (a web host that should keep serving while the workers are away).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, JsonResponse

from . import heartbeat

Check = Callable[[], None]


def healthz(request: HttpRequest) -> JsonResponse:
    """``GET /healthz``: the process is up."""
    return _no_store(JsonResponse({"status": "ok"}))


def readyz(request: HttpRequest) -> JsonResponse:
    """``GET /readyz``: every dependency answered in time (200), or not (503)."""
    results = run_checks(checks(), timeout=float(getattr(settings, "CAIRN_READYZ_TIMEOUT", 1.0)))
    ready = all(result["ok"] for result in results.values())
    body = {"status": "ready" if ready else "unavailable", "checks": results}
    response = _no_store(JsonResponse(body, status=200 if ready else 503))
    response._has_been_logged = True  # type: ignore[attr-defined]  # the access line says it; no error line per probe
    return response


def _no_store(response: JsonResponse) -> JsonResponse:
    response["Cache-Control"] = "no-store"
    return response


def checks() -> dict[str, Check]:
    """The checks of this deployment, by name."""
    found: dict[str, Check] = {
        "database": check_database,
        "migrations": check_migrations,
        "redis": lambda: ping_redis(settings.CELERY_BROKER_URL),
    }
    cache_url = _redis_cache_url()
    if cache_url and cache_url != settings.CELERY_BROKER_URL:
        found["cache"] = lambda: ping_redis(cache_url)
    found["channel_layer"] = check_channel_layer
    if getattr(settings, "CAIRN_READYZ_WORKERS", True):
        found["workers"] = check_workers
    return found


def run_checks(named: dict[str, Check], *, timeout: float) -> dict[str, dict[str, Any]]:
    """Run every check at once, each in a daemon thread; wait at most ``timeout`` seconds in all."""
    results: dict[str, dict[str, Any]] = {}
    threads: dict[str, threading.Thread] = {}
    started = time.perf_counter()

    def run(name: str, check: Check) -> None:
        begun = time.perf_counter()
        outcome: dict[str, Any] = {"ok": False, "error": "the check did not finish"}
        try:
            check()
        except Exception as exc:  # noqa: BLE001 - the check's failure is the answer
            outcome = {"ok": False, "error": _describe(exc)}
        else:
            outcome = {"ok": True}
        finally:
            if name in ("database", "migrations"):
                connections.close_all()  # this thread's connections (a pooled one goes back to its pool)
        outcome["ms"] = round((time.perf_counter() - begun) * 1000, 1)
        results[name] = outcome

    for name, check in named.items():
        thread = threading.Thread(target=run, args=(name, check), name=f"cairn-readyz-{name}", daemon=True)
        threads[name] = thread
        thread.start()
    deadline = started + timeout
    for thread in threads.values():
        thread.join(max(0.0, deadline - time.perf_counter()))
    answered = {}
    for name in named:
        result = results.get(name)
        if result is None:
            # Still running: it ends on its own (every client below has its own timeouts), unanswered.
            result = {"ok": False, "error": f"timeout: no answer within {timeout:g} s",
                      "ms": round(timeout * 1000, 1)}
        answered[name] = result
    return answered


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:300] if text else type(exc).__name__


def check_database() -> None:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


_migrated = False


def check_migrations() -> None:
    global _migrated
    if _migrated:
        return
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connections["default"])
    unapplied = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if unapplied:
        names = ", ".join(f"{migration.app_label}.{migration.name}" for migration, _ in unapplied[:5])
        raise RuntimeError(f"{len(unapplied)} migration(s) not applied: {names}")
    _migrated = True


def ping_redis(url: str) -> None:
    import redis

    timeout = float(getattr(settings, "CAIRN_READYZ_TIMEOUT", 1.0))
    client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        client.ping()
    finally:
        client.close()


def _redis_cache_url() -> str | None:
    cache = settings.CACHES.get("default", {})
    if cache.get("BACKEND", "").endswith("RedisCache"):
        location = cache.get("LOCATION")
        return location[0] if isinstance(location, (list, tuple)) else location
    return None


def channel_layer_urls() -> list[str]:
    """The Redis servers of the default channel layer (channels-redis ``hosts``: URLs or dicts)."""
    config: dict[str, Any] = settings.CHANNEL_LAYERS.get("default", {})
    if "Redis" not in config.get("BACKEND", ""):
        return []
    urls = []
    for host in config.get("CONFIG", {}).get("hosts", []):
        if isinstance(host, str):
            urls.append(host)
        elif isinstance(host, dict) and "address" in host:
            urls.append(host["address"])
        elif isinstance(host, (list, tuple)):
            urls.append(f"redis://{host[0]}:{host[1]}/0")
    return urls


def check_channel_layer() -> None:
    for url in channel_layer_urls():
        ping_redis(url)


def check_workers() -> None:
    age = heartbeat.newest_age()
    stale = float(getattr(settings, "CAIRN_WORKER_HEARTBEAT_STALE_SECONDS", 30))
    if age is None:
        raise RuntimeError("no Celery worker of this queue has written a heartbeat")
    if age > stale:
        raise RuntimeError(f"the newest Celery worker heartbeat is {age:.0f} s old")
