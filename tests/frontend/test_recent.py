"""The last move's events (frontend/recent.py): which events each viewer gets, live and in replay, read without replaying the match."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from frontend import live, recent
from games import selectors, services

from .helpers import mover, two_player_match


def act(seat: int, seq: int, **action) -> dict:
    return {"seq": seq, "type": "action", "payload": {"player": seat, "action": action or {"x": 1}}}


def chance(seq: int) -> dict:
    return {"seq": seq, "type": "chance", "payload": {"chance": {"roll": [1, 2, 3, 4]}}}


def seqs(events: list[dict]) -> list[int]:
    return [e["seq"] for e in events]


# An NP-like log: seat 1's turn (2-4), seat 0's turn (5-7), seat 1 again (8-9).
LOG = [
    {"seq": 1, "type": "created", "payload": {}},
    act(1, 2), act(1, 3), act(1, 4),
    act(0, 5), act(0, 6), act(0, 7),
    act(1, 8), act(1, 9),
]


def test_a_seat_gets_everything_after_its_previous_turn_including_its_own_moves_so_far():
    # seat 0 waits while seat 1 plays: seat 1's moves since seat 0's turn, and seat 0's own last turn
    # is over (another seat moved after it), so it is not included
    assert seqs(recent.window(LOG, 0)[0]) == [8, 9]
    # seat 1 is in the middle of its turn: seat 0's turn and its own moves so far
    assert seqs(recent.window(LOG, 1)[0]) == [5, 6, 7, 8, 9]
    assert recent.window(LOG, 1)[1] is True


def test_a_spectator_gets_the_last_turn_with_the_chance_events_around_it():
    log = [act(0, 1), chance(2), act(1, 3), chance(4)]
    assert seqs(recent.window(log, None)[0]) == [2, 3, 4]
    assert seqs(recent.window(LOG, None)[0]) == [8, 9]


def test_a_seat_that_never_moved_gets_everything_and_is_told_the_start_may_be_older():
    events, found = recent.window(LOG[:4], 0)
    assert seqs(events) == [1, 2, 3, 4] and found is False


def test_a_replay_step_is_measured_from_that_step():
    assert seqs(recent.recent_in(LOG, 0, until=6)) == [1, 2, 3, 4, 5, 6]  # seat 0 had not moved before: all so far
    assert seqs(recent.recent_in(LOG, 1, until=6)) == [5, 6]
    assert seqs(recent.recent_in(LOG, None, until=7)) == [5, 6, 7]


@pytest.mark.django_db
def test_the_live_page_puts_the_recent_events_in_the_presenter_input_and_they_are_projected_events(alice, bob):
    match = two_player_match(alice, bob)
    for _ in range(5):  # a few turns: each climbs nothing
        user = mover(match, alice, bob)
        view = selectors.match_view(match, user)
        services.submit_action(match_id=match.pk, user=user, action={"climb": []}, expected_seq=view["seq"])
    match.refresh_from_db()
    for user in (alice, bob, None):
        context = live.match_context(match, user)
        got = context["match"]["recent"]
        visible = selectors.visible_events(match, user, links=False)  # a page shows no chain fields
        seat = selectors.seat_of(match, user)
        assert got == recent.recent_in(visible, seat)  # the same dicts the projection lists
        assert got and got[-1] == visible[-1]
        # without the log's events in hand, the pages of newest events give the same answer
        assert recent.recent_events(match, user, {"my_seat": seat}) == got
    # the player to move sees the other's climb and its roll (and its own new roll); the one who just
    # moved still sees the turn before its own, its own climb and the new roll, until the other moves
    to_move = mover(match, alice, bob)
    other = bob if to_move == alice else alice
    mine = live.match_context(match, to_move)["match"]["recent"]
    assert [e["type"] for e in mine] == ["chance", "action", "chance"]
    assert mine[1]["payload"]["player"] == selectors.seat_of(match, other)
    theirs = live.match_context(match, other)["match"]["recent"]
    assert [e["type"] for e in theirs] == ["chance", "action", "chance", "action", "chance"]
    assert [e["payload"]["player"] for e in theirs if e["type"] == "action"] == [
        selectors.seat_of(match, to_move), selectors.seat_of(match, other)
    ]


@pytest.mark.django_db
def test_the_live_page_reads_no_more_events_for_the_last_move(alice, bob):
    match = two_player_match(alice, bob)
    for _ in range(6):
        user = mover(match, alice, bob)
        view = selectors.match_view(match, user)
        services.submit_action(match_id=match.pk, user=user, action={"climb": []}, expected_seq=view["seq"])
    match.refresh_from_db()
    aggregate = selectors.load_aggregate(match)
    with CaptureQueriesContext(connection) as with_recent:
        live.match_context(match, alice, aggregate=aggregate.clone())
    events_reads = [q for q in with_recent.captured_queries if '"games_event"' in q["sql"]]
    # The log's rows come with the aggregate (MatchAggregate.newest), and the recent events from them.
    assert events_reads == []
    aggregate.newest = ()  # an aggregate that keeps none: the log's one read, and no more for the recent events
    with CaptureQueriesContext(connection) as with_recent:
        live.match_context(match, alice, aggregate=aggregate.clone())
    assert len([q for q in with_recent.captured_queries if '"games_event"' in q["sql"]]) == 1


@pytest.mark.django_db
def test_a_long_window_is_read_in_pages_and_capped(alice, bob, monkeypatch):
    match = two_player_match(alice, bob)
    for _ in range(8):
        user = mover(match, alice, bob)
        view = selectors.match_view(match, user)
        services.submit_action(match_id=match.pk, user=user, action={"climb": []}, expected_seq=view["seq"])
    match.refresh_from_db()
    # a spectator's window with tiny pages: found after paging back
    monkeypatch.setattr(recent, "FIRST_PAGE", 1)
    everything = selectors.visible_events(match, None, links=False)
    assert recent.recent_events(match, None, {"my_seat": None}) == recent.recent_in(everything, None)
    # a window that never finds its start stops at MAX_RECENT events
    monkeypatch.setattr(recent, "MAX_RECENT", 4)
    got = recent.recent_events(match, None, {"my_seat": 7})  # a seat that never moved
    assert got == everything[-4:]


@pytest.mark.django_db
def test_the_replay_puts_the_recent_events_of_the_step_shown(alice, bob):
    match = two_player_match(alice, bob)
    for _ in range(4):
        user = mover(match, alice, bob)
        view = selectors.match_view(match, user)
        services.submit_action(match_id=match.pk, user=user, action={"climb": []}, expected_seq=view["seq"])
    match.refresh_from_db()
    visible = selectors.visible_events(match, None, links=False)
    step = visible[-3]["seq"]
    context = live.replay_context(match, None, step)
    assert context["match"]["recent"] == recent.recent_in(visible, None, until=step)
    assert context["match"]["recent"][-1]["seq"] == step
