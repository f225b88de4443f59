"""Fair play seen in a real browser: a bot in a leaver's seat, a wait before rated play, takebacks against
the easy bot, and a queued person who closes the page.

Most moves go through the service layer in the test process; the browser shows what a person sees.
Daphne serves HTTP and websockets in its own process (tests/browser/conftest.py); settings changed before
``live_asgi_url`` starts reach it too.
"""

from __future__ import annotations

import time

import pytest

from tests.ranking.browser.test_ranked_browser import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]

STEP_MS = 15_000


@pytest.fixture
def people(make_user, settings, monkeypatch):
    """alice, bob and carol, a 1 s grace period for leavers, and a closed page ends a queue entry after 1 s."""
    settings.CAIRN_LEAVER_GRACE_FACTOR = 1 / 60
    settings.CAIRN_REPLACEMENT_BOT = "random"
    settings.CAIRN_QUEUE_LEAVE_GRACE_SECONDS = 1
    # The test drives the services from the thread that also runs Playwright's (sync) event loop.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    return [make_user(name, PASSWORD) for name in ("alice", "bob", "carol")]


def test_a_bot_plays_on_in_a_three_player_leavers_seat_and_all_three_are_rated(people, live_asgi_url,
                                                                             browser_page):
    from playwright.sync_api import expect

    from games import selectors
    from games.fairplay import leavers, presence
    from games.ranking.models import RatingChange
    from tests.ranking.helpers import everyone_moves, new_match
    from tests.service.helpers import finish_quickly

    alice, bob, carol = people
    match = new_match(people)
    everyone_moves(match.pk, people)
    presence.seat_here(match.pk, 1, "bob-socket")
    presence.seat_here(match.pk, 2, "carol-socket")
    presence.seat_gone(match.pk, 2, "carol-socket")  # carol closes her tab
    page = browser_page
    log_in(page, live_asgi_url, "alice")
    page.goto(f"{live_asgi_url}/matches/{match.pk}/")
    carol_row = page.locator('#presence-panel li[data-seat="2"]')
    expect(carol_row).to_have_class("presence-seat gone", timeout=STEP_MS)
    time.sleep(1.2)  # the grace period
    assert leavers.sweep()["seats_handed_to_bots"] == 1
    page.reload()
    presence_label = carol_row.locator(".presence-label")
    expect(carol_row).to_have_class("presence-seat replaced", timeout=STEP_MS)
    expect(presence_label).to_have_text("left · a bot plays on")
    expect(page.locator('.rk-match .rk-seat[data-seat="2"] .tag')).to_have_text(
        "forfeited or left · Random bot plays on")
    finish_quickly(selectors.get_match(match.pk), seed=3)  # the two people and the bot play to the end
    page.reload()
    expect(page.locator("#match-live")).to_have_attribute("data-status", "finished", timeout=STEP_MS)
    changes = page.locator(".rk-changes li")
    expect(changes).to_have_count(3)
    assert sorted(line.split(":")[0] for line in changes.all_inner_texts()) == ["alice", "bob", "carol"]
    assert RatingChange.objects.filter(match_id=match.pk).count() == 3
    assert RatingChange.objects.get(match_id=match.pk, user=carol).place == 2  # the leaver ranks last


def test_a_person_with_three_aborts_in_a_row_sees_their_wait_before_rated_play(people, live_asgi_url,
                                                                              browser_page):
    from playwright.sync_api import expect

    from games import services
    from games.fairplay import reliability
    from games.ranking.models import QueueEntry
    from tests.ranking.helpers import new_match

    alice, bob, _ = people
    for _ in range(3):
        services.abort(match_id=new_match([alice, bob]).pk, user=alice)
    wait = reliability.current_wait(alice)
    page = browser_page
    log_in(page, live_asgi_url, "alice")
    notice = page.locator("#ranked-panel .rk-playban")
    expect(notice).to_be_visible(timeout=STEP_MS)
    expect(notice).to_have_attribute("data-wait-until", wait.until.isoformat())
    expect(notice).to_contain_text("You may play rated again at")
    expect(notice).to_contain_text("3 matches you aborted in the last 24 hours")
    # Asking for rated play anyway is refused with the same reason.
    page.locator('[data-play="mountain-goats-2-rated"]').click()
    expect(page.locator("#ranked-panel .alert", has_text="you may play rated again at")).to_contain_text(
        "3 matches you aborted", timeout=STEP_MS)
    assert not QueueEntry.objects.filter(user=alice).exists()


def test_a_takeback_against_the_easy_bot_is_allowed_before_a_roll_and_refused_across_one(
    people, live_asgi_url, celery_worker_thread, browser_page
):
    from playwright.sync_api import expect

    from games import selectors, services
    from games.models import Event
    from tests.fairplay.test_takebacks import play

    alice = people[0]
    page = browser_page
    log_in(page, live_asgi_url, "alice")

    # Nanga Parbat rolls no dice: alice's move (made here through the services), and the bot's reply if it
    # came, are taken back from the board's button.
    climb = services.create_match(user=alice, game_id="nanga-parbat", seats=[{"human": True}, {"bot": "easy"}])
    for _ in range(100):  # the worker plays the bot's first turn if it starts
        if selectors.load_state(selectors.get_match(climb.pk)).to_move() == [0]:
            break
        time.sleep(0.1)
    before = selectors.match_view(selectors.get_match(climb.pk), alice)["view"]
    play(climb.pk, alice)
    page.goto(f"{live_asgi_url}/matches/{climb.pk}/")
    page.wait_for_selector("#connection[data-state=open]", timeout=STEP_MS)
    page.locator('[data-takeback="ask"]').click()
    for _ in range(100):
        if Event.objects.filter(match_id=climb.pk, type="takeback").exists():
            break
        time.sleep(0.1)
    expect(page.locator("#presence-panel .presence-error")).to_have_count(0)
    assert Event.objects.filter(match_id=climb.pk, type="takeback").count() == 1
    assert selectors.match_view(selectors.get_match(climb.pk), alice)["view"] == before  # as before the move
    # The board redraws at the takeback (its seq), alice to move again.
    expect(page.locator("#match-live")).to_have_attribute("data-seq", str(selectors.get_match(climb.pk).seq),
                                                          timeout=STEP_MS)

    # Mountain Goats rolls the dice after every climb: the climb is never taken back, and the page says why.
    goats = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"bot": "easy"}])
    page.goto(f"{live_asgi_url}/matches/{goats.pk}/")
    page.wait_for_selector("#connection[data-state=open]", timeout=STEP_MS)
    page.wait_for_selector("#match-live .climb", timeout=STEP_MS)  # alice's turn (after the bot's, if first)
    seq = page.locator("#match-live").get_attribute("data-seq")
    page.locator("#match-live .climb").first.click()
    page.wait_for_function("(s) => document.getElementById('match-live').dataset.seq !== s", arg=seq,
                           timeout=STEP_MS)
    moved = selectors.get_match(goats.pk).seq
    page.locator('[data-takeback="ask"]').click()
    expect(page.locator("#presence-panel .presence-error")).to_contain_text("die roll", timeout=STEP_MS)
    assert not Event.objects.filter(match_id=goats.pk, type="takeback").exists()
    assert selectors.get_match(goats.pk).seq >= moved  # nothing rewound (the bot may have played on)


def test_a_queued_person_who_closes_the_page_is_never_paired(people, live_asgi_url, browser_page):
    from playwright.sync_api import expect

    from games.fairplay import presence
    from games.ranking import matchmaking
    from games.ranking.models import QueueEntry

    alice, bob, _ = people
    page = browser_page
    log_in(page, live_asgi_url, "alice")
    for _ in range(100):  # the lobby's user socket is open
        if presence.pages([alice.pk])[alice.pk].here:
            break
        time.sleep(0.1)
    page.locator('[data-play="mountain-goats-2-casual"]').click()
    expect(page.locator("#ranked-panel .rk-waiting")).to_be_visible(timeout=STEP_MS)
    assert QueueEntry.objects.get(user=alice).status == "waiting"
    page.close()  # alice closes her only page
    for _ in range(100):
        if not presence.pages([alice.pk])[alice.pk].here:
            break
        time.sleep(0.1)
    time.sleep(1.2)  # the queue's grace period
    entry = matchmaking.join(user=bob, game_id="mountain-goats", players=2, time_control="5+10", rated=False)
    assert entry.status == "waiting" and entry.match_id is None  # bob is not paired with alice
    assert QueueEntry.objects.get(user=alice).status == "cancelled"
