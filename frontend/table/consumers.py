"""``ws/lobby/``: the lobby's chat, live.  Anyone may connect; only logged-in people are sent messages.

A chat message's id arrives from ``games.table`` (group ``lobby``); the socket renders
it for its own user (:func:`frontend.table.render.render_push`: a muted author's
message is not sent).  Messages are posted over HTTP, never over this socket.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer

from games.notify import ours
from games.table.push import LOBBY_GROUP

from .render import render_push


class LobbyConsumer(WebsocketConsumer):
    joined = False

    def connect(self) -> None:
        self.user = self.scope.get("user")
        async_to_sync(self.channel_layer.group_add)(LOBBY_GROUP, self.channel_name)
        self.joined = True
        self.accept()

    def disconnect(self, code: int) -> None:
        if self.joined:
            async_to_sync(self.channel_layer.group_discard)(LOBBY_GROUP, self.channel_name)

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is sent this way: chat is posted over HTTP."""

    def table_message(self, event: dict) -> None:
        if not ours(event):
            return
        html = render_push(event, self.user, None)
        if html:
            self.send(text_data=html)
