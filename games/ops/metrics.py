"""The service's Prometheus metrics (prometheus-client), and the ``/metrics`` endpoint.

Every process of a host writes its own samples; with ``PROMETHEUS_MULTIPROC_DIR`` set (scripts/run
and the systemd units set it, emptied at start) prometheus-client keeps them in files there, and
``/metrics`` of any web process adds up every process of the host: those writing to that directory
and to the ``METRICS_EXTRA_DIRS`` (comma-separated; deploy/ gives the Celery worker a directory of its
own, which the web unit lists there).  gunicorn's ``child_exit`` hook (config/gunicorn.py) and Celery's
``worker_process_shutdown`` mark a dead process's files, so its gauges drop out.  Without the
variable (tests, ``manage.py`` commands) each process answers for itself.

``/metrics`` answers 404 unless ``METRICS_TOKEN`` is set, and then only to ``Authorization: Bearer
<token>``.  docs/OPERATIONS.md lists every metric.
"""

from __future__ import annotations

import glob
import hmac
import os
from collections.abc import Iterator
from typing import Any, cast

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

# Latency buckets in seconds: a page or a push is good under 0.1 s and bad past 1 s.
_LATENCY = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_THINK = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)

HTTP_REQUESTS = Counter(
    "cairn_http_requests", "HTTP requests answered, by route (URL pattern name), method and status.",
    ["route", "method", "status"],
)
HTTP_LATENCY = Histogram(
    "cairn_http_request_duration_seconds", "Time to answer an HTTP request, by route and method.",
    ["route", "method"], buckets=_LATENCY,
)
MOVES = Counter("cairn_moves_committed", "Moves committed (players' and bots'), by game.", ["game"])
PUSH_LATENCY = Histogram(
    "cairn_move_push_latency_seconds",
    "From a move's commit to its fragment's send on a websocket (one sample per socket pushed to).",
    buckets=_LATENCY,
)
WEBSOCKETS = Gauge("cairn_websockets_open", "Websockets open, per web process (label pid under gunicorn).",
                   multiprocess_mode="liveall")
FANOUT_RENDERS = Counter("cairn_fanout_renders", "Live fragments rendered by a web process's fan-out.")
FANOUT_CACHE_HITS = Counter(
    "cairn_fanout_cache_hits", "Live fragments served from the fan-out's cache or a render in flight."
)
BOT_THINK = Histogram("cairn_bot_think_seconds", "A bot's time to choose its move, by level.", ["level"],
                      buckets=_THINK)


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def extra_dirs() -> list[str]:
    return [part.strip() for part in os.environ.get("METRICS_EXTRA_DIRS", "").split(",") if part.strip()]


def mark_process_dead(pid: int) -> None:
    """Drop a finished process's live gauges (gunicorn's ``child_exit``, Celery's process shutdown)."""
    if multiprocess_dir():
        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]  # untyped in prometheus-client


class _Merged:
    """The samples of every process writing to any of ``paths`` (prometheus-client's own merge)."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = paths

    def collect(self) -> Any:
        files = sorted(path for directory in self.paths for path in glob.glob(os.path.join(directory, "*.db")))
        return multiprocess.MultiProcessCollector.merge(files, accumulate=True)  # type: ignore[no-untyped-call]  # untyped


class QueueDepthCollector:
    """``cairn_celery_queue_depth``: tasks waiting in the Celery queue, read from the broker at scrape time."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("cairn_celery_queue_depth", "Tasks waiting in the Celery queue (read at scrape).",
                                   labels=["queue"])
        queue = settings.CELERY_TASK_DEFAULT_QUEUE
        try:
            depth = _queue_depth(queue)
        except Exception:  # noqa: BLE001 - the broker is away: no sample rather than a failed scrape (/readyz says why)
            return
        family.add_metric([queue], depth)
        yield family


def _queue_depth(queue: str) -> int:
    import redis

    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=0.5, socket_connect_timeout=0.5)
    try:
        # Kombu's Redis transport keeps a queue as a list, one per priority step (the default one is the name).
        return int(cast(int, client.llen(queue)))  # a synchronous client: an int, not an awaitable
    finally:
        client.close()


def registry() -> Any:
    """The samples to expose: every process of the host in multi-process mode, else this process's."""
    directory = multiprocess_dir()
    if directory:
        collected = CollectorRegistry()
        collected.register(_Merged([directory, *extra_dirs()]))
    else:
        collected = CollectorRegistry()
        collected.register(_Default())
    collected.register(QueueDepthCollector())
    return collected


class _Default:
    """This process's own samples (the default registry), next to the queue's depth."""

    def collect(self) -> Iterator[Any]:
        yield from REGISTRY.collect()


def metrics_view(request: HttpRequest) -> HttpResponse:
    """``GET /metrics``: Prometheus's text format, for ``Authorization: Bearer $METRICS_TOKEN`` only."""
    token = getattr(settings, "CAIRN_METRICS_TOKEN", "")
    if not token:
        return HttpResponseNotFound("not found", content_type="text/plain")
    given = request.headers.get("Authorization", "")
    if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        response = HttpResponse("a bearer token is required\n", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    response = HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response
