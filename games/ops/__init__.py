"""Running Cairn: health checks, Prometheus metrics, request ids and log lines, the client's address.

* :mod:`games.ops.health`: ``/healthz`` and ``/readyz``;
* :mod:`games.ops.metrics`: the metrics and ``/metrics``;
* :mod:`games.ops.requests`: the request middleware (request id, access line, request metrics);
* :mod:`games.ops.logs`: the log format (``LOG_FORMAT``) and the request id on every line;
* :mod:`games.ops.proxy`: the client's address, believed from ``X-Forwarded-For`` only behind a
  trusted proxy;
* :mod:`games.ops.heartbeat`: Celery workers say they are alive (``/readyz`` reads it).

docs/OPERATIONS.md describes all of them for an operator.
"""
