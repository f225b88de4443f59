"""The live part of a tournament page: one render per tournament version in this process.

The fragment is the same for every viewer (standings, boards, countdown), so 200 sockets watching a
tournament cost one render per change, not 200.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any

from django.template.loader import render_to_string

from games.tournaments import selectors
from games.tournaments.rules import ends_at

_CACHE: OrderedDict[tuple[int, int], str] = OrderedDict()
_LOCK = Lock()
LIMIT = 256


def live_context(tournament: Any) -> dict[str, Any]:
    end = ends_at(tournament)
    return {
        "t": tournament, "summary": selectors.summary(tournament), "standings": selectors.standings(tournament),
        "boards": selectors.boards(tournament, limit=60), "ends_at": end,
        "countdown_to": (tournament.starts_at if tournament.status == "scheduled" else end),
    }


def live_fragment(tournament_id: int, version: int) -> str:
    """The ``#tournament-live`` fragment at ``version`` (out of band, with its version as data-seq)."""
    key = (tournament_id, version)
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    tournament = selectors.get(tournament_id)
    html = render_to_string("frontend/tournaments/_live.html", {**live_context(tournament), "oob": True})
    if tournament.version == version:
        with _LOCK:
            _CACHE[key] = html
            while len(_CACHE) > LIMIT:
                _CACHE.popitem(last=False)
    return html
