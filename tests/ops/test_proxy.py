"""The client's address: X-Forwarded-For only from TRUSTED_PROXIES, in Django and in the web server."""

from __future__ import annotations

import ipaddress
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

from games.ops.proxy import client_address, parse_networks
from tests.frontend.test_cross_process import _database_url, _free_port, _wait_until_up

ROOT = Path(__file__).resolve().parents[2]
LB = parse_networks("10.0.0.5, 10.0.1.0/24")


def test_a_forwarded_for_from_an_untrusted_peer_is_ignored() -> None:
    assert client_address("203.0.113.9", "5.6.7.8", LB) == "203.0.113.9"
    assert client_address("127.0.0.1", "5.6.7.8", ()) == "127.0.0.1"


def test_behind_a_trusted_proxy_the_right_most_untrusted_hop_is_the_client() -> None:
    assert client_address("10.0.0.5", "198.51.100.7", LB) == "198.51.100.7"
    # The client put its own fake first; the balancer appended the real one.
    assert client_address("10.0.0.5", "5.6.7.8, 198.51.100.7", LB) == "198.51.100.7"
    # Two trusted proxies in a row.
    assert client_address("10.0.0.5", "198.51.100.7, 10.0.1.20", LB) == "198.51.100.7"
    # A malformed hop ends the walk at the last trusted one.
    assert client_address("10.0.0.5", "garbage", LB) == "10.0.0.5"


def test_a_bad_trusted_proxies_value_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'not-an-ip'"):
        parse_networks("10.0.0.1, not-an-ip")
    assert parse_networks("") == ()
    assert parse_networks("::1") == (ipaddress.ip_network("::1"),)


SMALL = {"register": "3/hour", "login": "2/hour", "create": "60/min", "actions": "1200/min"}


@pytest.fixture
def small_login_limit() -> Iterator[None]:
    with override_settings(CAIRN_RATE_LIMITS=SMALL, CAIRN_RATE_LIMIT_FACTOR=1,
                           CAIRN_RATE_LIMIT_NAMESPACE=f"test-{uuid.uuid4().hex}"):
        yield


def _token_attempt(client, forwarded_for: str | None = None, remote: str = "127.0.0.1") -> int:
    extra = {"HTTP_X_FORWARDED_FOR": forwarded_for} if forwarded_for else {}
    return client.post("/api/auth/token", {"username": "nobody", "password": "wrong-password"},
                       format="json", REMOTE_ADDR=remote, **extra).status_code


@pytest.mark.django_db
def test_a_client_faking_forwarded_for_is_not_believed(anon_api, small_login_limit) -> None:
    assert [_token_attempt(anon_api, f"1.2.3.{n}") for n in range(2)] == [400, 400]
    assert _token_attempt(anon_api, "5.6.7.8") == 429


@pytest.mark.django_db
def test_behind_the_configured_proxy_each_client_has_its_own_limit(anon_api, small_login_limit) -> None:
    with override_settings(CAIRN_TRUSTED_PROXIES=["10.0.0.5/32"]):
        assert [_token_attempt(anon_api, "198.51.100.7", remote="10.0.0.5") for _ in range(2)] == [400, 400]
        assert _token_attempt(anon_api, "198.51.100.7", remote="10.0.0.5") == 429
        # Another client behind the same balancer is not limited by the first one's attempts,
        assert _token_attempt(anon_api, "198.51.100.8", remote="10.0.0.5") == 400
        # and the first one cannot escape by prepending a fake address.
        assert _token_attempt(anon_api, "5.6.7.8, 198.51.100.7", remote="10.0.0.5") == 429


def _post_token(url: str, forwarded_for: str) -> int:
    request = urllib.request.Request(
        f"{url}/api/auth/token", data=json.dumps({"username": "nobody", "password": "wrong-password"}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def _gunicorn(trusted: str) -> tuple[str, subprocess.Popen]:
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(), "REDIS_URL": settings.REDIS_URL, "SECRET_KEY": settings.SECRET_KEY,
        "CHANNEL_PREFIX": f"cairn-proxy-test-{uuid.uuid4().hex[:12]}", "DJANGO_SETTINGS_MODULE": "config.settings",
        "RATE_LIMIT_LOGIN": "2/hour", "RATE_LIMIT_FACTOR": "1", "TRUSTED_PROXIES": trusted, "LOG_LEVEL": "WARNING",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "--workers", "1", "--bind",
         f"127.0.0.1:{port}", "config.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, process)
    except BaseException:
        process.kill()
        raise
    return url, process


@pytest.mark.django_db(transaction=True, databases="__all__")
@pytest.mark.parametrize("trusted", ["", "127.0.0.1"], ids=["no-proxy", "behind-a-proxy-on-127.0.0.1"])
def test_the_web_server_believes_forwarded_for_only_from_trusted_proxies(trusted: str) -> None:
    url, process = _gunicorn(trusted)
    try:
        assert [_post_token(url, f"1.2.3.{n}") for n in range(2)] == [400, 400]
        if trusted:  # each forwarded address is a client of its own
            assert _post_token(url, "5.6.7.8") == 400
            assert _post_token(url, "1.2.3.0") == 400
            assert _post_token(url, "1.2.3.0") == 429
        else:  # every attempt came from 127.0.0.1, whatever the header says
            assert _post_token(url, "5.6.7.8") == 429
    finally:
        process.terminate()
        process.wait(timeout=15)
