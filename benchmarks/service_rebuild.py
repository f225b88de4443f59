"""Rebuild time of a 1,000-event match: ``python benchmarks/service_rebuild.py``.

The match is built through the aggregate and the store (2 seats, every player
climbing nothing, so it never ends), then rebuilt repeatedly:

* ``service rebuild``: ``selectors.load_aggregate`` = one query for the events
  plus the checked fold through the engine (what every command and view does);
* ``fold only``: the same fold over events already in memory;
* ``match view now`` and ``replay step half-way``: the body of
  ``GET /api/matches/{id}/`` (rebuild + observation) and of ``?at=seq/2`` (a
  replay step: only the events up to there are loaded and folded);
* baseline: ``engine.record.replay`` of the same 1,000 events as a
  ``cairn-record/1`` (the engine alone, no database).
"""

from __future__ import annotations

import argparse
import json
import time

from service_common import describe_backends, django_database, long_match, users


def build_match(events: int):
    alice, bob = users("alice", "bob")
    return long_match(alice, bob, events)


def timed(fn, seconds: float) -> tuple[float, int]:
    """Median seconds per call over repeated calls for about ``seconds``."""
    samples = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(samples) < 5:
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    samples.sort()
    return samples[len(samples) // 2], len(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    from benchmarks.common import machine

    with django_database():
        from engine.record import replay
        from games import selectors
        from games.store import load_fold_rows

        match = build_match(args.events)
        rows = load_fold_rows(match.pk)
        record = selectors.record(match, None)
        assert selectors.load_aggregate(match).state.key() == replay(record).key()
        results = {}
        for _ in range(2):  # interleave, so load hits both alike
            results["service rebuild (load + fold)"] = timed(lambda: selectors.load_aggregate(match), args.seconds / 2)
            results["fold only (events in memory)"] = timed(
                lambda: selectors.load_aggregate(match, events=rows), args.seconds / 2
            )
            results["match view now (selectors.match_view, spectator)"] = timed(
                lambda: selectors.match_view(match, None), args.seconds / 2
            )
            results["replay step half-way (selectors.match_view_at, spectator)"] = timed(
                lambda: selectors.match_view_at(match, None, match.seq // 2), args.seconds / 2
            )
            results["baseline: engine.record.replay"] = timed(lambda: replay(record), args.seconds / 2)
        base = results["baseline: engine.record.replay"][0]
        print(json.dumps({
            "machine": machine(),
            "backends": describe_backends(),
            "events": match.seq,
            "median_ms": {name: round(sec * 1000, 2) for name, (sec, _) in results.items()},
            "ratio_to_baseline": {name: round(sec / base, 2) for name, (sec, _) in results.items()},
        }, indent=2))


if __name__ == "__main__":
    main()
