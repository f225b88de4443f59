"""End to end in a real browser: a whole 2-player Mountainhome game against the random bot, through the page.

The player picks among the controls the page offers (seeded random choices):
move buttons, variant lists, the bid builder (tick cards, seal, then Ready),
reaction and offer prompts.  Everything goes through the real stack: Daphne
(HTTP and websockets), hx-post moves, a real Celery worker for the bot's
moves (several per bid: the bot commits and gets ready while we decide), and
the live fragments over the Redis channel layer.  Screenshots of a few
moments go to ``var/screenshots/`` (not committed).
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]

MAX_MOVES = 1500
STEP_TIMEOUT_MS = 30_000
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"

WAIT_FOR_TURN = """() => {
  const live = document.getElementById('match-live');
  return live && (live.dataset.status === 'finished' || live.querySelector('.mh-controls') !== null);
}"""

SNAPSHOT = """() => {
  const live = document.getElementById('match-live');
  const board = live.querySelector('.mh');
  return {status: live.dataset.status, seq: live.dataset.seq, prompt: board ? board.dataset.prompt : null,
          controls: live.querySelector('.mh-controls') !== null, turn: document.getElementById('turn').innerText};
}"""

# The page's controls are read and clicked in one script each, since a push may swap the fragment at any moment.
TICK_AND_SEAL = """(coins) => {
  const form = document.querySelector('.mh-controls .mh-builder');
  if (!form) return false;
  form.querySelectorAll('input[type=checkbox]').forEach((box, i) => { if (coins[i % coins.length] < 0.5) box.click(); });
  if (document.querySelectorAll('.mh-bid .mh-ready li').length !== 2) throw new Error('no ready flags shown');
  form.querySelector('button[data-verb=commit_bid]').click();
  return true;
}"""

CLICK_READY = """() => {
  const ready = document.querySelector('.mh-controls button[data-verb=ready]');
  if (!ready) return false;
  ready.click();
  return true;
}"""

CHOOSE_AND_CLICK = """([r1, r2, r3]) => {
  const controls = document.querySelector('.mh-controls');
  if (!controls) return false;
  const end = controls.querySelector('button[data-verb=end_action_step]');
  const forms = Array.from(controls.querySelectorAll('form.mh-move:not(.mh-end)'));
  if (end && (forms.length === 0 || r1 < 0.35)) { end.click(); return true; }
  if (forms.length === 0) return false;
  const form = forms[Math.floor(r2 * forms.length)];
  const select = form.querySelector('select');
  if (select) select.selectedIndex = Math.floor(r3 * select.options.length);
  form.querySelector('button').click();
  return true;
}"""

WAIT_FOR_ANSWER = """(seq) => {
  const live = document.getElementById('match-live');
  return live.dataset.seq !== seq || document.getElementById('move-error') !== null;
}"""


def _shot(page, name: str) -> None:  # noqa: ANN001
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"mountainhome-{name}.png"), full_page=True)


def test_a_player_plays_a_whole_two_player_game_against_the_random_bot_through_the_page(
    live_asgi_url, celery_worker_thread, browser_page
):
    page = browser_page
    base = live_asgi_url
    rng = random.Random(2026)
    started = time.monotonic()

    page.goto(f"{base}/signup/")
    page.fill("#id_username", "miner")
    page.fill("#id_password1", "dig-deep-and-build-42")
    page.fill("#id_password2", "dig-deep-and-build-42")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{base}/")
    page.select_option("select[name=game]", "mountainhome")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=seat_1]", "bot:random")
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    page.wait_for_selector("#connection[data-state=open]", timeout=STEP_TIMEOUT_MS)

    moves = 0
    errors: list[str] = []
    prompts: set[str] = set()
    shots: set[str] = set()
    sealed_once = False
    while True:
        page.wait_for_function(WAIT_FOR_TURN, timeout=STEP_TIMEOUT_MS)
        # One read of the fragment on screen (a push may replace it at any moment).
        now = page.evaluate(SNAPSHOT)
        if now["status"] == "finished":
            break
        if not now["controls"]:
            continue
        assert moves < MAX_MOVES, "the game did not end"
        seq, prompt = now["seq"], now["prompt"]
        prompts.add(prompt)
        assert "Your turn." in now["turn"]
        # The page always shows the shared zones and the other town.
        assert page.locator(".mh-shop li").count() == 3
        assert page.locator(".mh-other").count() == 1
        if prompt not in shots and prompt in ("action_step", "bid_commit", "setup_pick"):
            _shot(page, prompt)
            shots.add(prompt)
        page.evaluate("() => { const e = document.getElementById('move-error'); if (e) e.remove(); }")
        if prompt == "bid_commit":
            if sealed_once or rng.random() < 0.3:
                done = page.evaluate(CLICK_READY)
                sealed_once = False
            else:
                # Tick some boxes and seal, in one go: the bot's own bid moves push fresh fragments meanwhile
                # (mountainhome.js keeps the viewer's ticks across pushes).
                done = page.evaluate(TICK_AND_SEAL, [rng.random() for _ in range(40)])
                sealed_once = True
        else:
            done = page.evaluate(CHOOSE_AND_CLICK, [rng.random() for _ in range(3)])
        if not done:
            continue  # the fragment moved on under us: look again
        moves += 1
        page.wait_for_function(WAIT_FOR_ANSWER, arg=seq, timeout=STEP_TIMEOUT_MS)
        error = page.evaluate("() => { const e = document.getElementById('move-error'); return e ? e.innerText : null; }")
        if error is not None:
            # a stale position (the bot moved in the same bid) or a refused commitment: the message shows
            errors.append(error)

    _shot(page, "end")
    assert "Game over." in page.locator("#turn").inner_text()
    assert page.locator("#result-title").inner_text() in {"You won!", "You lost.", "A shared victory!"}
    assert page.locator(".result-rows li").count() == 2
    assert {"action_step"} <= prompts
    for message in errors:
        assert message.strip(), "an error was shown without a message"
    assert page.js_errors == []
    elapsed = time.monotonic() - started
    print(f"mountainhome browser game: {moves} moves by the page, {len(errors)} refused, {elapsed:.1f} s, prompts {sorted(prompts)}")
