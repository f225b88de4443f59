"""How tournaments and seasons react to the match core: one receiver of :data:`games.signals.match_finished`."""

from __future__ import annotations

from typing import Any

from ..signals import MatchFinished
from . import seasons, services


def on_match_finished(sender: Any, *, finished: MatchFinished, **kwargs: Any) -> None:
    payload = finished.event.payload or {}
    result = payload.get("result") or {}
    places = list(result.get("ranking") or [0] * len(finished.seats))
    services.record_result(match_id=finished.match.pk, places=places)
    if finished.match.rated and payload.get("ending") != "aborted" and result.get("ranking"):
        seasons.count_match(finished.match, finished.seats, places)
