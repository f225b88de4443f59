"""HTTP requests reuse their threads (config/asgi.py, ReusedRequestThreads).

Django's ASGI handler alone starts a new thread for every request and another to join it, on the event
loop's thread; under load the loop then waits in ``Thread.start``.  These tests check the wrapper keeps
asgiref's guarantees (one request's thread-sensitive calls on one thread; concurrent requests on
different threads) while reusing idle threads, through the real Django application too.
"""

from __future__ import annotations

import asyncio
import os
import threading

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator

from config.asgi import ReusedRequestThreads, application

HTTP = {"type": "http", "http_version": "1.1", "method": "GET", "scheme": "http", "query_string": b"",
        "headers": [(b"host", b"testserver")], "server": ("testserver", 80), "client": ("127.0.0.1", 5000)}


def _recorder():
    """An ASGI app whose request makes two thread-sensitive calls and records their threads."""
    seen: list[tuple[int, int]] = []
    gate = asyncio.Event()
    waiting: list[int] = []

    async def app(scope, receive, send):
        first = await sync_to_async(threading.get_ident, thread_sensitive=True)()
        if scope.get("wait"):
            waiting.append(first)
            await gate.wait()
        second = await sync_to_async(threading.get_ident, thread_sensitive=True)()
        seen.append((first, second))

    return app, seen, gate, waiting


def test_one_request_keeps_one_thread_and_the_next_reuses_it():
    app, seen, _, _ = _recorder()
    wrapped = ReusedRequestThreads(app)

    async def run() -> None:
        for _ in range(5):
            await wrapped({"type": "http"}, None, None)

    asyncio.run(run())
    assert all(first == second for first, second in seen)  # thread-sensitive: one thread per request
    assert len({first for first, _ in seen}) == 1  # sequential requests: the same idle thread again
    assert len(wrapped.idle) == 1


def test_concurrent_requests_run_on_different_threads():
    app, seen, gate, waiting = _recorder()
    wrapped = ReusedRequestThreads(app)

    async def run() -> None:
        tasks = [asyncio.ensure_future(wrapped({"type": "http", "wait": True}, None, None)) for _ in range(3)]
        while len(waiting) < 3:  # all three in flight at once
            await asyncio.sleep(0.01)
        gate.set()
        await asyncio.gather(*tasks)

    asyncio.run(run())
    assert len({first for first, _ in seen}) == 3  # each in-flight request has its own thread
    assert all(first == second for first, second in seen)
    assert len(wrapped.idle) == 3  # and all three are kept for the next ones


@pytest.mark.django_db
def test_django_requests_through_the_application_start_no_thread_each(monkeypatch):
    async def get(path: str) -> int:
        communicator = ApplicationCommunicator(application, {**HTTP, "path": path, "raw_path": path.encode()})
        await communicator.send_input({"type": "http.request", "body": b""})
        start = await communicator.receive_output(10)
        await communicator.receive_output(10)  # the body
        await communicator.wait(10)
        return start["status"]

    started: list[str] = []
    start = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        started.append(thread.name)
        start(thread)

    async def run() -> list[int]:
        statuses = [await get("/api/games/")]  # the first request may start the process's threads
        monkeypatch.setattr(threading.Thread, "start", counted)
        statuses += [await get("/api/games/") for _ in range(20)]
        return statuses

    assert asyncio.run(run()) == [200] * 21
    assert started == []  # Django alone starts two threads a request (the request's and one to join it)


def test_a_forked_child_starts_its_own_threads():
    """A server that forks after import (Daphne in the browser tests) must not inherit idle executors whose
    threads only the parent has: the child's requests would wait for them forever."""
    app, seen, _, _ = _recorder()
    wrapped = ReusedRequestThreads(app)
    asyncio.run(wrapped({"type": "http"}, None, None))
    assert len(wrapped.idle) == 1
    pid = os.fork()
    if pid == 0:  # the child: no inherited executors, and a request runs on a thread of its own
        try:
            ok = not wrapped.idle
            asyncio.run(asyncio.wait_for(wrapped({"type": "http"}, None, None), 5))
            os._exit(0 if ok and len(seen) == 2 else 1)
        except BaseException:  # noqa: BLE001 - the forked child reports any failure by its exit status
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert len(wrapped.idle) == 1  # the parent's are untouched


@pytest.mark.django_db
def test_the_middleware_chain_runs_on_the_requests_thread_without_trips_to_the_event_loop(monkeypatch):
    """Under ASGI a middleware that can run asynchronously (Django's MiddlewareMixin ones) runs so when the
    middleware below it is asynchronous, and then each of its hooks is a trip from the event loop to the
    request's thread and back.  With the synchronous-only middleware innermost, the whole chain runs
    synchronously: one page request makes no such trip, and sends its hooks' headers all the same."""
    from django.utils.deprecation import MiddlewareMixin

    async_calls: list[str] = []
    acall = MiddlewareMixin.__acall__

    async def counted(self, request):
        async_calls.append(type(self).__name__)
        return await acall(self, request)

    monkeypatch.setattr(MiddlewareMixin, "__acall__", counted)

    async def get(path: str) -> dict:
        communicator = ApplicationCommunicator(application, {**HTTP, "path": path, "raw_path": path.encode()})
        await communicator.send_input({"type": "http.request", "body": b""})
        start = await communicator.receive_output(10)
        await communicator.receive_output(10)
        await communicator.wait(10)
        return start

    start = asyncio.run(get("/"))
    assert start["status"] == 200
    assert async_calls == []
    headers = {name.lower(): value for name, value in start["headers"]}
    assert headers[b"x-frame-options"] == b"DENY"  # XFrameOptionsMiddleware still answers
