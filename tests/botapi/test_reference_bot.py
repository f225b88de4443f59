"""examples/bot against a real server: a person challenges it, the bot plays a whole game, and resumes after a restart.

The server is a real uvicorn process; the bot is ``examples/bot/bot.py`` run as a subprocess with a scoped
access token of a bot account.  Mid-game the server process is stopped and started again on the same
port: the bot's streams drop, it reconnects, and its match stream resumes with ``?after=n``.  Every event
the bot received is in its log: exactly the events listing the bot's seat may see, none missed or twice.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connections

from tests.frontend.test_cross_process import _database_url, _free_port, _wait_until_up

pytestmark = [pytest.mark.django_db(transaction=True, databases="__all__"), pytest.mark.timeout(240)]

ROOT = Path(__file__).resolve().parents[2]


def _call(url: str, method: str, path: str, auth: str | None = None, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json", **({"Authorization": auth} if auth else {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


class Server:
    def __init__(self, env: dict[str, str]) -> None:
        self.env, self.port, self.process = env, _free_port(), None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", str(self.port),
             "--log-level", "warning", "--lifespan", "off"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_until_up(self.url, self.process)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def server(transactional_db):
    env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": settings.REDIS_URL, "SECRET_KEY": settings.SECRET_KEY,
           "CHANNEL_PREFIX": settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"],
           "DJANGO_SETTINGS_MODULE": "config.settings", "STREAM_KEEPALIVE_SECONDS": "1",
           "RATE_LIMIT_FACTOR": "1000"}  # other tests of this run signed up from 127.0.0.1 too
    connections.close_all()
    running = Server(env)
    running.start()
    yield running
    running.stop()


def test_the_reference_bot_accepts_a_challenge_plays_to_the_end_and_resumes_after_a_restart(server, tmp_path):
    url = server.url
    status, made = _call(url, "POST", "/api/auth/register", body={"username": "randombot", "password": "a-bot-password-77"})
    assert status == 201
    status, token = _call(url, "POST", "/api/account/tokens", f"Token {made['token']}",
                          {"name": "reference bot", "scopes": ["read", "play", "challenge", "bot"]})
    assert status == 201
    bot_auth = f"Bearer {token['secret']}"
    assert _call(url, "POST", "/api/account/bot", bot_auth)[1]["bot"] is True
    status, person = _call(url, "POST", "/api/auth/register", body={"username": "dana", "password": "a-person-password-77"})
    assert status == 201, person
    person_auth = f"Token {person['token']}"

    log_path = tmp_path / "bot-events.jsonl"
    bot = subprocess.Popen([sys.executable, str(ROOT / "examples" / "bot" / "bot.py"), "--server", url,
                            "--games", "mountain-goats", "--log", str(log_path), "--seed", "1"],
                           env={"PATH": os.environ.get("PATH", ""), "CAIRN_TOKEN": token["secret"]},
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1.0)  # the bot's account stream is open
        status, challenge = _call(url, "POST", "/api/ranking/challenges/", person_auth,
                                  {"opponent": "randombot", "game": "mountain-goats", "time_control": "3d"})
        assert status == 201, challenge
        match_id = None
        for _ in range(100):
            received = _call(url, "GET", "/api/ranking/users/dana/matches/", person_auth)[1]["matches"]
            if received:
                match_id = received[0]["match"]
                break
            time.sleep(0.2)
        assert match_id, "the bot did not accept the challenge"
        rng, moves, restarted = random.Random(2), 0, False
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            status, match = _call(url, "GET", f"/api/matches/{match_id}/", person_auth)
            if match["status"] == "finished":
                break
            if match["my_seat"] in match["to_move"] and match["legal_actions"]:
                action = rng.choice(match["legal_actions"])
                _call(url, "POST", f"/api/matches/{match_id}/actions/", person_auth,
                      {"action": action, "expected_seq": match["seq"]})
                moves += 1
                if moves == 5 and not restarted:  # cut the bot's connections mid-game
                    server.stop()
                    server.start()
                    restarted = True
            else:
                time.sleep(0.05)
        assert restarted and match["status"] == "finished", "the game did not reach its end"
        time.sleep(1.5)  # the bot's last line
    finally:
        bot.terminate()
        _, errors = bot.communicate(timeout=10)
    assert "resuming after seq" in errors, errors
    got = [json.loads(line) for line in log_path.read_text().splitlines()]
    listing = _call(url, "GET", f"/api/matches/{match_id}/events/", bot_auth)[1]["events"]
    assert [e["seq"] for e in got] == [e["seq"] for e in listing], "the bot missed or repeated an event"
    assert got[-1]["type"] == "finished"
