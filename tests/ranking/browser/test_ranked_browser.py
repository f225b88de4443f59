"""End to end in two real browsers: two strangers press "Play rated", get paired, play with live clocks,
and see their new ratings on their profiles.

Daphne serves HTTP and websockets in its own process (tests/browser/conftest.py); each player has a
browser context of their own (separate cookies and sessions) in headless Debian Chromium.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, live_asgi_url  # noqa: F401 - the server fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]

STEP_MS = 20_000
PASSWORD = "ranked-climb-42-goats"

MY_TURN = """() => {
  const live = document.getElementById('match-live');
  return live && (live.dataset.status === 'finished' || live.querySelector('.climb') !== null);
}"""


@pytest.fixture
def strangers(make_user):
    """Two accounts, made before the browsers start (Playwright's sync API runs an event loop)."""
    return make_user("alice", PASSWORD), make_user("bob", PASSWORD)


@pytest.fixture
def two_pages(strangers):
    import os

    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.skip(f"Debian's Chromium is not installed at {CHROMIUM}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        contexts = [browser.new_context(viewport={"width": 1280, "height": 1000}) for _ in range(2)]
        pages = [context.new_page() for context in contexts]
        errors: list[str] = []
        for page in pages:
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("dialog", lambda dialog: dialog.accept())  # "Resign this match?"
        try:
            yield pages, errors
        finally:
            for context in contexts:
                context.close()
            browser.close()


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")


def clock_seconds(text: str) -> int:
    minutes, seconds = text.strip().split(":")[-2:]
    return int(minutes) * 60 + int(seconds)


def test_two_strangers_queue_get_paired_play_with_clocks_and_see_their_new_ratings(
    live_asgi_url, two_pages  # noqa: F811 - the imported fixture
):
    base = live_asgi_url
    (alice_page, bob_page), errors = two_pages
    log_in(alice_page, base, "alice")
    log_in(bob_page, base, "bob")

    # Alice presses "Play rated" for 2-player Mountain Goats and waits, connected live.
    alice_page.wait_for_function("() => document.body.dataset.userWs === 'open'", timeout=STEP_MS)
    alice_page.click("button[data-play='mountain-goats-2-rated']")
    alice_page.wait_for_selector(".rk-waiting", timeout=STEP_MS)
    assert "Looking for 1 opponent" in alice_page.inner_text(".rk-waiting")
    bob_page.reload()
    assert re.search(r"Mountain Goats · 2 players · 5 min \+ 10 s per move · rated: 1 waiting", bob_page.inner_text(".rk-queues"))

    # Bob does the same: they are paired, and both are taken to the match.
    bob_page.click("button[data-play='mountain-goats-2-rated']")
    for page in (alice_page, bob_page):
        page.wait_for_url(re.compile(r"/matches/\d+/$"), timeout=STEP_MS)
    assert alice_page.url == bob_page.url
    for page in (alice_page, bob_page):
        page.wait_for_selector("#connection[data-state=open]", timeout=STEP_MS)
        assert page.locator(".rk-match").get_attribute("data-rated") == "1"
        assert page.locator(".rk-match .tag").first.text_content() == "rated"
        assert page.locator(".rk-clock").count() == 2
        assert page.locator(".rk-rating").all_inner_texts() == ["1500? ± 500", "1500? ± 500"]

    # The clock of the player to move counts down on both pages.
    running = alice_page.locator(".rk-clock.running")
    first = clock_seconds(running.inner_text())
    assert 280 < first <= 300
    alice_page.wait_for_function(
        "(t) => { const c = document.querySelector('.rk-clock.running'); return c && c.textContent.trim() !== t; }",
        arg=running.inner_text(), timeout=5000,
    )
    assert clock_seconds(alice_page.locator(".rk-clock.running").inner_text()) < first

    # Each plays two moves, whoever is to move clicking the first climb offered.
    pages = {"alice": alice_page, "bob": bob_page}
    moves = 0
    deadline = time.monotonic() + 60
    while moves < 4 and time.monotonic() < deadline:
        for page in pages.values():
            if moves == 4:
                break
            live = page.locator("#match-live")
            if page.locator("#match-live .climb").count() and live.get_attribute("data-status") == "active":
                seq = live.get_attribute("data-seq")
                page.locator("#match-live .climb").first.click()
                page.wait_for_function(
                    "(s) => document.getElementById('match-live').dataset.seq !== s", arg=seq, timeout=STEP_MS
                )
                moves += 1
        time.sleep(0.1)
    assert moves == 4
    assert alice_page.locator(".rk-clock.running").count() == 1

    # Bob resigns; both pages show the ending and the rating changes.
    bob_page.wait_for_selector(".rk-actions button:has-text('Resign')", timeout=STEP_MS)
    bob_page.click(".rk-actions button:has-text('Resign')")
    for page in (alice_page, bob_page):
        page.wait_for_selector("#match-live[data-status=finished]", timeout=STEP_MS)
        page.wait_for_selector(".rk-changes", timeout=STEP_MS)
        assert "Ended by resignation." in page.inner_text(".rk-match")

    # Their profiles show their new ratings: alice up, bob down, one rated match each, with the chart.
    ratings = {}
    for name, page in pages.items():
        page.goto(f"{base}/users/{name}/")
        card = page.locator(".rk-game-rating[data-game='mountain-goats']")
        assert "1 rated match" in card.inner_text()
        assert card.locator("svg.rk-chart circle").count() == 1
        ratings[name] = int(re.match(r"(\d+)", card.locator(".rk-rating").inner_text()).group(1))
        assert page.locator(".rk-history tr[data-result]").count() == 1
    assert ratings["alice"] > 1500 > ratings["bob"]
    assert errors == []
