"""Mountain Goats on the page (rules: shared/rules/mountain-goats.md).

Presenter modules by job:

* :mod:`.board`: the SVG geometry of the six mountains, the dice and the score table;
* :mod:`.climbs`: every legal climb with what it would bring (the chooser's labels);
* :mod:`.forms`: the dice builder's fields turned into record notation (``action_from_form``);
* :mod:`.log`: the event-log lines (``describe_event``, ``describe_events``);
* :mod:`.last_move`: the marks of the last move, from ``match["recent"]``.

Everything in Mountain Goats is public (rules §13), so the observation is the
whole position.  Moves are sent in record notation (§11): ``{"climb": [...]}``
from the list, or ``{"climb", "faces", "groups"}`` from the builder.
"""

from __future__ import annotations

from typing import Any

from .. import Player
from .board import COLUMN_WIDTH, GOAT_RADIUS, VIEW_HEIGHT, VIEW_WIDTH, dice, mountains, table
from .climbs import GAME_ID, climb_options
from .forms import GROUP_NAMES, action_from_form
from .last_move import last_move
from .log import describe_event, describe_events, name_of

__all__ = ["GAME_ID", "action_from_form", "describe_event", "describe_events", "present"]


def present(match: dict[str, Any], players: list[Player]) -> dict[str, Any]:
    view = match["view"]
    roll = view.get("roll")
    options = climb_options(match)
    marks = last_move(match, players)
    return {
        "prompt": "Choose a climb.",
        "width": VIEW_WIDTH,
        "column_width": COLUMN_WIDTH,
        "height": VIEW_HEIGHT,
        "goat_radius": GOAT_RADIUS,
        "mountains": mountains(view, players, marks),
        "table": table(view, players, marks),
        "last_move": marks,
        "dice": dice(roll),
        "roll": roll,
        "has_adjustable_ones": bool(roll) and sum(1 for f in roll if f == 1) >= 2,
        "climbs": options,
        "can_climb": bool(options),
        "group_names": GROUP_NAMES,
        "faces": range(1, 7),
        "bonus_pile": view["bonus_pile"],
        "end_triggered": view["end_triggered"],
        "active": view.get("active"),
        "phase": view["phase"],
        "turn": view["turn"],
        "my_seat": match.get("my_seat"),
        "roller": name_of(players, view["active"]) if view.get("active") is not None else None,
    }
