"""A request to a synchronous view is one trip to its thread (config/handler.py), through the real application.

Django's own ASGI handler hands a synchronous request between the event loop and the request's thread
several times (the ``request_started`` receivers, the middleware chain, the view below an asynchronous
bottom, closing the response).  These tests count the hand-overs, check the URL is resolved once, and
that what the other paths need still holds: an asynchronous view (a stream) streams, a static file is
sent whole, an unknown path is a 404, a slashless one is redirected, and ``request_finished`` comes once.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.core import signals
from django.urls import get_resolver

from config.asgi import application
from tests.service.helpers import two_humans

HTTP = {"type": "http", "http_version": "1.1", "scheme": "http", "query_string": b"",
        "server": ("testserver", 80), "client": ("127.0.0.1", 5000)}


async def _request(path: str, *, method: str = "GET", body: bytes = b"", headers: list | None = None,
                   query: bytes = b"", root_path: str = "") -> tuple[dict, bytes]:
    scope = {**HTTP, "method": method, "path": path, "raw_path": path.encode(), "query_string": query,
             "root_path": root_path, "headers": [(b"host", b"testserver"), *(headers or [])]}
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": body})
    start = await communicator.receive_output(10)
    content = b""
    while True:
        message = await communicator.receive_output(10)
        content += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(10)
    return start, content


def _count_trips(monkeypatch) -> list[str]:
    trips: list[str] = []
    call = SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        trips.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await call(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    return trips


@pytest.mark.django_db
def test_a_request_to_a_synchronous_view_is_one_trip_to_its_thread(monkeypatch):
    asyncio.run(_request("/api/games/"))  # the process's first request may warm what it likes
    trips = _count_trips(monkeypatch)
    start, body = asyncio.run(_request("/api/games/"))
    assert start["status"] == 200 and json.loads(body)["games"]
    assert trips == ["OneTripHandler._respond"]  # Django's own: seven (the signal, the chain, two middleware hooks, the view, its render, closing)


@pytest.mark.django_db(transaction=True, databases="__all__")
def test_a_move_through_the_api_is_one_trip_too(monkeypatch, alice, bob):
    from rest_framework.authtoken.models import Token

    match = two_humans(alice, bob)
    for user in (alice, bob):  # the one to move
        auth = [(b"authorization", f"Token {Token.objects.create(user=user).key}".encode())]
        start, body = asyncio.run(_request(f"/api/matches/{match.pk}/", headers=auth))
        assert start["status"] == 200
        view = json.loads(body)
        if view["legal_actions"]:
            break
    trips = _count_trips(monkeypatch)
    move = {"action": view["legal_actions"][0], "expected_seq": view["seq"]}
    payload = json.dumps(move).encode()
    start, body = asyncio.run(_request(f"/api/matches/{match.pk}/actions/", method="POST", body=payload, headers=[
        *auth, (b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]))
    assert start["status"] == 201, body
    assert json.loads(body)["seq"] > view["seq"]  # the move, and any chance event it brought
    assert trips == ["OneTripHandler._respond"]


def _count_resolves(monkeypatch) -> list[str]:
    """The paths the root URL resolver is asked to resolve, from now on."""
    resolver = get_resolver()
    resolved: list[str] = []
    resolve = type(resolver).resolve

    def counted(self, path):
        if self is resolver:
            resolved.append(path)
        return resolve(self, path)

    monkeypatch.setattr(type(resolver), "resolve", counted)
    return resolved


@pytest.mark.django_db
def test_the_url_is_resolved_once(monkeypatch):
    resolved = _count_resolves(monkeypatch)
    start, _ = asyncio.run(_request("/api/games/"))
    assert start["status"] == 200
    assert resolved == ["/api/games/"]


@pytest.mark.django_db
def test_unknown_and_slashless_paths_answer_as_django_does():
    start, _ = asyncio.run(_request("/no-such-page/"))
    assert start["status"] == 404
    start, _ = asyncio.run(_request("/api/games"))  # CommonMiddleware's APPEND_SLASH, or the API's alias
    assert start["status"] in (200, 301)


@pytest.mark.django_db
def test_a_mount_point_is_taken_off_the_path_as_django_does(monkeypatch):
    """Behind a proxy that mounts the service under a prefix (ASGI's root_path), the view is found as
    Django's own request finds it, once: the prefix is not part of the path to resolve."""
    resolved = _count_resolves(monkeypatch)
    start, _ = asyncio.run(_request("/cairn/api/games/", root_path="/cairn"))
    assert start["status"] == 200
    assert resolved == ["/api/games/"]


@pytest.mark.django_db
def test_request_finished_is_sent_once_per_request():
    finished: list[object] = []

    def receiver(sender, **kwargs):
        finished.append(sender)

    signals.request_finished.connect(receiver)
    try:
        asyncio.run(_request("/api/games/"))
    finally:
        signals.request_finished.disconnect(receiver)
    assert len(finished) == 1


@pytest.mark.django_db
def test_a_static_file_is_sent_whole(settings):
    """WhiteNoise answers with a file response, a streaming one: sent from its iterator, then closed."""
    from django.contrib.staticfiles import finders

    path = finders.find("frontend/cairn.js")
    start, body = asyncio.run(_request(f"{settings.STATIC_URL}frontend/cairn.js"))
    assert start["status"] == 200
    with open(path, "rb") as file:
        assert body == file.read()


@pytest.mark.django_db(transaction=True, databases="__all__")
def test_an_asynchronous_view_still_streams(alice, bob):
    """The match stream (an async view) takes Django's own path: its first line arrives while it stays open."""
    from games.botapi import tokens

    match = two_humans(alice, bob)
    _, secret = tokens.create(alice, name="test", scopes=["read"])

    async def first_line() -> tuple[dict, bytes]:
        path = f"/api/stream/match/{match.pk}"
        scope = {**HTTP, "method": "GET", "path": path, "raw_path": path.encode(),
                 "headers": [(b"host", b"testserver"), (b"authorization", f"Bearer {secret}".encode())]}
        communicator = ApplicationCommunicator(application, scope)
        await communicator.send_input({"type": "http.request", "body": b""})
        start = await communicator.receive_output(10)
        chunk = await communicator.receive_output(10)
        assert chunk.get("more_body") is True  # not buffered: the stream is still open
        await communicator.send_input({"type": "http.disconnect"})
        await communicator.wait(10)
        return start, chunk["body"]

    start, line = asyncio.run(first_line())
    assert start["status"] == 200
    assert json.loads(line)["id"] == match.pk


def test_sync_to_async_is_what_the_handler_uses():
    """The count above is of asgiref's SyncToAsync: the handler must not hand over by another means."""
    import config.handler as handler

    assert handler.sync_to_async is sync_to_async
