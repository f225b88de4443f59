"""The clock fold over event times (games/clocks.py, the match core), without a database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.clocks import ClockFold, normalize_time_control, time_control_key
from games.errors import BadRequest

T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_time_controls_read_text_and_objects():
    assert normalize_time_control("5+10") == {"kind": "realtime", "base": 300, "increment": 10}
    assert normalize_time_control("3d") == {"kind": "correspondence", "days": 3}
    assert normalize_time_control(None) is None
    assert time_control_key(normalize_time_control("0.5+0")) == "0.5+0"
    for bad in ("5", "0+0", {"kind": "realtime", "base": 60, "increment": -1}, {"kind": "blitz"}, "99d"):
        with pytest.raises(BadRequest):
            normalize_time_control(bad)


def test_a_realtime_clock_runs_for_the_seat_to_move_and_adds_the_increment():
    fold = ClockFold({"kind": "realtime", "base": 60, "increment": 5}, 2)
    fold.feed("created", {"seats": [{"human": True}, {"human": True}]}, at(0), ())
    fold.feed("started", {}, at(0), ())
    fold.feed("chance", {"chance": {}}, at(0), (0,))
    assert fold.deadline(0) == at(60) and fold.deadline(1) is None
    fold.feed("action", {"player": 0}, at(20), (1,))
    assert fold.bank[0] == 45  # 60 - 20 + 5
    assert fold.deadline(1) == at(80)
    assert fold.flagged(at(79)) is None and fold.flagged(at(80)) == 1
    assert fold.remaining(0, at(100)) == 45


def test_a_correspondence_clock_gives_the_days_for_every_move_and_bots_have_none():
    fold = ClockFold({"kind": "correspondence", "days": 2}, 2)
    fold.feed("created", {"seats": [{"human": True}, {"bot": "random"}]}, at(0), ())
    fold.feed("started", {}, at(0), (0,))
    fold.feed("action", {"player": 0}, at(3600), (1,))
    assert fold.next_deadline() is None  # the bot seat has no clock
    fold.feed("action", {"player": 1}, at(3601), (0,))
    assert fold.deadline(0) == at(3601) + timedelta(days=2)
