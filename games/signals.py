"""The match service's one hook for plug-ins: a match has finished.

``match_finished`` is sent inside the transaction that stores a match's
``finished`` event, with one :class:`MatchFinished` as ``finished=``; a receiver's
writes commit or roll back with the match.  Ranked play (``games.ranking``)
connects its ratings to it in its app config; the match core knows nothing of
ratings, ladders or matchmaking.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.dispatch import Signal

from .models import Event, Match, Seat


@dataclass(frozen=True)
class MatchFinished:
    """A match that has just ended: the match row, its seats and the stored ``finished`` event."""

    match: Match
    seats: list[Seat]
    event: Event


match_finished = Signal()
"""Sent as ``match_finished.send(sender=MatchFinished, finished=MatchFinished(...))``."""


match_saved = Signal()
"""Sent after every save of a match's new events, inside the saving transaction, as
``match_saved.send(sender=Match, match=match, seats=seats)`` (the match row already
carries the new ``seq``, ``status`` and ``to_move``).  A receiver that acts outside the
database uses ``transaction.on_commit``.  The table plug-in (``games.table``) queues its
"your turn" emails from here."""
