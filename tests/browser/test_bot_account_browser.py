"""A person challenges examples/bot from a real browser and plays a whole Mountain Goats game against it.

The server is Daphne (HTTP, websockets and the NDJSON streams); the bot is ``examples/bot/bot.py`` in a
subprocess with a scoped access token of a bot account.  The person's challenge reaches the bot's
account stream, the bot accepts, the person's lobby goes to the match, and the bot answers each move
through its match stream; its name shows "BOT" on the match page.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from games.botapi import bots, tokens

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__"), pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]
STEP_TIMEOUT_MS = 30_000
MAX_TURNS = 150
WAIT_FOR_TURN = """() => {
  const live = document.getElementById('match-live');
  return live && (live.dataset.status === 'finished' || live.querySelector('.climb') !== null);
}"""


@pytest.fixture
def bot_secret(live_asgi_url, make_user):
    """A bot account's access token, and a person (dana); made before the browser's event loop starts."""
    robot = make_user("randombot")
    bots.make_bot(robot)
    _, secret = tokens.create(robot, name="reference bot", scopes=["read", "play", "challenge", "bot"])
    make_user("dana", "goats-climb-high-42")
    yield secret
    bots.forget_names()  # this test's bot goes with its database


def test_a_person_challenges_the_reference_bot_in_the_browser_and_plays_it_to_the_end(live_asgi_url, bot_secret,
                                                                                       browser_page):
    secret = bot_secret
    bot = subprocess.Popen([sys.executable, str(ROOT / "examples" / "bot" / "bot.py"), "--server", live_asgi_url,
                            "--games", "mountain-goats", "--seed", "3"],
                           env={"PATH": os.environ.get("PATH", ""), "CAIRN_TOKEN": secret},
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    said: list[str] = []  # the bot's log lines, read as they come: it is stopped once it says the match ended

    def read() -> None:
        for line in bot.stderr:
            said.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        page = browser_page
        page.goto(f"{live_asgi_url}/login/")
        page.fill("#id_username", "dana")
        page.fill("#id_password", "goats-climb-high-42")
        page.get_by_role("button", name=re.compile("Log in|Sign in")).click()
        page.wait_for_url(f"{live_asgi_url}/")
        form = page.locator(".rk-challenge-form")
        form.locator("input[name=opponent]").fill("randombot")
        form.locator("select[name=game]").select_option("mountain-goats")
        form.locator("select[name=time_control]").select_option("1d")
        form.get_by_role("button", name="Challenge").click()
        # The bot accepts on its account stream; the lobby's socket sends the person to the match.
        page.wait_for_url(re.compile(r"/matches/\d+/$"), timeout=STEP_TIMEOUT_MS)
        legend = page.locator(".seat-legend")
        assert "randombot" in legend.inner_text() and legend.locator(".bot-badge").count() == 1
        turns = 0
        while True:
            page.wait_for_function(WAIT_FOR_TURN, timeout=STEP_TIMEOUT_MS)
            live = page.locator("#match-live")
            if live.get_attribute("data-status") == "finished":
                break
            assert turns < MAX_TURNS, "the game did not end"
            seq = live.get_attribute("data-seq")
            page.locator("#match-live .climb").first.click()
            turns += 1
            page.wait_for_function(
                "(seq) => document.getElementById('match-live').dataset.seq !== seq", arg=seq, timeout=STEP_TIMEOUT_MS)
        assert "Game over." in page.locator("#turn").inner_text()
        assert turns >= 3
        # The page shows the end first; the bot learns it from its match stream a moment later.
        deadline = time.monotonic() + 30
        while not any("finished" in line for line in said) and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        bot.terminate()
        bot.wait(timeout=10)
        reader.join(timeout=10)
    errors = "".join(said)
    assert "accept -> 200" in errors and "finished" in errors, errors
