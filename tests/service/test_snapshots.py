"""One fold per move, and a snapshot cache that can never serve a stale view.

These tests commit for real (``transaction=True``): the snapshot cache stores
an aggregate only after its transaction commits, so inside the usual
rolled-back test transaction it would stay empty.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.db import connections, transaction

from engine.core import State
from games import selectors, services, snapshots, store
from games.aggregate import ENGINE_TYPES, MatchAggregate
from games.errors import Conflict
from games.models import Event, Match
from games.verify import verify_match

from .helpers import replayed_redaction

pytestmark = pytest.mark.django_db(databases="__all__", transaction=True)

MH = "mountainhome"


@pytest.fixture(autouse=True)
def _empty_cache():
    snapshots.cache.clear()
    yield
    snapshots.cache.clear()


@pytest.fixture
def folds(monkeypatch):
    """Counts every engine event applied anywhere (aggregate folds, projection or clock replays, verify)."""
    counter = {"n": 0}
    original = State.apply_event

    def counting(self, event):
        counter["n"] += 1
        return original(self, event)

    monkeypatch.setattr(State, "apply_event", counting)
    return counter


def ranked_match(alice: Any, bob: Any, game_id: str = MH) -> Match:
    match = services.create_match(
        user=alice, game_id=game_id, seats=[{"human": True}, {"human": True}], options={},
        rated=True, time_control="5+10",
    )
    services.join_match(match_id=match.pk, user=bob)
    return selectors.get_match(match.pk)


class EndedEarly(Exception):
    pass


def long_match(alice: Any, bob: Any, events: int, rng: random.Random) -> Match:
    """A timed ranked Mountainhome match at ``events`` events or more (its dice come from a fresh secret seed)."""
    for _ in range(20):
        try:
            return advance(ranked_match(alice, bob), events, rng)
        except EndedEarly:
            continue
    raise AssertionError(f"no random match lasted {events} events")


def advance(match: Match, events: int, rng: random.Random) -> Match:
    """Random legal moves, saved in one transaction through the services' save path, until ``events`` events."""
    with store.appending(match.pk):
        match, seats = selectors.get_match_for_write(match.pk)
        aggregate = selectors.load_aggregate(match)
        expected_seq, prev_hash = aggregate.seq, aggregate.last_hash
        seed = bytes.fromhex(match.seed)
        while aggregate.seq < events:
            state = aggregate.state
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            action = state.action_to_json(seat, actions[rng.randrange(len(actions))])
            aggregate.act(seat, action, seed, f"user:{seats[seat].user_id}")
            if aggregate.finished:
                raise EndedEarly(aggregate.ending)  # rolled back
        services._save(match, aggregate, seats, expected_seq=expected_seq, prev_hash=prev_hash)
    return selectors.get_match(match.pk)


def random_move(match: Match, rng: random.Random) -> tuple[int, Any]:
    state = selectors.load_state(match)
    seat = state.to_move()[0]
    actions = state.legal_actions(seat)
    return seat, state.action_to_json(seat, actions[rng.randrange(len(actions))])


def engine_events_between(match: Match, after: int) -> int:
    return Event.objects.filter(match_id=match.pk, seq__gt=after, type__in=ENGINE_TYPES).count()


def test_a_move_folds_only_its_new_events_however_long_the_match(backend, alice, bob, folds, client):
    """An API move and an htmx move (with its fragment and ranked panel) on a timed ranked match with hidden
    information apply exactly the engine events they append: the same after 20 events as after 200."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    users = {0: alice, 1: bob}
    apis = {}
    for seat, user in users.items():
        apis[seat] = APIClient()
        apis[seat].credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    rng = random.Random(7)
    measured: dict[int, dict[str, tuple[int, int]]] = {}
    for length in (20, 200):
        match = long_match(alice, bob, length, rng)
        assert apis[0].get(f"/api/matches/{match.pk}/").status_code == 200  # a page load: the cache is warm
        per_move = {}
        # one API move
        seat, action = random_move(match, rng)
        before, folds["n"] = match.seq, 0
        response = apis[seat].post(f"/api/matches/{match.pk}/actions", {"action": action, "expected_seq": before},
                                   format="json")
        assert response.status_code == 201, response.content
        match = selectors.get_match(match.pk)
        per_move["api"] = (folds["n"], engine_events_between(match, before))
        # one htmx move: the answer renders the mover's fragment (view, log, ranked panel with clocks)
        seat, action = random_move(match, rng)
        client.force_login(users[seat])
        before, folds["n"] = match.seq, 0
        response = client.post(f"/matches/{match.pk}/move/", {"action": json.dumps(action), "expected_seq": before},
                               HTTP_HX_REQUEST="true")
        assert response.status_code == 201, response.content.decode()[:500]
        match = selectors.get_match(match.pk)
        assert f'data-seq="{match.seq}"' in response.content.decode()
        per_move["htmx"] = (folds["n"], engine_events_between(match, before))
        measured[length] = per_move
    for length, per_move in measured.items():
        for kind, (applied, appended) in per_move.items():
            assert applied == appended, f"{kind} move at {length} events applied {applied} engine events for " \
                                        f"{appended} new ones: {measured}"
    # and a cold process (no snapshot) does replay the whole match: the counter sees folds
    snapshots.cache.clear()
    folds["n"] = 0
    selectors.load_aggregate(match)
    assert folds["n"] == engine_events_between(match, 0) > 190


def test_a_bot_turn_folds_only_the_new_events(backend, alice, folds):
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"bot": "easy"}],
                                  options={}, time_control="1d")
    rng = random.Random(3)
    counts = []
    for _ in range(12):
        match = selectors.get_match(match.pk)
        if match.status != Match.Status.ACTIVE:
            break
        before, folds["n"] = match.seq, 0
        if match.bot_to_move:
            assert services.play_bot_turn(match_id=match.pk, seq=match.seq) == "played"
        else:
            seat, action = random_move(match, rng)
            services.submit_action(match_id=match.pk, user=alice, action=action, expected_seq=before)
        counts.append((folds["n"], engine_events_between(match, before)))
    assert len(counts) >= 8
    # The bot's own search applies moves to its private clones of the observation's state, never State.apply_event
    # on the log: every count is exactly the events the turn appended.
    assert all(applied == appended for applied, appended in counts), counts


def test_events_appended_behind_the_cache_are_seen_at_the_next_read(backend, alice, bob):
    match = ranked_match(alice, bob, "mountain-goats")
    first = selectors.load_aggregate(match)
    assert snapshots.cache.stats["stored"] >= 1
    # Another process appends: simulated by a second connection writing while this process's cache holds seq N.
    cached_seq = first.seq
    seat, action = random_move(match, random.Random(1))
    stored_before = dict(snapshots.cache.stats)
    other = snapshots.cache
    snapshots.cache = snapshots.SnapshotCache(0)  # "another process": no access to this process's cache
    try:
        services.submit_action(match_id=match.pk, user=(alice, bob)[seat], action=action, expected_seq=cached_seq)
    finally:
        snapshots.cache = other
    assert snapshots.cache.stats["stored"] == stored_before["stored"]  # this cache still holds the old seq
    view = selectors.match_view(selectors.get_match(match.pk), alice)
    fresh = MatchAggregate.replay(match.pk, match.game_id, match.players, match.options,
                                  store.load_fold_rows(match.pk))
    assert view["seq"] == fresh.seq > cached_seq
    assert view["view"] == fresh.state.observation(0)
    assert selectors.load_aggregate(match).state == fresh.state


def test_a_rolled_back_command_does_not_poison_the_cache(backend, alice, bob, monkeypatch):
    match = ranked_match(alice, bob, "mountain-goats")
    before = selectors.load_aggregate(match)
    seat, action = random_move(match, random.Random(2))

    def failing_deadline(match, aggregate):  # runs in the saving transaction, after the append
        raise RuntimeError("the database went away after the append")

    monkeypatch.setattr(services, "_update_deadline", failing_deadline)
    with pytest.raises(RuntimeError):
        services.submit_action(match_id=match.pk, user=(alice, bob)[seat], action=action, expected_seq=before.seq)
    monkeypatch.undo()
    assert Event.objects.filter(match_id=match.pk).count() == before.seq  # nothing stored
    again = selectors.load_aggregate(match)
    assert again.seq == before.seq and again.last_hash == before.last_hash
    assert again.state == before.state and list(again.state.to_move()) == [seat]
    assert again.clock.bank == before.clock.bank and again.clock.running == before.clock.running
    # and the move can still be made
    services.submit_action(match_id=match.pk, user=(alice, bob)[seat], action=action, expected_seq=before.seq)
    assert verify_match(selectors.get_match(match.pk)).ok


def test_a_conflicting_command_leaves_the_cached_aggregate_alone(backend, alice, bob):
    match = ranked_match(alice, bob, "mountain-goats")
    cached = selectors.load_aggregate(match)
    seat, action = random_move(match, random.Random(4))

    def decide(m, aggregate, seats):
        aggregate.act(seat, action, bytes.fromhex(m.seed), "user:x")  # mutates the checked-out aggregate ...
        raise Conflict("changed my mind", code="test")  # ... and fails before saving

    with pytest.raises(Conflict):
        services.command(match.pk, decide)
    again = selectors.load_aggregate(match)
    assert again.seq == cached.seq and again.state == cached.state and again.moved == cached.moved


def test_a_cached_aggregate_whose_last_hash_disagrees_with_the_stored_event_is_dropped(backend, alice, bob):
    match = ranked_match(alice, bob, "mountain-goats")
    real = selectors.load_aggregate(match)
    key = snapshots.key_of(match)
    # A corrupt (or foreign) snapshot: same match and seq, a different state and hash.
    forged = real.clone()
    forged.last_hash = "f" * 64
    forged.finished, forged.result = True, {"winners": [1]}
    snapshots.cache.clear()
    snapshots.cache.put(key, forged)
    view = selectors.match_view(match, alice)
    assert view["status"] == "active" and view["result"] is None
    assert snapshots.cache.stats["dropped"] == 1
    assert selectors.load_aggregate(match).last_hash == real.last_hash
    # A snapshot ahead of the stored log (its events were rolled back) is dropped the same way.
    ahead = real.clone()
    ahead.seq += 3
    snapshots.cache.clear()
    snapshots.cache.put(key, ahead)
    assert selectors.load_aggregate(match).seq == real.seq
    assert snapshots.cache.stats["dropped"] == 1


def test_the_cache_is_bounded_and_keyed_by_database(backend, alice, bob):
    small = snapshots.SnapshotCache(2)
    aggregates = []
    for _ in range(3):
        match = ranked_match(alice, bob, "mountain-goats")
        aggregates.append((snapshots.key_of(match), selectors.load_aggregate(match)))
    for key, aggregate in aggregates:
        small.put(key, aggregate.clone())
    assert len(small) == 2 and small.checkout(aggregates[0][0]) is None
    assert aggregates[0][0][0] == backend  # the alias is part of the key: the same id in another database differs
    # a checkout is a private copy
    key, aggregate = aggregates[2]
    copy = small.checkout(key)
    mover = copy.state.to_move()[0]
    copy.state.apply(mover, copy.state.legal_actions(mover)[0])
    copy.moved.add(mover)
    assert copy.state != aggregate.state
    assert small.checkout(key).state == aggregate.state and small.checkout(key).moved == aggregate.moved


def test_no_snapshot_is_stored_before_commit(backend, alice, bob):
    match = ranked_match(alice, bob, "mountain-goats")
    snapshots.cache.clear()
    with transaction.atomic(using=backend):
        selectors.load_aggregate(match)
        assert len(snapshots.cache) == 0
    assert len(snapshots.cache) == 1
    connections.close_all()


def test_redactions_from_the_fold_equal_the_projection_replay_for_every_viewer(backend, alice, bob, carol):
    from games import projection

    rng = random.Random(11)
    for _ in range(20):
        match = long_match(alice, bob, 150, rng)
        snapshots.cache.clear()
        selectors.load_aggregate(match)  # cached at 150+ ...
        try:
            match = advance(match, match.seq + 30, rng)  # ... and extended by the next events
            break
        except EndedEarly:
            continue  # this random match was about to end: play another one
    else:
        raise AssertionError("no random match lasted 30 events past 150")
    rows = store.load_rows(match.pk)
    redacted = 0
    for user, viewer in ((alice, 0), (bob, 1), (carol, None)):
        replayed = projection.project_events(
            match.game_id, rows, viewer, match=match,
            redaction=replayed_redaction(match.game_id, match.players, match.options, rows))
        assert selectors.visible_events(match, user) == replayed
        assert selectors.visible_events(match, user, after=100) == [e for e in replayed if e["seq"] > 100]
        assert selectors.visible_events(match, user, last=25) == replayed[-25:]
        assert selectors.visible_events(match, user, after=170, last=500) == [e for e in replayed if e["seq"] > 170]
        redacted += sum(1 for e in replayed if e.get("redacted"))
    assert redacted > 0  # the match did hide something from someone


def test_the_live_log_reads_only_the_newest_events_and_says_the_same(backend, alice, bob):
    from frontend import live

    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}],
                                  options={})
    match = services.join_match(match_id=match.pk, user=bob)
    rng = random.Random(5)
    while match.seq < 90 and match.status == Match.Status.ACTIVE:
        seat, action = random_move(match, rng)
        services.submit_action(match_id=match.pk, user=(alice, bob)[seat], action=action, expected_seq=match.seq)
        match = selectors.get_match(match.pk)
    assert match.seq >= 60
    context = live.match_context(match, alice)
    view = selectors.match_view(match, alice)
    players = live.players_of(view)
    full = live.event_log(selectors.visible_events(match, alice), players, "mountain-goats")[-live.EVENT_LOG_LIMIT:]
    full.reverse()
    assert context["log"] == full
    assert context["ranked"]["match"] == match.pk and context["ranked"]["clock"] is None


def test_a_snapshot_at_the_rows_seq_and_hash_is_used_with_no_query_and_any_other_is_checked(backend, alice, bob):
    from django.test.utils import CaptureQueriesContext

    match = ranked_match(alice, bob, "mountain-goats")
    real = selectors.load_aggregate(match)
    from games import db

    connection = connections[db.alias()]
    with CaptureQueriesContext(connection) as queries:
        again = selectors.load_aggregate(match)
    assert len(queries) == 0 and again.seq == real.seq and again.state == real.state
    # The same seq with another hash (a corrupt or foreign snapshot) is never taken on the row's word.
    forged = real.clone()
    forged.last_hash = "e" * 64
    forged.finished, forged.result = True, {"winners": [0]}
    snapshots.cache.clear()
    snapshots.cache.put(snapshots.key_of(match), forged)
    with CaptureQueriesContext(connection) as queries:
        checked = selectors.load_aggregate(match)
    assert len(queries) >= 1 and checked.last_hash == real.last_hash and not checked.finished
    # A match row older than the snapshot (another process moved since it was read) is not trusted either.
    seat, action = random_move(match, random.Random(8))
    services.submit_action(match_id=match.pk, user=(alice, bob)[seat], action=action, expected_seq=match.seq)
    newer = selectors.load_aggregate(selectors.get_match(match.pk))
    stale_row = match  # still at the old seq
    assert selectors.load_aggregate(stale_row).seq == newer.seq > real.seq


@pytest.mark.parametrize("game_id", ["mountain-goats", MH])
def test_the_newest_rows_shared_by_a_positions_viewers_give_each_the_same_log(backend, alice, bob, game_id):
    from django.contrib.auth.models import AnonymousUser

    from frontend import live

    rng = random.Random(11)
    match = long_match(alice, bob, 120, rng) if game_id == MH else ranked_match(alice, bob, game_id)
    while game_id != MH and match.seq < 70 and match.status == Match.Status.ACTIVE:
        seat, action = random_move(match, rng)
        services.submit_action(match_id=match.pk, user=(alice, bob)[seat], action=action, expected_seq=match.seq)
        match = selectors.get_match(match.pk)
    aggregate = selectors.load_aggregate(match)
    newest = selectors.newest_rows(match, aggregate, 2 * live.LOG_ROWS)
    for user in (alice, bob, AnonymousUser()):
        alone = selectors.visible_events(match, user, aggregate=aggregate, last=live.LOG_ROWS)
        shared = selectors.visible_events(match, user, aggregate=aggregate, last=live.LOG_ROWS, newest=newest)
        assert shared == alone and len(alone) == live.LOG_ROWS
    # Rows read for another position are never used for this one.
    older = selectors.NewestRows(match, aggregate.seq - 5, 2 * live.LOG_ROWS)
    assert older.take(live.LOG_ROWS, aggregate.seq) is None


@pytest.mark.parametrize("game_id", ["mountain-goats", "nanga-parbat", MH])
def test_the_rows_an_aggregate_keeps_are_the_stored_rows_as_read_back(backend, alice, bob, game_id):
    from frontend import live
    """``MatchAggregate.newest`` (the event log's rows, kept so that a move's fragments need no read) is what
    ``load_fold_rows`` reads back, down to the order of every object's keys (PostgreSQL's ``jsonb`` has its
    own): kept from the rows a move stored, from a snapshot extended by a read, and from a cold replay."""
    def as_read(rows: Any) -> list[str]:
        return [json.dumps([row.seq, row.type, row.payload, row.hash, row.timestamp.isoformat(), row.actor,
                            row.prev_hash]) for row in rows]

    rng = random.Random(5)
    match = ranked_match(alice, bob, game_id)
    users = {0: alice, 1: bob}
    moves = 0
    limit = selectors.load_aggregate(match).newest_limit()
    assert limit >= live.LOG_ROWS * (2 if game_id == MH else 1)  # what the page's log reads
    while match.status == Match.Status.ACTIVE and match.seq < limit + 30:
        seat, action = random_move(match, rng)
        services.submit_action(match_id=match.pk, user=users[seat], action=action, expected_seq=match.seq)
        match = selectors.get_match(match.pk)
        moves += 1
        if moves % 7 == 0:  # now and then a cold start, as in another process
            snapshots.cache.clear()
        kept = selectors.load_aggregate(match).newest
        stored = store.load_fold_rows(match.pk)
        assert kept and kept[-1].seq == match.seq
        assert as_read(kept) == as_read(stored[-limit:])
    assert moves > 10
    # The rows behind a cached aggregate that are not the match's newest are never taken for them.
    aggregate = selectors.load_aggregate(match)
    aggregate.newest = aggregate.newest[:-1]
    assert selectors._kept_rows(aggregate, 10) is None
