"""Tournament scale: an arena of N entrants starting N/2 boards at once, and what a finished game costs.

    python benchmarks/service_tournament.py --entrants 200 1000 [--games 50]

For each size, on a throwaway database (benchmarks/service_common.py):

* ``start_to_boards_s``: from ``services.start`` until every entrant has a board (the start pairs the
  whole arena in one transaction: N/2 matches created through the core's services);
* ``result_ms``: per finished game, the fold of its result into the standings (``record_result``:
  the board, two entry lines, the version), median and p95 over ``--games`` games;
* ``push_render_ms``: per finished game, the one render of the live fragment that every socket of
  the tournament then shares (frontend/tournaments/render.py), median and p95;
* ``standings_read_ms``: one read of the standings as a reload does (selectors.standings), median;
* ``queries_per_result``: database queries of one ``record_result``, the same at any size.

One JSON line per size.  Run it on a quiet machine; ``--entrants 4 --games 2`` is a smoke run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from service_common import django_database, users


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(entrants: int, games: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from frontend.tournaments.render import live_fragment
    from games.tournaments import selectors, services
    from games.tournaments.models import Board, Entry, Tournament

    people = users(*(f"t{entrants}_{n}" for n in range(entrants)))
    tournament = services.create(user=people[0], data={
        "name": f"Bench {entrants}", "game": "mountain-goats", "kind": "arena", "duration_seconds": 3600,
        "time_control": "3+2", "max_entrants": entrants})
    for user in people:
        services.join(tournament_id=tournament.pk, user=user)
    began = time.perf_counter()
    services.start(tournament_id=tournament.pk)
    start_s = time.perf_counter() - began
    seated = Entry.objects.filter(tournament=tournament, board__isnull=False).count()
    assert seated == entrants - entrants % 2, (seated, entrants)

    result_ms, render_ms, queries = [], [], 0
    for board in list(Board.objects.filter(tournament=tournament).order_by("table")[:games]):
        began = time.perf_counter()
        with CaptureQueriesContext(connection) as captured:
            services.record_result(match_id=board.match_id, places=[0, 1])
        result_ms.append((time.perf_counter() - began) * 1000)
        queries = len(captured.captured_queries)
        version = Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)
        began = time.perf_counter()
        live_fragment(tournament.pk, version)
        render_ms.append((time.perf_counter() - began) * 1000)
    reads = []
    fresh = Tournament.objects.get(pk=tournament.pk)
    for _ in range(20):
        began = time.perf_counter()
        selectors.standings(fresh)
        reads.append((time.perf_counter() - began) * 1000)
    return {
        "entrants": entrants, "boards": seated // 2, "vendor": connection.vendor,
        "start_to_boards_s": round(start_s, 3),
        "result_ms": {"median": round(statistics.median(result_ms), 2), "p95": round(_percentile(result_ms, 0.95), 2)},
        "push_render_ms": {"median": round(statistics.median(render_ms), 2),
                           "p95": round(_percentile(render_ms, 0.95), 2)},
        "standings_read_ms": round(statistics.median(reads), 2), "queries_per_result": queries, "games": len(result_ms),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--games", type=int, default=50, help="finished games measured per size")
    args = parser.parse_args()
    with django_database():
        for size in args.entrants:
            print(json.dumps(run(size, args.games)), flush=True)


if __name__ == "__main__":
    main()
