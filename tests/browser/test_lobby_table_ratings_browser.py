"""In a real browser: the lobby's bot choices show the rating for the chosen game and table size."""

from __future__ import annotations

import pytest

import ai

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]


def test_the_seat_labels_follow_the_number_of_players(live_asgi_url, browser_page):
    page = browser_page
    base = live_asgi_url
    page.goto(f"{base}/signup/")
    page.fill("#id_username", "tablesize")
    page.fill("#id_password1", "goats-climb-high-42")
    page.fill("#id_password2", "goats-climb-high-42")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{base}/")

    hard = ai.LEVELS["hard"]
    three = hard["table_ratings"]["mountain-goats"][3]
    two = hard["rating"]["mountain-goats"]
    assert three != two
    option = page.locator("select[name=seat_1] option[value='bot:hard']")
    page.select_option("select[name=game]", "mountain-goats")
    page.select_option("select[name=players]", "3")
    assert option.inner_text() == f"Hard bot · {three}"
    page.select_option("select[name=players]", "2")
    assert option.inner_text() == f"Hard bot · {two}"
    # medium has no 3-seat measurement: its label carries no number there
    if 3 not in ((ai.LEVELS["medium"].get("table_ratings") or {}).get("mountain-goats") or {}):
        page.select_option("select[name=players]", "3")
        assert page.locator("select[name=seat_1] option[value='bot:medium']").inner_text() == "Medium bot"

    # A game chosen before leaving the page and coming back (the browser restores the choice) gets its own
    # bots' ratings at once, not Mountain Goats' until the game is changed again.
    page.select_option("select[name=players]", "2")
    page.select_option("#id_game", "nanga-parbat")
    page.goto(f"{base}/watch/")
    page.go_back()
    page.wait_for_load_state("load")
    assert page.locator("#id_game").input_value() == "nanga-parbat"
    easy = page.locator("select[name=seat_1] option[value='bot:easy']").inner_text()
    assert easy == f"Easy bot · {ai.LEVELS['easy']['rating']['nanga-parbat']}", easy
