"""Fault 2: Redis killed during live play, down 10 s, then started again (empty).

``.venv/bin/python benchmarks/faults/fault_redis_restart.py [--runs N] [--down 10]``
(``CHANNEL_LAYER=pubsub`` in front: the same on the Pub/Sub channel layer.)

Redis is the channel layer and the Celery broker.  The harness's Redis keeps
nothing on disk, so a restart loses every queued task, every group
membership and every message in flight: the hard case.

In flight at the kill: two person-vs-person matches played continuously
through the API, and two person-vs-bot matches (*medium*, 0.5 s) where the
person has just moved, so their bot turns are queued (one in the worker,
one waiting in Redis).  Every match is open in a page (a websocket watcher
that reconnects by itself, as htmx's websocket extension does).

Checked: no acknowledged move lost or doubled; every move posted while Redis
was down answered 201 (stored; its push is lost) or 503 with a message, and
none hung; every page shows every move made during the outage within a few
seconds of Redis returning; the queued bot turns are played (by the stall
sweep, which re-queues bot turns waiting over BOT_STALL_SECONDS) within
BOT_STALL_SECONDS + BOT_RECOVERY_SECONDS + 10 s = 45 s; verify_match passes;
``/readyz`` answers 503 within 2 s of the kill and 200 again within 10 s of the return (the
workers' heartbeat is written every 5 s, and the restarted Redis starts empty).

A page whose match changed only while Redis was away (a bot match whose bot
moved just as Redis went) is the hard one: its push is lost.  On the queue
layer its socket's receive fails, the socket closes and the page reconnects
with ``?seq=``; on the Pub/Sub layer nothing fails for the socket, and
frontend/layerwatch.py notices the outage and catches the socket up.
"""

from __future__ import annotations

import random
import time
from typing import Any

from play import check_matches, wait_caught_up
from scenario import (
    READYZ_DOWN_BOUND_S,
    READYZ_UP_BOUND_S,
    Background,
    Stack,
    Table,
    bot_moved,
    invariants_hold,
    main,
    my_turn,
    note,
    readyz_turns,
    status_counts,
    until,
)

BOT_BOUND_S = 45.0
CATCH_UP_BOUND_S = 10.0


def run_once(args: Any, run: int) -> dict[str, Any]:
    rng = random.Random(args.seed + run)
    with Stack("redis-restart", time_limit=240) as stack:
        table = Table(stack, rng)
        humans = [table.add_human_match() for _ in range(2)]
        bots = [table.add_bot_match("medium") for _ in range(2)]
        table.watch()
        before = table.seqs()
        background = Background(table.only(humans), pause=0.4)
        background.start()
        time.sleep(4)
        # the bot matches: the person moves, so the bot turns are queued, then Redis goes
        bot_turns = {}
        for match_id in bots:
            player = next(p for p in table.players if p.match_id == match_id)
            assert until(lambda match_id=match_id: my_turn(table.reader, match_id), 30) is not None, "the person never got the move"
            sent = player.try_move()
            assert sent is not None and sent.status == 201, f"the move before the fault failed: {sent}"
            bot_turns[match_id] = sent.expected_seq
        mark = len(table.ledger.sent)
        note(f"killing Redis for {args.down} s")
        assert readyz_turns(stack, 200, 15) is not None, "/readyz was not 200 before the fault"
        stack.kill_redis()
        killed = time.monotonic()
        readyz_down = readyz_turns(stack, 503, 5)
        time.sleep(max(0.0, args.down - (time.monotonic() - killed)))
        during = table.ledger.sent[mark:]
        stack.start_redis()
        back, back_wall = time.monotonic(), time.time()
        note("Redis is back")
        readyz_up = readyz_turns(stack, 200, 30)
        seqs_at_return = table.seqs()
        catch_up = wait_caught_up(table.watchers, seqs_at_return, 30)

        bot_wait = until(lambda: all(bot_moved(table.reader, m, s + 1) for m, s in bot_turns.items()),
                         BOT_BOUND_S + 20, step=0.25)
        first_ok_after = next((round(s.at - back_wall, 2) for s in table.ledger.sent[mark + len(during):]
                               if s.status == 201 and s.at > back_wall), None)
        time.sleep(2)
        background.stop()
        after = table.seqs()
        final_catch_up = wait_caught_up(table.watchers, after, 15)
        table.stop()
        checks = check_matches(stack, table.reader, table.ledger, table.matches, before)
        worker_log = stack.log_text("worker")
        return {
            "in_flight": {"live_matches": len(humans), "bot_turns_queued": bot_turns},
            "redis_down_s": round(back - killed, 2),
            "readyz_503_after_kill_s": None if readyz_down is None else round(readyz_down, 2),
            "readyz_200_after_return_s": None if readyz_up is None else round(readyz_up, 2),
            "moves_during_outage": {
                "sent": len(during),
                "answers": status_counts(s.status for s in during),
                "slowest_answer_s": round(max((s.seconds for s in during), default=0), 2),
                "messages": sorted({s.message[:120] for s in during if s.status not in (201, 409)})[:3],
            },
            "first_acknowledged_move_after_return_s": first_ok_after,
            "pages_caught_up_after_return_s": None if catch_up is None else round(catch_up, 2),
            "bot_turns_played_after_return_s": None if bot_wait is None else round(bot_wait, 2),
            "stalled_turns_requeued": worker_log.count("stalled bot turn"),
            "pages_caught_up_at_end": final_catch_up is not None,
            "websocket_reconnects": sum(w.connects for w in table.watchers) - len(table.watchers),
            "checks": checks,
        }


def ok(report: dict[str, Any]) -> bool:
    during = report["moves_during_outage"]["answers"]
    return (invariants_hold(report)
            and set(during) <= {"201", "503", "409"}
            and report["readyz_503_after_kill_s"] is not None
            and report["readyz_503_after_kill_s"] <= READYZ_DOWN_BOUND_S
            and report["readyz_200_after_return_s"] is not None
            and report["readyz_200_after_return_s"] <= READYZ_UP_BOUND_S
            and report["pages_caught_up_after_return_s"] is not None
            and report["pages_caught_up_after_return_s"] <= CATCH_UP_BOUND_S
            and report["bot_turns_played_after_return_s"] is not None
            and report["bot_turns_played_after_return_s"] <= BOT_BOUND_S)


def _args(parser: Any) -> None:
    parser.add_argument("--down", type=float, default=10.0, help="seconds Redis stays down (default 10)")


if __name__ == "__main__":
    main("Redis restarted during live play", run_once, ok, _args)
