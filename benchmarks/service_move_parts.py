"""The parts of one move's server cost: ``python benchmarks/service_move_parts.py``.

On a throwaway copy of the configured database (``DATABASE_URL``; SQLite otherwise), two users
play a timed ranked Mountain Goats match through Django's test client, and for each move it
takes this process's CPU time and query count of:

* ``get``: the mover's ``GET /api/matches/{id}/`` (to read its legal actions);
* ``move``: ``POST /api/matches/{id}/actions/``;
* ``fanout``: what a web process does to push the new position: read the match row (the
  head), load the position (the aggregate, the ranked panel, the log's newest rows) and
  render the fragment of three viewer classes (both seats and the spectators), with the
  render caches emptied first.

It prints the medians (``N`` moves, default 40, or fewer if the match ends).  ``Q=1`` also
lists each part's queries per move; ``PROF=get``, ``PROF=move`` or ``PROF=fan`` prints a cProfile of that
part.  Used for docs/PERFORMANCE.md.
"""

import collections
import cProfile
import os
import pstats
import re
import time

os.environ.setdefault("RATE_LIMIT_FACTOR", "1000")  # the throttles are not what is measured
from service_common import django_database, users


def count_shapes(captured, shapes: collections.Counter) -> None:
    """Count each captured query by its shape: numbers and quoted strings as ``?``, the first 140 characters."""
    for query in captured.captured_queries:
        shapes[re.sub(r"\d+|\x27[^\x27]*\x27", "?", query["sql"])[:140]] += 1


N = int(os.environ.get("N", "40"))
PROF = os.environ.get("PROF")
with django_database():
    from django.contrib.auth.models import AnonymousUser
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    from frontend import fanout
    from games import services

    alice, bob = users("alice", "bob")
    match = services.create_match(
        user=alice,
        game_id="mountain-goats",
        seats=[{"human": True}, {"human": True}],
        rated=True,
        time_control="5+10",
    )
    services.join_match(match_id=match.pk, user=bob)
    clients = {}
    for u in (alice, bob):
        c = Client()
        c.defaults["HTTP_AUTHORIZATION"] = "Token " + Token.objects.get_or_create(user=u)[0].key
        clients[u.pk] = c
    seat_user = {0: alice, 1: bob}
    qs_move = collections.Counter()
    qs_fan = collections.Counter()
    cpu_get = []
    nq_get = []
    qs_get = collections.Counter()
    cpu_move = []
    cpu_fan = []
    nq_move = []
    nq_fan = []
    # CPU time, not wall time: a profile taken beside other work still says where this process's CPU goes.
    prof = cProfile.Profile(time.process_time) if PROF else None
    backend = None
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            backend = f"/proc/{cursor.fetchone()[0]}/stat"

    def pg_cpu() -> float:
        """This connection's PostgreSQL backend's CPU time (a server on this machine), s."""
        try:
            fields = open(backend).read().rsplit(")", 1)[1].split()
        except (TypeError, OSError):
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    pg_move = []
    for i in range(N):
        v = clients[alice.pk].get(f"/api/matches/{match.pk}/").json()
        if not v["to_move"]:  # the match has ended
            break
        seat = v["to_move"][0]
        u = seat_user[seat]
        t = time.process_time()
        if PROF == "get" and i >= 3:  # the first moves compile templates
            prof.enable()
        with CaptureQueriesContext(connection) as cq:
            v = clients[u.pk].get(f"/api/matches/{match.pk}/").json()
        if PROF == "get" and i >= 3:
            prof.disable()
        cpu_get.append(time.process_time() - t)
        nq_get.append(len(cq))
        count_shapes(cq, qs_get)
        a = v["legal_actions"][-1]
        seq = v["seq"]
        t = time.process_time()
        p0 = pg_cpu()
        if PROF == "move" and i >= 3:  # the first moves compile templates
            prof.enable()
        with CaptureQueriesContext(connection) as cq:
            r = clients[u.pk].post(
                f"/api/matches/{match.pk}/actions",
                {"action": a, "expected_seq": seq},
                content_type="application/json",
            )
        if PROF == "move" and i >= 3:
            prof.disable()
        cpu_move.append(time.process_time() - t)
        nq_move.append(len(cq))
        pg_move.append(pg_cpu() - p0)
        count_shapes(cq, qs_move)
        assert r.status_code in (200, 201), r.content[:300]
        fanout.renders.clear()
        fanout.positions.clear()
        t = time.process_time()
        if PROF == "fan" and i >= 3:  # the first moves compile templates
            prof.enable()
        with CaptureQueriesContext(connection) as cq:
            h = fanout._load_head(match.pk)
            pos = fanout._load_position(h.match)
            for uu, cls in ((alice, "seat:0"), (bob, "seat:1"), (AnonymousUser(), "spectator")):
                fanout.render_for_class(h.match, uu, cls, pos)
        if PROF == "fan" and i >= 3:
            prof.disable()
        cpu_fan.append(time.process_time() - t)
        nq_fan.append(len(cq))
        count_shapes(cq, qs_fan)
    import statistics as st

    print(f"get: cpu median {1000 * st.median(cpu_get):.1f} ms, queries {st.median(nq_get)}")
    print(
        f"move: cpu median {1000 * st.median(cpu_move):.1f} ms, queries {st.median(nq_move)}"
        + (
            f", the database's CPU {1000 * st.mean(pg_move):.1f} ms per move (its backend, mean)"
            if backend
            else ""
        )
    )
    print(
        f"fanout(head+pos+3 renders): cpu median {1000 * st.median(cpu_fan):.1f} ms, queries {st.median(nq_fan)}"
    )
    if os.environ.get("Q"):
        print("--- get queries (per move)")
        for k, v in qs_get.most_common():
            print(f"{v / N:5.1f} {k}")
        print("--- move queries (per move)")
        for k, v in qs_move.most_common():
            print(f"{v / N:5.1f} {k}")
        print("--- fan queries (per move)")
        for k, v in qs_fan.most_common():
            print(f"{v / N:5.1f} {k}")
    if prof:
        pstats.Stats(prof).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(
            int(os.environ.get("LINES", "45"))
        )
