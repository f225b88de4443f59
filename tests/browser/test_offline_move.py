"""A move sent while the server cannot be reached: kept, said so, re-sent, never doubled.

The page is real (Daphne, the session, htmx, the websocket); the outage is
made by Playwright's request interception on the move's POST only
(``page.route``), so the rest of the page, its websocket included, stays up.
Moves go over the match socket while it is open (socketmove.js), so these pages
are set to post their moves (``data-moves="http"``), as they do while the socket
is down; the last test drops a socket move instead:

* no answer at all (the connection refused): the move is kept, a banner says
  it was not played yet, the board still says "Your turn" and nothing is
  stored; once the server answers again the move is sent and played once;
* the move reached the server and was stored, but its answer was lost: the
  re-send names the same expected_seq and is refused as stale, so the move is
  stored once, and the page says the position changed;
* a 503 from the server (its database down, games/outage.py): the banner shows
  the server's message, and the move is re-sent after Retry-After.
"""

from __future__ import annotations

import pytest

from games import services
from games.models import Event, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]

STEP_MS = 20_000
PASSWORD = "offline-moves-are-kept-42"
OUTAGE_FRAGMENT = ('<div id="outage-message" class="alert outage" role="alert" data-outage="database">'
                   "Cairn cannot reach its database right now, so nothing was changed. Try again in a few seconds.</div>")


@pytest.fixture
def table(django_user_model):
    """A started two-person match; the user whose turn it is, and the match."""
    alice = django_user_model.objects.create_user(username="alice", password=PASSWORD)
    bob = django_user_model.objects.create_user(username="bob", password=PASSWORD)
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}])
    match = services.join_match(match_id=match.pk, user=bob)
    seat = match.to_move[0]
    return (alice, bob)[seat], match


def _open_match(page, base: str, user, match: Match, http: bool = True) -> None:
    page.goto(f"{base}/login/?next=/matches/{match.pk}/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/matches/{match.pk}/")
    page.wait_for_selector("#connection[data-state=open]", timeout=STEP_MS)
    page.wait_for_selector("#match-live .climb", timeout=STEP_MS)
    if http:
        page.evaluate("document.querySelector('.match-shell').setAttribute('data-moves', 'http')")


def _off_loop(fn):
    """Run a database read in a thread of its own: Playwright's sync API runs an event loop in this one."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    def call():
        try:
            return fn()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()


def _actions(match: Match) -> int:
    return _off_loop(lambda: Event.objects.filter(match_id=match.pk, type="action").count())


def _seq(match: Match) -> int:
    return _off_loop(lambda: Match.objects.get(pk=match.pk).seq)


def test_a_move_with_no_answer_is_kept_and_sent_once_the_server_is_back(live_asgi_url, table, browser_page) -> None:
    page = browser_page
    user, match = table
    _open_match(page, live_asgi_url, user, match)
    seq = page.locator("#match-live").get_attribute("data-seq")
    page.route("**/matches/*/move/", lambda route: route.abort("connectionrefused"))
    page.locator("#match-live .climb").first.click()
    page.wait_for_selector("#offline-banner:not([hidden])", timeout=STEP_MS)
    text = page.locator("#offline-banner").inner_text()
    assert "cannot be reached" in text and "not played yet" in text
    # nothing claims the move was made: the position and the turn are unchanged, and nothing is stored
    assert page.locator("#match-live").get_attribute("data-seq") == seq
    assert page.locator("#match-live").get_attribute("data-move-pending") == "true"
    assert "Your turn." in page.locator("#turn").inner_text()
    assert _actions(match) == 0
    page.wait_for_timeout(5500)  # the first re-send (after 5 s) fails too: the move is still kept, still not stored
    assert page.locator("#match-live").get_attribute("data-move-pending") == "true"
    assert _actions(match) == 0
    page.unroute("**/matches/*/move/")
    page.wait_for_selector("#offline-banner[data-kind=ok]", timeout=STEP_MS)
    assert "your move was sent and played" in page.locator("#offline-banner").inner_text()
    assert _actions(match) == 1
    page.wait_for_function(f"() => document.getElementById('match-live').dataset.seq === '{_seq(match)}'", timeout=STEP_MS)
    assert "Your turn." not in page.locator("#turn").inner_text()
    _forget_the_provoked_errors(page)


# What the browser and htmx log about the request this file makes fail on purpose (a refused or
# reset connection, a 503 answer); no_console_errors (tests/browser/conftest.py) fails on the rest.
PROVOKED = ("htmx:sendError", "htmx:afterRequest", "htmx:responseError", "ERR_CONNECTION_REFUSED",
            "ERR_CONNECTION_RESET", "ERR_FAILED", "status of 503", "Error Code 503")


def _forget_the_provoked_errors(page) -> None:
    page.js_errors[:] = [e for e in page.js_errors if not any(mark in e for mark in PROVOKED)]
    assert page.js_errors == []  # nothing else went wrong


def test_a_move_stored_whose_answer_was_lost_is_never_played_twice(live_asgi_url, table, browser_page) -> None:
    page = browser_page
    user, match = table
    _open_match(page, live_asgi_url, user, match)

    def store_then_drop(route) -> None:
        route.fetch()  # the server stores the move ...
        route.abort("connectionreset")  # ... and its answer is lost on the way back

    page.route("**/matches/*/move/", store_then_drop)
    page.locator("#match-live .climb").first.click()
    page.wait_for_selector("#offline-banner:not([hidden])", timeout=STEP_MS)
    assert _actions(match) == 1
    page.unroute("**/matches/*/move/")
    page.wait_for_function(
        "() => { const b = document.getElementById('offline-banner'); return b && b.dataset.kind === 'info'; }",
        timeout=STEP_MS)
    assert "it was not played again" in page.locator("#offline-banner").inner_text()
    assert _actions(match) == 1  # the re-send was refused as stale: the move is stored once
    page.wait_for_function(f"() => document.getElementById('match-live').dataset.seq === '{_seq(match)}'", timeout=STEP_MS)
    assert page.locator("#match-live").get_attribute("data-move-pending") is None
    _forget_the_provoked_errors(page)


def test_a_503_shows_the_servers_message_and_the_move_is_sent_after_retry_after(live_asgi_url, table, browser_page) -> None:
    page = browser_page
    user, match = table
    _open_match(page, live_asgi_url, user, match)
    page.route("**/matches/*/move/", lambda route: route.fulfill(
        status=503, body=OUTAGE_FRAGMENT, headers={"Retry-After": "1", "Content-Type": "text/html; charset=utf-8"}))
    page.locator("#match-live .climb").first.click()
    page.wait_for_selector("#offline-banner:not([hidden])", timeout=STEP_MS)
    text = page.locator("#offline-banner").inner_text()
    assert "cannot reach its database" in text and "not played yet" in text
    assert _actions(match) == 0
    assert "Your turn." in page.locator("#turn").inner_text()
    page.unroute("**/matches/*/move/")
    page.wait_for_selector("#offline-banner[data-kind=ok]", timeout=STEP_MS)
    assert _actions(match) == 1
    page.wait_for_function(f"() => document.getElementById('match-live').dataset.seq === '{_seq(match)}'", timeout=STEP_MS)
    _forget_the_provoked_errors(page)


def test_offline_the_dot_is_not_live_and_a_failed_background_poll_never_replaces_the_banner(
    live_asgi_url, table, browser_page
) -> None:
    page = browser_page
    user, match = table
    _open_match(page, live_asgi_url, user, match)
    page.context.set_offline(True)
    page.wait_for_selector("#connection:not([data-state=open])", timeout=STEP_MS)
    assert "Live" not in page.locator("#connection .connection-text").inner_text()
    page.locator("#match-live .climb").first.click()
    page.wait_for_selector("#offline-banner:not([hidden])", timeout=STEP_MS)
    assert "not played yet" in page.locator("#offline-banner").inner_text()
    page.wait_for_timeout(6000)  # the spectator count's poll (every 5 s) fails meanwhile
    text = page.locator("#offline-banner").inner_text()
    assert "move is kept" in text and "nothing was changed" not in text, text
    assert page.locator("#connection").get_attribute("data-state") != "open"
    page.context.set_offline(False)
    page.wait_for_selector("#offline-banner[data-kind=ok]", timeout=STEP_MS)
    page.wait_for_selector("#connection[data-state=open]", timeout=STEP_MS)
    page.wait_for_timeout(5500)  # the next polls succeed; nothing replaces the outcome
    text = page.locator("#offline-banner").inner_text()
    assert "nothing was changed" not in text and "cannot be reached" not in text, text
    assert _actions(match) == 1
    page.js_errors[:] = [e for e in page.js_errors if "ERR_INTERNET_DISCONNECTED" not in e]
    _forget_the_provoked_errors(page)


def test_a_socket_move_whose_answer_never_comes_is_sent_again_over_http_and_played_once(
    live_asgi_url, table, browser_page
) -> None:
    page = browser_page
    user, match = table
    sent: list[str] = []

    def route(ws) -> None:
        server = ws.connect_to_server()

        def from_page(message: str) -> None:
            if '"type":"move"' in message.replace(" ", ""):
                sent.append(message)  # the move never reaches the server, and the socket drops
                ws.close(code=1006)
            else:
                server.send(message)

        ws.on_message(from_page)

    page.route_web_socket(f"**/ws/matches/{match.pk}/**", route)
    _open_match(page, live_asgi_url, user, match, http=False)
    page.locator("#match-live .climb").first.click()
    page.wait_for_selector("#offline-banner[data-kind=ok]", timeout=STEP_MS)
    assert len(sent) == 1 and '"expected_seq"' in sent[0]
    assert _actions(match) == 1
    page.wait_for_function(f"() => document.getElementById('match-live').dataset.seq === '{_seq(match)}'", timeout=STEP_MS)
    _forget_the_provoked_errors(page)
