"""The queue through the service: joining pairs players into a match, separate queues, cancel, bad
requests, and no double booking across processes (the pairing rule itself: domain/test_pairing.py)."""

from __future__ import annotations

import multiprocessing
import os
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, connections

from games.errors import Conflict, NotFound
from games.models import Match, Seat
from games.ranking import matchmaking
from games.ranking.models import QueueEntry, Rating


@pytest.mark.django_db
def test_joining_pairs_two_players_into_a_rated_timed_match(alice, bob):
    Rating.objects.create(user=bob, game_id="mountain-goats", rating=1540, deviation=80, volatility=0.06)
    matchmaking.join(user=alice, game_id="mountain-goats", players=2, time_control="3+2", rated=True)
    assert matchmaking.open_queues()[0]["waiting"] == 1
    entry = matchmaking.join(user=bob, game_id="mountain-goats", players=2, time_control="3+2", rated=True)
    assert entry.status == "matched"  # paired as soon as the join committed
    assert matchmaking.pair_all() == 0
    entries = list(QueueEntry.objects.all())
    assert {e.status for e in entries} == {"matched"} and len({e.match_id for e in entries}) == 1
    match = Match.objects.get(pk=entries[0].match_id)
    assert match.rated and match.status == "active" and match.time_control == {"kind": "realtime", "base": 180, "increment": 2}
    assert set(Seat.objects.filter(match=match).values_list("user_id", flat=True)) == {alice.pk, bob.pk}
    assert matchmaking.open_queues() == []


@pytest.mark.django_db
def test_different_queues_do_not_mix_and_one_may_wait_in_one_queue_only(alice, bob):
    matchmaking.join(user=alice, game_id="mountain-goats", players=2, time_control="3+2", rated=True)
    matchmaking.join(user=bob, game_id="mountain-goats", players=2, time_control="3+2", rated=False)
    assert matchmaking.pair_all() == 0
    with pytest.raises(Conflict, match="already waiting"):
        matchmaking.join(user=alice, game_id="mountain-goats", players=3, time_control="3+2", rated=True)


@pytest.mark.django_db
def test_cancel_leaves_the_queue_and_nobody_is_paired_with_a_cancelled_entry(alice, bob):
    matchmaking.join(user=alice, game_id="mountain-goats", players=2, time_control="5+10", rated=True)
    matchmaking.cancel(user=alice)
    assert QueueEntry.objects.get(user=alice).status == "cancelled"
    with pytest.raises(NotFound):
        matchmaking.cancel(user=alice)
    matchmaking.join(user=bob, game_id="mountain-goats", players=2, time_control="5+10", rated=True)
    assert matchmaking.pair_all() == 0 and Match.objects.count() == 0
    again = matchmaking.join(user=alice, game_id="mountain-goats", players=2, time_control="5+10", rated=True)
    assert again.status == "matched" and Match.objects.count() == 1


@pytest.mark.django_db
def test_bad_queue_requests_are_refused(alice):
    from games.errors import BadRequest

    with pytest.raises(BadRequest):
        matchmaking.join(user=alice, game_id="nanga-parbat", players=4)
    with pytest.raises(BadRequest):
        matchmaking.join(user=alice, game_id="chess", players=2)
    with pytest.raises(BadRequest):
        matchmaking.join(user=alice, game_id="mountain-goats", players=2, time_control="soon")


def _join_and_pair(user_id: int, players: int, ready) -> None:
    """In a forked process: join the queue and run the pairing, as a web process and a worker would."""
    from django.contrib.auth import get_user_model

    code = 0
    try:
        connections.close_all()  # never share the parent's connection
        user = get_user_model().objects.get(pk=user_id)
        ready.wait(30)
        matchmaking.join(user=user, game_id="mountain-goats", players=players, time_control="5+10", rated=True)
        matchmaking.pair_all()
    except Exception:  # noqa: BLE001 - the thread prints the traceback for the test to report
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        connections.close_all()
        os._exit(code)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("players", [2, 4])
def test_concurrent_joins_from_several_processes_never_double_book(make_user, players):
    if connection.vendor != "postgresql":
        pytest.skip("needs real PostgreSQL row locks across processes")
    users = [make_user(f"racer{i}") for i in range(12)]
    connections.close_all()
    context = multiprocessing.get_context("fork")
    ready = context.Event()
    processes = [context.Process(target=_join_and_pair, args=(u.pk, players, ready)) for u in users]
    for process in processes:
        process.start()
    ready.set()
    for process in processes:
        process.join(60)
    assert [p.exitcode for p in processes] == [0] * len(users)
    matchmaking.pair_all(now=datetime.now(UTC) + timedelta(minutes=5))  # anyone left over

    entries = list(QueueEntry.objects.all())
    assert len(entries) == 12 and {e.status for e in entries} == {"matched"}  # nobody lost
    matches = Match.objects.all()
    assert matches.count() == 12 // players
    seats = list(Seat.objects.values_list("user_id", flat=True))
    assert sorted(seats) == sorted(u.pk for u in users)  # everybody seated exactly once
    for match in matches:
        assert match.status == "active" and match.rated
        assert {e.user_id for e in entries if e.match_id == match.pk} == set(
            Seat.objects.filter(match=match).values_list("user_id", flat=True)
        )
