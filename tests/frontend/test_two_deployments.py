"""Two deployments on one Redis server never see each other's pushes.

Two real servers, each a deployment of its own (its own SQLite database, the same secret key, as two
``scripts/run`` of one checkout would have), share one Redis server through different database
numbers (``redis://…/9`` and ``redis://…/10``), with no ``CHANNEL_PREFIX`` or ``DEPLOYMENT_ID`` set.
Redis Pub/Sub ignores the database number, so only names of each deployment's own keep them apart.
Both hold a match #1; a move in one reaches that deployment's screens and no screen of the other.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings

from .test_cross_process import ROOT, uvicorn_servers

PUSH_WAIT_S = 20.0
QUIET_S = 2.0  # a foreign push arrived about 1.5 s after the move in the report that found the leak


def _redis_db(url: str, number: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{number}", parts.query, parts.fragment))


def _environment(database: Path, redis_db: int) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items()
           if name not in ("CHANNEL_PREFIX", "DEPLOYMENT_ID", "CELERY_QUEUE", "PYTEST_CURRENT_TEST")}
    env.update({
        "DATABASE_URL": f"sqlite:///{database}",
        "REDIS_URL": _redis_db(settings.REDIS_URL, redis_db),
        "SECRET_KEY": "one-checkout-two-deployments",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "RATE_LIMIT_FACTOR": "1000",
    })
    return env


@pytest.fixture(scope="module")
def two_deployments(tmp_path_factory) -> Iterator[list[str]]:
    """The URLs of two servers, each on a database of its own, sharing one Redis server."""
    folder = tmp_path_factory.mktemp("deployments")
    template = folder / "migrated.sqlite3"
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True,
                   env=_environment(template, 9), timeout=180)
    envs = []
    for index, redis_db in enumerate((9, 10)):
        database = folder / f"deployment-{index}.sqlite3"
        shutil.copy(template, database)
        envs.append(_environment(database, redis_db))
    with uvicorn_servers(envs) as urls:
        yield urls


def _call(url: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(f"{url}{path}", data=None if body is None else json.dumps(body).encode(),
                                     headers=headers, method="GET" if body is None else "POST")
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())


def _match_in_play(url: str, game: str) -> tuple[int, dict[int, str]]:
    """A two-person match of ``game`` on ``url``, started: (its id, {user id: token})."""
    tokens = [_call(url, "/api/auth/register", {"username": name, "password": "a-long-pass-phrase"})["token"]
              for name in ("alice", "bob")]
    match = _call(url, "/api/matches/", {"game": game, "seats": [{"human": True}, {"human": True}]}, tokens[0])
    _call(url, f"/api/matches/{match['id']}/join", {}, tokens[1])
    return match["id"], dict(enumerate(tokens))


def _move(url: str, match_id: int, tokens: dict[int, str]) -> int:
    """Play the first legal action of whoever is to move; returns the new seq."""
    for token in tokens.values():
        view = _call(url, f"/api/matches/{match_id}/", token=token)
        if view["legal_actions"]:
            answer = _call(url, f"/api/matches/{match_id}/actions/",
                           {"action": view["legal_actions"][0], "expected_seq": view["seq"]}, token)
            return answer["seq"]
    raise AssertionError(f"nobody may move in match {match_id} at {url}")


def _session_cookie(url: str, username: str) -> str:
    """Sign ``username`` in through the login page; returns the ``Cookie`` header of their session."""
    from http.cookiejar import CookieJar
    from urllib.parse import urlencode

    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{url}/login/", timeout=20).read()
    csrf = next(cookie.value for cookie in jar if cookie.name == "csrftoken")
    form = urlencode({"username": username, "password": "a-long-pass-phrase", "csrfmiddlewaretoken": csrf}).encode()
    opener.open(urllib.request.Request(f"{url}/login/", data=form, headers={"Referer": f"{url}/login/"}), timeout=20).read()
    assert any(cookie.name == "sessionid" for cookie in jar), f"{username} could not sign in at {url}"
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar)


def _fragment_attributes(fragment: str) -> dict[str, str]:
    head = re.search(r'<div id="match-live"[^>]*>', fragment)
    assert head, fragment[:300]
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', head.group(0)))


def test_two_deployments_on_one_redis_never_see_each_others_pushes(two_deployments):
    from websockets.sync.client import connect

    first, second = two_deployments
    ids = [_match_in_play(first, "mountain-goats"), _match_in_play(second, "mountainhome")]
    assert ids[0][0] == ids[1][0], "both deployments should have the same match id for this test to mean anything"
    match_id = ids[0][0]

    def screen(url: str):
        """Alice's socket: seated, so it is also sent her seat's fragments, rendered where a move commits."""
        seq = _call(url, f"/api/matches/{match_id}/")["seq"]
        return connect("ws" + url[len("http"):] + f"/ws/matches/{match_id}/?seq={seq}", origin=url, open_timeout=20,
                       additional_headers={"Cookie": _session_cookie(url, "alice")})

    with screen(first) as first_screen, screen(second) as second_screen:
        for socket in (first_screen, second_screen):
            with pytest.raises(TimeoutError):
                socket.recv(timeout=0.5)  # up to date: nothing pushed yet

        seq = _move(second, match_id, ids[1][1])
        fragment = second_screen.recv(timeout=PUSH_WAIT_S)
        pushed = _fragment_attributes(fragment)
        assert pushed["seq"] == str(seq) and pushed["match"] == str(match_id) and "Mountainhome" in fragment
        with pytest.raises(TimeoutError):
            first_screen.recv(timeout=QUIET_S)  # the other deployment's match #1 moved, not this one

        seq = _move(first, match_id, ids[0][1])
        fragment = first_screen.recv(timeout=PUSH_WAIT_S)
        shown = _fragment_attributes(fragment)
        assert shown["seq"] == str(seq) and "Mountain Goats" in fragment
        with pytest.raises(TimeoutError):
            second_screen.recv(timeout=QUIET_S)

    assert shown["deployment"] != pushed["deployment"]  # each fragment names its own deployment
