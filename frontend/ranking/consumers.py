"""``ws/user/``: a logged-in user's own channel (group ``user-<id>``) for ranked play.

Matchmaking and challenges send small JSON messages here after commit
(games/notify.py): ``match_found`` with the match's address, which
the page follows at once, and challenge news, on which the lobby panel
refreshes.  Anonymous connections are refused.
"""

from __future__ import annotations

import json

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer

from games.fairplay import sockets as presence
from games.notify import ours, user_group


class UserConsumer(WebsocketConsumer):
    group: str | None = None

    def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            self.close(code=4403)
            return
        self.group = user_group(user.pk)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.user_id = user.pk
        self.accept()
        presence.page_opened(user.pk, self.channel_name)

    def disconnect(self, code: int) -> None:
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)
            presence.page_closed(self.user_id, self.channel_name)

    def user_message(self, event: dict) -> None:
        if not ours(event):
            return
        self.send(text_data=json.dumps(event.get("message", {})))
