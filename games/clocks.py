"""Server-authoritative clocks, computed from the match's event times alone.

A time control is

* ``{"kind": "realtime", "base": S, "increment": I}``: a bank of ``S`` seconds
  per seat plus ``I`` seconds after each of its moves (``"5+10"`` = 5 min + 10 s);
* ``{"kind": "correspondence", "days": D}``: ``D`` days for every move
  (``"3d"``); the allowance resets at each turn.

:class:`ClockFold` folds a match's events in ``seq`` order; the match aggregate
(:mod:`games.aggregate`) feeds it as part of its one fold of the log, so the
clocks come with every loaded (or cached) aggregate as ``aggregate.clock``.  A seat's clock runs
from the time of the event after which it is to move until the time of its
own action event; chance events are appended in the same transaction as the
action that caused them and share its timestamp, so they cost nobody time.
Bot seats (and seats handed to a bot) have no clock.  Because everything comes
from stored timestamps, any process can compute the same clocks, the timeout
task needs no page open, and verification can check that a ``timed_out``
event came after its seat's deadline.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from .errors import BadRequest

REALTIME = "realtime"
CORRESPONDENCE = "correspondence"

MAX_BASE_SECONDS = 3 * 3600
MAX_INCREMENT_SECONDS = 180
MAX_DAYS = 14

# What the lobby offers; any valid time control works through the API.
LOBBY_TIME_CONTROLS = ["3+2", "5+10", "15+10", "1d", "3d"]
DEFAULT_TIME_CONTROL = "5+10"
# Every match has a clock: a match created without one (the lobby form's default,
# or an API request that names none) gets a day per move, which suits bot games too.
CASUAL_TIME_CONTROL = "1d"

_TEXT = re.compile(r"^\s*(?:(\d+(?:\.\d+)?)\s*\+\s*(\d+)|(\d+)\s*d)\s*$")


def normalize_time_control(value: Any) -> dict[str, Any] | None:
    """``None`` (untimed), a dict or the text form (``"5+10"``, ``"3d"``) -> a canonical dict."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        found = _TEXT.match(value)
        if not found:
            raise BadRequest(
                f"time control {value!r} must look like '5+10' (minutes + seconds) or '3d' (days per move)",
                code="bad_time_control",
            )
        if found.group(3):
            value = {"kind": CORRESPONDENCE, "days": int(found.group(3))}
        else:
            value = {"kind": REALTIME, "base": round(float(found.group(1)) * 60), "increment": int(found.group(2))}
    if not isinstance(value, dict):
        raise BadRequest(f"time control must be an object or text like '5+10', not {value!r}", code="bad_time_control")
    kind = value.get("kind")
    if kind == REALTIME and set(value) <= {"kind", "base", "increment"}:
        base, increment = value.get("base"), value.get("increment", 0)
        if type(base) is not int or not 1 <= base <= MAX_BASE_SECONDS:
            raise BadRequest(f"base must be 1 to {MAX_BASE_SECONDS} seconds, not {base!r}", code="bad_time_control")
        if type(increment) is not int or not 0 <= increment <= MAX_INCREMENT_SECONDS:
            raise BadRequest(
                f"increment must be 0 to {MAX_INCREMENT_SECONDS} seconds, not {increment!r}", code="bad_time_control"
            )
        return {"kind": REALTIME, "base": base, "increment": increment}
    if kind == CORRESPONDENCE and set(value) <= {"kind", "days"}:
        days = value.get("days")
        if type(days) is not int or not 1 <= days <= MAX_DAYS:
            raise BadRequest(f"days must be 1 to {MAX_DAYS}, not {days!r}", code="bad_time_control")
        return {"kind": CORRESPONDENCE, "days": days}
    raise BadRequest(
        f"time control {value!r} must be {{'kind': 'realtime', 'base': s, 'increment': s}} "
        "or {'kind': 'correspondence', 'days': d}",
        code="bad_time_control",
    )


def time_control_key(tc: dict[str, Any] | None) -> str:
    """The short text form: ``5+10``, ``0.5+0``, ``3d`` (``untimed`` for None)."""
    if not tc:
        return "untimed"
    if tc["kind"] == CORRESPONDENCE:
        return f"{tc['days']}d"
    minutes = tc["base"] / 60
    text = f"{minutes:g}" if minutes != int(minutes) else str(int(minutes))
    return f"{text}+{tc['increment']}"


def describe_time_control(tc: dict[str, Any] | None) -> str:
    if not tc:
        return "no clock"
    if tc["kind"] == CORRESPONDENCE:
        return f"{tc['days']} day{'s' if tc['days'] != 1 else ''} per move"
    return f"{time_control_key(tc)} (minutes + seconds per move)"


LAG_CAP = 0.5  # seconds of a move's measured lag credited back at most (real-time clocks)
LAG_QUOTA = 5.0  # seconds credited to one seat over a whole match at most


@dataclass
class ClockFold:
    """The clocks of one match, fed its events one by one (``feed``) with who is to move after each."""

    time_control: dict[str, Any]
    players: int
    bank: list[float] = field(default_factory=list)
    running: dict[int, datetime] = field(default_factory=dict)
    no_clock: set[int] = field(default_factory=set)
    started: bool = False
    finished: bool = False
    credited: dict[int, float] = field(default_factory=dict)  # lag credited back per seat (``lag_credit``)

    def __post_init__(self) -> None:
        base = float(self.time_control.get("base", 0)) if self.realtime else 0.0
        self.bank = [base] * self.players

    def clone(self) -> ClockFold:
        other = ClockFold(self.time_control, self.players, [], dict(self.running), set(self.no_clock),
                          self.started, self.finished)
        other.bank = list(self.bank)
        other.credited = dict(self.credited)
        return other

    def lag_credit_for(self, seat: int, lag_seconds: float) -> float:
        """How much of a move's measured lag is credited back: at most :data:`LAG_CAP` a move and
        :data:`LAG_QUOTA` a match per seat, on a real-time clock only (0 otherwise)."""
        if not self.realtime or lag_seconds <= 0:
            return 0.0
        return round(max(0.0, min(lag_seconds, LAG_CAP, LAG_QUOTA - self.credited.get(seat, 0.0))), 3)

    @property
    def realtime(self) -> bool:
        return bool(self.time_control["kind"] == REALTIME)

    def feed(self, type_: str, payload: Any, timestamp: datetime, to_move_after: Iterable[int]) -> None:
        if type_ == "created":
            self.no_clock |= {i for i, seat in enumerate(payload.get("seats", [])) if "bot" in seat}
            if self.realtime:  # a berserk seat (an arena's choice, games.tournaments) starts with half its time
                for seat in payload.get("berserk", []):
                    self.bank[seat] /= 2
        elif type_ == "started":
            self.started = True
        elif type_ == "action":
            seat = payload["player"]
            since = self.running.pop(seat, None)
            if since is not None and self.realtime:
                self.bank[seat] -= (timestamp - since).total_seconds()
                self.bank[seat] += self.time_control["increment"]
        elif type_ == "lag_credit":
            seat = payload["seat"]
            self.credited[seat] = round(self.credited.get(seat, 0.0) + payload["seconds"], 3)
            if self.realtime:
                self.bank[seat] += payload["seconds"]
        elif type_ in ("seat_replaced", "resigned", "timed_out"):
            self.no_clock.add(payload["seat"])
            self.running.pop(payload["seat"], None)
        elif type_ == "finished":
            self.finished = True
        if self.finished:
            self.running.clear()
            return
        if not self.started:
            return
        movers = set(to_move_after)
        for seat in list(self.running):
            if seat not in movers:  # (cannot happen with sequential games; safe for simultaneous ones)
                since = self.running.pop(seat)
                if self.realtime:
                    self.bank[seat] -= (timestamp - since).total_seconds()
        for seat in movers:
            if seat not in self.running and seat not in self.no_clock:
                self.running[seat] = timestamp

    def deadline(self, seat: int) -> datetime | None:
        since = self.running.get(seat)
        if since is None:
            return None
        if self.realtime:
            return since + timedelta(seconds=self.bank[seat])
        return since + timedelta(days=self.time_control["days"])

    def next_deadline(self) -> tuple[datetime, int] | None:
        """The earliest running deadline and its seat (the lowest seat on a tie)."""
        found = [(at, seat) for seat in sorted(self.running) if (at := self.deadline(seat)) is not None]
        return min(found) if found else None

    def flagged(self, now: datetime) -> int | None:
        """The seat whose time has run out at ``now`` (the earliest deadline), or None."""
        nxt = self.next_deadline()
        return nxt[1] if nxt and nxt[0] <= now else None

    def remaining(self, seat: int, now: datetime) -> float:
        """Seconds left for ``seat`` at ``now`` (never below zero)."""
        deadline = self.deadline(seat)
        if deadline is not None:
            return max(0.0, (deadline - now).total_seconds())
        if self.realtime:
            return max(0.0, self.bank[seat])
        return float(self.time_control["days"] * 86400)


def clock_view(match: Any, fold: ClockFold | None, now: datetime) -> dict[str, Any] | None:
    """The clocks as the API and the page show them."""
    if fold is None:
        return None
    seats = []
    for seat in range(match.players):
        deadline = fold.deadline(seat)
        seats.append({
            "seat": seat,
            "remaining": round(fold.remaining(seat, now), 3),
            "running": deadline is not None,
            "deadline": deadline.isoformat() if deadline else None,
            "clock": seat not in fold.no_clock,
        })
    return {
        "time_control": fold.time_control,
        "key": time_control_key(fold.time_control),
        "description": describe_time_control(fold.time_control),
        "now": now.isoformat(),
        "seats": seats,
    }
