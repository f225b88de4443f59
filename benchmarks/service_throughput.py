"""Accepted actions per second through the service: ``python benchmarks/service_throughput.py``.

* ``service``: ``games.services.submit_action`` called back to back on
  2-player Mountain Goats matches with random legal climbs (a new match when
  one ends); each call loads the match, rebuilds it from its events, checks the
  action, draws the next roll and appends both events in one transaction.
* ``service, N threads``: the same from N threads, each on its own match
  (PostgreSQL only: SQLite has one writer at a time).
* baseline: the floor of any append, one ``INSERT`` of a one-row event in its
  own transaction through the ORM (no hashing, no rebuild, no rules).

Runs are interleaved in slices so that machine noise hits them alike.
"""

from __future__ import annotations

import argparse
import contextvars
import json
import random
import threading
import time

from service_common import describe_backends, django_database, random_action, started_match, users


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    from benchmarks.common import interleaved, machine

    with django_database() as vendor:
        from django.db import connections, transaction
        from django.utils import timezone

        from games import selectors, services
        from games.models import Event, Match

        alice, bob = users("alice", "bob")
        by_seat = {0: alice, 1: bob}
        rng = random.Random(1)
        current = {"match": started_match(alice, bob)}
        floor_match = started_match(alice, bob)
        floor_seq = {"seq": 10_000}

        def one_action(state: dict = current, rng: random.Random = rng) -> int:
            match = state["match"]
            if match.status == Match.Status.FINISHED:
                match = state["match"] = started_match(alice, bob)
            seat, action = random_action(match, rng)
            services.submit_action(match_id=match.pk, user=by_seat[seat], action=action, expected_seq=match.seq)
            state["match"] = selectors.get_match(match.pk)
            return 1

        def one_insert() -> int:
            floor_seq["seq"] += 1
            with transaction.atomic():
                Event.objects.create(
                    match=floor_match, seq=floor_seq["seq"], type="action", payload={"x": 1}, actor="system",
                    timestamp=timezone.now(), prev_hash="0" * 64, hash="0" * 64,
                )
            return 1

        # The "service" figure includes choosing the move (a rebuild) and re-reading the match, as a client would;
        # "submit only" times submit_action alone.
        submit_only = {"count": 0, "seconds": 0.0}

        def timed_submit() -> int:
            match = current["match"]
            if match.status == Match.Status.FINISHED:
                match = current["match"] = started_match(alice, bob)
            seat, action = random_action(match, rng)
            start = time.perf_counter()
            services.submit_action(match_id=match.pk, user=by_seat[seat], action=action, expected_seq=match.seq)
            submit_only["seconds"] += time.perf_counter() - start
            submit_only["count"] += 1
            current["match"] = selectors.get_match(match.pk)
            return 1

        rates = interleaved({"service (client loop)": one_action, "baseline: bare one-row insert": one_insert,
                             "submit_action alone": timed_submit}, args.seconds)
        rates["submit_action alone"] = submit_only["count"] / submit_only["seconds"]

        if vendor == "postgresql" and args.threads > 1:
            counts = [0] * args.threads
            stop = time.perf_counter() + args.seconds / 2
            start_matches = [started_match(alice, bob) for _ in range(args.threads)]

            def worker(i: int) -> None:
                state = {"match": start_matches[i]}
                local = random.Random(i)
                while time.perf_counter() < stop:
                    one_action(state, local)
                    counts[i] += 1
                connections.close_all()

            threads = [threading.Thread(target=contextvars.copy_context().run, args=(worker, i)) for i in range(args.threads)]
            began = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            rates[f"service (client loop), {args.threads} threads"] = sum(counts) / (time.perf_counter() - began)

        base = rates["baseline: bare one-row insert"]
        print(json.dumps({
            "machine": machine(),
            "backends": describe_backends(),
            "actions_per_s": {name: round(rate, 1) for name, rate in rates.items()},
            "ratio_to_baseline": {name: round(rate / base, 3) for name, rate in rates.items()},
        }, indent=2))


if __name__ == "__main__":
    main()
