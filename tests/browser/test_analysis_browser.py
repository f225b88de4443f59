"""End to end in a real browser: finish a game against the easy bot, ask for its analysis, watch it come,
read the graph, the marks and the better moves, and step the replay by clicking the graph (on a phone)."""

from __future__ import annotations

import re

import pytest

from .console_errors import watch_console_errors
from .table_helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]

STEP_TIMEOUT_MS = 20_000
MAX_TURNS = 120
WAIT_FOR_TURN = """() => {
  const live = document.getElementById('match-live');
  return live && (live.dataset.status === 'finished' || live.querySelector('.climb') !== null);
}"""


def open_point(rect):
    """A point inside the element, relative to its box, where the element itself is the topmost thing."""
    point = rect.evaluate("""(el) => {
      el.scrollIntoView({block: "center"});
      const box = el.getBoundingClientRect();
      const x = box.left + box.width / 2;
      for (let y = box.top + 1; y < box.bottom; y += 1) {
        if (document.elementFromPoint(x, y) === el) return {x: box.width / 2, y: y - box.top};
      }
      return null;
    }""")
    assert point, "the band is covered everywhere"
    return point


@pytest.fixture
def worker_with_analyses(transactional_db, monkeypatch):
    """One real worker (a thread of this process) on both queues: the bots' and the analyses'; the
    analysis budget made small (the worker runs here, so the patch reaches it)."""
    from celery.contrib.testing.worker import start_worker
    from django.conf import settings

    from ai import analysis as core
    from config.celery import app

    monkeypatch.setitem(core.BUDGETS, "mountain-goats", core.Budget(decision=80, played=40, luck=10))
    queues = [settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_ANALYSIS_QUEUE]
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30, queues=queues) as worker:
        yield worker


def test_a_player_finishes_a_game_against_the_easy_bot_and_reads_its_analysis(
    live_asgi_url, worker_with_analyses, alice, browser_page
):
    page = browser_page
    base = live_asgi_url
    console_errors = watch_console_errors(page)
    log_in(page, base, "alice")
    page.select_option("select[name=game]", "mountain-goats")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=seat_1]", "bot:easy")
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match_id = int(re.search(r"/matches/(\d+)/$", page.url).group(1))
    page.wait_for_selector("#connection[data-state=open]", timeout=STEP_TIMEOUT_MS)
    for _ in range(MAX_TURNS):
        page.wait_for_function(WAIT_FOR_TURN, timeout=STEP_TIMEOUT_MS)
        live = page.locator("#match-live")
        if live.get_attribute("data-status") == "finished":
            break
        seq = live.get_attribute("data-seq")
        page.locator("#match-live .climb").last.click()  # the shortest climb offered: not always the best
        page.wait_for_function(
            "(seq) => document.getElementById('match-live').dataset.seq !== seq", arg=seq, timeout=STEP_TIMEOUT_MS)
    else:
        raise AssertionError("the game did not end")

    # On a phone: the replay, the analysis asked for, its progress, then the graph.
    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_role("link", name="Step through the game").click()
    page.wait_for_selector("#replay")
    page.get_by_role("button", name="Analyse this match").click()
    page.wait_for_selector("#analysis-panel progress", timeout=STEP_TIMEOUT_MS)  # queued or running
    page.wait_for_selector(".analysis-graph svg", timeout=60_000)  # pushed when done; the replay reloads
    assert page.locator(".analysis-graph .seat-line").count() == 2
    assert page.locator(".analysis-accuracy tbody tr").count() == 2
    assert re.search(r"\d+%", page.locator(".analysis-accuracy [data-accuracy]").first.inner_text())
    width = page.evaluate("() => window.innerWidth")
    box = page.locator(".analysis-graph svg").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width  # fits the phone's screen
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width + 1

    # A marked move in the graph: clicking it steps the replay there, with the better move beside it.
    marks = page.locator(".analysis-graph a:has(circle.mark)")
    assert marks.count() >= 1, "no move was marked"
    target = marks.first.get_attribute("data-analysis-seq")
    marks.first.click()
    page.wait_for_selector(f"#replay[data-seq='{target}']", timeout=STEP_TIMEOUT_MS)
    assert page.evaluate("location.search") == f"?seq={target}"
    current = page.locator(f"[data-analysis-current='{target}']")
    assert re.search(r"Inaccuracy|Mistake|Blunder", current.inner_text())
    assert "Better:" in current.inner_text()
    assert page.locator(".replay-log li[aria-current=step] [data-mark]").count() == 1  # marked in the log too

    # Any event of the graph steps the replay, a chance event included: clicked where its band is on top
    # (a mark may cover its middle).
    band = page.locator(".analysis-graph a:has(rect.band)").nth(3)
    seq = band.get_attribute("data-analysis-seq")
    band.locator("rect").click(position=open_point(band.locator("rect")))
    page.wait_for_selector(f"#replay[data-seq='{seq}']", timeout=STEP_TIMEOUT_MS)
    assert not console_errors, console_errors
    assert match_id
