"""Celery's side of operations: request ids in task headers, metrics of dead processes, the heartbeat.

Imported by config/celery.py, so every process that loads the Celery app (the web processes that send
tasks, the workers that run them) connects these signal handlers.
"""

from __future__ import annotations

import os
import socket
from typing import Any

from celery import signals

from . import heartbeat, logs, metrics

HEADER = "cairn_request_id"


@signals.before_task_publish.connect(dispatch_uid="cairn-request-id-out")
def _add_request_id(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    current = logs.request_id()
    if headers is not None and current and HEADER not in headers:
        headers[HEADER] = current


_tokens: dict[str, Any] = {}


@signals.task_prerun.connect(dispatch_uid="cairn-request-id-in")
def _bind_request_id(task_id: str | None = None, task: Any = None, **kwargs: Any) -> None:
    given = getattr(getattr(task, "request", None), HEADER, None) if task is not None else None
    if task_id:
        _tokens[task_id] = logs.bind(logs.new_request_id(given))


@signals.task_postrun.connect(dispatch_uid="cairn-request-id-done")
def _unbind_request_id(task_id: str | None = None, **kwargs: Any) -> None:
    token = _tokens.pop(task_id or "", None)
    if token is not None:
        try:
            logs.unbind(token)
        except ValueError:  # bound in another context (an eager task): nothing to undo here
            pass


@signals.worker_process_shutdown.connect(dispatch_uid="cairn-metrics-process-dead")
def _process_dead(**kwargs: Any) -> None:
    metrics.mark_process_dead(os.getpid())


@signals.worker_ready.connect(dispatch_uid="cairn-heartbeat-start")
def _start_heartbeat(sender: Any = None, **kwargs: Any) -> None:
    heartbeat.start(getattr(sender, "hostname", None) or socket.gethostname())


@signals.worker_shutdown.connect(dispatch_uid="cairn-heartbeat-stop")
def _stop_heartbeat(**kwargs: Any) -> None:
    heartbeat.stop()
