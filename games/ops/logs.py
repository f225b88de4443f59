"""Log lines: JSON (python-json-logger) or text, each carrying the request id it was written under.

``LOG_FORMAT=json`` (the default outside DEBUG) writes one JSON object per line: ``time``, ``level``,
``logger``, ``message``, ``request_id`` and any ``extra`` fields (the access line's ``method``,
``route``, ``path``, ``status``, ``duration_ms``).  JSON escapes whatever a user typed.
``LOG_FORMAT=text`` writes ``time level logger [request id] message``, with control characters
escaped so that user input cannot forge a line.

The request id lives in a context variable: :class:`games.ops.requests.RequestMiddleware` sets it
from the balancer's ``X-Request-ID`` (or makes one) for each request, Celery tasks get it in their
message headers (:mod:`games.ops.celery_hooks`), and a websocket push carries the id of the request
that made the move.  What is logged never includes passwords, tokens, cookies, e-mail addresses or
query strings.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import re
import uuid
from collections.abc import Iterator
from typing import Any

from pythonjsonlogger.json import JsonFormatter

_request_id: contextvars.ContextVar[str] = contextvars.ContextVar("cairn_request_id", default="")
# What a request id from outside may look like (a balancer's UUID or hex id): anything else is replaced.
_VALID_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


def request_id() -> str:
    """The request id this code runs under ("" outside any request or task)."""
    return _request_id.get()


def new_request_id(given: str | None = None) -> str:
    """``given`` if it is a sane id from the balancer, else a fresh one."""
    if given and _VALID_ID.match(given):
        return given
    return uuid.uuid4().hex


@contextlib.contextmanager
def bound(value: str) -> Iterator[str]:
    """Run the block under request id ``value``."""
    token = _request_id.set(value)
    try:
        yield value
    finally:
        _request_id.reset(token)


def bind(value: str) -> contextvars.Token[str]:
    return _request_id.set(value)


def unbind(token: contextvars.Token[str]) -> None:
    _request_id.reset(token)


_factory_installed = False


def install_record_factory() -> None:
    """Stamp every record with the request id it was made under (at creation, so that a record handed to
    another thread or a test's capture keeps it)."""
    global _factory_installed
    if _factory_installed:
        return
    previous = logging.getLogRecordFactory()

    def make(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        record.request_id = _request_id.get() or "-"
        return record

    logging.setLogRecordFactory(make)
    _factory_installed = True


class RequestIdFilter(logging.Filter):
    """Makes sure ``request_id`` is on every record the handler writes (and installs the record factory)."""

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        install_record_factory()

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", None):
            record.request_id = _request_id.get() or "-"
        return True


class JsonLines(JsonFormatter):
    """python-json-logger's formatter with Cairn's field names."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("rename_fields", {"asctime": "time", "levelname": "level", "name": "logger"})
        kwargs.setdefault("timestamp", False)
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s", *args, **kwargs)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class TextLines(logging.Formatter):
    """``time level logger [request id] message``, control characters escaped (one record, one line,
    a traceback aside)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:  # logging's name
        line = super().formatMessage(record)
        return _CONTROL.sub(lambda found: repr(found.group())[1:-1], line)


def logging_config(fmt: str, level: str) -> dict[str, Any]:
    """The ``LOGGING`` setting for ``LOG_FORMAT`` ``fmt`` (json or text) and root ``level``."""
    if fmt not in ("json", "text"):
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(f"LOG_FORMAT must be json or text, not {fmt!r}")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "games.ops.logs.RequestIdFilter"}},
        "formatters": {
            "json": {"()": "games.ops.logs.JsonLines"},
            "text": {"()": "games.ops.logs.TextLines"},
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": fmt, "filters": ["request_id"]}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django.db.backends": {"level": "WARNING"},
            # The access line below replaces Django's own request lines.
            "django.server": {"level": "WARNING"},
        },
    }
