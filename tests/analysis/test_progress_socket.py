"""The analysis's progress through the real match socket: to the replay page's panel, and only there."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from frontend.routing import websocket_urlpatterns
from games.analysis import services
from games.table import push

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

TIMEOUT = 10


def socket(user, path: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    communicator.scope["user"] = user
    return communicator


def test_progress_reaches_the_analysis_panels_socket_and_not_a_match_page(alice, bob, finished):
    services.request_analysis(match_id=finished.pk, user=alice)

    async def scenario() -> None:
        panel = socket(bob, f"/ws/matches/{finished.pk}/?seq={finished.seq}&analysis=1")
        page = socket(bob, f"/ws/matches/{finished.pk}/?seq={finished.seq}")
        for communicator in (panel, page):
            assert (await communicator.connect(timeout=TIMEOUT))[0]
        await sync_to_async(push.send)(push.match_group(finished.pk), "analysis")
        message = await panel.receive_from(timeout=TIMEOUT)
        assert 'id="analysis-panel"' in message and 'hx-swap-oob="true"' in message and "<progress" in message
        assert await page.receive_nothing(timeout=1)  # no panel to swap there: nothing is sent
        for communicator in (panel, page):
            await communicator.disconnect()

    async_to_sync(scenario)()
