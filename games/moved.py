"""The matches this process's own moves just left, kept for a moment.

A committed move's match (its row as the move wrote it, its seats with their users) is what every
screen of that match needs next, and the ``match.changed`` announcing the move reaches this process's
sockets of the match right after.  :func:`keep` holds it, and :func:`left` gives it to a reader that
asks for that very match *at that very seq* (``frontend.fanout.head``), instead of a read of the same
row.  Any other seq, an older entry than the reader accepts, or a match this process did not move,
gives None: the reader reads the database.  A match its move ended is not kept (the ending's
hooks change it after the commit).  Every move keeps its match, whichever way it came (the API, the page's
POST or its socket, a bot): the service registers it to be kept at the commit, ahead of the
move's announcement (``services._act``), so it is there before any socket hears of the move.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from .models import Match

# How many matches, and for how long at most (a reader decides its own limit below this).
SIZE = 1000
MAX_AGE = 10.0

_kept: OrderedDict[int, tuple[float, Match]] = OrderedDict()
_guard = threading.Lock()


def keep(match: Match) -> None:
    """``match`` as a move of this process just committed it (an active match, its seats prefetched)."""
    if match.status != Match.Status.ACTIVE:
        return
    now = time.monotonic()
    with _guard:
        _kept[match.pk] = (now, match)
        _kept.move_to_end(match.pk)
        while _kept and (len(_kept) > SIZE or now - next(iter(_kept.values()))[0] > MAX_AGE):
            _kept.popitem(last=False)


def left(match_id: int, seq: int, within: float) -> Match | None:
    """The match a move of this process left at ``seq``, kept less than ``within`` seconds ago; else None."""
    with _guard:
        found = _kept.get(match_id)
    if found is None or found[1].seq != seq or time.monotonic() - found[0] > min(within, MAX_AGE):
        return None
    return found[1]


def forget() -> None:
    """Drop everything kept (tests)."""
    with _guard:
        _kept.clear()
