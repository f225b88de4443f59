"""A live ASGI server (Daphne, websockets included) and headless Chromium for the browser tests.

pytest-django's ``live_server`` speaks HTTP only, so the server here is
Daphne in a child process (``daphne.testing.DaphneProcess``, as
``channels.testing.ChannelsLiveServerTestCase`` uses) pointed at the test
database.  Bot turns are played by a real Celery worker in a thread of the
test process (the shared ``celery_worker_thread`` fixture), on the real
broker; the worker's pushes reach the server's websockets through the Redis
channel layer.
"""

from __future__ import annotations

import os
import shutil
from functools import partial
from typing import Iterator

import pytest
from django.conf import settings

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# The server runs in another process, so the test database must be one it can
# open: an in-memory SQLite test database (the default for SQLite) cannot be
# shared.  When these tests are collected on SQLite, the test database becomes
# a file instead (PostgreSQL needs nothing).
_default = settings.DATABASES["default"]
if _default["ENGINE"] == "django.db.backends.sqlite3" and not (_default.get("TEST") or {}).get("NAME"):
    _default.setdefault("TEST", {})["NAME"] = str(settings.BASE_DIR / "var" / f"test-browser-{os.getpid()}.sqlite3")


def pytest_collection_modifyitems(config, items):  # noqa: ANN001
    if os.path.exists(CHROMIUM):
        return
    skip = pytest.mark.skip(reason=f"Debian's Chromium is not installed at {CHROMIUM}")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def _use_databases(names: dict[str, str]) -> None:
    """In the server process: open exactly the databases the test process uses."""
    from django.db import connections

    for alias, name in names.items():
        settings.DATABASES[alias]["NAME"] = name
        connections[alias].settings_dict["NAME"] = name


@pytest.fixture
def live_asgi_url(transactional_db) -> Iterator[str]:  # noqa: ANN001
    """``http://127.0.0.1:PORT`` of a Daphne process serving config.asgi on the test database."""
    from channels.testing.live import make_application
    from daphne.testing import DaphneProcess
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.db import connections

    # The test databases' names, as pytest-django set them up in this process.
    names = {alias: connections[alias].settings_dict["NAME"] for alias in connections}
    # No open connection may cross the fork into the server process.
    connections.close_all()
    process = DaphneProcess(
        "127.0.0.1",
        partial(make_application, static_wrapper=ASGIStaticFilesHandler),
        setup=partial(_use_databases, names),
    )
    process.start()
    if not process.ready.wait(timeout=30):
        process.terminate()
        raise RuntimeError("the Daphne test server did not start within 30 s")
    try:
        yield f"http://127.0.0.1:{process.port.value}"
    finally:
        process.terminate()
        process.join(timeout=10)


def watch_htmx_errors(page, errors: list[str]) -> None:  # noqa: ANN001
    """Count htmx's own error reports (htmx:oobErrorNoTarget, htmx:swapError, ...) as page errors."""
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" and msg.text.startswith("htmx:") else None)


@pytest.fixture
def browser_page() -> Iterator["object"]:
    """A fresh page in headless Debian Chromium (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    if not shutil.which(CHROMIUM):
        pytest.skip(f"Debian's Chromium is not installed at {CHROMIUM}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        watch_htmx_errors(page, errors)
        page.js_errors = errors  # type: ignore[attr-defined]
        try:
            yield page
        finally:
            context.close()
            browser.close()
