"""Chat in a real browser: a message typed in one browser appears live in another, escaped."""

from __future__ import annotations

import pytest

from games import services

from .table_helpers import STEP_TIMEOUT_MS, in_thread, log_in, open_match, second_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]


def test_a_chat_message_from_one_browser_appears_in_another(live_asgi_url, alice, bob, carol, browser_page):
    match = in_thread(services.create_match, user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}],
                                  options={})
    in_thread(services.join_match, match_id=match.pk, user=bob)
    base = live_asgi_url
    log_in(browser_page, base, "alice")
    open_match(browser_page, base, match.pk)
    bob_page, carol_page = second_page(browser_page), second_page(browser_page)
    try:
        log_in(bob_page, base, "bob")
        open_match(bob_page, base, match.pk)
        log_in(carol_page, base, "carol")
        open_match(carol_page, base, match.pk)

        browser_page.fill("#chat-input-players", "good luck <b>bob</b>")
        browser_page.press("#chat-input-players", "Enter")
        for page in (bob_page, carol_page, browser_page):
            page.wait_for_selector("#chat-players-messages .chat-msg", timeout=STEP_TIMEOUT_MS)
            assert page.locator("#chat-players-messages .chat-text").last.inner_text() == "good luck <b>bob</b>"
            assert page.locator("#chat-players-messages b").count() == 0  # shown as text, never as HTML
        assert browser_page.input_value("#chat-input-players") == ""

        # A spectator writes in the spectators' channel; the players see it there, and can hide it.
        carol_page.fill("#chat-input-spectators", "nice climb")
        carol_page.press("#chat-input-spectators", "Enter")
        bob_page.wait_for_selector("#chat-spectators-messages .chat-msg", timeout=STEP_TIMEOUT_MS)
        assert bob_page.locator("#chat-spectators-messages .chat-text").inner_text() == "nice climb"
        bob_page.locator("#chat-spectators summary").click()
        assert not bob_page.locator("#chat-spectators-messages").is_visible()

        # Bob mutes Carol: her messages leave his page at once.
        bob_page.locator("#chat-spectators summary").click()
        bob_page.locator("#chat-spectators-messages .chat-mute").click()
        bob_page.wait_for_function("() => document.querySelectorAll('#chat-spectators-messages .chat-msg').length === 0",
                                   timeout=STEP_TIMEOUT_MS)
    finally:
        bob_page.context.close()
        carol_page.context.close()
