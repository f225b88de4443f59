"""Helpers of the table browser tests (chat, rematch, watch, help): log in, open a second browser."""

from __future__ import annotations

from typing import Any

PASSWORD = "correct-horse-battery"  # tests/conftest.py's make_user
STEP_TIMEOUT_MS = 20_000


def follow(page: Any, url: Any) -> None:
    """Wait for ``page`` to reach ``url`` after a rematch: its own answer or the rematch push, and the
    per-user socket's match_found, may each lead it there, so one navigation can abort the other."""
    from playwright.sync_api import Error as PlaywrightError

    for attempt in range(3):
        try:
            page.wait_for_url(url, timeout=STEP_TIMEOUT_MS)
            return
        except PlaywrightError as exc:
            if "ERR_ABORTED" not in str(exc) or attempt == 2:
                raise


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")


def second_page(page: Any) -> Any:
    """A page in a fresh browser context (its own cookies: another person)."""
    context = page.context.browser.new_context(viewport={"width": 1280, "height": 900})
    return context.new_page()


def open_match(page: Any, base: str, match_id: int) -> None:
    page.goto(f"{base}/matches/{match_id}/")
    page.wait_for_selector("#connection[data-state=open]", timeout=STEP_TIMEOUT_MS)


def in_thread(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a database call outside Playwright's event loop (Django refuses ORM calls inside one).

    The thread has its own connection to the (transactional) test database, closed after the call.
    """
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    def call() -> Any:
        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()
