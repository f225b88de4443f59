"""Watching in a real browser: a spectator finds a match in the Watch list, and the players see them counted."""

from __future__ import annotations

import pytest

from games import services

from .table_helpers import STEP_TIMEOUT_MS, in_thread, log_in, open_match, second_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]


def test_a_spectator_finds_the_match_in_the_watch_list(live_asgi_url, celery_worker_thread, alice, carol, browser_page):
    base = live_asgi_url
    bot_match = in_thread(services.create_match, user=alice, game_id="nanga-parbat", seats=[{"human": True}, {"bot": "random"}],
                                      options={})
    other = in_thread(services.create_match, user=alice, game_id="mountain-goats", seats=[{"human": True}, {"bot": "random"}],
                                  options={})
    log_in(browser_page, base, "alice")
    open_match(browser_page, base, bot_match.pk)
    spectator = second_page(browser_page)
    try:
        log_in(spectator, base, "carol")
        spectator.get_by_role("link", name="Watch").first.click()
        spectator.wait_for_selector(f"[data-watch='{bot_match.pk}']")
        assert spectator.locator(f"[data-watch='{other.pk}']").count() == 1
        spectator.select_option("select[name=game]", "nanga-parbat")  # filters without a reload
        spectator.wait_for_function(f"() => !document.querySelector(\"[data-watch='{other.pk}']\")",
                                    timeout=STEP_TIMEOUT_MS)
        row = spectator.locator(f"[data-watch='{bot_match.pk}']")
        assert "Nanga Parbat" in row.inner_text() and "Random bot" in row.inner_text()
        row.get_by_role("link", name="Watch").click()
        spectator.wait_for_url(f"{base}/matches/{bot_match.pk}/")
        spectator.wait_for_selector("#connection[data-state=open]", timeout=STEP_TIMEOUT_MS)
        assert "spectating" in spectator.locator("#turn").inner_text().lower()
        assert spectator.locator(".np-svg").count() == 1
        # The player's page counts the spectator, live.
        browser_page.wait_for_function(
            "() => (document.getElementById('spectator-count') || {}).textContent === '1 watching'",
            timeout=STEP_TIMEOUT_MS,
        )
    finally:
        spectator.context.close()
    browser_page.wait_for_function(
        "() => (document.getElementById('spectator-count') || {}).textContent === ''", timeout=STEP_TIMEOUT_MS
    )
