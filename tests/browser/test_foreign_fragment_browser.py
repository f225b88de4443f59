"""A match page takes no pushed fragment of another match or another deployment, whatever its socket sends.

Playwright stands between the page and its websocket (``page.route_web_socket``): the server's messages
pass through, and the test sends the page fragments of its own: one naming another match, one naming
another deployment (each newer than the page, with "their hand" in it), then one of this match and
deployment, which the page shows.
"""

from __future__ import annotations

import pytest
from django.conf import settings

from games import services

from .table_helpers import STEP_TIMEOUT_MS, in_thread, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]


def _fragment(match: int, deployment: str, text: str) -> str:
    return (f'<div id="match-live" class="match-live" data-seq="999" data-match="{match}" '
            f'data-deployment="{deployment}" hx-swap-oob="true"><p class="injected">{text}</p></div>')


def test_a_match_page_refuses_fragments_of_another_match_or_deployment(live_asgi_url, alice, bob, browser_page):
    base = live_asgi_url
    match = in_thread(services.create_match, user=alice, game_id="mountain-goats",
                      seats=[{"human": True}, {"human": True}], options={})
    in_thread(services.join_match, match_id=match.pk, user=bob)
    sockets = []

    def route(ws) -> None:
        ws.connect_to_server()  # the server's own messages go through as they are
        sockets.append(ws)

    browser_page.route_web_socket(f"**/ws/matches/{match.pk}/**", route)
    log_in(browser_page, base, "alice")
    browser_page.goto(f"{base}/matches/{match.pk}/")
    browser_page.wait_for_selector("#connection[data-state=open]", timeout=STEP_TIMEOUT_MS)
    shown = browser_page.locator("#match-live").get_attribute("data-seq")
    assert browser_page.locator("#match-live").get_attribute("data-deployment") == settings.CAIRN_DEPLOYMENT

    (socket,) = sockets
    socket.send(_fragment(match.pk + 1, settings.CAIRN_DEPLOYMENT, "another match's hand"))
    socket.send(_fragment(match.pk, "another-deployment", "another deployment's hand"))
    browser_page.wait_for_timeout(500)
    assert browser_page.locator(".injected").count() == 0
    assert browser_page.locator("#match-live").get_attribute("data-seq") == shown

    socket.send(_fragment(match.pk, settings.CAIRN_DEPLOYMENT, "this match"))  # the gate, not the route, refused
    browser_page.wait_for_selector(".injected", timeout=STEP_TIMEOUT_MS)
    assert browser_page.locator(".injected").inner_text() == "this match"
