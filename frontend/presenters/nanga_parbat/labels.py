"""Nanga Parbat's words on the page: animal names and letters, powers, chart rows, names, the prompt."""

from __future__ import annotations

import json
from typing import Any

from .. import Player

# What each animal looks like: a letter (so colour is never the only cue) and a label.
ANIMALS = {
    "snow_leopard": {"letter": "S", "name": "snow leopard"},
    "tahr": {"letter": "T", "name": "tahr"},
    "musk_deer": {"letter": "M", "name": "musk deer"},
    "yak": {"letter": "Y", "name": "yak"},
    "bharal": {"letter": "B", "name": "bharal"},
    "red_panda": {"letter": "R", "name": "red panda"},
}
POWERS = {
    "snow_leopard": "swap two adjacent hikers of different colours",
    "tahr": "swap a hiker with an adjacent animal",
    "musk_deer": "swap two animals of different types, anywhere",
    "yak": "move the guide to another region",
}
ROW_LABELS = {
    "build_camps": "Camps",
    "trade_different_types": "Different",
    "trade_same_type": "One type",
}


def animal_name(kind: str) -> str:
    return ANIMALS.get(kind, {"name": kind})["name"]


def name_of(players: list[Player], seat: int) -> str:
    for player in players:
        if player.seat == seat:
            return player.name
    return f"Player {seat + 1}"


def dumps(action: dict[str, Any]) -> str:
    """An action as the compact JSON the move forms carry."""
    return json.dumps(action, separators=(",", ":"))


def prompt(view: dict[str, Any], controls: dict[str, Any], my_turn: bool) -> str:
    """The turn banner's instruction for the player to move."""
    if not my_turn:
        return ""
    if controls["guide_options"]:
        return "You are the second player: place the guide on a region."
    if controls["relocations"]:
        return f"Region {view['guide']} has no animal left: relocate the guide to a region with an animal."
    if controls["traps"]:
        return f"Trap an animal in region {view['guide']} (the guide's region)."
    if controls["claims"]:
        return "Claim a square of the points chart, activate an animal, or end your turn."
    return "Activate an animal or end your turn."
