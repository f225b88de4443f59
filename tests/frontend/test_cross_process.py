"""Many web processes: a websocket held by one server process receives a move posted to another.

Two real uvicorn server processes (the worker class ``scripts/run`` runs
under gunicorn) serve ``config.asgi`` on two free ports, against this test's
database and Redis.  A spectator's socket is opened on the first; the move is
posted through the REST API to the second.  The only way between them is the
Redis channel layer.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connections

from games import selectors

from .helpers import mover, two_player_match

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _database_url() -> str:
    config = connections["default"].settings_dict
    if config["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{config['NAME']}"
    host = config.get("HOST") or "127.0.0.1"
    port = config.get("PORT") or 5432
    password = f":{config['PASSWORD']}" if config.get("PASSWORD") else ""
    return f"postgres://{config.get('USER') or 'postgres'}{password}@{host}:{port}/{config['NAME']}"


def _wait_until_up(url: str, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server at {url} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/api/games/", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server at {url} did not answer within {timeout} s")


@contextlib.contextmanager
def uvicorn_servers(envs: list[dict[str, str]]) -> Iterator[list[str]]:
    """One real uvicorn server process (``config.asgi``) per environment, each on a free port: their URLs."""
    processes, urls = [], []
    try:
        for env in envs:
            port = _free_port()
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                 "--port", str(port), "--log-level", "warning", "--lifespan", "off"],
                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            ))
            urls.append(f"http://127.0.0.1:{port}")
        for url, process in zip(urls, processes):
            _wait_until_up(url, process)
        yield urls
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture
def two_servers(transactional_db) -> Iterator[tuple[str, str]]:
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "SECRET_KEY": settings.SECRET_KEY,
        "CHANNEL_PREFIX": settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"],
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    connections.close_all()  # the servers must see what this test commits
    with uvicorn_servers([env, env]) as (first, second):
        yield first, second


def test_a_socket_on_one_process_receives_a_move_posted_to_another(alice, bob, two_servers):
    from rest_framework.authtoken.models import Token
    from websockets.sync.client import connect

    first, second = two_servers
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    view = selectors.match_view(match, player)
    token = Token.objects.create(user=player).key
    connections.close_all()

    ws_url = "ws" + first[len("http"):] + f"/ws/matches/{match.pk}/?seq={match.seq}"
    with connect(ws_url, origin=first, open_timeout=20) as screen:
        with pytest.raises(TimeoutError):
            screen.recv(timeout=0.5)  # up to date: nothing pushed yet
        request = urllib.request.Request(
            f"{second}/api/matches/{match.pk}/actions/",
            data=json.dumps({"action": view["legal_actions"][0], "expected_seq": view["seq"]}).encode(),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=20) as answer:
            assert answer.status == 201
            seq = json.loads(answer.read())["seq"]
        fragment = screen.recv(timeout=20)
    found = re.search(r'id="match-live"[^>]*data-seq="(\d+)"', fragment)
    assert found and int(found.group(1)) == seq
    assert "spectating" in fragment
