"""One host against two behind nginx, at the same load: ``.venv/bin/python benchmarks/faults/hosts_throughput.py``.

For each host count (``--hosts 1,2``) a fresh stack (benchmarks/faults/stack.py: its own PostgreSQL
and Redis, a Celery worker and beat) runs that many "hosts", each a gunicorn with ``WEB_WORKERS``
uvicorn processes (2 by default) and a Celery worker of its own, behind a real nginx with
deploy/nginx/cairn.conf (fault_two_hosts.py's set-up).  ``benchmarks/service_live_load.py`` then plays
``--matches`` live matches at ``--think`` through nginx only, and the line printed per host count gives
moves/s, the latency of move -> every screen, and the web and worker processes' CPU per move.

On one machine the second host adds no cores: the comparison shows what the balancer and a second
set of processes cost, not a speed-up (docs/DEPLOY.md).  Needs Debian's ``nginx``; every address is
on loopback, and each run is bounded by ``--duration``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from fault_two_hosts import start_nginx
from stack import ROOT, Stack, load_average


def run(hosts: int, args: argparse.Namespace) -> dict:
    with Stack(f"hosts-{hosts}", webs=hosts, time_limit=args.duration + 600,
               env={"TRUSTED_PROXIES": "127.0.0.1", "RATE_LIMIT_FACTOR": "1000", "LOG_LEVEL": "WARNING"}) as stack:
        for index in range(1, hosts):
            stack.start_worker(f"worker{index}")  # a worker per host ("worker" came with the stack: host 0's)
        balancer = stack.web_ports[-1] + 10
        start_nginx(stack, balancer)
        players = stack.tmp / "players.json"
        stack.manage("load_players", str(args.matches), "--out", str(players))
        workers = ["worker", *(f"worker{index}" for index in range(1, hosts))]
        pids = [pid for index in range(hosts) for pid in stack.children(f"web{index}")]
        pids += [pid for name in workers for pid in [stack.procs[name].pid, *stack.children(name)]]
        done = subprocess.run(
            [sys.executable, str(ROOT / "benchmarks" / "service_live_load.py"), "--base-url",
             f"http://127.0.0.1:{balancer}", "--players", str(players), "--matches", str(args.matches),
             "--think", str(args.think), "--duration", str(args.duration), "--json",
             "--pids", ",".join(map(str, pids))],
            capture_output=True, text=True, timeout=args.duration + 600,
        )
        if done.returncode != 0:
            raise SystemExit(f"{hosts} host(s): the load client failed: {done.stderr[-2000:]}")
        return {"hosts": hosts, **json.loads(done.stdout.strip().splitlines()[-1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", default="1,2", help="host counts to run, in order")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--think", type=float, default=5.0)
    parser.add_argument("--duration", type=float, default=40.0)
    args = parser.parse_args()
    if not (1 <= args.matches <= 1000 and 0 < args.think and 5 <= args.duration <= 600):
        raise SystemExit("matches 1..1000, think > 0 and a duration of 5 to 600 s, please")
    for hosts in (int(n) for n in args.hosts.split(",")):
        result = run(hosts, args)
        print(json.dumps(result), file=sys.stderr)
        print(f"{hosts} host(s), {result['matches']} matches, think {args.think} s: {result['moves_per_s']} moves/s, "
              f"p50 {result['p50_ms']} ms, p95 {result['p95_ms']} ms, p99 {result['p99_ms']} ms, missed "
              f"{result['missed']}, errors {result['errors']}, {result['server_cpu_ms_per_move']} ms CPU per move; "
              f"load {load_average()}", flush=True)


if __name__ == "__main__":
    main()
