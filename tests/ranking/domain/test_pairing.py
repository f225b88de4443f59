"""Pairing by rating with a widening gap: matchmaking's choice of groups as plain functions, no database."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from games.ranking import matchmaking

T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)


@dataclass
class Entry:
    pk: int
    user_id: int
    rating: float
    joined_at: datetime


def test_the_acceptable_gap_widens_with_waiting_time():
    assert matchmaking.acceptable_gap(0) < matchmaking.acceptable_gap(10) < matchmaking.acceptable_gap(60)
    far_apart = [Entry(1, 1, 1500, T0), Entry(2, 2, 1800, T0)]
    assert matchmaking.choose_groups(far_apart, 2, T0 + timedelta(seconds=5)) == []
    assert matchmaking.choose_groups(far_apart, 2, T0 + timedelta(seconds=60)) == [far_apart]


def test_the_longest_waiting_player_gets_the_closest_rating():
    pool = [Entry(1, 1, 1500, T0), Entry(2, 2, 1900, T0 + timedelta(seconds=1)),
            Entry(3, 3, 1560, T0 + timedelta(seconds=2)), Entry(4, 4, 1450, T0 + timedelta(seconds=3))]
    groups = matchmaking.choose_groups(pool, 2, T0 + timedelta(seconds=4))
    assert [[e.pk for e in g] for g in groups] == [[1, 4]]  # 50 apart beats 60; 1900 waits for now
    groups = matchmaking.choose_groups(pool, 4, T0 + timedelta(seconds=60))
    assert [sorted(e.pk for e in g) for g in groups] == [[1, 2, 3, 4]]
