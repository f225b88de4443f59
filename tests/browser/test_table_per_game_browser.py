"""At the table, for each game, in a real browser : one lean walk per game.

One match of a person (Alice) against the random bot, seen by Alice and by a spectator (Carol), in the
same two pages all along:

* the bot's move is marked as the last move on Alice's board (and the spectator's);
* Carol finds the match in the Watch list (filtered by its game) and opens it from there;
* a chat message Alice types appears in Carol's browser;
* the match page's How to play panel is the game's own;
* on a phone (390x844) the move choices are within one screen of the board's top;
* once the match is over, the replay marks the bot's move at the step after it;
* Alice offers a rematch, the bot accepts at once and her page goes to the new match.

Alice holds seat 0 and the bot seat 1 in every game; Alice makes moves (the first choice the page offers,
clicked) until the bot has moved since her previous turn (in Nanga Parbat and Mountainhome the bot moves
first: it places the guide, it picks its legendary dwarf first).  The existing whole-game tests cover the
last move over a whole game for Mountain Goats and Nanga Parbat; this one is short on purpose (about 15 s a
game).  Screenshots of the phone layout go to ``var/screenshots/`` (not committed).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import services
from games.models import Event, Match

from .table_helpers import STEP_TIMEOUT_MS, follow, in_thread, log_in, open_match, second_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}

# Per game: the board's element, the marks of the last move on it, and Alice's move choices.
GAMES = {
    "mountain-goats": {
        "name": "Mountain Goats", "board": ".mg-svg", "legend": "#last-move", "marks": ".mg-svg .last",
        "choices": "#match-live .climb",
        # A turn that climbs nothing (a legal choice the random bot can make) rings no goat: play on past it.
        "marked": lambda action: bool(action.get("climb")),
    },
    "nanga-parbat": {
        "name": "Nanga Parbat", "board": ".np-svg", "legend": "#last-move", "marks": ".np-svg .last",
        "choices": ".np-controls",
    },
    "mountainhome": {
        "name": "Mountainhome", "board": ".mh-status", "legend": ".mh-recent-list", "marks": ".mh .mh-card.recent",
        "choices": ".mh-turn",
    },
}

MY_TURN = "() => { const t = document.getElementById('turn'); return !!t && t.innerText.includes('Your turn.'); }"

# The board has settled: the live fragment's data-seq has not changed for 600 ms (no push is swapping it).
SETTLED = """() => {
  const live = document.getElementById('match-live');
  const seq = live ? live.dataset.seq : null;
  const now = performance.now();
  const w = window.__seqWatch;
  if (!w || w.seq !== seq) { window.__seqWatch = {seq: seq, since: now}; return false; }
  return now - w.since >= 600;
}"""

# Alice's first move, whatever the game: the first choice the page offers (a click the way a person makes it).
FIRST_CHOICE = """() => {
  const live = document.getElementById('match-live');
  const mg = live.querySelector('.climb');
  if (mg) { mg.click(); return 'climb'; }
  const np = live.querySelector('.np-region.can-act, .np-cell.can-act');
  if (np) { np.dispatchEvent(new MouseEvent('click', {bubbles: true})); return 'np'; }
  const ready = live.querySelector('.mh-turn button[data-verb=ready]');
  if (ready) { ready.click(); return 'ready'; }
  const answer = live.querySelector('.mh-turn .mh-answers form.mh-move button');
  if (answer) { answer.click(); return 'answer'; }
  const card = live.querySelector('.mh .mh-card.can-act > form.mh-card-form button.mh-face');
  if (card) { card.click(); return 'card'; }
  const menu = live.querySelector('.mh .mh-card.can-act > details.mh-menu');
  if (menu) { menu.querySelector('summary').click(); menu.querySelector('.mh-choices form.mh-move button').click(); return 'menu'; }
  return null;
}"""

# The board is scrolled into view (only if needed, as Playwright's scroll_into_view_if_needed does) and the
# move choices are measured relative to its top, at the current viewport (CSS pixels), in one task of the
# page: a websocket swap that replaces the board cannot come between the scroll and the measurement.
LAYOUT = """([board, choices]) => {
  document.querySelector(board).scrollIntoView({block: 'nearest', inline: 'nearest'});
  const b = document.querySelector(board).getBoundingClientRect();
  const c = Array.from(document.querySelectorAll(choices)).map(e => e.getBoundingClientRect()).filter(r => r.height > 0);
  return {board_top: b.top, first_choice: c.length ? Math.min(...c.map(r => r.top)) - b.top : null,
          width: document.documentElement.scrollWidth, height: window.innerHeight};
}"""


def _bot_moves(match_id: int) -> list[int]:
    """The seqs of the bot's (seat 1's) moves so far."""
    return list(Event.objects.filter(match_id=match_id, type=Event.Type.ACTION, payload__player=1)
                .order_by("seq").values_list("seq", flat=True))


def _last_bot_action(match_id: int) -> dict:
    """The action of the bot's (seat 1's) latest move."""
    event = Event.objects.filter(match_id=match_id, type=Event.Type.ACTION, payload__player=1).order_by("seq").last()
    return event.payload.get("action") or {}


def _seats(match_id: int) -> list:
    return [(s.user_id, s.bot_level) for s in Match.objects.get(pk=match_id).seats.order_by("index")]


def _text(page, selector: str) -> str:
    """The text of the first element ``selector`` names, or "" (without waiting for one to appear)."""
    return page.evaluate("(s) => { const e = document.querySelector(s); return e ? e.innerText : ''; }", selector)


@pytest.mark.parametrize("game", list(GAMES))
def test_at_the_table(game, live_asgi_url, celery_worker_thread, alice, carol, browser_page):
    spec = GAMES[game]
    base, page = live_asgi_url, browser_page
    match = in_thread(services.create_match, user=alice, game_id=game, seats=[{"human": True}, {"bot": "random"}],
                      options={})
    log_in(page, base, "alice")
    open_match(page, base, match.pk)
    spectator = second_page(page)
    try:
        # Alice plays (the first choice offered) until the bot has moved since her previous turn: its move is
        # the last move, named in the legend and marked on the board.
        for _ in range(12):
            page.wait_for_function(MY_TURN, timeout=STEP_TIMEOUT_MS)
            if (in_thread(_bot_moves, match.pk) and "Random bot" in _text(page, spec["legend"])
                    and spec.get("marked", lambda action: True)(in_thread(_last_bot_action, match.pk))):
                break
            seq = page.locator("#match-live").get_attribute("data-seq")
            assert page.evaluate(FIRST_CHOICE), "no move offered on Alice's turn"
            page.wait_for_function("(seq) => document.getElementById('match-live').dataset.seq !== seq", arg=seq,
                                   timeout=STEP_TIMEOUT_MS)
        else:
            raise AssertionError("the bot's move was never named as the last move")
        assert page.locator(spec["marks"]).count() >= 1
        bot_move = in_thread(_bot_moves, match.pk)[-1]

        # On a phone, the move choices start within one screen of the board's top, and nothing is wider.
        page.set_viewport_size(PHONE)
        page.wait_for_function(SETTLED, polling=100, timeout=STEP_TIMEOUT_MS)
        layout = page.evaluate(LAYOUT, [spec["board"], spec["choices"]])
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"table-{game}-phone.png"), full_page=True)
        assert layout["first_choice"] is not None and layout["first_choice"] < PHONE["height"], layout
        assert layout["width"] <= PHONE["width"], layout
        page.set_viewport_size(LAPTOP)

        # The match page's How to play panel is this game's.
        panel = page.locator(f".match-side details.help-panel[data-help='{game}']")
        panel.locator("summary").click()
        assert panel.locator("summary").inner_text() == f"How to play {spec['name']}"
        assert len(panel.inner_text()) > 200

        # A spectator finds the match in the Watch list, filtered by its game, and opens it from there.
        log_in(spectator, base, "carol")
        spectator.get_by_role("link", name="Watch").first.click()
        spectator.select_option("select[name=game]", game)
        spectator.wait_for_function("(game) => location.search.includes('game=' + game)", arg=game,
                                    timeout=STEP_TIMEOUT_MS)
        row = spectator.locator(f"[data-watch='{match.pk}']")
        assert spec["name"] in row.inner_text() and "Random bot" in row.inner_text()
        row.get_by_role("link", name="Watch").click()
        spectator.wait_for_url(f"{base}/matches/{match.pk}/")
        spectator.wait_for_selector("#connection[data-state=open]", timeout=STEP_TIMEOUT_MS)
        assert "spectating" in spectator.locator("#turn").inner_text().lower()
        assert spectator.locator(spec["board"]).count() == 1
        assert "Random bot" in _text(spectator, spec["legend"])  # the last turn played: the bot's

        # A chat message Alice types appears in the spectator's browser.
        page.fill("#chat-input-players", f"my move in {spec['name']}")
        page.press("#chat-input-players", "Enter")
        spectator.wait_for_selector("#chat-players-messages .chat-msg", timeout=STEP_TIMEOUT_MS)
        assert spectator.locator("#chat-players-messages .chat-text").last.inner_text() == f"my move in {spec['name']}"

        # The match ends (Alice resigns); the replay marks the bot's move at the step after it.
        in_thread(services.resign, match_id=match.pk, user=alice)
        page.wait_for_selector("[data-rematch=offer]", timeout=STEP_TIMEOUT_MS)
        page.goto(f"{base}/matches/{match.pk}/replay/?seq={bot_move}")
        page.wait_for_selector(f"#replay[data-seq='{bot_move}']")
        assert "Random bot" in _text(page, spec["legend"])
        assert page.locator(spec["marks"]).count() >= 1

        # A rematch: the bot accepts at once, and Alice's page goes to the new match, seats as before.
        open_match(page, base, match.pk)
        page.click("[data-rematch=offer]")
        follow(page, re.compile(rf"/matches/(?!{match.pk}/)\d+/$"))
        rematch = int(page.url.rstrip("/").rsplit("/", 1)[1])
        assert in_thread(_seats, rematch) == in_thread(_seats, match.pk)
        page.wait_for_selector(spec["board"], timeout=STEP_TIMEOUT_MS)
    finally:
        spectator.context.close()
