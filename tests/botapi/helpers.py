"""Open streams in-process (the async views called with a request) and read their NDJSON lines."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from asgiref.sync import sync_to_async
from django.test import AsyncRequestFactory

from games.botapi import streams, tokens
from games.botapi.streamauth import with_db

FACTORY = AsyncRequestFactory()


def run(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Await ``fn`` in a worker thread that closes its database connection afterwards."""
    return sync_to_async(with_db, thread_sensitive=False)(lambda: fn(*args, **kwargs))


def bearer(user: Any, scopes: tuple[str, ...] = ("read", "play", "challenge")) -> str:
    _, secret = tokens.create(user, name="test", scopes=list(scopes))
    return f"Bearer {secret}"


class Lines:
    """An open stream: its response, and its lines one at a time (keep-alive lines skipped, but counted)."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.status = response.status_code
        self.iterator = response._iterator if self.status == 200 else None  # our async generator
        self.keepalives = 0

    async def next(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """The next line, or None when the stream has ended (``TimeoutError`` after ``timeout`` seconds)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            try:
                chunk = await asyncio.wait_for(self.iterator.__anext__(), max(0.01, left))
            except StopAsyncIteration:
                return None
            if chunk == b"\n":
                self.keepalives += 1
                continue
            return json.loads(chunk)

    async def close(self) -> None:
        await self.iterator.aclose()

    def error(self) -> dict[str, Any]:
        return json.loads(self.response.content)["error"]


async def open_match(auth: str | None, match_id: int, after: int | None = None) -> Lines:
    query = {} if after is None else {"after": str(after)}
    headers = {"Authorization": auth} if auth else {}
    request = FACTORY.get(f"/api/stream/match/{match_id}", query, headers=headers)
    request.user = _anonymous()
    return Lines(await streams.match_stream(request, match_id))


async def open_events(auth: str | None) -> Lines:
    headers = {"Authorization": auth} if auth else {}
    request = FACTORY.get("/api/stream/event", headers=headers)
    request.user = _anonymous()
    return Lines(await streams.event_stream(request))


def _anonymous() -> Any:
    from django.contrib.auth.models import AnonymousUser

    return AnonymousUser()
