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
