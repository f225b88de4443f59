"""The match websocket: a thin consumer that pushes each viewer their own fragment.

On ``match.changed`` (sent by ``games.notify.match_changed`` after every
committed append) it re-renders ``frontend/match_live.html`` for the user of
*this* connection and sends it as an htmx out-of-band swap.  It never
receives moves: those go over HTTP through ``games.services``.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer

from games.errors import DomainError
from games.models import Match

from .live import render_match_fragment
from .table import render as table

log = logging.getLogger(__name__)


def group_name(match_id: int) -> str:
    return f"match-{match_id}"


def _seq_from_query(query_string: bytes) -> int | None:
    from urllib.parse import parse_qs

    values = parse_qs(query_string.decode("latin-1")).get("seq")
    try:
        return int(values[0]) if values else None
    except ValueError:
        return None


class MatchConsumer(WebsocketConsumer):
    """``ws/matches/<id>/``: anyone may watch; each viewer sees only their own view."""

    match_id: int
    group: str | None = None
    last_seq: int | None = None

    def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.user = self.scope.get("user")
        if not Match.objects.filter(pk=self.match_id).exists():
            self.close(code=4404)  # before accept(): the handshake is refused
            return
        # The page says which seq it was rendered at (``?seq=N``); only newer
        # positions are pushed, so a fresh page is not re-rendered needlessly.
        self.last_seq = _seq_from_query(self.scope.get("query_string", b""))
        self.group = group_name(self.match_id)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        table.socket_opened(self.match_id, self.channel_name, self.user)  # the spectator count (issue 16)
        # Catch up at once: whatever changed between the page load (or the
        # last connection) and joining the group is in this first push.
        self.push()

    def disconnect(self, code: int) -> None:
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)
            table.socket_closed(self.match_id, self.channel_name, self.user)

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Clients send nothing that matters; a message is answered with a fresh fragment."""
        self.push(force=True)

    def table_message(self, event: dict) -> None:
        """Chat, rematch offers, the spectator count (games.table): rendered for this connection's user."""
        html = table.render_push(event, self.user, self.match_id)
        if html:
            self.send(text_data=html)

    def match_changed(self, event: dict) -> None:
        if event.get("match_id") not in (None, self.match_id):
            return
        seq = event.get("seq")
        if seq is not None and self.last_seq is not None and seq <= self.last_seq:
            return  # already pushed a fragment at least this new
        self.push()

    def push(self, force: bool = False) -> None:
        try:
            match = Match.objects.get(pk=self.match_id)
        except Match.DoesNotExist:
            self.close(code=4404)
            return
        if not force and self.last_seq is not None and match.seq <= self.last_seq:
            return
        try:
            html = render_match_fragment(match, self.user, oob=True)
        except DomainError as exc:
            log.info("match %s: viewer refused: %s", self.match_id, exc.message)
            self.close(code=4403)
            return
        self.last_seq = match.seq
        self.send(text_data=html)
