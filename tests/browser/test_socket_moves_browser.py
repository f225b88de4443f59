"""A board's move goes over the match socket while it is open: no POST, stored once, answered with the board."""

from __future__ import annotations

import pytest

from .test_offline_move import STEP_MS, _actions, _open_match, _seq, table  # noqa: F401 - table is a fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]


def test_a_move_clicked_on_the_board_travels_on_the_socket_and_the_board_shows_it(live_asgi_url, table, browser_page):  # noqa: F811 - the imported fixture
    page = browser_page
    user, match = table
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    _open_match(page, live_asgi_url, user, match, http=False)
    before = page.locator("#match-live").get_attribute("data-seq")
    page.locator("#match-live .climb").first.click()
    page.wait_for_function(f"() => document.getElementById('match-live').dataset.seq !== '{before}'", timeout=STEP_MS)
    assert _actions(match) == 1
    assert page.locator("#match-live").get_attribute("data-seq") == str(_seq(match))
    assert "Your turn." not in page.locator("#turn").inner_text()
    assert [url for url in posts if "/move/" in url] == []
    assert page.locator("#match-live").get_attribute("aria-busy") is None
