"""Moderation in a real browser: a reported message reaches the queue, hiding it takes it off both players'
open chat panels live, a muted player's message is refused with the reason, a banned player's session ends."""

from __future__ import annotations

import pytest

from games import services
from games.accounts.staff import ensure_moderator_group

from .table_helpers import STEP_TIMEOUT_MS, in_thread, log_in, open_match, second_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]


def _make_moderator(user) -> None:
    user.groups.add(ensure_moderator_group())


def test_a_moderator_hides_a_reported_message_mutes_and_bans_its_author(live_asgi_url, alice, bob, carol,
                                                                       browser_page):
    in_thread(_make_moderator, carol)
    match = in_thread(services.create_match, user=alice, game_id="mountain-goats",
                      seats=[{"human": True}, {"human": True}], options={})
    in_thread(services.join_match, match_id=match.pk, user=bob)
    base = live_asgi_url
    alice_page = browser_page
    bob_page, mod_page = second_page(browser_page), second_page(browser_page)
    try:
        log_in(alice_page, base, "alice")
        open_match(alice_page, base, match.pk)
        log_in(bob_page, base, "bob")
        open_match(bob_page, base, match.pk)
        bob_page.fill("#chat-input-players", "you are terrible")
        bob_page.press("#chat-input-players", "Enter")
        rude = alice_page.locator("#chat-players-messages .chat-msg").last
        rude.wait_for(timeout=STEP_TIMEOUT_MS)
        message_id = rude.get_attribute("id").removeprefix("chat-msg-")
        rude.locator(".chat-report").click()
        alice_page.wait_for_selector(".chat-reported", timeout=STEP_TIMEOUT_MS)

        log_in(mod_page, base, "carol")
        mod_page.get_by_role("link", name="Moderation").click()
        report = mod_page.locator(f"#report-{message_id}")
        assert "you are terrible" in report.inner_text() and "alice" in report.inner_text()
        report.locator("select[name=kind]").select_option("hide")
        report.locator("input[name=reason]").fill("insult")
        report.get_by_role("button", name="Apply").click()
        mod_page.wait_for_selector("#mod-empty", timeout=STEP_TIMEOUT_MS)
        for page in (alice_page, bob_page):  # gone from both open panels, live
            page.wait_for_selector(f"#chat-msg-{message_id}", state="detached", timeout=STEP_TIMEOUT_MS)

        mod_page.goto(f"{base}/moderation/log/")
        mod_page.fill("#ua-user", "bob")
        mod_page.select_option("#ua-kind", "mute")
        mod_page.fill("#ua-minutes", "60")
        mod_page.fill("#ua-reason", "cool down")
        mod_page.get_by_role("button", name="Apply").click()
        bob_page.fill("#chat-input-players", "hello again")
        bob_page.press("#chat-input-players", "Enter")
        bob_page.wait_for_function("() => document.getElementById('chat-error').textContent.includes('cool down')",
                                   timeout=STEP_TIMEOUT_MS)
        assert "muted you in chat until" in bob_page.locator("#chat-error").inner_text()

        mod_page.fill("#ua-user", "bob")
        mod_page.select_option("#ua-kind", "ban")
        mod_page.fill("#ua-reason", "repeated abuse")
        mod_page.get_by_role("button", name="Apply").click()
        mod_page.wait_for_selector("#mod-log", timeout=STEP_TIMEOUT_MS)
        bob_page.goto(f"{base}/settings/account/")
        assert bob_page.url.startswith(f"{base}/login/")  # the session ended
        bob_page.fill("#id_username", "bob")
        bob_page.fill("#id_password", "correct-horse-battery")
        bob_page.get_by_role("button", name="Log in").click()
        assert bob_page.url.startswith(f"{base}/login/")  # and cannot sign in
    finally:
        bob_page.context.close()
        mod_page.context.close()
