"""A rematch in a real browser: offered on the result card, accepted live by the other player."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Match

from .table_helpers import STEP_TIMEOUT_MS, follow, in_thread, log_in, open_match, second_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]


def test_a_rematch_is_offered_and_accepted(live_asgi_url, alice, bob, browser_page):
    match = in_thread(services.create_match, user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}],
                                  options={}, time_control="3d")
    in_thread(services.join_match, match_id=match.pk, user=bob)
    base = live_asgi_url
    log_in(browser_page, base, "alice")
    open_match(browser_page, base, match.pk)
    bob_page = second_page(browser_page)
    try:
        log_in(bob_page, base, "bob")
        open_match(bob_page, base, match.pk)
        in_thread(services.resign, match_id=match.pk, user=bob)  # the match ends while both pages watch
        for page in (browser_page, bob_page):
            page.wait_for_selector("[data-rematch=offer]", timeout=STEP_TIMEOUT_MS)

        browser_page.click("[data-rematch=offer]")
        browser_page.wait_for_selector("#rematch-panel >> text=waiting for bob", timeout=STEP_TIMEOUT_MS)
        bob_page.wait_for_selector("[data-rematch=accept]", timeout=STEP_TIMEOUT_MS)  # pushed, no reload
        assert "alice offers a rematch" in bob_page.locator("#rematch-panel").inner_text()

        bob_page.click("[data-rematch=accept]")
        new = re.compile(rf"/matches/(?!{match.pk}/)\d+/$")
        for page in (bob_page, browser_page):  # each may be led there twice (table_helpers.follow)
            follow(page, new)
        assert bob_page.url == browser_page.url
        rematch = in_thread(Match.objects.get, pk=int(bob_page.url.rstrip("/").rsplit("/", 1)[1]))
        assert rematch.status == "active" and rematch.time_control == match.time_control
        seats = in_thread(lambda: [s.user_id for s in rematch.seats.order_by("index")])
        assert seats == [alice.pk, bob.pk]
        bob_page.wait_for_selector(".mg-svg .mountain", timeout=STEP_TIMEOUT_MS)
    finally:
        bob_page.context.close()
