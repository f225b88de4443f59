"""What every fault script shares: matches to play, background play, and the report.

Run a fault script from the worktree's root, e.g.
``.venv/bin/python benchmarks/faults/fault_redis_restart.py --runs 3``;
``benchmarks/faults/run_all.py`` runs them all.  Each prints one JSON report
per run (the figures docs/RELIABILITY.md quotes) and exits 1 if an invariant
failed.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from play import Api, Ledger, Player, Watcher, register, unique
from stack import Stack, load_average, note, web_server

GAME = "mountain-goats"


def bot_match(api: Api, level: str) -> int:
    body = api.ok("POST", "/api/matches/", {"game": GAME, "seats": [{"human": True}, {"bot": level}]})
    return body["id"]


def human_match(creator: Api, joiner: Api, time_control: Any = None, rated: bool = False) -> int:
    payload: dict[str, Any] = {"game": GAME, "seats": [{"human": True}, {"human": True}], "rated": rated}
    if time_control is not None:
        payload["time_control"] = time_control
    body = creator.ok("POST", "/api/matches/", payload)
    joiner.ok("POST", f"/api/matches/{body['id']}/join")
    return body["id"]


def bot_moved(api: Api, match_id: int, seq: int) -> bool:
    """Whether a bot has acted after ``seq``: read from the events, which (unlike a match view) never
    re-queue a stalled bot turn, so what is measured is the worker and the beat sweep alone."""
    found = api.ok("GET", f"/api/matches/{match_id}/events/?after={seq}")["events"]
    return any(e["type"] == "action" and e["actor"].startswith("bot:") for e in found)


def my_turn(api: Api, match_id: int, seat: int = 0) -> bool:
    body = api.ok("GET", f"/api/matches/{match_id}/")
    return body["status"] == "active" and seat in body["to_move"]


def match_seq(api: Api, match_id: int) -> int:
    return api.ok("GET", f"/api/matches/{match_id}/")["seq"]


class Table:
    """Matches with their players (API clients) and one watcher (an open page) per match."""

    def __init__(self, stack: Stack, rng: random.Random) -> None:
        self.stack = stack
        self.rng = rng
        self.ports = stack.web_ports
        self.ledger = Ledger()
        self.players: list[Player] = []
        self.matches: list[int] = []
        self.watchers: list[Watcher] = []
        self.reader = Api(self.ports)

    def user(self, prefix: str) -> Api:
        return register(self.ports, unique(prefix))

    def add_bot_match(self, level: str) -> int:
        api = self.user("solo")
        match_id = bot_match(api, level)
        self.players.append(Player(api, match_id, 0, self.ledger, self.rng))
        self.matches.append(match_id)
        return match_id

    def add_human_match(self, time_control: Any = None, rated: bool = False, users: tuple[Api, Api] | None = None) -> int:
        a, b = users or (self.user("alp"), self.user("bea"))
        match_id = human_match(a, b, time_control, rated)
        self.players += [Player(a, match_id, 0, self.ledger, self.rng), Player(b, match_id, 1, self.ledger, self.rng)]
        self.matches.append(match_id)
        return match_id

    def watch(self, spread: bool = True) -> None:
        for i, match_id in enumerate(self.matches):
            ports = self.ports[i % len(self.ports):] + self.ports[:i % len(self.ports)] if spread else self.ports
            watcher = Watcher(ports, match_id)
            watcher.start()
            self.watchers.append(watcher)

    def seqs(self) -> dict[int, int]:
        return {m: self.reader.ok("GET", f"/api/matches/{m}/")["seq"] for m in self.matches}

    def stop(self) -> None:
        for watcher in self.watchers:
            watcher.stop()

    def only(self, matches: list[int]) -> Table:
        """The same table with only the players of ``matches`` (for a :class:`Background`)."""
        view = Table.__new__(Table)
        view.__dict__.update(self.__dict__)
        view.players = [p for p in self.players if p.match_id in matches]
        return view


class Background(threading.Thread):
    """Players moving in a loop (each tries a move every ``pause`` s) until stopped."""

    def __init__(self, table: Table, pause: float = 0.3) -> None:
        super().__init__(daemon=True, name="players")
        self.table, self.pause = table, pause
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            for player in self.table.players:
                if self.stopping.is_set():
                    break
                player.try_move()
            self.stopping.wait(self.pause)

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=30)


def until(check: Callable[[], bool], timeout: float, step: float = 0.1) -> float | None:
    """Seconds until ``check()`` is true (None: not within ``timeout``)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            if check():
                return time.monotonic() - start
        except Exception:  # noqa: BLE001 - a service that is still down counts as not yet
            pass
        time.sleep(step)
    return None


# /readyz must say 503 this soon after PostgreSQL or Redis stops (docs/OPERATIONS.md).
READYZ_DOWN_BOUND_S = 2.0
# ... and 200 this soon after it is back (a worker's heartbeat is written every 5 s; a restarted Redis is empty).
READYZ_UP_BOUND_S = 10.0


def readyz_status(stack: Stack, index: int = 0) -> int:
    """What ``/readyz`` of web process ``index`` answers now (0: no answer)."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"{stack.web_url(index)}/readyz", timeout=3) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def readyz_turns(stack: Stack, status: int, timeout: float) -> float | None:
    """Seconds until ``/readyz`` answers ``status`` (None: not within ``timeout``)."""
    return until(lambda: readyz_status(stack) == status, timeout, step=0.05)


def header(name: str) -> dict[str, Any]:
    return {
        "fault": name,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load_average_at_start": load_average(),
        "machine": f"{platform.machine()}, {__import__('os').cpu_count()} cores, Python {platform.python_version()}",
        "web_server": web_server(),
        "channel_layer": __import__("os").environ.get("CHANNEL_LAYER") or "default",  # stack.py passes it on
    }


def main(name: str, run_once: Callable[[argparse.Namespace, int], dict[str, Any]],
         ok: Callable[[dict[str, Any]], bool], add_args: Callable[[argparse.ArgumentParser], None] | None = None) -> None:
    parser = argparse.ArgumentParser(description=name)
    parser.add_argument("--runs", type=int, default=1, help="how many times to repeat the fault (each on a fresh stack)")
    parser.add_argument("--seed", type=int, default=15)
    if add_args:
        add_args(parser)
    args = parser.parse_args()
    if not 1 <= args.runs <= 5:
        parser.error("--runs must be 1 to 5")
    failed = False
    for run in range(args.runs):
        report = header(name)
        try:
            report.update(run_once(args, run))
        except Exception as exc:  # noqa: BLE001 - reported, and the run fails
            report["error"] = f"{type(exc).__name__}: {exc}"
        report["load_average_at_end"] = load_average()
        report["passed"] = "error" not in report and ok(report)
        failed |= not report["passed"]
        print(json.dumps(report, indent=1, default=str), flush=True)
    sys.exit(1 if failed else 0)


def status_counts(statuses: Iterable[Any]) -> dict[str, int]:
    """How many answers had each status (``{"201": 12, "503": 3}``), in a report's JSON shape."""
    return dict(Counter(str(status) for status in statuses))


def invariants_hold(report: dict[str, Any]) -> bool:
    checks = report.get("checks", {})
    return checks.get("moves_lost") == 0 and checks.get("moves_doubled") == 0 and checks.get("verify_match") == "pass"


__all__ = ["Stack", "Table", "Background", "until", "main", "invariants_hold", "note", "match_seq",
           "bot_moved", "my_turn", "readyz_status", "readyz_turns", "READYZ_DOWN_BOUND_S", "READYZ_UP_BOUND_S"]
