"""Two web hosts behind a real nginx; one host killed mid-match.

``.venv/bin/python benchmarks/faults/fault_two_hosts.py [--runs N]``  (needs Debian's ``nginx``)

The shape of docs/DEPLOY.md's fleet on one machine: two "hosts", each a gunicorn (uvicorn workers,
config/gunicorn.py) on a port of its own with a Celery worker of its own, one PostgreSQL, one Redis,
one celery beat, and nginx in front with deploy/nginx/cairn.conf (its upstream pointed at the two
ports, its listen address at a free port: nothing else changed).  Every player and every page talks
to nginx only, which spreads their requests and sockets over both hosts (round robin).

Two person-vs-person matches are played through nginx; each is open in two pages.  Once moves have
gone through both hosts, host 0 is killed (SIGKILL, its gunicorn and its worker).  Its pages' sockets
close and reconnect through nginx, which sends them to host 1.  The matches are then played to
their end through nginx.

Checked: moves went through both hosts before the kill (the hosts' access lines); every page that
was on the killed host reconnected through nginx and showed the current position within 5 s; the
matches finished; no acknowledged move lost or doubled; verify_match passes.
"""

from __future__ import annotations

import random
import re
import shutil
import signal
import time
from typing import Any

from play import Api, Watcher, check_matches, wait_caught_up
from scenario import Background, Stack, Table, invariants_hold, main, note, until
from stack import ROOT, HarnessError, wait_port

RECONNECT_BOUND_S = 5.0
SITE = ROOT / "deploy" / "nginx" / "cairn.conf"


def nginx_site(web_ports: list[int], port: int) -> str:
    """deploy/nginx/cairn.conf with its upstream on ``web_ports`` and its listener on ``port``."""
    site = SITE.read_text(encoding="utf-8")
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=2 fail_timeout=5s;\n" for p in web_ports)
    site, count = re.subn(r"(    server 10\.0\.0\.\d+:8000[^\n]*\n)+", servers, site)
    if count != 1:
        raise HarnessError("deploy/nginx/cairn.conf: the upstream's server lines were not found")
    site = site.replace("    listen 80;\n", f"    listen 127.0.0.1:{port};\n").replace("    listen [::]:80;\n", "")
    return site


def start_nginx(stack: Stack, port: int) -> None:
    if shutil.which("nginx") is None:
        raise HarnessError("nginx is not installed (Debian: apt-get install nginx)")
    assert stack.tmp is not None
    home = stack.tmp / "nginx"
    home.mkdir()
    (home / "cairn.conf").write_text(nginx_site(stack.web_ports, port), encoding="utf-8")
    temp = " ".join(f"{kind}_temp_path {home}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (home / "nginx.conf").write_text(
        f"{'user root;' if __import__('os').geteuid() == 0 else ''}\n"
        f"worker_processes 1;\npid {home}/nginx.pid;\nerror_log {stack.log('nginx')} warn;\n"
        f"events {{ worker_connections 1024; }}\n"
        f"http {{ access_log off; {temp}\n include {home}/cairn.conf; }}\n",
        encoding="utf-8",
    )
    stack._spawn("nginx", ["nginx", "-c", str(home / "nginx.conf"), "-p", str(home), "-g", "daemon off;"])
    if not wait_port(port, 20):
        raise HarnessError(f"nginx did not start: {stack.tail('nginx')}")


class Shuffled(Background):
    """Players moving in a loop, with a reader's request thrown in at random before each try: nginx's
    round robin then sends each player's moves to either host (a fixed pattern of a GET and a POST per
    try would pin every POST to one host)."""

    def __init__(self, table: Table, rng: random.Random, pause: float) -> None:
        super().__init__(table, pause)
        self.rng = rng

    def run(self) -> None:
        while not self.stopping.is_set():
            for player in self.table.players:
                if self.stopping.is_set():
                    break
                if self.rng.random() < 0.5:
                    self.table.reader.request("GET", f"/api/matches/{player.match_id}/")
                player.try_move()
            self.stopping.wait(self.pause)


def _moves_served(stack: Stack, index: int) -> int:
    """Moves host ``index`` answered (its access lines for the actions route)."""
    return stack.log_text(f"web{index}").count('"route": "api-match-actions"')


def run_once(args: Any, run: int) -> dict[str, Any]:
    rng = random.Random(args.seed + run)
    with Stack("two-hosts", webs=2, time_limit=400, env={"TRUSTED_PROXIES": "127.0.0.1"}) as stack:
        stack.start_worker("worker1")  # a worker per host ("worker" came with the stack: host 0's)
        lb = stack.web_ports[-1] + 10
        start_nginx(stack, lb)
        table = Table(stack, rng)
        table.ports = [lb]
        table.reader = Api([lb])
        for _ in range(2):
            table.add_human_match()
        for match_id in table.matches:  # two pages per match, through nginx: round robin over the hosts
            for _ in range(2):
                watcher = Watcher([lb], match_id)
                watcher.start()
                table.watchers.append(watcher)
        before = table.seqs()
        background = Shuffled(table, rng, pause=0.2)
        background.start()
        until(lambda: all(w.connects >= 1 for w in table.watchers), 20)
        both = until(lambda: _moves_served(stack, 0) > 0 and _moves_served(stack, 1) > 0, 30, step=0.2)
        served_before = [_moves_served(stack, 0), _moves_served(stack, 1)]
        time.sleep(2)
        note("killing host 0 (its web processes and its worker)")
        killed = time.monotonic()
        stack.stop("web0", signal.SIGKILL)
        stack.stop("worker", signal.SIGKILL)
        at_kill = table.seqs()

        def reconnected() -> bool:
            dropped = [w for w in table.watchers if w.closes >= 1]
            return bool(dropped) and all(w.connects >= 2 for w in dropped) and all(
                w.seen >= at_kill[w.match_id] for w in table.watchers)

        recovered = until(reconnected, 30, step=0.05)
        dropped = sum(1 for w in table.watchers if w.closes >= 1)
        finished = until(lambda: all(table.reader.ok("GET", f"/api/matches/{m}/")["status"] == "finished"
                                     for m in table.matches), 240, step=1.0)
        background.stop()
        after = table.seqs()
        final = wait_caught_up(table.watchers, after, 15)
        table.stop()
        checks = check_matches(stack, table.reader, table.ledger, table.matches, before)
        return {
            "hosts": 2, "balancer": "nginx (deploy/nginx/cairn.conf)",
            "moves_served_before_kill": {"host0": served_before[0], "host1": served_before[1]},
            "both_hosts_served_moves": both is not None,
            "pages_on_killed_host": dropped,
            "pages": len(table.watchers),
            "pages_reconnected_and_current_after_kill_s": None if recovered is None else round(recovered, 2),
            "matches_finished_after_kill_s": None if finished is None else round(finished, 1),
            "moves_after_kill": sum(after[m] - at_kill[m] for m in table.matches),
            "all_pages_current_at_end": final is not None,
            "seconds_from_kill_to_end": round(time.monotonic() - killed, 1),
            "checks": checks,
        }


def ok(report: dict[str, Any]) -> bool:
    return (invariants_hold(report) and report["both_hosts_served_moves"] and report["pages_on_killed_host"] > 0
            and report["pages_reconnected_and_current_after_kill_s"] is not None
            and report["pages_reconnected_and_current_after_kill_s"] <= RECONNECT_BOUND_S
            and report["matches_finished_after_kill_s"] is not None and report["all_pages_current_at_end"])


if __name__ == "__main__":
    main("Two hosts behind nginx, one killed mid-match", run_once, ok)
