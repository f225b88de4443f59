"""Two web hosts behind a real nginx, one killed mid-match: benchmarks/faults/fault_two_hosts.py, run as a test.

The script starts its own PostgreSQL cluster, Redis, two gunicorn "hosts" with a Celery worker each, beat
and nginx (deploy/nginx/cairn.conf), plays two matches through nginx, kills one host mid-match and checks
that its pages reconnect through nginx within 5 s, that the matches finish, that no move is lost or doubled
and that verify_match passes.
"""

from __future__ import annotations

import glob
import json
import os
import random
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def _free_base() -> int:
    """A base port with the 32 ports above it free (the script's PostgreSQL, Redis, hosts and nginx)."""
    rng = random.Random(os.getpid())
    for _ in range(50):
        base = rng.randrange(20000, 30000, 50)
        busy = False
        for port in range(base, base + 32):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    busy = True
                    break
        if not busy:
            return base
    raise RuntimeError("no free range of ports")


def test_a_match_across_two_hosts_survives_one_host_killed() -> None:
    if shutil.which("nginx") is None:
        pytest.skip("nginx is not installed (Debian: apt-get install nginx; .ci/run installs it)")
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb") and shutil.which("initdb") is None:
        pytest.skip("PostgreSQL's initdb is not installed (the script starts a cluster of its own)")
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DATABASE_", "REDIS_", "CELERY_", "CHANNEL_"))}
    env["FAULTS_PORT_BASE"] = str(_free_base())
    result = subprocess.run([sys.executable, "benchmarks/faults/fault_two_hosts.py"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=560)
    start = result.stdout.find("{")
    assert start >= 0, f"no report; stderr:\n{result.stderr[-3000:]}"
    report = json.loads(result.stdout[start:])
    assert report["passed"], json.dumps(report, indent=1)[:4000]
    assert report["checks"]["moves_lost"] == 0 and report["checks"]["moves_doubled"] == 0
    assert report["pages_reconnected_and_current_after_kill_s"] <= 5.0
