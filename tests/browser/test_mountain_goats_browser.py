"""End to end in a real browser: sign up, play a whole Mountain Goats game against the random bot, see the result.

Everything goes through the real stack: Daphne (HTTP and websockets), the
session, the lobby form, hx-post moves, a real Celery worker for the bot's
turns, and the live fragments pushed over the Redis channel layer.
"""

from __future__ import annotations

import re
import time

import pytest

from .console_errors import watch_console_errors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]

# A game against the random bot takes 10 to 40 of our turns; each is a click
# and a bot move.  This bounds the whole test well under two minutes.
MAX_TURNS = 120
STEP_TIMEOUT_MS = 20_000

WAIT_FOR_TURN = """() => {
  const live = document.getElementById('match-live');
  return live && (live.dataset.status === 'finished' || live.querySelector('.climb') !== null);
}"""


def test_a_new_player_signs_up_and_plays_a_whole_game_against_the_random_bot(
    live_asgi_url, celery_worker_thread, browser_page
):
    page = browser_page
    base = live_asgi_url
    started = time.monotonic()
    console_errors = watch_console_errors(page)

    # Sign up: a new account lands in the lobby, logged in.
    page.goto(f"{base}/")
    page.get_by_role("link", name="Sign up to play").click()
    page.fill("#id_username", "newcomer")
    page.fill("#id_password1", "goats-climb-high-42")
    page.fill("#id_password2", "goats-climb-high-42")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{base}/")
    assert page.locator(".whoami").inner_text() == "newcomer"

    # Create a match against the random bot.
    page.select_option("select[name=game]", "mountain-goats")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=seat_1]", "bot:random")
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    page.wait_for_selector("#connection[data-state=open]", timeout=STEP_TIMEOUT_MS)  # the websocket is live
    assert page.locator(".mg-svg .mountain").count() == 6
    assert page.locator(".mg-svg .goat").count() == 12  # six goats each, at the foot

    # A move made from an outdated position is refused, and the message shows on the page.
    page.wait_for_function(WAIT_FOR_TURN, timeout=STEP_TIMEOUT_MS)
    page.evaluate("() => document.querySelectorAll('input[name=expected_seq]').forEach(i => { i.value = '1'; })")
    page.locator("#match-live .climb").first.click()
    page.wait_for_selector("#move-error", timeout=STEP_TIMEOUT_MS)
    assert "stale expected_seq" in page.locator("#move-error").inner_text()
    # The move went on the match socket (socketmove.js), so the refusal is an answer there, not a failed request.
    assert console_errors == []

    turns = 0
    used_builder = False
    bot_climbs_marked = 0
    while True:
        page.wait_for_function(WAIT_FOR_TURN, timeout=STEP_TIMEOUT_MS)
        live = page.locator("#match-live")
        if live.get_attribute("data-status") == "finished":
            break
        assert turns < MAX_TURNS, "the game did not end"
        seq = live.get_attribute("data-seq")
        assert "Your turn." in page.locator("#turn").inner_text()
        if turns:
            # The bot's move since our last turn is the last move: named in the legend, its goats ringed.
            legend = page.locator("#last-move").inner_text()
            assert "Last move" in legend and "Random bot rolled" in legend, legend
            if "climbed nothing" not in legend.split("Random bot")[-1]:
                assert page.locator(".mg-svg .goat.seat-1.last").count() >= 1
                bot_climbs_marked += 1
        faces = [int(f) for f in page.locator(".mg-builder").get_attribute("data-roll").split(",")]
        big = next((i for i, f in enumerate(faces) if f >= 5), None)
        if not used_builder and big is not None and faces.count(1) < 2:
            # Once: group one die by hand (the builder), and check its live preview.
            page.locator(".builder summary").click()
            page.select_option(f"select[name=group-{big}]", "A")
            assert f"climbs {faces[big]}" in page.locator(".builder-preview").inner_text()
            page.get_by_role("button", name="Climb with these groups").click()
            used_builder = True
        else:
            # Otherwise the first climb offered (the longest, so the game moves on).
            page.locator("#match-live .climb").first.click()
        turns += 1
        # Our move is answered with a newer fragment (then the bot's move is pushed).
        page.wait_for_function(
            "(seq) => document.getElementById('match-live').dataset.seq !== seq", arg=seq, timeout=STEP_TIMEOUT_MS
        )
        assert page.locator("#move-error").count() == 0, page.locator("#move-error").inner_text()

    # The result is shown clearly.
    assert "Game over." in page.locator("#turn").inner_text()
    headline = page.locator("#result-title").inner_text()
    assert headline in {"You won!", "You lost.", "A shared victory!"}
    rows = page.locator(".result-rows li")
    assert rows.count() == 2
    assert re.search(r"\d+ points", rows.first.inner_text())
    assert page.locator(".result-rows li.winner").count() >= 1
    assert "The match is over." in page.locator(".log").inner_text()
    assert used_builder
    assert bot_climbs_marked >= 1

    # Step through the game: the last event, the first, forward and back with the keys, a click in the log,
    # and the end again, where the result is.
    last = int(page.locator("#match-live").get_attribute("data-seq"))
    page.get_by_role("link", name="Step through the game").click()
    page.wait_for_selector("#replay")
    assert f"Event {last} of {last}." in page.locator(".turn-banner").inner_text()  # it opens at the end
    page.keyboard.press("Home")
    page.wait_for_selector("#replay[data-seq='1']", timeout=STEP_TIMEOUT_MS)
    for seq in (2, 3):
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f"#replay[data-seq='{seq}']", timeout=STEP_TIMEOUT_MS)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#replay[data-seq='2']", timeout=STEP_TIMEOUT_MS)
    assert page.evaluate("location.search") == "?seq=2"
    page.locator(".replay-log a", has_text=re.compile(r"^\s*6\b")).click()
    page.wait_for_selector("#replay[data-seq='6']", timeout=STEP_TIMEOUT_MS)
    assert page.locator(".mg-dice .die").count() in (0, 4)
    assert page.locator("form").filter(has=page.locator("button.climb")).count() == 0  # a replay offers no moves
    page.keyboard.press("End")
    page.wait_for_selector(f"#replay[data-seq='{last}']", timeout=STEP_TIMEOUT_MS)
    assert page.locator(".result-rows li").count() == 2
    # The replay marks the last move of the step shown, as the live page did.
    assert "Last move" in page.locator("#last-move").inner_text()
    climbs = [c for c in page.locator("#last-move li").all_inner_texts() if "climbed nothing" not in c]
    assert page.locator(".mg-svg .goat.last").count() >= (1 if climbs else 0)
    page.go_back()
    page.wait_for_selector("#replay[data-seq='6']", timeout=STEP_TIMEOUT_MS)

    assert page.js_errors == []
    assert console_errors == []  # no console error of any kind (htmx's, the browser's, a failed load)
    assert time.monotonic() - started < 150
