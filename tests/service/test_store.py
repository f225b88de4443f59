"""The event store: hash chain, append-only table, optimistic concurrency, rebuild == state."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connections, transaction

from engine.record import replay
from games import selectors, services, store
from games.errors import Conflict
from games.models import Event, Match
from games.store import GENESIS_HASH, PendingEvent

from .helpers import finish_quickly, play_random_move, play_to_end, two_humans

pytestmark = pytest.mark.django_db(databases="__all__")


def test_it_numbers_events_from_one_and_chains_their_hashes(backend, alice, bob):
    match = play_to_end(two_humans(alice, bob), {0: alice, 1: bob}, seed=1)
    events = list(Event.objects.filter(match=match).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events[0].prev_hash == GENESIS_HASH
    for before, after in zip(events, events[1:], strict=False):
        assert after.prev_hash == before.hash
    for event in events:
        assert store.row_hash(event, match) == event.hash
    assert match.last_hash == events[-1].hash
    assert [e.type for e in events[:3]] == ["created", "joined", "started"]
    assert events[-1].type == "finished"


def test_the_hash_covers_every_field_of_the_event(backend, alice):
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"bot": "random"}])
    event = Event.objects.get(match=match, seq=1)
    original = store.row_hash(event, match)
    for field, value in [("payload", {"x": 1}), ("actor", "user:999"), ("type", "joined"), ("seq", 2)]:
        setattr(event, field, value)
        assert store.row_hash(event, match) != original, field
        event.refresh_from_db()


def test_the_database_refuses_to_update_an_event(backend, alice):
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"bot": "random"}])
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(using=backend):
        Event.objects.filter(match=match, seq=1).update(actor="user:666")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(using=backend):
        with connections[backend].cursor() as cursor:
            cursor.execute("UPDATE games_event SET payload = %s WHERE match_id = %s", ['{"forged": true}', match.pk])
    assert Event.objects.get(match=match, seq=1).actor == f"user:{alice.pk}"


def test_the_database_refuses_to_delete_an_event(backend, alice):
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"bot": "random"}])
    count = Event.objects.filter(match=match).count()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(using=backend):
        Event.objects.filter(match=match).delete()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(using=backend):
        with connections[backend].cursor() as cursor:
            cursor.execute("DELETE FROM games_event WHERE match_id = %s", [match.pk])
    assert Event.objects.filter(match=match).count() == count


def test_an_append_at_a_taken_seq_conflicts_and_stores_nothing(backend, alice, bob):
    match = two_humans(alice, bob)
    before = list(Event.objects.filter(match=match).values_list("seq", "hash"))
    stale = [PendingEvent(seq=2, type="joined", payload={"seat": 1, "user": 1}, actor="system")]
    with pytest.raises(Conflict) as caught, store.appending(match.pk):
        store.append(match, stale, expected_seq=1, prev_hash=before[0][1])
    assert caught.value.status == 409 and caught.value.code == "stale_seq"
    assert list(Event.objects.filter(match=match).values_list("seq", "hash")) == before


def test_a_stale_expected_seq_is_a_conflict_and_the_log_is_unchanged(backend, alice, bob):
    match = two_humans(alice, bob)
    seat = selectors.load_state(match).to_move()[0]
    mover = alice if seat == 0 else bob
    state = selectors.load_state(match)
    action = state.action_to_json(seat, state.legal_actions(seat)[0])
    count = Event.objects.filter(match=match).count()
    with pytest.raises(Conflict) as caught:
        services.submit_action(match_id=match.pk, user=mover, action=action, expected_seq=match.seq - 1)
    assert caught.value.code == "stale_seq"
    assert Event.objects.filter(match=match).count() == count


def test_a_rebuild_from_events_equals_the_state_built_during_play(backend, alice, bob):
    import random

    match = two_humans(alice, bob)
    rng = random.Random(7)
    for _ in range(40):
        play_random_move(match.pk, {0: alice, 1: bob}, rng)
    match = Match.objects.get(pk=match.pk)
    # The state the services kept building move by move ...
    live = selectors.load_aggregate(match)
    # ... equals a fresh fold over the stored events, and the engine's own replay of the record.
    rebuilt = selectors.load_state(Match.objects.get(pk=match.pk))
    assert rebuilt.key() == live.state.key()
    assert replay(selectors.record(match, alice)).key() == rebuilt.key()
    assert live.seq == match.seq == Event.objects.filter(match=match).count()


def test_the_match_row_is_derived_from_the_events(backend, alice, bob):
    match = finish_quickly(two_humans(alice, bob), seed=3)
    aggregate = selectors.load_aggregate(match)
    assert match.status == aggregate.status == "finished"
    assert match.result == aggregate.result
    assert match.to_move == []
    assert match.seq == aggregate.seq
