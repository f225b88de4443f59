"""Live play under load: ``python benchmarks/service_live_load.py --base-url URL --players FILE``.

It starts nothing itself.  Against a running Cairn (``./scripts/run``) it
opens N two-person Mountain Goats matches, watches each with both players'
websocket screens (``/ws/matches/<id>/``, logged in by session cookie), and
makes each match's moves through the REST API (``--move api``, the default) or on the
mover's own screen socket as the page does (``--move socket``) after an exponential think
time, choosing among the moves its mover's screen offers (``--read screen``, the default: the
hidden ``action`` inputs of the forms in the last fragment that screen received, as a player
clicks one in the browser; ``--read api`` reads them with a ``GET /api/matches/{id}/`` before
each move instead, one or two per move, as the ladders before 2026-11-26 06:00 UTC did).  A
move's latency runs from just before its POST (or socket message) until *every* screen
of that match has received a fragment whose ``data-seq`` is at least the
seq the POST answered; a screen that has not within ``--miss-after``
seconds counts as missed.  It prints moves/s, p50/p95/p99/max and the missed
count, the connect burst (every screen connects at once with ``?seq=0``, so
each gets a catch-up render: time to its first fragment), and the errors.

Players: the API's registration and token endpoints are rate-limited, so the
players are made in the server's database by a management command, which
prints their tokens and session keys::

    DATABASE_URL=... .venv/bin/python manage.py load_players 500 --out var/load-players.json

One pair of players per match (the command's N is the number of matches it
can serve).  Every request stays on this machine: the base URL must be a
loopback address.  The run is bounded by ``--duration``.
"""

from __future__ import annotations

import argparse
import asyncio
import html as htmllib
import json
import os
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import aiohttp

SEQ = re.compile(r'id="match-live"[^>]*?data-seq="(\d+)"')
STATUS = re.compile(r'id="match-live"[^>]*?data-status="([a-z]+)"')
OFFERED = re.compile(r'<input type="hidden" name="action" value="([^"]*)"')
LOOPBACK = ("127.", "localhost", "[::1]", "::1")


@dataclass
class Screen:
    seen: int = -1
    first_at: float | None = None
    ws: Any = None
    status: str = ""
    offered: list[str] = field(default_factory=list)  # the moves its last fragment offers (escaped JSON)
    answers: asyncio.Queue = field(default_factory=asyncio.Queue)  # its socket moves' answers (--move socket)


@dataclass
class Live:
    index: int
    players: tuple[dict[str, str], dict[str, str]]
    match_id: int = 0
    seq: int = 0
    screens: list[Screen] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    target: int | None = None
    reached: dict[int, float] = field(default_factory=dict)
    readers: list[asyncio.Task] = field(default_factory=list)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.answers: list[float] = []  # POST -> its answer, ms (the rest of a move's latency is the push)
        self.missed = 0
        self.errors: dict[str, int] = {}
        self.finished = 0
        self.reads = 0  # GET /api/matches/{id}/ made to find the mover and its moves

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds each process (all its threads) has used so far (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            out[pid] = (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            out[pid] = float("nan")
    return out


def rss_mb(pids: list[int]) -> dict[int, float]:
    out = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status", encoding="ascii") as handle:
                line = next(row for row in handle if row.startswith("VmRSS:"))
            out[pid] = round(int(line.split()[1]) / 1024, 1)
        except (OSError, StopIteration, ValueError):
            out[pid] = float("nan")
    return out


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


async def api(session: aiohttp.ClientSession, method: str, url: str, token: str, body: Any = None) -> tuple[int, Any]:
    """(HTTP status, JSON body); a timeout or a broken connection is status 0, the body its name."""
    headers = {"Authorization": f"Token {token}"}
    try:
        async with session.request(method, url, json=body, headers=headers) as response:
            try:
                data = await response.json(content_type=None)
            except ValueError:
                data = None
            return response.status, data
    except (TimeoutError, aiohttp.ClientError, OSError) as exc:
        return 0, type(exc).__name__


async def open_match(session: aiohttp.ClientSession, base: str, live: Live, stats: Stats) -> None:
    a, b = live.players
    status, body = await api(session, "POST", f"{base}/api/matches/", a["token"],
                             {"game": "mountain-goats", "seats": [{"human": True}, {"human": True}]})
    if status != 201:
        raise RuntimeError(f"create match: HTTP {status}: {body}")
    live.match_id = body["id"]
    status, body = await api(session, "POST", f"{base}/api/matches/{live.match_id}/join", b["token"])
    if status != 200:
        raise RuntimeError(f"join match {live.match_id}: HTTP {status}: {body}")
    live.seq = body["seq"]


async def read_screen(live: Live, index: int, screen: Screen) -> None:
    async for message in screen.ws:
        if message.type != aiohttp.WSMsgType.TEXT:
            break
        if message.data.startswith("{"):  # the answer to a move sent on this socket
            screen.answers.put_nowait(json.loads(message.data))
            continue
        found = SEQ.search(message.data)
        if not found:
            continue
        now = time.perf_counter()
        if screen.first_at is None:
            screen.first_at = now
        seq = int(found.group(1))
        if seq > screen.seen:
            screen.seen = seq
            status = STATUS.search(message.data, 0, 400)
            screen.status = status.group(1) if status else ""
            screen.offered = OFFERED.findall(message.data)
            if live.target is not None and seq >= live.target and index not in live.reached:
                live.reached[index] = now
                live.changed.set()


async def open_screens(session: aiohttp.ClientSession, base: str, live: Live, since: int, stats: Stats,
                       gate: asyncio.Semaphore) -> list[float]:
    """Both players' screens, connected with ``?seq=since``; returns each one's connect start time.

    A refused or reset handshake is retried (three tries, a second apart) and
    counted; a screen that never connects never catches up (it is missed).
    """
    ws_base = "ws" + base[len("http"):]
    live.screens = [Screen() for _ in live.players]
    starts = [time.perf_counter()] * len(live.players)

    async def connect(player: dict[str, str], screen: Screen) -> None:
        for _attempt in range(3):
            try:
                async with gate:
                    screen.ws = await session.ws_connect(
                        f"{ws_base}/ws/matches/{live.match_id}/?seq={since}",
                        headers={"Origin": base, "Cookie": f"sessionid={player['session']}"},
                        heartbeat=None, max_msg_size=0,
                    )
                return
            except (TimeoutError, aiohttp.ClientError, OSError) as exc:
                stats.error(f"connect: {type(exc).__name__}")
                await asyncio.sleep(1.0)

    # Both screens at once, as two players' browsers would connect (not one after the other's handshake).
    await asyncio.gather(*(connect(player, screen) for player, screen in zip(live.players, live.screens)))
    live.readers = [asyncio.create_task(read_screen(live, i, s)) for i, s in enumerate(live.screens) if s.ws]
    return starts


async def close_screens(live: Live) -> None:
    for screen in live.screens:
        if screen.ws is not None:
            await screen.ws.close()
    for task in live.readers:
        task.cancel()


def from_screens(live: Live) -> tuple[int | None, list[Any], int] | None:
    """(seat, its offered moves, the seq they are for) from the screens' last fragments; (None, [], seq)
    once a screen shows the match finished; None when no screen shows moves at the newest seq seen."""
    newest = max((s.seen for s in live.screens), default=-1)
    if any(screen.seen == newest and screen.status == "finished" for screen in live.screens):
        return None, [], newest
    for seat, screen in enumerate(live.screens):
        if screen.seen == newest and screen.offered:
            return seat, [json.loads(htmllib.unescape(v)) for v in screen.offered], newest
    return None


async def play(session: aiohttp.ClientSession, ws_session: aiohttp.ClientSession, base: str, live: Live,
               stats: Stats, args: argparse.Namespace, rng: random.Random, stop_at: float) -> None:
    while time.perf_counter() < stop_at:
        await asyncio.sleep(min(rng.expovariate(1.0 / args.think), max(0.0, stop_at - time.perf_counter())))
        if time.perf_counter() >= stop_at:
            return
        offer = from_screens(live) if args.read == "screen" else None
        view: dict[str, Any] = {}
        if offer is None:
            # Whose turn, and what may they do (either player's view names the seats to move).
            stats.reads += 1
            status, view = await api(session, "GET", f"{base}/api/matches/{live.match_id}/", live.players[0]["token"])
            if status != 200:
                stats.error(f"GET {status}")
                continue
        finished = offer[0] is None if offer is not None else view["status"] == "finished"
        if finished:
            stats.finished += 1
            await close_screens(live)
            try:
                await open_match(session, base, live, stats)
            except RuntimeError:
                stats.error("set-up of a next match")
                return
            await open_screens(ws_session, base, live, live.seq, stats, asyncio.Semaphore(2))
            continue
        if offer is not None:  # the mover's screen offers its moves, as the browser shows them
            seat, actions, expected = offer
        else:
            seat = view["to_move"][0] if view["to_move"] else None
            if seat is None:
                stats.error("nobody to move")
                continue
            if seat != view["my_seat"]:
                stats.reads += 1
                status, view = await api(session, "GET", f"{base}/api/matches/{live.match_id}/", live.players[seat]["token"])
                if status != 200:
                    stats.error(f"GET {status}")
                    continue
            actions, expected = view["legal_actions"], view["seq"]
        player = live.players[seat]
        if not actions:
            stats.error("no legal action")
            continue
        action = actions[rng.randrange(len(actions))]
        live.reached = {}
        live.changed.clear()
        started = time.perf_counter()
        if args.move == "socket":
            status, body = await socket_move(live.screens[seat], action, expected, args.miss_after)
        else:
            status, body = await api(session, "POST", f"{base}/api/matches/{live.match_id}/actions/", player["token"],
                                     {"action": action, "expected_seq": expected})
        if status != 201:
            stats.error(f"POST {status}")
            continue
        stats.answers.append((time.perf_counter() - started) * 1000)
        live.target = body["seq"]
        for index, screen in enumerate(live.screens):  # a fragment may have come before the answer
            if screen.seen >= live.target and index not in live.reached:
                live.reached[index] = time.perf_counter()
        deadline = started + args.miss_after
        while len(live.reached) < len(live.screens) and time.perf_counter() < deadline:
            live.changed.clear()
            try:
                await asyncio.wait_for(live.changed.wait(), timeout=max(0.0, deadline - time.perf_counter()))
            except TimeoutError:
                break
        if len(live.reached) < len(live.screens):
            stats.missed += len(live.screens) - len(live.reached)
        else:
            stats.latencies.append((max(live.reached.values()) - started) * 1000)
        live.target = None


async def socket_move(screen: Screen, action: Any, expected: int, timeout: float) -> tuple[int, Any]:
    """A move sent on the mover's own screen socket, as the page sends it (socketmove.js): (status, answer)."""
    if screen.ws is None:
        return 0, "no socket"
    fields = [["expected_seq", str(expected)], ["action", json.dumps(action)]]
    try:
        await screen.ws.send_str(json.dumps({"type": "move", "id": str(expected), "fields": fields}))
        answer = await asyncio.wait_for(screen.answers.get(), timeout=timeout)
    except (TimeoutError, aiohttp.ClientError, OSError, ConnectionResetError) as exc:
        return 0, type(exc).__name__
    return answer["status"], answer


def analyze(database_url: str) -> None:
    """``ANALYZE`` the server's PostgreSQL database, now that its players and matches are in: what
    autovacuum does on a server that runs it.  Without statistics the planner guesses, and the read of
    a match with its seats (every move's) scanned and hashed every account: about three times
    PostgreSQL's CPU per read (docs/PERFORMANCE.md)."""
    import psycopg

    with psycopg.connect(database_url.replace("postgres://", "postgresql://", 1), autocommit=True) as connection:
        connection.execute("ANALYZE")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    base = args.base_url.rstrip("/")
    host = urlsplit(base).hostname or ""
    if not any(host.startswith(p) for p in LOOPBACK):
        raise SystemExit(f"the base URL must be on this machine (a loopback address), not {host!r}")
    with open(args.players, encoding="utf-8") as handle:
        players = json.load(handle)["players"]
    if len(players) < 2 * args.matches:
        raise SystemExit(f"{args.matches} matches need {2 * args.matches} players; {args.players} has {len(players)}")
    stats = Stats()
    rng = random.Random(args.seed)
    # Websockets hold their connections, so they get a session of their own (no limit): sharing
    # one would starve the HTTP requests of connection slots.
    connector = aiohttp.TCPConnector(limit=args.connections)
    timeout = aiohttp.ClientTimeout(total=args.miss_after)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session, aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0), timeout=timeout
    ) as ws_session:
        lives = [Live(i, (players[2 * i], players[2 * i + 1])) for i in range(args.matches)]
        gate = asyncio.Semaphore(16)

        async def create(live: Live) -> Live | None:
            async with gate:
                try:
                    await open_match(session, base, live, stats)
                except RuntimeError as exc:
                    stats.error(f"set-up: {str(exc)[:40]}")
                    return None
                return live

        t = time.perf_counter()
        lives = [live for live in await asyncio.gather(*(create(live) for live in lives)) if live is not None]
        setup_s = time.perf_counter() - t
        if args.analyze:
            analyze(args.analyze)
        # The connect burst: every screen at once (or --connect-at-once at a time), each asking
        # for a catch-up (?seq=0), as after a restart.
        connect_gate = asyncio.Semaphore(args.connect_at_once or 2 * args.matches)
        t = time.perf_counter()
        starts = await asyncio.gather(*(open_screens(ws_session, base, live, 0, stats, connect_gate) for live in lives))
        burst_deadline = time.perf_counter() + args.miss_after
        while time.perf_counter() < burst_deadline and any(s.first_at is None for live in lives for s in live.screens):
            await asyncio.sleep(0.05)
        firsts = [
            (screen.first_at - start) * 1000
            for live, live_starts in zip(lives, starts)
            for screen, start in zip(live.screens, live_starts)
            if screen.first_at is not None
        ]
        burst_missed = sum(1 for live in lives for s in live.screens if s.first_at is None)
        burst_s = time.perf_counter() - t
        # Play.
        load0 = os.getloadavg()
        cpu0 = cpu_seconds(args.pids)
        t = time.perf_counter()
        stop_at = t + args.duration
        await asyncio.gather(*(play(session, ws_session, base, live, stats, args, random.Random(rng.random()),
                                    stop_at) for live in lives))
        elapsed = time.perf_counter() - t
        load1 = os.getloadavg()
        cpu1 = cpu_seconds(args.pids)
        memory = rss_mb(args.pids)
        for live in lives:
            await close_screens(live)
    lat = stats.latencies
    return {
        "matches": len(lives),
        "screens": 2 * args.matches,
        "think_s": args.think,
        "duration_s": round(elapsed, 1),
        "moves": len(lat),
        "moves_per_s": round(len(lat) / elapsed, 2) if elapsed else 0.0,
        "p50_ms": round(percentile(lat, 50), 1),
        "p95_ms": round(percentile(lat, 95), 1),
        "p99_ms": round(percentile(lat, 99), 1),
        "max_ms": round(max(lat), 1) if lat else float("nan"),
        "mean_ms": round(statistics.fmean(lat), 1) if lat else float("nan"),
        # The POST's own answer time (the rest of a move's latency is waiting for both screens' pushes).
        "answer_p50_ms": round(percentile(stats.answers, 50), 1),
        "answer_p95_ms": round(percentile(stats.answers, 95), 1),
        "missed": stats.missed,
        "errors": stats.errors,
        "finished_matches": stats.finished,
        "read": args.read,
        "move": args.move,
        "api_reads_per_move": round(stats.reads / len(lat), 2) if lat else float("nan"),
        "setup_s": round(setup_s, 1),
        "burst": {
            "s": round(burst_s, 2),
            "p50_ms": round(percentile(firsts, 50), 1),
            "p95_ms": round(percentile(firsts, 95), 1),
            "max_ms": round(max(firsts), 1) if firsts else float("nan"),
            "missed": burst_missed,
        },
        # CPU the named server processes used while playing, per move that reached every screen:
        # much steadier than wall-clock latency on a shared, loaded machine.
        "server_cpu_ms_per_move": round(1000 * sum(cpu1[p] - cpu0[p] for p in args.pids) / len(lat), 1)
        if lat and args.pids else None,
        "server_cpu_share": round(sum(cpu1[p] - cpu0[p] for p in args.pids) / elapsed, 3) if args.pids else None,
        "server_rss_mb": memory,
        "load_before": [round(x, 2) for x in load0],
        "load_after": [round(x, 2) for x in load1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True, help="a running Cairn, e.g. http://127.0.0.1:8000")
    parser.add_argument("--players", required=True, help="the JSON of manage.py load_players")
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--think", type=float, default=5.0, help="mean think time between a match's moves, s")
    parser.add_argument("--duration", type=float, default=60.0, help="how long to play, s")
    parser.add_argument("--miss-after", type=float, default=30.0, help="a screen not caught up after this is missed, s")
    parser.add_argument("--connections", type=int, default=200, help="HTTP connections the client keeps")
    parser.add_argument("--connect-at-once", type=int, default=0,
                        help="screens connecting at the same time at the start (default: all)")
    parser.add_argument("--pids", default="", help="comma-separated ids of the server's processes on this "
                        "machine: their CPU time per move and memory are reported")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--move", choices=("api", "socket"), default="api",
                        help="moves through POST /api/matches/{id}/actions/ (a bot's way) or on the mover's screen "
                             "socket (the page's way)")
    parser.add_argument("--read", choices=("screen", "api"), default="screen",
                        help="where the mover finds its moves: its screen's last fragment (as in the browser), "
                             "or a GET of the match before each move")
    parser.add_argument("--json", action="store_true", help="print the result as JSON only")
    parser.add_argument("--analyze", default="", metavar="DATABASE_URL",
                        help="the server's PostgreSQL database: ANALYZE it once the matches are made (where "
                             "autovacuum is off, as on our machines, its tables would have no statistics)")
    args = parser.parse_args()
    args.pids = [int(p) for p in args.pids.split(",") if p.strip()]
    if not (1 <= args.matches <= 5000 and 0 < args.think and 0 < args.duration <= 3600):
        raise SystemExit("matches 1..5000, think > 0 and duration 0..3600 s, please")
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['matches']} matches, {result['screens']} screens, think {args.think} s, {result['duration_s']} s; "
          f"load {result['load_before']} -> {result['load_after']}")
    print(f"  moves/s {result['moves_per_s']}  p50 {result['p50_ms']} ms  p95 {result['p95_ms']} ms  "
          f"p99 {result['p99_ms']} ms  max {result['max_ms']} ms  missed {result['missed']}  errors {result['errors']}")
    if result["server_cpu_ms_per_move"] is not None:
        print(f"  server CPU {result['server_cpu_ms_per_move']} ms per move ({result['server_cpu_share']} cores), "
              f"memory (MB) {result['server_rss_mb']}")
    b = result["burst"]
    print(f"  connect burst: {result['screens']} screens in {b['s']} s, first fragment p50 {b['p50_ms']} ms "
          f"p95 {b['p95_ms']} ms max {b['max_ms']} ms, missed {b['missed']}")
    print(json.dumps(result), file=sys.stderr)


if __name__ == "__main__":
    main()
