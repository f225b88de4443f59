"""Fault 1: a Celery worker SIGKILLed in the middle of a bot's search.

``.venv/bin/python benchmarks/faults/fault_worker_kill.py [--runs N]``

Two matches, a person against the *hard* bot (a 2 s search), each open in a
page (a websocket watcher).  Twice, a person moves, the harness waits until
the worker's log shows the bot turn received, lets the search run 0.6 s and
then kills:

1. ``pool``: the pool process running the search (SIGKILL).  The worker's
   main process sees the loss; the task is ``acks_late`` +
   ``reject_on_worker_lost``, so it goes back to the queue and runs again.
2. ``worker``: the whole worker (main process and pool, SIGKILL), replaced by
   a new worker 1 s later.  The unacknowledged task stays in Redis until the
   visibility timeout (300 s); the stall sweep (celery beat,
   ``recover_stalled_matches``, every ``BOT_RECOVERY_SECONDS`` = 15 s, for bot
   turns waiting over ``BOT_STALL_SECONDS`` = 20 s) queues it again first.
   When the old copy is finally redelivered it finds the match moved on and
   does nothing.

The bound checked: the bot's move is stored exactly once, within 20 s of
the kill for ``pool`` (a new pool process starts Django, then searches 2 s:
on a 2-core machine under a load of 15-20 that took up to 10 s), and within
BOT_STALL_SECONDS + BOT_RECOVERY_SECONDS + 10 s = 45 s for ``worker``; both
matches then play on.
"""

from __future__ import annotations

import os
import random
import signal
import time
from typing import Any

from play import check_matches, wait_caught_up
from scenario import Stack, Table, bot_moved, invariants_hold, main, my_turn, note, until

BOUNDS = {"pool": 20.0, "worker": 45.0}


def run_once(args: Any, run: int) -> dict[str, Any]:
    rng = random.Random(args.seed + run)
    with Stack("worker-kill", time_limit=240) as stack:
        table = Table(stack, rng)
        matches = [table.add_bot_match("hard") for _ in range(2)]
        table.watch()
        before = table.seqs()
        phases = []
        for mode, match_id in zip(("pool", "worker"), matches):
            player = next(p for p in table.players if p.match_id == match_id)
            assert until(lambda match_id=match_id: my_turn(table.reader, match_id), 30) is not None, "the person never got the move"
            offset = stack.log_text("worker").count("play_bot_turn[")
            sent = player.try_move()
            assert sent is not None and sent.status == 201, f"the first move failed: {sent or player.last_reason}"
            after_human = table.reader.ok("GET", f"/api/matches/{match_id}/")["seq"]

            def received(offset: int = offset) -> bool:
                text = stack.log_text("worker")
                return text.count("play_bot_turn[") > offset and "received" in text.split("play_bot_turn[")[-1]

            assert until(received, 20) is not None, "the worker never received the bot turn"
            time.sleep(0.6)  # mid search: the hard bot thinks for 2 s
            in_flight = {"match": match_id, "bot_turn_at_seq": after_human, "searching_for_s": 0.6}
            killed_at = time.monotonic()
            if mode == "pool":
                pool = stack.children("worker")
                note(f"killing the pool process(es) {pool} of the worker")
                for pid in pool:
                    os.kill(pid, signal.SIGKILL)
            else:
                note("killing the whole worker (SIGKILL to its process group)")
                stack.stop("worker", signal.SIGKILL)
                time.sleep(1.0)
                stack.start_worker()
            took = until(lambda match_id=match_id, after_human=after_human: bot_moved(table.reader, match_id, after_human), BOUNDS[mode] + 15, step=0.2)
            recovered = None if took is None else round(time.monotonic() - killed_at, 2)
            phases.append({"mode": mode, "in_flight": in_flight, "bot_move_after_kill_s": recovered,
                           "bound_s": BOUNDS[mode],
                           "within_bound": recovered is not None and recovered <= BOUNDS[mode]})
        # the matches play on: two more rounds each
        for _ in range(2):
            for player in table.players:
                sent = player.try_move()
                if sent is not None:
                    until(lambda p=player, s=sent.expected_seq: bot_moved(table.reader, p.match_id, s + 1), 20, step=0.2)
        after = table.seqs()
        catch_up = wait_caught_up(table.watchers, after, 15)
        table.stop()
        checks = check_matches(stack, table.reader, table.ledger, table.matches, before)
        log = stack.log_text("worker") + stack.log_text("beat")
        return {
            "phases": phases,
            "pages_caught_up_s": None if catch_up is None else round(catch_up, 2),
            "requeued_by_sweep": log.count("stalled bot turn"),
            "checks": checks,
        }


def ok(report: dict[str, Any]) -> bool:
    return invariants_hold(report) and all(p["within_bound"] for p in report["phases"]) \
        and report["pages_caught_up_s"] is not None


if __name__ == "__main__":
    main("Celery worker SIGKILLed mid bot search", run_once, ok)
