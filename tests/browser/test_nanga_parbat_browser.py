"""End to end in a real browser: play a whole Nanga Parbat game against the random bot by clicking.

Everything goes through the real stack: Daphne (HTTP and websockets), the
session, the lobby form, hx-post moves sent by the board's script, a real
Celery worker for the bot's turns, and the live fragments pushed over the
Redis channel layer.  Every decision is made by clicking the board: the
guide's placement, relocations and traps on the mountain, activations by
clicking their squares, claims by clicking a chart square and then hikers or
animals, and the end of the turn.
"""

from __future__ import annotations

import re
import time

import pytest

from .conftest import watch_htmx_errors
from .console_errors import watch_console_errors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]

MAX_DECISIONS = 200  # our 15 turns, each a trap, a few activations, a claim and an end
STEP_TIMEOUT_MS = 20_000

WAIT_FOR_TURN = """() => {
  const live = document.getElementById('match-live');
  return live && (live.dataset.status === 'finished' || document.getElementById('np-move-form') !== null);
}"""


def _seq(page) -> str:
    return page.locator("#match-live").get_attribute("data-seq")


def _wait_for_new_position(page, seq: str) -> None:
    page.wait_for_function(
        "(seq) => document.getElementById('match-live').dataset.seq !== seq", arg=seq, timeout=STEP_TIMEOUT_MS
    )
    assert page.locator("#move-error").count() == 0, page.locator("#move-error").inner_text()


def _choose_until_complete(page, choosable: str) -> None:
    """Click highlighted squares until the choice is one legal action (swaps send themselves)."""
    for _ in range(8):
        if page.locator("#np-picker").is_hidden():
            return  # a swap was sent
        confirm = page.locator("#np-confirm")
        if confirm.is_visible() and confirm.is_enabled():
            confirm.click()
            return
        page.locator(choosable).first.click()
    raise AssertionError("the choice never became a legal action")


def _decide(page, turn: dict) -> str:
    """Make one decision by clicking, the way a person would; return its kind.

    ``turn`` remembers what was done this turn (activations, a claim attempt).
    """
    if page.locator(".np-place").count():
        page.locator(".np-region.can-act").first.click()  # the second player places the guide
        return "guide"
    if page.locator(".np-relocate").count():
        page.locator(".np-region.can-act").first.click()
        return "relocate"
    if page.locator(".np-cell.can-act").count():
        page.locator(".np-cell.can-act").first.click()
        turn.update(activations=0, claimed=False)
        return "trap"
    if page.locator(".np-power-start").count() and turn.get("activations", 0) < 2:
        page.locator(".np-power-start").first.click()
        assert page.locator("#np-picker").is_visible()
        _choose_until_complete(page, ".np-cell.np-choosable")
        turn["activations"] = turn.get("activations", 0) + 1
        return "activate"
    if page.locator(".np-claim-start").count() and not turn.get("claimed"):
        claim = page.locator(".np-claim-start").first
        kind = claim.get_attribute("data-np-kind")
        claim.click()
        choosable = ".np-cell.np-choosable" if kind == "build_camps" else "button.np-animal-chip.np-choosable"
        _choose_until_complete(page, choosable)
        turn["claimed"] = True
        return "claim"
    page.locator(".np-end-turn").click()
    return "end"


def _check_last_move(page, names: dict) -> bool:
    """At the start of a turn after the opponent's: its turn is the last move, in the legend and ringed on the map."""
    legend = page.locator("#last-move").inner_text()
    assert "Last move" in legend and "trapped" in legend, legend
    assert any(name in legend for name in names), legend
    assert page.locator(".np-svg .np-cell.last").count() >= 1
    return True


def _play_to_the_end(pages: dict, opponents: dict | None = None) -> dict:
    """Whoever has the move decides, until the match is over; counts of decisions by kind.

    ``opponents``: each page's opponent's name(s), to check the last move at the start of each of its
    turns after its first (``used["marked"]`` counts the checks).
    """
    used = {"guide": 0, "relocate": 0, "trap": 0, "activate": 0, "claim": 0, "end": 0, "marked": 0}
    turns = {name: {} for name in pages}
    traps = dict.fromkeys(pages, 0)
    for _ in range(MAX_DECISIONS * len(pages)):
        mover = None
        deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
        while mover is None:  # until one of the pages has the move (the bot may be thinking)
            for name, page in pages.items():
                if page.locator("#match-live").get_attribute("data-status") == "finished":
                    return used
                if page.locator("#np-move-form").count():
                    mover = name
                    break
            else:
                assert time.monotonic() < deadline, "nobody got the move"
                next(iter(pages.values())).wait_for_timeout(100)
        page = pages[mover]
        seq = _seq(page)
        starting = page.locator(".np-cell.can-act").count() and not page.locator("#np-picker:not([hidden])").count()
        if opponents and starting and traps[mover]:
            used["marked"] += _check_last_move(page, opponents[mover])
        kind = _decide(page, turns[mover])
        used[kind] += 1
        traps[mover] += kind == "trap"
        _wait_for_new_position(page, seq)
    raise AssertionError("the game did not end")


def test_a_player_plays_a_whole_nanga_parbat_game_against_the_random_bot_by_clicking(
    live_asgi_url, celery_worker_thread, browser_page
):
    page = browser_page
    base = live_asgi_url
    started = time.monotonic()
    console_errors = watch_console_errors(page)

    page.goto(f"{base}/")
    page.get_by_role("link", name="Sign up to play").click()
    page.fill("#id_username", "climber")
    page.fill("#id_password1", "eight-thousand-126m")
    page.fill("#id_password2", "eight-thousand-126m")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{base}/")

    page.select_option("select[name=game]", "nanga-parbat")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=seat_1]", "bot:random")
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    page.wait_for_selector("#connection[data-state=open]", timeout=STEP_TIMEOUT_MS)
    page.wait_for_selector(".np-svg .np-cell", timeout=STEP_TIMEOUT_MS)
    assert page.locator(".np-svg .np-region").count() == 6
    assert page.locator(".np-svg .np-cell").count() == 36
    assert page.locator(".np-svg .np-path").count() == 9
    assert page.locator(".np-chart .np-square").count() == 15
    letters = {t.strip() for t in page.locator(".np-svg .np-letter").all_text_contents()}
    assert letters == {"S", "T", "M", "Y", "B", "R"}

    # An illegal choice sent anyway is refused with a clear message.
    page.wait_for_function(WAIT_FOR_TURN, timeout=STEP_TIMEOUT_MS)
    assert page.locator(".np-end-turn").count() == 0  # not offered before the trap
    page.evaluate(
        """() => {
          const form = document.getElementById('np-move-form');
          form.querySelector('input[name=action]').value = '{"end_turn": true}';
          form.requestSubmit();
        }"""
    )
    page.wait_for_selector("#move-error", timeout=STEP_TIMEOUT_MS)
    error = page.locator("#move-error").inner_text()
    assert "is illegal" in error and ("trap must be made" in error or "place the guide" in error), error
    # The move went on the match socket (socketmove.js), so the refusal is an answer there, not a failed request.
    assert console_errors == []

    used = _play_to_the_end({"me": page}, {"me": ["Random bot"]})

    assert "Game over." in page.locator("#turn").inner_text()
    headline = page.locator("#result-title").inner_text()
    assert headline in {"You won!", "You lost.", "A shared victory!"}
    assert page.locator(".result-rows li").count() == 2
    assert "The match is over." in page.locator(".log").inner_text()
    assert used["trap"] >= 1 and used["end"] == used["trap"], used  # one end_turn per turn (an end by cubes may come early)
    assert used["activate"] >= 1 and used["claim"] >= 1, used
    assert used["marked"] >= 5, used  # the bot's turn was marked at the start of every turn of ours after the first

    # The replay marks the last move of the step shown too: here the final step.
    page.goto(page.url.rstrip("/") + "/replay/")
    page.wait_for_selector("#replay")
    assert "Last move" in page.locator("#last-move").inner_text()
    assert page.locator(".np-svg .np-cell.last").count() >= 1
    assert page.locator("#np-move-form").count() == 0  # a replay offers no moves

    assert page.js_errors == []
    assert console_errors == []  # none of any kind: the map's clicks used to log hx-disabled-elt errors
    assert time.monotonic() - started < 300


def _sign_up(page, base: str, name: str) -> None:
    page.goto(f"{base}/")
    page.get_by_role("link", name="Sign up to play").click()
    page.fill("#id_username", name)
    page.fill("#id_password1", "eight-thousand-126m")
    page.fill("#id_password2", "eight-thousand-126m")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{base}/")


def test_two_people_play_a_whole_nanga_parbat_game_by_clicking(live_asgi_url, browser_page):
    base = live_asgi_url
    alice = browser_page
    _sign_up(alice, base, "alice")
    alice.select_option("select[name=game]", "nanga-parbat")
    alice.select_option("select[name=players]", "2")
    alice.select_option("select[name=seat_1]", "person")
    alice.get_by_role("button", name="Create match").click()
    alice.wait_for_url(re.compile(r"/matches/\d+/$"))
    alice.wait_for_selector("#connection[data-state=open]", timeout=STEP_TIMEOUT_MS)
    assert alice.locator(".np-svg").count() == 0  # waiting: no board yet, so no board script either
    match_url = alice.url

    context = alice.context.browser.new_context(viewport={"width": 1280, "height": 900})
    bob = context.new_page()
    errors: list[str] = []
    bob.on("pageerror", lambda exc: errors.append(str(exc)))
    watch_htmx_errors(bob, errors)
    alice_console = watch_console_errors(alice)
    bob_console = watch_console_errors(bob)
    try:
        _sign_up(bob, base, "bob")
        bob.goto(match_url)
        bob.get_by_role("button", name="Join this match").click()
        bob.wait_for_selector(".np-svg .np-cell", timeout=STEP_TIMEOUT_MS)
        # Alice's board arrives in a live swap; its script is loaded then, so clicking works for her too.
        alice.wait_for_selector(".np-svg .np-cell", timeout=STEP_TIMEOUT_MS)
        alice.wait_for_function("() => window.cairnNangaParbat === true", timeout=STEP_TIMEOUT_MS)
        used = _play_to_the_end({"alice": alice, "bob": bob}, {"alice": ["bob"], "bob": ["alice"]})
        for page in (alice, bob):
            page.wait_for_function(
                "() => document.getElementById('match-live').dataset.status === 'finished'", timeout=STEP_TIMEOUT_MS
            )
            assert "Game over." in page.locator("#turn").inner_text()
            assert page.locator("#result-title").inner_text() in {"You won!", "You lost.", "A shared victory!"}
        assert used["guide"] == 1 and used["trap"] >= 2 and used["end"] == used["trap"], used
        assert used["marked"] >= 10, used
        assert alice.js_errors == [] and errors == []
        assert alice_console == [] and bob_console == []
    except BaseException:
        # Show the failure at once: closing a second context after a failure has been seen to hang on a
        # loaded machine, which would hide it.
        import traceback

        traceback.print_exc()
        raise
    finally:
        context.close()
