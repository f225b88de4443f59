"""Log lines: one access line per request with its duration, the request id everywhere, nothing secret."""

from __future__ import annotations

import io
import json
import logging

import pytest
from django.test import Client

from games.ops import celery_hooks, logs

pytestmark = pytest.mark.django_db


def access_lines(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == "cairn.access"]


def test_each_request_gets_one_access_line_under_the_balancers_request_id(client: Client, caplog) -> None:
    with caplog.at_level(logging.INFO, logger="cairn.access"):
        response = client.get("/healthz", HTTP_X_REQUEST_ID="lb-1234-abcd")
    assert response["X-Request-ID"] == "lb-1234-abcd"
    (line,) = access_lines(caplog)
    assert line.request_id == "lb-1234-abcd"
    assert (line.method, line.route, line.path, line.status) == ("GET", "healthz", "/healthz", 200)
    assert line.duration_ms >= 0


def test_a_missing_or_odd_request_id_is_replaced_by_a_fresh_one(client: Client) -> None:
    first = client.get("/healthz")["X-Request-ID"]
    odd = client.get("/healthz", HTTP_X_REQUEST_ID="bad id\nforged: line")["X-Request-ID"]
    assert len(first) == 32 and len(odd) == 32 and first != odd
    assert "\n" not in odd


def test_the_access_line_holds_no_query_string_password_or_cookie(client: Client, caplog, alice) -> None:
    with caplog.at_level(logging.INFO):
        client.post("/login/?token=secret-token-123", {"username": "alice", "password": "correct-horse-battery"})
        client.get("/?next=secret-next")
    text = "\n".join(f"{record.getMessage()} {record.__dict__}" for record in access_lines(caplog))
    assert "/login/" in text
    for secret in ("secret-token-123", "correct-horse-battery", "secret-next", "sessionid", "csrftoken"):
        assert secret not in text


def _format(formatter: logging.Formatter, message: str, *args: object, **extra: object) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    handler.addFilter(logs.RequestIdFilter())
    logger = logging.getLogger("cairn.test-format")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        with logs.bound("req-77"):
            logger.warning(message, *args, extra=extra)
    finally:
        logger.removeHandler(handler)
    return stream.getvalue()


def test_json_lines_are_one_object_a_line_with_user_input_escaped() -> None:
    out = _format(logs.JsonLines(), "chat from %s", 'mallory"\n{"level": "fake"}', route="x")
    assert out.count("\n") == 1
    line = json.loads(out)
    assert line["level"] == "WARNING" and line["logger"] == "cairn.test-format"
    assert line["request_id"] == "req-77" and line["route"] == "x"
    assert line["message"] == 'chat from mallory"\n{"level": "fake"}'
    assert "time" in line


def test_text_lines_escape_control_characters() -> None:
    out = _format(logs.TextLines(), "chat from %s", "mallory\nWARNING forged line")
    assert out.count("\n") == 1
    assert "[req-77]" in out and "mallory\\nWARNING forged line" in out


def test_an_unknown_log_format_is_refused() -> None:
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="LOG_FORMAT"):
        logs.logging_config("xml", "INFO")


def test_a_task_sent_during_a_request_runs_under_its_request_id(celery_worker_thread, caplog, alice) -> None:
    import time

    from config.celery import app
    from games import tasks

    app.control.purge()  # tasks earlier tests left on this run's queue are not what is timed here
    with caplog.at_level(logging.INFO, logger="games.tasks"):
        with logs.bound("req-for-the-worker"):
            tasks.play_bot_turn.delay(999999, 0)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            done = [record for record in caplog.records if "bot turn of match 999999" in record.getMessage()]
            if done:
                break
            time.sleep(0.05)
    assert done, "the task did not run"
    assert done[0].request_id == "req-for-the-worker"


def test_a_task_sent_outside_a_request_gets_a_fresh_id() -> None:
    headers: dict[str, str] = {}
    celery_hooks._add_request_id(headers=headers)
    assert celery_hooks.HEADER not in headers
