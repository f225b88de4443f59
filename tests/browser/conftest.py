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
import re
import shutil
from collections.abc import Iterator
from functools import partial

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


def pytest_collection_modifyitems(config, items):
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
def live_asgi_url(transactional_db) -> Iterator[str]:
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


# Chromium logs every 4xx answer as "Failed to load resource: ... status of 409 (Conflict)".  A 4xx is
# an answer of the protocol (a refused move or chat message, shown on the page: base.html swaps 4xx),
# so it is not counted; a 5xx answer is.
_CLIENT_ERROR_ANSWER = re.compile(r"^Failed to load resource: the server responded with a status of 4\d\d\b")


def watch_htmx_errors(page, errors: list[str]) -> None:
    """Count every console error (htmx's own reports such as htmx:oobErrorNoTarget included) as a page error."""

    def on_console(msg) -> None:
        if msg.type == "error" and not _CLIENT_ERROR_ANSWER.match(msg.text):
            errors.append(f"console: {msg.text}")

    page.on("console", on_console)


watch_console_errors = watch_htmx_errors


@pytest.fixture(autouse=True)
def no_console_errors(request) -> Iterator[list[str]]:
    """Every browser test fails on a console error or an uncaught page error, in any page it opens.

    Autouse for every test under tests/browser: each page made with ``new_page``
    (a context's or a browser's) counts its console messages of type ``error``
    and its page errors here, and the page's ``js_errors`` is this same list.
    """
    if "browser" not in request.keywords:
        yield []
        return
    from playwright.sync_api import Browser, BrowserContext

    errors: list[str] = []
    originals = {cls: cls.new_page for cls in (BrowserContext, Browser)}

    def watched(original):
        def new_page(self, *args, **kwargs):
            page = original(self, *args, **kwargs)
            page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
            watch_htmx_errors(page, errors)
            page.js_errors = errors
            return page
        return new_page

    for cls, original in originals.items():
        cls.new_page = watched(original)
    try:
        yield errors
    finally:
        for cls, original in originals.items():
            cls.new_page = original
    if errors:
        pytest.fail("console or page errors in the browser:\n" + "\n".join(errors), pytrace=False)


@pytest.fixture
def browser_page() -> Iterator[object]:
    """A fresh page in headless Debian Chromium (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    if not shutil.which(CHROMIUM):
        pytest.skip(f"Debian's Chromium is not installed at {CHROMIUM}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()  # no_console_errors counts its errors (page.js_errors)
        try:
            yield page
        finally:
            context.close()
            browser.close()
