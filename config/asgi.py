"""ASGI entry point: HTTP through Django, websockets through Channels.

Websocket connections are authenticated from the session cookie
(``frontend.routing.auth_stack``: Channels' ``AuthMiddlewareStack``, the user read in the
render pool) and refused unless they come from the page's own
origin, scheme and port included (``games.ops.origin.SameOriginValidator``).

A request to a synchronous view (every page and API route but the streams) is one trip
from the event loop to its thread and back (:class:`config.handler.OneTripHandler`), and
those threads are reused (:class:`ReusedRequestThreads`).  Left to itself, Django's ASGI
handler enters a fresh ``asgiref.sync.ThreadSensitiveContext`` for every
request: asgiref then starts a new thread for the request and, at its end, a
second one to join the first, and ``Thread.start`` waits on the event loop's
thread until the new thread runs.  Under load that wait is long (the new
thread needs the GIL), and every websocket of the process waits with it: with
500 live matches py-spy found the loop's thread blocked in ``Thread.start``
for over a third of its time (docs/PERFORMANCE.md).

Each process imports the URL configuration, the games and their presenters and
compiles every template when it starts (:func:`config.warmup.warm_up`), so that
a restarted process's first requests do not pay for them, and then freezes what
it holds out of the garbage collector's walks (:func:`config.gctune.tune`).
"""

import os
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Initialise Django (apps, models) before importing anything that uses models, as get_asgi_application does.
django.setup(set_prefix=False)

from asgiref.sync import ThreadSensitiveContext
from channels.routing import ProtocolTypeRouter, URLRouter

from config.gctune import tune as tune_gc
from config.handler import OneTripHandler
from config.warmup import warm_up
from frontend.routing import auth_stack, websocket_urlpatterns
from games.ops.origin import SameOriginValidator

# Imports and template compilation now, before this process serves, not in its first requests; then what the
# process holds from its start is frozen out of the garbage collector's walks (config/gctune.py).
warm_up()
tune_gc()


class ReusedRequestThreads:
    """Each HTTP request in a ``ThreadSensitiveContext`` whose one-thread executor is reused (asgiref's
    documented ``executor=`` argument; the caller owns it and it is not shut down on exit).

    Django's own ``ThreadSensitiveContext()`` inside then finds a context set and does nothing, so a
    request's thread-sensitive calls (its middleware, its view, closing its database connection) still run
    one at a time on one thread, as before; only the thread is an idle one instead of a new one.  The idle
    list grows to the process's peak of concurrent requests.  It is touched only on the event loop's thread.
    """

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app
        self.idle: list[ThreadPoolExecutor] = []
        # A forked child (a server that forks after import) has none of these threads: it starts its own.
        os.register_at_fork(after_in_child=self.idle.clear)

    async def __call__(
        self, scope: dict[str, Any], receive: Callable[[], Awaitable[dict[str, Any]]],
        send: Callable[[dict[str, Any]], Awaitable[None]],
    ) -> None:
        executor = self.idle.pop() if self.idle else ThreadPoolExecutor(1, thread_name_prefix="cairn-request")
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.app(scope, receive, send)
        finally:
            # A request cancelled mid-view (the client went away) may leave its view running: the next
            # request given this executor then waits for it (one thread runs one call at a time).
            self.idle.append(executor)


application = ProtocolTypeRouter(
    {
        "http": ReusedRequestThreads(OneTripHandler()),
        "websocket": SameOriginValidator(auth_stack(URLRouter(websocket_urlpatterns))),
    }
)
