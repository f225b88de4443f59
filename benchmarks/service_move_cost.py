"""A move's server time in a long match against a short one: ``python benchmarks/service_move_cost.py``.

Issue 12's target: a move in a 1,000-event match costs within 1.5x of a move
in a 20-event match.  Two timed ranked Mountain Goats matches (5+10, both
seats human, every player climbing nothing so they never end) are built
through the aggregate and the store, one to ``--short`` and one to ``--long``
events; then moves are made in both, alternately (so load hits both alike),
and each move's server time is taken:

* ``service``: ``services.submit_action`` alone (load, decide, append, hooks, commit);
* ``api``: ``POST /api/matches/{id}/actions`` through Django's full request stack;
* ``htmx``: ``POST /matches/{id}/move/`` with ``HX-Request``: the move plus the
  mover's answer fragment (board, event log, ranked panel with clocks).

Each kind is run with this process's snapshot cache (``games.snapshots``, the
steady state of a web process that has seen the match before) and without it
(``--no-cache`` rows: every load replays the whole match, with no snapshot).
It prints medians in ms and the long/short ratio of each.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from service_common import describe_backends, django_database, long_match, users


def build_match(alice, bob, events: int):
    return long_match(alice, bob, events, rated=True, time_control="5+10")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--short", type=int, default=20)
    parser.add_argument("--long", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=40, help="moves timed per match, kind and cache setting")
    args = parser.parse_args()
    from benchmarks.common import machine

    with django_database():
        from django.test import Client
        from rest_framework.authtoken.models import Token
        from rest_framework.test import APIClient

        from games import selectors, services, snapshots
        from games.models import Match

        alice, bob = users("alice", "bob")
        by_id = {alice.pk: alice, bob.pk: bob}
        api = {}
        web = {}
        for user in (alice, bob):
            api[user.pk] = APIClient()
            api[user.pk].credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
            web[user.pk] = Client()
            web[user.pk].force_login(user)
        matches = {"short": build_match(alice, bob, args.short), "long": build_match(alice, bob, args.long)}
        sizes = {name: match.seq for name, match in matches.items()}

        def mover(match_id: int) -> tuple[int, int]:
            match = Match.objects.get(pk=match_id)
            seat = list(match.to_move)[0]
            user_id = next(s.user_id for s in selectors.get_match(match_id).seats.all() if s.index == seat)
            return match.seq, user_id

        def move(kind: str, match_id: int) -> float:
            seq, user_id = mover(match_id)
            start = time.perf_counter()
            if kind == "service":
                services.submit_action(match_id=match_id, user=by_id[user_id], action={"climb": []}, expected_seq=seq)
            elif kind == "api":
                response = api[user_id].post(f"/api/matches/{match_id}/actions",
                                             {"action": {"climb": []}, "expected_seq": seq}, format="json")
                assert response.status_code == 201, response.content
            else:
                response = web[user_id].post(f"/matches/{match_id}/move/",
                                             {"action": json.dumps({"climb": []}), "expected_seq": seq},
                                             HTTP_HX_REQUEST="true")
                assert response.status_code == 201, response.content[:300]
            return time.perf_counter() - start

        samples: dict[str, list[float]] = {}
        size = snapshots.cache.size
        for cached in (True, False):
            snapshots.cache.size = size if cached else 0
            snapshots.cache.clear()
            for match in matches.values():  # a page load: the process has seen the match
                selectors.load_aggregate(match)
            for _ in range(args.moves):
                for kind in ("service", "api", "htmx"):
                    for name, match in matches.items():
                        label = f"{kind}{'' if cached else ' --no-cache'} {name}"
                        samples.setdefault(label, []).append(move(kind, match.pk))
        snapshots.cache.size = size
        medians = {label: statistics.median(values) * 1000 for label, values in samples.items()}
        ratios = {}
        for label in medians:
            if label.endswith(" short"):
                stem = label[: -len(" short")]
                ratios[stem] = round(medians[f"{stem} long"] / medians[label], 2)
        print(json.dumps({
            "machine": machine(),
            "load_average": os.getloadavg(),
            "backends": describe_backends(),
            "events_at_start": sizes,
            "moves_per_cell": args.moves,
            "median_ms": {label: round(value, 2) for label, value in medians.items()},
            "long_over_short": ratios,
        }, indent=2))


if __name__ == "__main__":
    main()
