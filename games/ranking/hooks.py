"""How ranked play reacts to the match core: one receiver of :data:`games.signals.match_finished`.

Connected by the app config (apps.py).  A rated match's final event becomes its rating events
and moves the ladder (ratings.py), in the transaction that stored the final event.
"""

from __future__ import annotations

from typing import Any

from ..signals import MatchFinished
from . import ratings


def on_match_finished(sender: Any, *, finished: MatchFinished, **kwargs: Any) -> None:
    result = ratings.rated_result(finished.match, finished.event, finished.seats)
    if result is not None:
        ratings.apply_result(result)
