"""Security headers: the Content-Security-Policy, HSTS, the websocket origin check, the default hosts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client, override_settings

from games.ops.origin import SameOriginValidator, origin_allowed

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db


def test_every_page_has_a_policy_without_unsafe_inline(client: Client) -> None:
    for path in ("/", "/login/", "/api/docs/", "/no-such-page/"):
        policy = client.get(path)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "frame-ancestors 'none'" in policy


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.IGNORECASE)
INLINE_STYLE = re.compile(r"<style\b|\sstyle=|\son[a-z]+=", re.IGNORECASE)


def test_no_template_has_an_inline_script_style_or_event_handler() -> None:
    found = []
    for folder in ("frontend/templates", "frontend/jinja2", "games/templates"):
        for path in sorted((ROOT / folder).rglob("*.html")):
            # Template comments and tags are not markup ({% with oncard=True %} is no event handler).
            text = re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
            if INLINE_SCRIPT.search(text) or INLINE_STYLE.search(text):
                found.append(str(path.relative_to(ROOT)))
    assert found == []


def test_the_api_docs_start_up_script_is_a_file(client: Client) -> None:
    page = client.get("/api/docs/").content.decode()
    assert not INLINE_SCRIPT.search(page) and "<style" not in page
    (script,) = re.findall(r'<script src="(/api/docs/\?script=)"', page)
    assert client.get(script).status_code == 200


def test_hsts_is_sent_when_configured() -> None:
    assert "Strict-Transport-Security" not in Client().get("/", secure=True)
    with override_settings(SECURE_HSTS_SECONDS=600, SECURE_HSTS_INCLUDE_SUBDOMAINS=True):
        # A fresh client: the middleware reads the setting when it is built.
        assert Client().get("/", secure=True)["Strict-Transport-Security"] == "max-age=600; includeSubDomains"


def test_testserver_is_not_a_default_allowed_host(monkeypatch) -> None:
    import importlib

    import config.settings as cairn_settings

    monkeypatch.delenv("ALLOWED_HOSTS", raising=False)
    assert "testserver" not in importlib.reload(cairn_settings).ALLOWED_HOSTS
    importlib.reload(cairn_settings)


def scope(origin: str | None, host: str = "cairn.example.org", scheme: str = "ws", **extra: str) -> dict:
    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin else [])
    headers += [(name.encode(), value.encode()) for name, value in extra.items()]
    return {"type": "websocket", "scheme": scheme, "headers": headers, "path": "/ws/lobby/"}


@override_settings(ALLOWED_HOSTS=["cairn.example.org"], CSRF_TRUSTED_ORIGINS=["https://play.example.org"])
def test_the_websocket_origin_must_match_scheme_host_and_port() -> None:
    assert origin_allowed(scope("http://cairn.example.org"))
    assert origin_allowed(scope("https://cairn.example.org", scheme="wss"))
    assert origin_allowed(scope("http://cairn.example.org:8000", host="cairn.example.org:8000"))
    assert origin_allowed(scope("https://play.example.org"))  # a trusted origin
    assert not origin_allowed(scope("http://cairn.example.org:8080"))  # another port
    assert not origin_allowed(scope("https://cairn.example.org"))  # another scheme
    assert not origin_allowed(scope("http://cairn.example.org", scheme="wss"))
    assert not origin_allowed(scope("http://evil.example.org"))
    assert not origin_allowed(scope("http://evil.example.org", host="evil.example.org"))  # not an allowed host
    assert not origin_allowed(scope(None))
    assert not origin_allowed(scope("null"))


@override_settings(ALLOWED_HOSTS=["cairn.example.org"], SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_behind_a_tls_proxy_the_page_origin_is_https() -> None:
    assert origin_allowed(scope("https://cairn.example.org", **{"x-forwarded-proto": "https"}))
    assert not origin_allowed(scope("http://cairn.example.org", **{"x-forwarded-proto": "https"}))


def test_a_socket_from_another_port_is_refused_before_it_opens() -> None:
    async def app(scope, receive, send):
        await receive()
        await send({"type": "websocket.accept"})

    async def attempt(origin: str) -> bool:
        communicator = WebsocketCommunicator(SameOriginValidator(app), "/ws/lobby/",
                                             headers=[(b"host", b"127.0.0.1:8000"), (b"origin", origin.encode())])
        connected, _ = await communicator.connect(timeout=5)
        await communicator.disconnect()
        return connected

    assert async_to_sync(attempt)("http://127.0.0.1:8000") is True
    assert async_to_sync(attempt)("http://127.0.0.1:9000") is False
