"""How to play in a real browser: the lobby's game cards, the help pages, the match page's panel, the 404 page."""

from __future__ import annotations

import pytest

from games import services

from .table_helpers import in_thread, log_in, open_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]


def test_the_how_to_play_panels_and_help_pages(live_asgi_url, alice, browser_page):
    page, base = browser_page, live_asgi_url
    page.goto(f"{base}/")
    cards = page.locator(".game-card")
    assert cards.count() == 3
    for game in ("mountain-goats", "nanga-parbat", "mountainhome"):
        card = page.locator(f".game-card[data-game='{game}']")
        assert card.locator("svg.game-picture").count() == 1
        panel = card.locator("details.help-panel")
        assert not panel.locator(".help-text, ul, p").first.is_visible()
        panel.locator("summary").click()
        assert len(panel.inner_text()) > 80  # the game's own help, or the fallback: never empty

    page.locator(".game-card[data-game='nanga-parbat'] a", has_text="The help page").click()
    page.wait_for_url(f"{base}/help/nanga-parbat/")
    assert page.locator("h1").inner_text() == "How to play Nanga Parbat"

    match = in_thread(services.create_match, user=alice, game_id="nanga-parbat", seats=[{"human": True}, {"bot": "random"}],
                                  options={})
    log_in(page, base, "alice")
    open_match(page, base, match.pk)
    panel = page.locator(".match-side details.help-panel[data-help='nanga-parbat']")
    panel.locator("summary").click()
    assert panel.locator("summary").inner_text() == "How to play Nanga Parbat"

    # An unknown address gets the styled page, with the way back.
    response = page.goto(f"{base}/no-such-page/")
    assert response.status == 404
    assert page.locator("h1").inner_text() == "Nothing here"
    assert page.get_by_role("link", name="Go to the lobby").count() == 1
