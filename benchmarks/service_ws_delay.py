"""Delay from an action's commit to its websocket message: ``python benchmarks/service_ws_delay.py``.

A spectator connects to ``/ws/matches/<id>/`` through the real ASGI
application (``config.asgi``: origin check, session auth, the frontend's
consumer) with Channels' ``WebsocketCommunicator``, over the real Redis channel
layer.  Actions are submitted through ``games.services.submit_action``; the
clock starts when the transaction commits (the first ``on_commit`` callback,
:func:`games.notify.match_changed`) and stops when the viewer's re-rendered
fragment arrives.

Baseline, measured in the same run: a bare ``group_send`` -> ``receive`` round
trip through the same channel layer (no database, no rendering).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from typing import Any

from service_common import describe_backends, django_database, random_action, started_match, users


async def measure(count: int) -> dict[str, list[float]]:
    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from games import notify, selectors, services

    alice, bob = await sync_to_async(users)("alice", "bob")
    match = await sync_to_async(started_match)(alice, bob)
    commits: list[float] = []
    real = notify.match_changed

    def timed_match_changed(match_id: int, seq: int, *args: Any) -> None:
        commits.append(time.perf_counter())
        real(match_id, seq, *args)

    notify.match_changed = timed_match_changed
    communicator = WebsocketCommunicator(
        application, f"/ws/matches/{match.pk}/", headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    )
    connected, _ = await communicator.connect()
    assert connected, "the websocket was refused"
    await communicator.receive_from(timeout=10)  # the catch-up push on connect

    rng = random.Random(3)
    by_seat = {0: alice, 1: bob}
    delays = []

    def act() -> None:
        nonlocal match
        if match.status == "finished":
            raise RuntimeError("match ended")
        seat, action = random_action(match, rng)
        services.submit_action(match_id=match.pk, user=by_seat[seat], action=action, expected_seq=match.seq)
        match = selectors.get_match(match.pk)

    for _ in range(count):
        if match.status == "finished":
            break
        commits.clear()
        await sync_to_async(act)()
        fragment = await communicator.receive_from(timeout=10)
        arrived = time.perf_counter()
        assert "<" in fragment
        delays.append(arrived - commits[0])
    await communicator.disconnect()
    notify.match_changed = real

    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("bench-baseline", channel)
    baseline = []
    for _ in range(len(delays)):
        start = time.perf_counter()
        await layer.group_send("bench-baseline", {"type": "match.changed", "match_id": 0, "seq": 0})
        await layer.receive(channel)
        baseline.append(time.perf_counter() - start)
    return {"commit -> websocket fragment": delays, "baseline: bare group_send -> receive": baseline}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=60)
    args = parser.parse_args()
    from benchmarks.common import machine

    with django_database():
        results = asyncio.run(measure(args.actions))
        base = statistics.median(results["baseline: bare group_send -> receive"])
        summary = {}
        for name, samples in results.items():
            samples = sorted(samples)
            summary[name] = {
                "n": len(samples),
                "median_ms": round(statistics.median(samples) * 1000, 2),
                "p90_ms": round(samples[int(len(samples) * 0.9) - 1] * 1000, 2),
                "median_ratio_to_baseline": round(statistics.median(samples) / base, 2),
            }
        print(json.dumps({"machine": machine(), "backends": describe_backends(), "delay": summary}, indent=2))


if __name__ == "__main__":
    main()
