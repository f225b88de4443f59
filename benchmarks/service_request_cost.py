"""The web processes' CPU per HTTP request: ``python benchmarks/service_request_cost.py --base-url URL --players FILE --pids P,P``.

It starts nothing itself.  Against a running Cairn (``./scripts/run``; players made by
``manage.py load_players``, as for ``service_live_load.py``) it creates one two-person Mountain
Goats match, then sends ``--requests`` reads of it (``GET /api/matches/{id}/``, the read a bot
makes before each move) from ``--concurrency`` clients at once, after as many unmeasured ones
to warm up, and prints the requests per second and the CPU time the processes named by
``--pids`` (the web processes) spent per request, from ``/proc``.  Run it against two
checkouts alternately, on a quiet machine, to compare them (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from urllib.parse import urlsplit

import aiohttp
from service_live_load import cpu_seconds


async def run(args: argparse.Namespace) -> dict[str, float]:
    players = json.loads(open(args.players, encoding="utf-8").read())["players"]
    first, second = players[-1], players[-2]  # the last pair: the live-load runs start from the first
    pids = [int(pid) for pid in args.pids.split(",")]
    base = args.base_url.rstrip("/")
    async with aiohttp.ClientSession() as session:
        auth = {"Authorization": f"Token {first['token']}"}
        async with session.post(f"{base}/api/matches/", headers=auth,
                                json={"game": "mountain-goats", "seats": [{"human": True}, {"human": True}]}) as answer:
            match = (await answer.json())["id"]
        async with session.post(f"{base}/api/matches/{match}/join/", json={},
                                headers={"Authorization": f"Token {second['token']}"}) as answer:
            if answer.status != 200:
                raise SystemExit(f"join: {answer.status} {await answer.text()}")
        url = f"{base}/api/matches/{match}/"

        async def clients(count: int) -> None:
            left = [count]

            async def client() -> None:
                while left[0] > 0:
                    left[0] -= 1
                    async with session.get(url, headers=auth) as answer:
                        await answer.read()
                        if answer.status != 200:
                            raise SystemExit(f"GET {url}: {answer.status}")

            await asyncio.gather(*(client() for _ in range(args.concurrency)))

        await clients(args.requests)  # warm-up
        before, started = sum(cpu_seconds(pids).values()), time.monotonic()
        await clients(args.requests)
        spent, took = sum(cpu_seconds(pids).values()) - before, time.monotonic() - started
    return {"requests": args.requests, "concurrency": args.concurrency, "requests_per_s": round(args.requests / took, 1),
            "web_cpu_ms_per_request": round(spent / args.requests * 1000, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--players", required=True, help="manage.py load_players's output")
    parser.add_argument("--pids", required=True, help="the web processes, comma-separated")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    if urlsplit(args.base_url).hostname not in {"127.0.0.1", "localhost", "::1"}:
        raise SystemExit("the base URL must be a loopback address")
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
