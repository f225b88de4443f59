"""Memory and CPU of many open match streams: ``python benchmarks/service_streams.py --server URL --pid PID``.

Against a running server (one web process, its pid given so that its memory and CPU time can be read
from ``/proc``): two players start a Mountain Goats match through the API and a third account opens
``--streams`` match streams on it (``GET /api/stream/match/{id}``, raw HTTP/1.1 on asyncio sockets, one
connection each).  It reports the server's resident memory before and with the streams open, its CPU
time while they idle (keep-alive lines only) for ``--hold`` seconds, and for ``--moves`` moves the CPU
time per move and the time from each move's answer to its line reaching every stream.

The server needs ``STREAM_MAX_PER_USER`` at least ``--streams`` (one account opens them all) and the
file-descriptor limit (``ulimit -n``) above it, on both sides.  Run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any


def call(server: str, method: str, path: str, auth: str | None = None, body: Any = None) -> Any:
    request = urllib.request.Request(server + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **({"Authorization": auth} if auth else {})})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read() or b"null")


def account(server: str, name: str) -> tuple[str, str]:
    """A new account: its legacy token header and a Bearer header with read and play."""
    made = call(server, "POST", "/api/auth/register", body={"username": name, "password": "bench-" + secrets.token_hex(8)})
    legacy = f"Token {made['token']}"
    token = call(server, "POST", "/api/account/tokens", legacy, {"name": "bench", "scopes": ["read", "play"]})
    return legacy, f"Bearer {token['secret']}"


def proc(pid: int) -> tuple[float, float]:
    """The process's resident memory (MiB) and its CPU time so far (s)."""
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return rss, (int(fields[11]) + int(fields[12])) / ticks


class Stream:
    def __init__(self) -> None:
        self.lines: list[tuple[float, dict[str, Any]]] = []
        self.keepalives = 0
        self.seen = asyncio.Event()

    async def run(self, host: str, port: int, path: str, auth: str, opened: asyncio.Event | None = None) -> None:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: {auth}\r\nAccept: application/x-ndjson\r\n\r\n"
                     .encode())
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"stream refused: {status!r} {await reader.read(300)!r}")
        while (await reader.readline()).strip():
            pass  # headers
        chunked = True
        try:
            while True:
                size = await reader.readline() if chunked else b""
                if not size:
                    return
                length = int(size.strip() or b"0", 16)
                if length == 0:
                    return
                data = await reader.readexactly(length + 2)
                for line in data[:-2].split(b"\n"):
                    if not line.strip():
                        self.keepalives += 1
                        continue
                    self.lines.append((time.perf_counter(), json.loads(line)))
                    self.seen.set()
        finally:
            writer.close()


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    server = args.server.rstrip("/")
    url = urllib.parse.urlsplit(server)
    tag = secrets.token_hex(3)
    a_legacy, a_bearer = account(server, f"bench-a-{tag}")
    b_legacy, b_bearer = account(server, f"bench-b-{tag}")
    _, watcher = account(server, f"bench-w-{tag}")
    match = call(server, "POST", "/api/matches/", a_legacy, {"game": "mountain-goats", "seats": [{"human": True}, {"human": True}]})
    call(server, "POST", f"/api/matches/{match['id']}/join", b_legacy)
    players = {0: a_legacy, 1: b_legacy}
    rss_before, _ = proc(args.pid)
    streams = [Stream() for _ in range(args.streams)]
    tasks = []
    opening = time.perf_counter()
    for stream in streams:
        tasks.append(asyncio.ensure_future(stream.run(url.hostname, url.port or 80, f"/api/stream/match/{match['id']}", watcher)))
        if len(tasks) % 50 == 0:
            await asyncio.sleep(0.05)
    await asyncio.wait_for(asyncio.gather(*(s.seen.wait() for s in streams)), timeout=300)
    opened_in = time.perf_counter() - opening
    for stream in streams:
        stream.seen.clear()
    await asyncio.sleep(2)
    rss_open, cpu_idle_start = proc(args.pid)
    await asyncio.sleep(args.hold)
    rss_idle, cpu_idle_end = proc(args.pid)
    delays: list[float] = []
    _, cpu_moves_start = proc(args.pid)
    for _ in range(args.moves):
        body = call(server, "GET", f"/api/matches/{match['id']}/", a_bearer)
        if body["status"] != "active":
            break
        seat = body["to_move"][0]
        view = call(server, "GET", f"/api/matches/{match['id']}/", players[seat])
        action = view["legal_actions"][0]
        for stream in streams:
            stream.seen.clear()
        call(server, "POST", f"/api/matches/{match['id']}/actions/", players[seat], {"action": action, "expected_seq": view["seq"]})
        answered = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(s.seen.wait() for s in streams)), timeout=60)
        delays.append(max(s.lines[-1][0] for s in streams) - answered)
    _, cpu_moves_end = proc(args.pid)
    for task in tasks:
        task.cancel()
    moves = max(1, len(delays))
    return {
        "streams": args.streams,
        "opened_in_s": round(opened_in, 2),
        "rss_mib_before": round(rss_before, 1),
        "rss_mib_open": round(rss_open, 1),
        "rss_kib_per_stream": round((rss_open - rss_before) * 1024 / args.streams, 1),
        "rss_mib_after_idle": round(rss_idle, 1),
        "cpu_idle_percent": round(100 * (cpu_idle_end - cpu_idle_start) / args.hold, 2),
        "keepalive_lines": sum(s.keepalives for s in streams),
        "moves": len(delays),
        "cpu_ms_per_move": round(1000 * (cpu_moves_end - cpu_moves_start) / moves, 1),
        "move_to_last_stream_ms": {"median": round(1000 * statistics.median(delays), 1) if delays else None,
                                   "max": round(1000 * max(delays), 1) if delays else None},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="the server's URL, e.g. http://127.0.0.1:8000")
    parser.add_argument("--pid", type=int, required=True, help="the server process's pid (for /proc)")
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--hold", type=float, default=30.0, help="seconds the streams idle")
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main_async(args)), indent=2))


if __name__ == "__main__":
    main()
