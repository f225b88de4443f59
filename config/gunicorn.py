"""gunicorn's settings for Cairn's web processes (``gunicorn -c config/gunicorn.py config.asgi:application``).

* ``forwarded_allow_ips`` comes from ``TRUSTED_PROXIES`` (games/ops/proxy.py), the same setting Django
  reads, so uvicorn believes ``X-Forwarded-For`` and ``X-Forwarded-Proto`` from those proxies only
  (gunicorn's own default trusts 127.0.0.1 whatever the deployment says).
* ``child_exit`` marks a dead worker's Prometheus files (games/ops/metrics.py), so its live gauges go.

The worker class, the worker count and the bind address come from the command line (scripts/run,
deploy/cairn-web.service).
"""

import os
from typing import Any

from games.ops.proxy import parse_networks

worker_class = "uvicorn_worker.UvicornWorker"
forwarded_allow_ips = ",".join(str(network) for network in parse_networks(os.environ.get("TRUSTED_PROXIES", "")))
graceful_timeout = 10
timeout = 60


def child_exit(server: Any, worker: Any) -> None:  # gunicorn's hook (gunicorn ships no types)
    from games.ops.metrics import mark_process_dead

    mark_process_dead(worker.pid)
