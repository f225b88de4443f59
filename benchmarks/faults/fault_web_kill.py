"""Fault 4: a web process killed (SIGKILL) with pages open on it and moves in flight.

``.venv/bin/python benchmarks/faults/fault_web_kill.py [--runs N]``

Two web processes (:func:`stack.web_command`: daphne, or gunicorn with
uvicorn workers) serve three person-vs-person matches played continuously
through the API.  Each match is open in two pages (websocket watchers), one
on each web process; players' requests go to either.  Web process 0 is
killed with its process group.  Its pages' sockets close; they reconnect
(to the other process, as a load balancer sends them) and catch up from the
catch-up push the consumer sends on connect.  Its players' requests fail
with no answer and go to the other process (a move whose answer was lost is
either stored, and a re-send is refused as stale, or not stored).  A
replacement web process 0 is then started and must serve the same matches.

Checked: every page shows the current position within 10 s of the kill; the
replacement serves within its start-up time; no move lost or doubled;
verify_match passes.
"""

from __future__ import annotations

import random
import signal
import time
from typing import Any

from play import Watcher, check_matches, wait_caught_up
from scenario import Background, Stack, Table, invariants_hold, main, note, status_counts, until

CATCH_UP_BOUND_S = 10.0


def run_once(args: Any, run: int) -> dict[str, Any]:
    rng = random.Random(args.seed + run)
    with Stack("web-kill", webs=2, time_limit=240) as stack:
        table = Table(stack, rng)
        for _ in range(3):
            table.add_human_match()
        for i, player in enumerate(table.players):
            player.api.turn = i % 2  # half the players talk to each web process
        for match_id in table.matches:  # two pages per match: one on each web process
            for first in (0, 1):
                ports = stack.web_ports[first:] + stack.web_ports[:first]
                watcher = Watcher(ports, match_id)
                watcher.start()
                table.watchers.append(watcher)
        before = table.seqs()
        background = Background(table, pause=0.2)
        background.start()
        until(lambda: all(w.connects >= 1 for w in table.watchers), 20)
        time.sleep(4)
        on_killed = [w for w in table.watchers if w.ports[0] == stack.web_ports[0]]
        mark = len(table.ledger.sent)
        note("killing web process 0")
        killed = time.monotonic()
        stack.stop("web0", signal.SIGKILL)

        at_kill = table.seqs()  # every page must come to show at least these positions (moves go on meanwhile)

        def caught_up() -> bool:
            # the killed process's pages must have reconnected (to the other one) and show the position
            return all(w.connects >= 2 for w in on_killed) and all(w.seen >= at_kill[w.match_id] for w in table.watchers)

        recovered = until(caught_up, 30, step=0.2)
        note("starting a replacement web process 0")
        restarted = time.monotonic()
        stack.start_web(0)
        replacement_ready = time.monotonic() - restarted
        # a page opened on the replacement catches up too
        fresh = [Watcher([stack.web_ports[0]], m) for m in table.matches]
        for watcher in fresh:
            watcher.start()
        table.watchers += fresh
        time.sleep(3)
        background.stop()
        after = table.seqs()
        final = wait_caught_up(table.watchers, after, 15)
        table.stop()
        during = table.ledger.sent[mark:]
        checks = check_matches(stack, table.reader, table.ledger, table.matches, before)
        return {
            "in_flight": {"live_matches": len(table.matches), "pages_on_killed_process": len(on_killed),
                          "pages_on_other_process": len(table.watchers) - len(on_killed) - len(fresh)},
            "pages_reconnected_and_current_after_kill_s": None if recovered is None else round(recovered, 2),
            "replacement_serving_after_s": round(replacement_ready, 2),
            "pages_on_replacement_caught_up": all(w.seen >= after[w.match_id] for w in fresh),
            "moves_after_kill": {"sent": len(during), "answers": status_counts(s.status for s in during)},
            "reconnects": sum(w.closes for w in on_killed),
            "all_pages_current_at_end": final is not None,
            "seconds_from_kill_to_end": round(time.monotonic() - killed, 1),
            "checks": checks,
        }


def ok(report: dict[str, Any]) -> bool:
    return (invariants_hold(report) and report["pages_reconnected_and_current_after_kill_s"] is not None
            and report["pages_reconnected_and_current_after_kill_s"] <= CATCH_UP_BOUND_S
            and report["pages_on_replacement_caught_up"] and report["all_pages_current_at_end"])


if __name__ == "__main__":
    main("A web process killed", run_once, ok)
