"""Django's ASGI handler, with one trip to the request's thread per request to a synchronous view.

Django's :class:`~django.core.handlers.asgi.ASGIHandler` serves a synchronous view from the event
loop in seven trips to the request's thread and back (``tests/ops/test_one_trip.py`` counts them): the
``request_started`` signal's receivers, the middleware chain, then, below it, the handler (asynchronous
under ASGI, so the chain's bottom is an ``async_to_sync`` back to the loop) calls two middleware's
``process_view`` hooks, the view and the response's render one trip each, and closing the response
(``request_finished``'s receivers) is the last.  Each trip is a hand-over between two threads
through the event loop, paid in CPU by both and waited for by every other socket of the process.

:class:`OneTripHandler` serves a request to a synchronous view in one trip: on the request's thread it
sends ``request_started``, builds the request, runs Django's synchronous handler (the same middleware,
loaded with ``is_async=False``, and the same view) and closes a complete response; the loop only
reads the body before and sends the answer after.  A request to an asynchronous view (the streams of
``games/botapi/streams.py``) takes Django's own path, as does a streaming answer's sending and closing.
The URL is resolved once: the match found to choose the path is the one the view is called with.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase
from django.urls import ResolverMatch, get_resolver, set_script_prefix
from django.urls.exceptions import Resolver404


class _SyncHandler(BaseHandler):
    """Django's synchronous handler, taking the URL match its caller already found."""

    def resolve_request(self, request: HttpRequest) -> ResolverMatch:
        found: ResolverMatch | None = getattr(request, "_cairn_resolved", None)
        if found is None or hasattr(request, "urlconf"):  # none found, or a middleware chose another URLconf
            return super().resolve_request(request)
        request.resolver_match = found
        return found


class OneTripHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()  # the asynchronous chain, for asynchronous views
        self.sync_handler = _SyncHandler()
        self.sync_handler.load_middleware(is_async=False)

    @staticmethod
    def _resolve(scope: dict[str, Any]) -> ResolverMatch | None:
        script_name = get_script_prefix(scope)  # the request's path_info, as ASGIRequest makes it
        path_info = scope["path"].removeprefix(script_name) if script_name else scope["path"]
        try:
            return get_resolver().resolve(path_info)
        except Resolver404:
            return None  # Django's own handling answers it (CommonMiddleware's slash, then 404)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        found = self._resolve(scope)
        if found is not None and iscoroutinefunction(found.func):
            await super().handle(scope, receive, send)
            return
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file, found)
            await self.send_response(response, send)
            if response.streaming:  # a file (WhiteNoise's): sent from its iterator, closed once sent
                await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _respond(self, scope: dict[str, Any], body_file: Any, found: ResolverMatch | None) -> HttpResponseBase:
        """On the request's thread: the signal, the request, the middleware and the view; a complete answer closed."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        if request is None:
            assert error_response is not None  # Django's create_request gives one or the other
            response: HttpResponseBase = error_response
        else:
            if found is not None:
                request._cairn_resolved = found  # type: ignore[attr-defined]
            response = self.sync_handler.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]  # as Django's run_get_response
        if not response.streaming:
            response.close()  # request_finished: the request's database connection is given back here
        return response
