"""Cairn beside the peer in one sitting: ``.venv/bin/python benchmarks/live_vs_peer.py --rungs 50:5,500:10``.

For each rung ``N:T`` (N live two-person matches, a mean think time of T s) it runs the peer
(boardgame.io 0.50.2 with PostgreSQL storage, ``../shared/peers/boardgameio/run.sh N T postgres``)
and then each Cairn checkout named by ``--checkout`` (default: this one) under the same load with
``benchmarks/service_live_load.py``, and prints one line per run and the ratios Cairn / peer:
p95 and p99 of move -> every screen, server CPU per move (Cairn: its web and worker processes;
the peer: its one Node process; neither counts PostgreSQL), the connect burst's p95 and the
servers' memory.  Every result is also appended as a JSON line to ``--out``.

Each Cairn checkout is started once for the sitting with its own ``scripts/run`` (its defaults:
one web process per core, a Celery worker and beat, a bundled Redis), on a PostgreSQL database of
its own that the run creates and drops, with the rate limits lifted (``RATE_LIMIT_FACTOR``); the load
client ANALYZEs that database once a rung's matches are made (``--analyze``), as autovacuum would on a
server that runs it (this machine's PostgreSQL runs with autovacuum off).
Nothing else should run on the machine meanwhile (docs/PERFORMANCE.md).  Every address is on
loopback and every run is bounded by ``--duration``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PEER = ROOT.parent / "shared" / "peers" / "boardgameio"
PG = "postgres://postgres@127.0.0.1:5432"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def psql(sql: str) -> None:
    subprocess.run(["psql", "-q", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1",
                    "-c", sql], check=True, stdout=subprocess.DEVNULL)


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


class Cairn:
    """One checkout's ``scripts/run`` on a database of its own, for the whole sitting."""

    def __init__(self, checkout: Path, label: str, players: int) -> None:
        self.checkout, self.label = checkout, label
        self.database = f"cairn_vs_peer_{label}".replace("-", "_")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        psql(f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)")
        psql(f"CREATE DATABASE {self.database}")
        self.env = {**os.environ, "DATABASE_URL": f"{PG}/{self.database}", "PORT": str(self.port),
                    "REDIS_PORT": str(free_port()), "RATE_LIMIT_FACTOR": "1000",
                    "SECRET_KEY": "benchmark-only-not-secret"}
        for name in ("REDIS_URL", "CHANNEL_PREFIX", "CELERY_QUEUE", "DEPLOYMENT_ID"):
            self.env.pop(name, None)
        # Its output goes to a file: a pipe nobody reads would fill with the access log and stop the server.
        self.log = checkout / "var" / f"vs-peer-{label}.log"
        self.log.parent.mkdir(exist_ok=True)
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen([str(checkout / "scripts" / "run")], cwd=checkout, env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_up()
        self.players = checkout / "var" / f"vs-peer-players-{label}.json"
        subprocess.run([str(checkout / ".venv" / "bin" / "python"), "manage.py", "load_players", str(players),
                        "--out", str(self.players)], cwd=checkout, env=self.env, check=True,
                       stdout=subprocess.DEVNULL)

    def _wait_up(self, timeout: float = 300.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"{self.label}: scripts/run exited: {self.log.read_text(errors='replace')[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/games/", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.5)
        raise SystemExit(f"{self.label}: no answer at {self.url} within {timeout} s")

    def server_pids(self) -> list[int]:
        """The web processes (gunicorn's uvicorn workers) and the Celery worker's processes."""
        pids = []
        for pid in descendants(self.process.pid):
            line = command_line(pid)
            if ("gunicorn" in line and pid not in self._masters()) or (" worker" in line and "celery" in line):
                pids.append(pid)
        return pids

    def _masters(self) -> set[int]:
        return {pid for pid in descendants(self.process.pid)
                if "gunicorn" in command_line(pid) and any("gunicorn" in command_line(child)
                                                           for child in descendants(pid))}

    def load(self, matches: int, think: float, duration: float, read: str, move: str = "api") -> dict[str, Any]:
        command = [str(ROOT / ".venv" / "bin" / "python"), str(ROOT / "benchmarks" / "service_live_load.py"),
                   "--base-url", self.url, "--players", str(self.players), "--matches", str(matches),
                   "--think", str(think), "--duration", str(duration), "--read", read, "--move", move, "--json",
                   "--pids", ",".join(map(str, self.server_pids())), "--analyze", self.env["DATABASE_URL"]]
        done = subprocess.run(command, capture_output=True, text=True, timeout=duration + 900)
        if done.returncode != 0:
            raise SystemExit(f"{self.label}: the load client failed: {done.stderr[-2000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.process.pid, signal.SIGKILL)
        psql(f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)")


def peer_copy() -> Path:
    """The peer's harness copied to var/peer-bgio (shared/ stays read-only), its npm packages installed once."""
    here = ROOT / "var" / "peer-bgio"
    here.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json", "game.js", "server.js", "load.js", "run.sh"):
        (here / name).write_bytes((PEER / name).read_bytes())
    (here / "run.sh").chmod(0o755)
    if not (here / "node_modules" / "boardgame.io").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=here, check=True, stdout=subprocess.DEVNULL)
    return here


def peer(matches: int, think: float, duration: float) -> dict[str, Any]:
    here = peer_copy()
    env = {**os.environ, "WARMUP_S": "10", "WINDOW_S": str(int(duration)), "PEER_DB_NAME": "peer_bgio_vs_cairn"}
    done = subprocess.run([str(here / "run.sh"), str(matches), str(think), "postgres"], cwd=here, env=env,
                          capture_output=True, text=True, timeout=duration + 900)
    if done.returncode != 0:
        raise SystemExit(f"the peer failed: {done.stderr[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    moves = result.get("moves") or 0
    result["cpu_ms_per_move"] = round(1000 * result["server_cpu_share"] * duration / moves, 2) if moves else None
    return result


def ratio(a: Any, b: Any) -> str:
    return f"{a / b:.2f}x" if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rungs", default="50:5,200:5,500:10", help="N:T,N:T,... (matches:think seconds)")
    parser.add_argument("--duration", type=float, default=40.0, help="the measured window of each run, s")
    parser.add_argument("--checkout", action="append", default=[],
                        help="LABEL=DIR[@socket] of a Cairn checkout with its .venv (repeatable; default: this one as "
                             "'cairn'); '@socket': its moves go on the mover's screen socket, as its page sends them")
    parser.add_argument("--read", choices=("screen", "api"), default="screen", help="see service_live_load.py")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "service_results" /
                                             time.strftime("vs_peer_%Y-%m-%d_%H%M.jsonl", time.gmtime())))
    args = parser.parse_args()
    rungs = [(int(n), float(t)) for n, t in (rung.split(":") for rung in args.rungs.split(","))]
    if not all(1 <= n <= 2000 and 0 < t for n, t in rungs) or not 5 <= args.duration <= 600:
        raise SystemExit("rungs N:T with 1 <= N <= 2000 and T > 0, and a duration of 5 to 600 s, please")
    checkouts = [tuple(item.split("=", 1)) for item in args.checkout] or [("cairn", str(ROOT))]
    machine = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                    if line.startswith("model name")), "?")
    print(f"machine: {machine}, {os.cpu_count()} cores; load {os.getloadavg()}")
    started: dict[Path, Cairn] = {}  # one server per checkout, however many labels load it
    servers: list[tuple[str, Cairn, str]] = []  # (label, server, how its moves are sent)
    for label, spec in checkouts:
        directory, _, move = spec.partition("@")
        path = Path(directory).resolve()
        if path not in started:
            started[path] = Cairn(path, label, max(n for n, _ in rungs))
        servers.append((label, started[path], move or "api"))
    try:
        with open(args.out, "a", encoding="utf-8") as out:
            for matches, think in rungs:
                base = peer(matches, think, args.duration)
                out.write(json.dumps({"who": "peer", "machine": machine, **base}) + "\n")
                print(f"{matches} matches, think {think} s: peer p95 {base['p95_ms']} ms p99 {base['p99_ms']} ms, "
                      f"{base['cpu_ms_per_move']} ms CPU/move, burst p95 {base['connect_p95_ms']} ms, "
                      f"{base['server_rss_mb']} MB, {base['moves_per_s']} moves/s, load {base['loadavg_start']}")
                for label, server, move in servers:
                    got = server.load(matches, think, args.duration, args.read, move)
                    out.write(json.dumps({"who": label, "machine": machine, **got}) + "\n")
                    memory = sum(got["server_rss_mb"].values()) if got.get("server_rss_mb") else None
                    print(f"  {label}: p95 {got['p95_ms']} ms ({ratio(got['p95_ms'], base['p95_ms'])}), "
                          f"p99 {got['p99_ms']} ms ({ratio(got['p99_ms'], base['p99_ms'])}), "
                          f"{got['server_cpu_ms_per_move']} ms CPU/move "
                          f"({ratio(got['server_cpu_ms_per_move'], base['cpu_ms_per_move'])}), burst p95 "
                          f"{got['burst']['p95_ms']} ms ({ratio(got['burst']['p95_ms'], base['connect_p95_ms'])}), "
                          f"{memory} MB, {got['moves_per_s']} moves/s, missed {got['missed']}, "
                          f"errors {got['errors']}, load {got['load_before']}")
                    sys.stdout.flush()
    finally:
        for server in started.values():
            server.stop()


if __name__ == "__main__":
    main()
