"""Races between real database connections: exactly one append wins, nothing is lost or doubled."""

from __future__ import annotations

import contextvars
import threading

import pytest
from django.db import connections

from games import selectors, services
from games.errors import Conflict
from games.models import Event, Match, Seat
from games.verify import verify_match

from .helpers import two_humans

pytestmark = pytest.mark.django_db(databases="__all__", transaction=True)


def run_in_threads(count: int, target) -> list:
    """Run ``target(i)`` in ``count`` threads released together; their outcomes."""
    barrier = threading.Barrier(count)
    outcomes: list = [None] * count

    def body(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            outcomes[i] = ("ok", target(i))
        except Conflict as exc:
            outcomes[i] = ("conflict", exc.code)
        except Exception as exc:  # noqa: BLE001 - reported by the assertion
            outcomes[i] = ("error", repr(exc))
        finally:
            connections.close_all()

    # Each thread runs in a copy of this context, so it uses the same database alias.
    threads = [threading.Thread(target=contextvars.copy_context().run, args=(body, i)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return outcomes


def test_twenty_threads_appending_with_the_same_expected_seq_one_wins(backend, alice, bob):
    match = two_humans(alice, bob)
    state = selectors.load_state(match)
    seat = state.to_move()[0]
    mover = (alice, bob)[seat]
    actions = [state.action_to_json(seat, a) for a in state.legal_actions(seat)]
    expected = match.seq

    outcomes = run_in_threads(
        20,
        lambda i: services.submit_action(
            match_id=match.pk, user=mover, action=actions[i % len(actions)], expected_seq=expected
        ),
    )

    assert [o for o in outcomes if o[0] == "error"] == []
    winners = [o for o in outcomes if o[0] == "ok"]
    assert len(winners) == 1
    assert sorted(o for o in outcomes if o[0] == "conflict") == [("conflict", "stale_seq")] * 19
    match = Match.objects.get(pk=match.pk)
    seqs = list(Event.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, match.seq + 1))  # no gap, no duplicate
    assert winners[0][1] == match.seq
    assert Event.objects.filter(match=match, type="action").count() == 1
    assert verify_match(match).ok


def test_concurrent_joins_fill_each_seat_exactly_once(backend, make_user, alice):
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}] * 4)
    joiners = [make_user(f"joiner{i}") for i in range(8)]

    outcomes = run_in_threads(8, lambda i: services.join_match(match_id=match.pk, user=joiners[i]).pk)

    assert [o for o in outcomes if o[0] == "error"] == []
    assert sum(1 for o in outcomes if o[0] == "ok") == 3
    assert all(o[1] in ("match_started", "match_full", "stale_seq") for o in outcomes if o[0] == "conflict")
    seated = list(Seat.objects.filter(match=match).order_by("index").values_list("user_id", flat=True))
    assert None not in seated and len(set(seated)) == 4
    match = Match.objects.get(pk=match.pk)
    assert match.status == "active"
    assert Event.objects.filter(match=match, type="joined").count() == 3
    assert verify_match(match).ok
