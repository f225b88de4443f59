"""Fault 5: clocks that run out while the workers (and beat) are down.

``.venv/bin/python benchmarks/faults/fault_clock_restart.py [--runs N]``

Three rated person-vs-person matches on a 30 s clock (no increment).  In
each, both seats move once (so a late player loses on time instead of the
match being aborted); then seat 0's clock runs.  The Celery worker and beat
are killed (SIGKILL) and stay down past every deadline:

* ``silent``: nobody moves.  When the worker and beat return, the timeout
  sweep (``sweep_timeouts``, every ``TIMEOUT_SWEEP_SECONDS`` = 5 s) ends the
  match: ``timed_out`` for seat 0, seat 1 wins, ``ending`` ``timeout``.
* ``late``: seat 0 moves after its deadline, while nothing could have
  checked the clock.  The move is refused (409 ``clock_expired``) and the
  time-out recorded at once: the clock is decided by the events' times, not
  by when a check happens to run.
* ``in_time``: seat 0 moves 3 s after the workers died, well within its
  clock.  The move stands; seat 0 is never timed out (seat 1's clock runs
  from that move, and if it runs out too, it is seat 1 that times out).

For every ``timed_out`` event, ``verify_match`` checks that it comes at or
after that seat's deadline rebuilt from the event times.
"""

from __future__ import annotations

import random
import signal
import time
from datetime import datetime
from typing import Any

from play import check_matches, events
from scenario import Stack, Table, invariants_hold, main, note, until

CLOCK = {"kind": "realtime", "base": 30, "increment": 0}
SWEEP_BOUND_S = 20.0  # the worker's start-up + one beat period (5 s) + the check


def _deadline_of(table: Table, match_id: int, seat: int) -> datetime | None:
    clock = table.reader.ok("GET", f"/api/matches/{match_id}/ranked")["clock"]
    found = clock["seats"][seat]["deadline"] if clock else None
    return datetime.fromisoformat(found) if found else None


def _ending(table: Table, match_id: int) -> dict[str, Any]:
    log = events(table.reader, match_id)
    body = table.reader.ok("GET", f"/api/matches/{match_id}/")
    timed = [e for e in log if e["type"] == "timed_out"]
    return {
        "status": body["status"],
        "timed_out_seats": [e["payload"]["seat"] for e in timed],
        "timed_out_at": [e["timestamp"] for e in timed],
        "winners": (body.get("result") or {}).get("winners"),
        "ending": next((e["payload"].get("ending") for e in log if e["type"] == "finished"), None),
    }


def run_once(args: Any, run: int) -> dict[str, Any]:
    rng = random.Random(args.seed + run)
    with Stack("clock-restart", time_limit=240) as stack:
        table = Table(stack, rng)
        names = ("silent", "late", "in_time")
        # everyone signs up first: a clock runs from its match's start, so no match waits on another's set-up
        pairs = [(table.user("alp"), table.user("bea")) for _ in names]
        matches = dict(zip(names, (table.add_human_match(CLOCK, rated=True, users=pair) for pair in pairs)))
        before = table.seqs()
        movers = {}
        for name, match_id in matches.items():  # each seat moves once: the match can no longer be aborted
            moved: set[int] = set()
            while moved != {0, 1}:
                seat = table.reader.ok("GET", f"/api/matches/{match_id}/")["to_move"][0]
                player = next(p for p in table.players if p.match_id == match_id and p.seat == seat)
                sent = player.try_move()
                assert sent is not None and sent.status == 201, f"a move before the fault failed: {sent}"
                moved.add(seat)
            movers[name] = table.reader.ok("GET", f"/api/matches/{match_id}/")["to_move"][0]
        deadlines = {name: _deadline_of(table, m, movers[name]) for name, m in matches.items()}
        note("killing the worker and beat")
        stack.stop("worker", signal.SIGKILL)
        stack.stop("beat", signal.SIGKILL)
        down_at = time.time()
        time.sleep(3)
        mover = next(p for p in table.players if p.match_id == matches["in_time"] and p.seat == movers["in_time"])
        in_time = mover.try_move()
        latest = max(d.timestamp() for d in deadlines.values() if d)
        time.sleep(max(0.0, latest - time.time()) + 2)
        late_player = next(p for p in table.players if p.match_id == matches["late"] and p.seat == movers["late"])
        late = late_player.try_move()
        late_state = _ending(table, matches["late"])
        silent_while_down = _ending(table, matches["silent"])
        note("starting the worker and beat again")
        stack.start_worker()
        stack.start_beat()
        swept = until(lambda: table.reader.ok("GET", f"/api/matches/{matches['silent']}/")["status"] == "finished",
                      SWEEP_BOUND_S + 20, step=0.25)
        time.sleep(1)
        endings = {name: _ending(table, m) for name, m in matches.items()}
        checks = check_matches(stack, table.reader, table.ledger, list(matches.values()), before)
        table.stop()
        return {
            "in_flight": {"matches": matches, "clock": CLOCK, "workers_down_s": round(time.time() - down_at, 1),
                          "seat_to_move": movers,
                          "its_deadline": {k: v.isoformat() if v else None for k, v in deadlines.items()}},
            "in_time_move": {"status": in_time.status if in_time else None},
            "late_move": {"status": late.status if late else None, "message": late.message if late else None,
                          "after_deadline_s": round(late.at - deadlines["late"].timestamp(), 2) if late else None,
                          "match_after_refusal": late_state},
            "silent_match_while_workers_down": silent_while_down["status"],
            "silent_match_ended_after_return_s": None if swept is None else round(swept, 2),
            "endings": endings,
            "checks": checks,
        }


def ok(report: dict[str, Any]) -> bool:
    endings, movers = report["endings"], report["in_flight"]["seat_to_move"]
    silent, late, in_time = endings["silent"], endings["late"], endings["in_time"]
    return (invariants_hold(report)
            and report["silent_match_while_workers_down"] == "active"
            and report["silent_match_ended_after_return_s"] is not None
            and report["silent_match_ended_after_return_s"] <= SWEEP_BOUND_S
            and silent["timed_out_seats"] == [movers["silent"]] and silent["winners"] == [1 - movers["silent"]]
            and silent["ending"] == "timeout"
            and report["late_move"]["status"] == 409
            and report["late_move"]["match_after_refusal"]["timed_out_seats"] == [movers["late"]]
            and late["winners"] == [1 - movers["late"]]
            and report["in_time_move"]["status"] == 201 and movers["in_time"] not in in_time["timed_out_seats"])


if __name__ == "__main__":
    main("Clock-driven endings across worker restarts", run_once, ok)
