"""Tournaments in a real browser: a short arena watched live to its winner; a Swiss and a round robin
whose page shows the documented order, and whose export passes ``python -m engine tournament-audit``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

from .table_helpers import STEP_TIMEOUT_MS, in_thread, log_in, second_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]
ROOT = Path(__file__).resolve().parents[2]


def _play_board(match_id: int, seed: int) -> None:
    """Random moves for the people at a board; the bots' moves come from the Celery worker."""
    from games import selectors
    from games.errors import Conflict, Forbidden
    from games.models import Match
    from tests.service.helpers import play_random_move

    rng = random.Random(seed)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        match = selectors.get_match(match_id)
        if match.status == Match.Status.FINISHED:
            return
        if match.bot_to_move:
            time.sleep(0.02)
            continue
        users = {seat.index: seat.user for seat in match.seats.all()}
        try:
            play_random_move(match_id, users, rng)
        except (Conflict, Forbidden):  # a bot moved at the same moment
            continue
    raise AssertionError(f"match {match_id} did not end")


def _play_open_boards(tournament_id: int, seed: int) -> int:
    """Boards with a bot move by move (the worker plays the bot); people alone in one append."""
    from games.models import Seat
    from games.tournaments.models import Board
    from tests.service.helpers import finish_quickly

    boards = list(Board.objects.filter(tournament_id=tournament_id, finished_at__isnull=True, match__isnull=False)
                  .select_related("match"))
    for n, board in enumerate(boards):
        if Seat.objects.filter(match_id=board.match_id).exclude(bot_level="").exists():
            _play_board(board.match_id, seed + n)
        else:
            finish_quickly(board.match, seed=seed + n)
    return len(boards)


def _wait(predicate, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if in_thread(predicate):
            return
        time.sleep(0.1)
    raise AssertionError(f"waited {seconds} s for {what}")


def test_four_people_and_two_labelled_bots_play_an_arena_watched_live_to_its_winner(
        live_asgi_url, celery_worker_thread, make_user, browser_page):
    from games.tournaments import services
    from games.tournaments.models import Board, Entry, Tournament

    base = live_asgi_url
    people = [in_thread(make_user, name) for name in ("ann", "ben", "cat", "dan")]
    tournament = in_thread(services.create, user=people[0], data={
        "name": "Goat sprint", "game": "mountain-goats", "kind": "arena", "duration_seconds": 600,
        "time_control": "3+2", "bots_allowed": True})
    for user in people:
        in_thread(services.join, tournament_id=tournament.pk, user=user)
    for _ in range(2):
        in_thread(services.add_bot, tournament_id=tournament.pk, user=people[0], level="random")
    page = browser_page  # a spectator: nobody's board takes this page away
    page.goto(f"{base}/tournaments/{tournament.pk}/")
    assert page.locator("#t-standings .bot-badge").count() == 2  # bots are labelled
    player = second_page(page)
    try:
        log_in(player, base, "ben")
        player.goto(f"{base}/tournaments/{tournament.pk}/")
        player.wait_for_function("() => document.body.dataset.userWs === 'open'", timeout=STEP_TIMEOUT_MS)
        in_thread(services.start, tournament_id=tournament.pk)
        player.wait_for_url(f"{base}/matches/*/", timeout=STEP_TIMEOUT_MS)  # "your game starts": no click
    finally:
        player.context.close()
    page.wait_for_selector("#tournament-live .t-boards li", timeout=STEP_TIMEOUT_MS)
    assert in_thread(lambda: Entry.objects.filter(tournament=tournament, board__isnull=False).count()) == 6
    shown = page.locator("#tournament-live").get_attribute("data-seq")
    in_thread(_play_open_boards, tournament.pk, 1)
    # the standings move live: a newer version, with points, without a reload
    page.wait_for_function(
        "(v) => { const live = document.getElementById('tournament-live');"
        " return Number(live.dataset.seq) > Number(v) &&"
        " [...live.querySelectorAll('.t-points')].some(td => Number(td.textContent) > 0); }",
        arg=shown, timeout=STEP_TIMEOUT_MS)
    _wait(lambda: Board.objects.filter(tournament=tournament, finished_at__isnull=True).exists(), "the next boards")
    # the clock runs out: boards in play finish, then the arena ends with its winner shown
    in_thread(lambda: Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=tournament.starts_at - timedelta(seconds=600)))
    in_thread(_play_open_boards, tournament.pk, 7)
    in_thread(services.tick)
    page.wait_for_selector("#t-winner", timeout=STEP_TIMEOUT_MS)
    from games.tournaments import selectors

    rows = in_thread(lambda: selectors.standings(Tournament.objects.get(pk=tournament.pk)))
    assert page.locator("#t-winner").inner_text() == rows[0]["label"]
    assert [int(x) for x in page.locator("#t-standings .t-points").all_inner_texts()] == [r["points"] for r in rows]


def _finish_open_boards(tournament_id: int, seed: int) -> int:
    """People only: each board's random moves saved in one append (the same commands as the services)."""
    from games.tournaments.models import Board
    from tests.service.helpers import finish_quickly

    boards = list(Board.objects.filter(tournament_id=tournament_id, finished_at__isnull=True, match__isnull=False)
                  .select_related("match"))
    for n, board in enumerate(boards):
        finish_quickly(board.match, seed=seed + n)
    return len(boards)


def _run(tournament_id: int) -> None:
    from games.tournaments.models import Tournament

    for n in range(100):
        if in_thread(lambda: Tournament.objects.get(pk=tournament_id).status) == Tournament.Status.FINISHED:
            return
        if not in_thread(_finish_open_boards, tournament_id, 100 * n):
            time.sleep(0.1)  # the worker closes the round and pairs the next
    raise AssertionError("the tournament did not finish")


def _audit(path: Path) -> tuple[int, dict]:
    done = subprocess.run([sys.executable, "-m", "engine", "tournament-audit", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    return done.returncode, json.loads(done.stdout)


def test_a_swiss_and_a_round_robin_finish_in_their_documented_order_and_their_exports_pass_the_audit(
        live_asgi_url, celery_worker_thread, make_user, browser_page, tmp_path):
    from games.tournaments import services

    base = live_asgi_url
    people = [in_thread(make_user, f"s{n}") for n in range(1, 9)]
    swiss = in_thread(services.create, user=people[0], data={
        "name": "Nanga Swiss", "game": "nanga-parbat", "kind": "swiss", "rounds": 3, "time_control": "5+3",
        "rated": True})
    robin = in_thread(services.create, user=people[0], data={
        "name": "Mountainhome three", "game": "mountainhome", "kind": "round_robin", "time_control": "5+3"})
    for user in people:
        in_thread(services.join, tournament_id=swiss.pk, user=user)
    for user in people[:3]:
        in_thread(services.join, tournament_id=robin.pk, user=user)
    in_thread(services.start, tournament_id=swiss.pk)
    in_thread(services.start, tournament_id=robin.pk)
    _run(swiss.pk)
    _run(robin.pk)

    page = browser_page
    page.goto(f"{base}/tournaments/{swiss.pk}/")
    page.wait_for_selector("#t-winner")
    rows = page.locator("#t-standings tbody tr")
    table = [[float(c) for c in rows.nth(i).locator("td.num").all_inner_texts()[1:]] for i in range(rows.count())]
    assert len(table) == 8 and sum(r[0] for r in table) == 12  # 12 games, a point each
    keys = [(-points, -buchholz, -sb) for points, _games, buchholz, sb in table]
    assert keys == sorted(keys)  # points, then Buchholz, then Sonneborn-Berger
    assert page.locator(".t-boards li").count() == 12

    for tournament in (swiss, robin):
        page.goto(f"{base}/tournaments/{tournament.pk}/")
        with page.expect_download() as download:
            page.get_by_role("link", name="Export (cairn-tournament/1)").click()
        path = tmp_path / f"t{tournament.pk}.json"
        download.value.save_as(path)
        code, verdict = _audit(path)
        assert code == 0 and verdict["ok"], verdict
    export = json.loads(path.read_text())  # the round robin's
    assert sorted(tuple(sorted(b["seats"])) for r in export["rounds"] for b in r["boards"]) == [(1, 2), (1, 3), (2, 3)]
    export["rounds"][0]["boards"][0]["places"] = list(reversed(export["rounds"][0]["boards"][0]["places"]))
    if export["rounds"][0]["boards"][0]["places"] == [0, 0]:
        export["rounds"][0]["boards"][0]["places"] = [1, 0]
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(export))
    code, verdict = _audit(forged)
    assert code == 1 and not verdict["ok"] and any("places" in e for e in verdict["errors"])

    # the rated Swiss's games are on the season's leaderboard; when the clock passes its end it is archived
    from games.tournaments import seasons

    page.goto(f"{base}/seasons/nanga-parbat/")
    assert page.locator("#season-board tbody tr").count() == 8 and page.locator("#season-games li").count() == 12
    season = in_thread(seasons.current, "nanga-parbat")
    assert in_thread(seasons.roll, season.ends_at + timedelta(seconds=1)) == 1
    page.reload()
    assert f"Season {season.number}" in page.locator("#season-archive").inner_text()
