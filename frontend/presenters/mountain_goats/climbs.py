"""The climb chooser: every legal climb with what it would bring (points, summits, bumps, bonus tokens, the end).

Worked out by applying each climb to a copy of the position with the pure
engine (Mountain Goats is perfect information, rules §13, so the viewer's
observation is the whole position).
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine import get_game

GAME_ID = "mountain-goats"


def _notes(view: dict[str, Any], obs: dict[str, Any], seat: int) -> list[str]:
    mountains = view["mountains"]
    before = view["summits"]
    arrivals = [m for i, m in enumerate(mountains) if obs["summits"][i] == seat and before[i] != seat]
    bumps = [m for i, m in enumerate(mountains) if before[i] is not None and before[i] != seat and obs["summits"][i] == seat]
    bonus = len(obs["bonuses"][seat]) - len(view["bonuses"][seat])
    notes = []
    if arrivals:
        notes.append("summit " + ", ".join(map(str, arrivals)))
    if bumps:
        notes.append("knocks off the goat on " + ", ".join(map(str, bumps)))
    if bonus:
        notes.append("bonus token" if bonus == 1 else f"{bonus} bonus tokens")
    return notes


def climb_options(match: dict[str, Any]) -> list[dict[str, Any]]:
    """Every legal climb for the viewer, with what it would bring, longest first; "nothing" last."""
    view = match["view"]
    seat = match.get("my_seat")
    legal = match.get("legal_actions") or []
    if seat is None or not legal:
        return []
    state = get_game(GAME_ID).state_from_observation(view, seat, random.Random(0))
    before = state.scores()[seat]
    options = []
    for action in legal:
        climb = list(action["climb"])
        after = state.clone()
        after.apply(seat, tuple(climb))
        obs = after.observation(seat)
        options.append(
            {
                "climb": climb,
                "json": json.dumps({"climb": climb}),
                "label": " + ".join(map(str, climb)) if climb else "Climb nothing",
                "gain": obs["scores"][seat] - before,
                "notes": _notes(view, obs, seat),
                "ends": bool(obs["end_triggered"]) and not view["end_triggered"],
                "empty": not climb,
            }
        )
    options.sort(key=lambda o: (-len(o["climb"]), [-m for m in o["climb"]]))
    return options
