"""Lag measured on the match socket (docs/RANKING.md, "Lag compensation").

A player's match socket (frontend.consumers.MatchConsumer) sends a ping every
:func:`ping_every` seconds, ``{"type": "ping", "id": n, "server_ms": <the server's epoch ms>}``; the page
(static/frontend/lag.js) answers at once with ``{"type": "pong", "id": n}``.  The socket times the round
trip on its own monotonic clock (a page cannot make it shorter; it can only answer late), and
:func:`record` folds it into the seat's recent estimate in Redis: an exponentially weighted mean
(weight :data:`WEIGHT` for the newest sample), kept :data:`TTL` seconds after the last sample, so an
estimate never outlives its socket by much.

:func:`lag_for_move` is what a move's lag credit is computed from (games.services.submit_action): the
socket's estimate, capped by the figure the page or API client claimed for the move over HTTP when it
claimed one.  The estimate alone is used when nothing is claimed; the claim alone when there is no
estimate (no socket open, or Redis away).  The credit's own limits (0.5 s a move, 5 s a match:
games.clocks) apply after that.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from . import presence

log = logging.getLogger(__name__)

TTL = 60  # seconds an estimate is kept after its last sample
WEIGHT = 0.3  # of the newest sample in the mean
MAX_MS = 10_000  # a sample above this (a page asleep, a lost pong) is not lag: it is dropped


def ping_every() -> float:
    return float(getattr(settings, "CAIRN_LAG_PING_SECONDS", 5.0))


def _key(match_id: int, seat: int) -> str:
    return f"{presence._prefix()}:lag:{match_id}:{seat}"


def fold(previous: float | None, sample_ms: float) -> float:
    """The new estimate from the previous one and a round trip (milliseconds)."""
    return sample_ms if previous is None else (1 - WEIGHT) * previous + WEIGHT * sample_ms


def record(match_id: int, seat: int, sample_ms: float) -> float | None:
    """Fold one measured round trip into ``seat``'s estimate; the new estimate (None: the sample was
    dropped, or Redis is away)."""
    if not 0 <= sample_ms <= MAX_MS:
        return None
    try:
        r = presence._redis()
        key = _key(match_id, seat)
        previous = r.get(key)
        estimate = round(fold(float(previous) if previous is not None else None, sample_ms), 1)
        r.set(key, estimate, ex=TTL)
        return estimate
    except Exception:  # no estimate: the move's own claim is used
        log.exception("could not record the lag of seat %s of match %s", seat, match_id)
        return None


def estimate_ms(match_id: int, seat: int) -> float | None:
    """``seat``'s recent round trip on its socket (ms), or None."""
    try:
        found = presence._redis().get(_key(match_id, seat))
    except Exception:
        log.exception("could not read the lag of seat %s of match %s", seat, match_id)
        return None
    return float(found) if found is not None else None


def lag_for_move(claimed_ms: Any, measured_ms: float | None) -> float:
    """The lag (ms) a move's credit is computed from: the socket's estimate capped by the claim."""
    claimed = claimed_ms if type(claimed_ms) is int and claimed_ms >= 0 else None
    if measured_ms is None:
        return float(claimed or 0)
    return float(measured_ms if claimed is None else min(claimed, measured_ms))


def seconds_for_move(match_id: int, seat: int, claimed_ms: Any) -> float:
    return lag_for_move(claimed_ms, estimate_ms(match_id, seat)) / 1000
