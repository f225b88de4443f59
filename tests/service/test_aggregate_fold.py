"""The match aggregate as the one fold of a log, without a database: state, clocks, endings, redactions."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

import pytest

from engine import get_game
from games import projection
from games.aggregate import ENGINE_TYPES, MatchAggregate
from games.clocks import ClockFold

from .helpers import replayed_redaction

T0 = datetime(2026, 11, 25, 6, 0, tzinfo=UTC)
SEED = bytes(range(32))
TC = {"kind": "realtime", "base": 60, "increment": 5}


class Row(NamedTuple):
    seq: int
    type: str
    payload: Any
    hash: str
    timestamp: datetime
    actor: str = "user:1"
    prev_hash: str = ""


def play(game_id: str, moves: int, *, players: int = 2, think: float = 7.0, seed: int = 0):
    """Commands on a fresh aggregate, each batch stamped ``think`` seconds after the previous; (aggregate, rows)."""
    options = get_game(game_id).normalize_options({})
    aggregate = MatchAggregate(1, game_id, players, options)
    rows: list[Row] = []
    now = T0

    def save() -> None:
        for event in aggregate.pending:
            rows.append(Row(event.seq, event.type, event.payload, f"h{event.seq}", now))
        aggregate.stamp([now] * len(aggregate.pending))
        aggregate.pending = []
        aggregate.last_hash = rows[-1].hash

    aggregate.create({"seats": [{"human": True, "user": i} for i in range(players)], "rated": True,
                      "time_control": TC}, "user:1")
    aggregate.start(SEED)
    save()
    rng = random.Random(seed)
    for _ in range(moves):
        if aggregate.finished:
            break
        now += timedelta(seconds=think)
        state = aggregate.state
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        aggregate.act(seat, state.action_to_json(seat, actions[rng.randrange(len(actions))]), SEED, f"user:{seat}")
        save()
    return aggregate, rows


def reference_clocks(game_id: str, players: int, rows: list[Row]) -> ClockFold:
    """The clocks as the old separate replay computed them (a replay of the whole log, apart from the fold)."""
    state = get_game(game_id).new_initial_state(players, get_game(game_id).normalize_options({}))
    fold = ClockFold(TC, players)
    for row in rows:
        if row.type in ENGINE_TYPES:
            state.apply_event(row.payload)
        fold.feed(row.type, row.payload, row.timestamp, state.to_move() if not state.is_terminal() else ())
    return fold


@pytest.mark.parametrize("game_id", ["mountain-goats", "mountainhome"])
def test_the_fold_carries_the_clocks_and_a_replay_equals_the_commands(game_id):
    aggregate, rows = play(game_id, 40)
    reference = reference_clocks(game_id, 2, rows)
    assert aggregate.clock is not None and aggregate.clock.bank == reference.bank
    assert aggregate.clock.running == reference.running and aggregate.clock.next_deadline() == reference.next_deadline()
    replayed = MatchAggregate.replay(1, game_id, 2, get_game(game_id).normalize_options({}), rows)
    assert replayed.state == aggregate.state and replayed.seq == aggregate.seq
    assert replayed.clock.bank == aggregate.clock.bank and replayed.clock.running == aggregate.clock.running
    assert replayed.moved == aggregate.moved and replayed.redactions == aggregate.redactions
    # a snapshot extended by the tail equals the whole replay
    half = MatchAggregate.replay(1, game_id, 2, get_game(game_id).normalize_options({}), rows[: len(rows) // 2])
    half.extend(rows[len(rows) // 2:])
    assert half.state == replayed.state and half.clock.bank == replayed.clock.bank
    with pytest.raises(ValueError):
        half.extend(rows[-1:])  # not the next seq


def test_realtime_banks_run_from_the_stored_times():
    aggregate, rows = play("mountain-goats", 4, think=7.0)
    clock = aggregate.clock
    # each seat moved twice, 7 s each time, +5 s increment each move: 60 - 14 + 10
    assert clock.bank == [56.0, 56.0]
    mover = aggregate.state.to_move()[0]
    assert clock.running == {mover: rows[-1].timestamp}
    deadline = rows[-1].timestamp + timedelta(seconds=56)
    assert clock.next_deadline() == (deadline, mover)
    assert clock.flagged(deadline - timedelta(seconds=1)) is None and clock.flagged(deadline) == mover


def test_a_timeout_and_its_ending_fold_like_any_event():
    aggregate, rows = play("mountain-goats", 6)
    seat = aggregate.state.to_move()[0]
    aggregate.time_out(seat, SEED, bot="easy")
    aggregate.stamp([T0 + timedelta(hours=1)] * len(aggregate.pending))
    assert aggregate.finished and aggregate.forfeits == [seat] and aggregate.ending == "timeout"
    assert aggregate.result["winners"] == [1 - seat] and aggregate.clock.running == {}


def test_a_clone_is_independent_and_only_a_saved_aggregate_is_cloned():
    aggregate, _ = play("mountain-goats", 6)
    copy = aggregate.clone()
    seat = copy.state.to_move()[0]
    before = (aggregate.seq, aggregate.state.key(), list(aggregate.clock.bank), dict(aggregate.clock.running),
              set(aggregate.moved))
    copy.resign(seat, SEED, "user:x", bot="easy")
    with pytest.raises(ValueError):
        copy.clone()  # unsaved events
    copy.stamp([T0 + timedelta(minutes=5)] * len(copy.pending))
    assert copy.finished and copy.clock.running == {}
    assert (aggregate.seq, aggregate.state.key(), aggregate.clock.bank, aggregate.clock.running,
            aggregate.moved) == before
    assert not aggregate.finished and aggregate.forfeits == []
    with pytest.raises(ValueError):
        aggregate.stamp([T0])  # nothing to stamp


@pytest.mark.parametrize("players", [2, 4])
def test_redactions_decided_in_the_fold_equal_an_independent_replay(players):
    aggregate, rows = play("mountainhome", 120, players=players, seed=players)
    options = get_game("mountainhome").normalize_options({})
    assert aggregate.redactions  # something was hidden from someone
    for viewer in (None, *range(players)):
        replayed = projection.project_events("mountainhome", rows, viewer,
                                             redaction=replayed_redaction("mountainhome", players, options, rows))
        folded = projection.project_events("mountainhome", rows, viewer, redaction=aggregate.shown)
        assert folded == replayed
        tail = projection.project_events("mountainhome", rows[60:], viewer, redaction=aggregate.shown)
        assert tail == [item for item in replayed if item["seq"] > rows[59].seq]
