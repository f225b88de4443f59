"""``ws/tournaments/<id>/``: a tournament page's standings and boards, live.

Anyone may watch.  The tournament's services send ``tournament.changed`` (ids and the version only)
to the group ``tournament-<id>`` after commit; the socket sends the page's live fragment at that
version, rendered once per version in this process (render.py).
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer

from games.notify import ours
from games.tournaments.live import group_name

from .render import live_fragment


class TournamentConsumer(WebsocketConsumer):
    group: str | None = None

    def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.group = group_name(self.tournament_id)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()

    def disconnect(self, code: int) -> None:
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is sent this way: joining and withdrawing go over HTTP."""

    def tournament_changed(self, event: dict) -> None:
        if not ours(event) or event.get("tournament_id") != self.tournament_id:
            return
        try:
            self.send(text_data=live_fragment(self.tournament_id, int(event["version"])))
        except Exception:  # noqa: BLE001 - a tournament gone, a bad message: the page keeps what it shows
            return
