"""Fault 3: PostgreSQL stopped (``pg_ctl -m fast``: open connections cut) for 8 s, then started again.

``.venv/bin/python benchmarks/faults/fault_postgres_restart.py [--runs N] [--down 8]``

In flight: two person-vs-person matches played continuously through the API,
and a person-vs-bot match (*hard*, a 2 s search) whose bot is searching when
the database goes (its save fails; the task retries with back-off).  Every
match is open in a page (a websocket watcher).

While the database is down, a prober sends what clients send, twice a
second: the match as JSON (``GET /api/matches/{id}/``), a move through the
API, the match page, and a move as an htmx page sends it (session cookie,
CSRF, ``HX-Request``).  Every answer must be a 503 with a message (JSON
``service_unavailable`` under /api/, a fragment for htmx, a page otherwise)
and ``Retry-After``, within 10 s: never a 500 page, never a hang.

After the restart, with nothing restarted by hand: the first move stored,
every page caught up, the bot's move played once; no move lost or doubled;
verify_match passes; ``/readyz`` answers 503 within 2 s of the stop and 200 within 10 s
of the return.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

from play import Answer, Browser, check_matches, wait_caught_up
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
    until,
)

HANG_BOUND_S = 10.0


class Prober(threading.Thread):
    def __init__(self, table: Table, match_id: int, player: Any, browser: Browser) -> None:
        super().__init__(daemon=True, name="prober")
        self.table, self.match_id, self.player, self.browser = table, match_id, player, browser
        self.stopping = threading.Event()
        self.answers: list[tuple[str, Answer]] = []
        view = player.view().body
        self.seq, self.action = view["seq"], (view["legal_actions"] or [None])[0]

    def run(self) -> None:
        import json

        path = f"/matches/{self.match_id}/"
        while not self.stopping.is_set():
            self.answers.append(("api GET match", self.table.reader.request("GET", f"/api/matches/{self.match_id}/")))
            self.answers.append(("api POST move", self.player.api.request(
                "POST", f"/api/matches/{self.match_id}/actions/", {"action": self.action, "expected_seq": self.seq})))
            self.answers.append(("page GET match", self.browser.request("GET", path)))
            self.answers.append(("htmx POST move", self.browser.request(
                "POST", f"{path}move/", {"action": json.dumps(self.action), "expected_seq": str(self.seq)}, htmx=True)))
            self.stopping.wait(0.5)

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=30)


def _judge(kind: str, answer: Answer) -> str | None:
    """What is wrong with an answer given while the database is down (None: a proper 503)."""
    if answer.status == 0:
        return f"no answer: {answer.body}"
    if answer.status != 503:
        return f"status {answer.status}"
    if "retry-after" not in answer.headers:
        return "no Retry-After"
    body = answer.body
    if kind.startswith("api"):
        if not (isinstance(body, dict) and body.get("error", {}).get("code") == "service_unavailable"):
            return f"not the JSON error shape: {str(body)[:80]}"
    elif "database" not in str(body):
        return "no message"
    if answer.seconds > HANG_BOUND_S:
        return f"took {answer.seconds:.1f} s"
    return None


def run_once(args: Any, run: int) -> dict[str, Any]:
    rng = random.Random(args.seed + run)
    with Stack("postgres-restart", time_limit=240) as stack:
        table = Table(stack, rng)
        humans = [table.add_human_match() for _ in range(2)]
        bot = table.add_bot_match("hard")
        table.watch()
        before = table.seqs()
        # the prober plays as the person of the second human match who is NOT to move, so its moves never land
        probe_match = humans[1]
        seat_to_move = table.reader.ok("GET", f"/api/matches/{probe_match}/")["to_move"][0]
        idle = next(p for p in table.players if p.match_id == probe_match and p.seat != seat_to_move)
        browser = Browser(stack.web_ports[0])
        browser.login(idle.api.username)
        background = Background(table.only([humans[0]]), pause=0.3)
        background.start()
        time.sleep(3)
        bot_player = next(p for p in table.players if p.match_id == bot)
        assert until(lambda: my_turn(table.reader, bot), 30) is not None, "the person never got the move"
        sent = bot_player.try_move()
        assert sent is not None and sent.status == 201, f"the move before the fault failed: {sent}"
        bot_seq = table.reader.ok("GET", f"/api/matches/{bot}/")["seq"]
        time.sleep(0.7)  # the bot is searching
        prober = Prober(table, probe_match, idle, browser)
        before_fault = table.seqs()
        mark = len(table.ledger.sent)
        note(f"stopping PostgreSQL for {args.down} s")
        assert readyz_turns(stack, 200, 15) is not None, "/readyz was not 200 before the fault"
        stopped = time.monotonic()
        stack.stop_postgres("fast")
        prober.start()
        readyz_down = readyz_turns(stack, 503, 5)  # counted from the moment PostgreSQL is down
        time.sleep(max(0.0, args.down - (time.monotonic() - stopped)))
        prober.stop()
        during = [(k, a) for k, a in prober.answers]
        moves_during = table.ledger.sent[mark:]
        stack.start_postgres()
        back, back_wall = time.monotonic(), time.time()
        note("PostgreSQL is back")
        readyz_up = readyz_turns(stack, 200, 30)
        first_move = until(lambda: any(s.status == 201 and s.at > back_wall for s in table.ledger.sent), 60, step=0.1)
        bot_done = until(lambda: bot_moved(table.reader, bot, sent.expected_seq + 1), 60, step=0.25)
        time.sleep(1)
        background.stop()
        after = table.seqs()
        catch_up = wait_caught_up(table.watchers, after, 20)
        # pages of the matches that moved after the return: when each first showed a position stored after it
        moved = [w for w in table.watchers if after[w.match_id] > before_fault[w.match_id]]
        firsts = [min((t for t, seq in w.history if t >= back and seq > before_fault[w.match_id]), default=None)
                  for w in moved]
        caught_up_at = None if catch_up is None or None in firsts else round(max(firsts) - back, 2) if firsts else 0.0
        table.stop()
        checks = check_matches(stack, table.reader, table.ledger, table.matches, before)
        problems = [f"{kind}: {_judge(kind, a)}" for kind, a in during if _judge(kind, a)]
        kinds: dict[str, dict[str, Any]] = {}
        for kind, answer in during:
            entry = kinds.setdefault(kind, {"answers": {}, "slowest_s": 0.0, "example": ""})
            entry["answers"][str(answer.status)] = entry["answers"].get(str(answer.status), 0) + 1
            entry["slowest_s"] = round(max(entry["slowest_s"], answer.seconds), 2)
            if answer.status == 503 and not entry["example"]:
                entry["example"] = str(answer.body)[:160]
        return {
            "in_flight": {"live_matches": len(humans), "bot_searching_at_seq": bot_seq,
                          "background_moves_during_outage": len(moves_during)},
            "postgres_down_s": round(back - stopped, 2),
            "readyz_503_after_stop_s": None if readyz_down is None else round(readyz_down, 2),
            "readyz_200_after_return_s": None if readyz_up is None else round(readyz_up, 2),
            "requests_during_outage": kinds,
            "improper_answers": problems[:5],
            "improper_answer_count": len(problems),
            "first_move_stored_after_return_s": None if first_move is None else round(first_move, 2),
            "bot_move_after_return_s": None if bot_done is None else round(bot_done, 2),
            "pages_first_new_push_after_return_s": caught_up_at,
            "pages_current_at_end": catch_up is not None,
            "checks": checks,
        }


def ok(report: dict[str, Any]) -> bool:
    return (invariants_hold(report) and report["improper_answer_count"] == 0
            and report["readyz_503_after_stop_s"] is not None
            and report["readyz_503_after_stop_s"] <= READYZ_DOWN_BOUND_S
            and report["readyz_200_after_return_s"] is not None
            and report["readyz_200_after_return_s"] <= READYZ_UP_BOUND_S
            and sum(sum(k["answers"].values()) for k in report["requests_during_outage"].values()) > 0
            and report["first_move_stored_after_return_s"] is not None
            and report["bot_move_after_return_s"] is not None
            and report["pages_first_new_push_after_return_s"] is not None and report["pages_current_at_end"])


def _args(parser: Any) -> None:
    parser.add_argument("--down", type=float, default=8.0, help="seconds PostgreSQL stays down (default 8)")


if __name__ == "__main__":
    main("PostgreSQL restarted", run_once, ok, _args)
