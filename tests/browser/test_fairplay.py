"""In two real browsers: a player closes their tab in a 5+10 game; the other sees them gone and claims the win.
On the way, each plays two moves on the board, and the second carries the lag the page measured on the first.

Daphne serves HTTP and websockets in its own process, forked after the settings below (the grace
period of 5+10, 60 s, shortened to 2 s); each player has a browser context of their own.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.ranking.browser.test_ranked_browser import PASSWORD, clock_seconds, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]

STEP_MS = 20_000


@pytest.fixture
def seated(make_user, settings):
    """A rated 5+10 match between alice (seat 0) and bob, two moves each; made before the server forks."""
    from tests.ranking.helpers import everyone_moves, new_match

    settings.CAIRN_LEAVER_GRACE_FACTOR = 2 / 60
    alice, bob = make_user("alice", PASSWORD), make_user("bob", PASSWORD)
    match = new_match([alice, bob], time_control="5+10")
    everyone_moves(match.pk, [alice, bob])
    return match


def test_a_player_closes_their_tab_and_the_other_sees_them_gone_and_claims_the_win(seated, live_asgi_url):
    import os

    from playwright.sync_api import expect, sync_playwright

    from games.models import Match

    if not os.path.exists(CHROMIUM):
        pytest.skip(f"Debian's Chromium is not installed at {CHROMIUM}")
    base, match = live_asgi_url, seated
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        contexts = [browser.new_context(viewport={"width": 1280, "height": 1000}) for _ in range(2)]
        alice_page, bob_page = (context.new_page() for context in contexts)
        errors: list[str] = []
        for page in (alice_page, bob_page):
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            for page, name in ((alice_page, "alice"), (bob_page, "bob")):
                log_in(page, base, name)
                page.goto(f"{base}/matches/{match.pk}/")
            bob_dot = alice_page.locator('#presence-panel li[data-seat="1"]')
            expect(bob_dot).to_have_attribute("data-present", "1", timeout=STEP_MS)  # bob's page is open
            expect(bob_page.locator('#presence-panel li[data-seat="0"]')).to_have_attribute("data-present", "1",
                                                                                           timeout=STEP_MS)
            # Each player's page has set its clock by the server's (the match socket's ping), and both show
            # the running clock as the server has it.
            for page in (alice_page, bob_page):
                page.wait_for_function("() => window.cairnServerClock && window.cairnServerClock.offsetMs !== null",
                                       timeout=STEP_MS)
            shown = [page.evaluate("() => { const el = document.querySelector('.rk-clock.running');"
                                   " return [el.dataset.deadline, el.textContent]; }") for page in (alice_page, bob_page)]
            assert shown[0][0] == shown[1][0]  # the same deadline, from the server
            server_left = (datetime.fromisoformat(shown[0][0]) - datetime.now(UTC)).total_seconds()
            for _, text in shown:
                assert abs(clock_seconds(text) - server_left) <= 2, (text, server_left)
            play_moves({"alice": alice_page, "bob": bob_page}, 4)
            contexts[1].close()  # bob closes his tab
            expect(bob_dot).to_have_attribute("data-present", "0", timeout=STEP_MS)
            expect(bob_dot).to_have_class("presence-seat gone")
            claim = alice_page.locator('[data-claim="win"]')
            expect(claim).to_be_visible(timeout=STEP_MS)  # once the grace period is over
            claim.click()
            expect(alice_page.locator(".rk-ending")).to_have_text("Won by claim: the opponent left.", timeout=STEP_MS)
            assert errors == []
        finally:
            contexts[0].close()
            browser.close()
    finished = Match.objects.get(pk=match.pk)  # (outside Playwright's event loop)
    assert finished.status == "finished" and finished.ending == "claimed_win" and finished.result["winners"] == [0]
    from games.models import Event

    credited = {e.payload["seat"] for e in Event.objects.filter(match=finished, type="lag_credit")}
    assert credited == {0, 1}  # each page's second move carried the lag it measured on its first


def play_moves(pages: dict, count: int) -> None:
    """Whoever is to move clicks the first climb offered, until ``count`` moves are played."""
    import time

    moves, deadline = 0, time.monotonic() + 60
    while moves < count and time.monotonic() < deadline:
        for page in pages.values():
            live = page.locator("#match-live")
            if moves < count and page.locator("#match-live .climb").count() \
                    and live.get_attribute("data-status") == "active":
                seq = live.get_attribute("data-seq")
                page.locator("#match-live .climb").first.click()
                page.wait_for_function(
                    "(s) => document.getElementById('match-live').dataset.seq !== s", arg=seq, timeout=STEP_MS)
                moves += 1
        time.sleep(0.1)
    assert moves == count
