"""Nanga Parbat's event-log lines, from record-notation entries (rules §12)."""

from __future__ import annotations

from typing import Any

from .. import Player
from .labels import animal_name, name_of


def describe_action(action: dict[str, Any]) -> str | None:
    """What an action did, without the subject ("trapped the animal on 2.4")."""
    if "trap" in action:
        return f"trapped the animal on {action['trap']}"
    if "relocate" in action:
        return f"relocated the guide to region {action['relocate']}"
    if "guide" in action and "activate" not in action:
        return f"placed the guide on region {action['guide']}"
    if "activate" in action:
        name = animal_name(action["activate"])
        if "guide" in action:
            return f"activated a {name}: the guide goes to region {action['guide']}"
        swap = action.get("swap") or ["?", "?"]
        return f"activated a {name}: swapped {swap[0]} and {swap[1]}"
    if "claim" in action:
        square = action["claim"]
        where = f"row {square.get('row')}, column {square.get('column')}"
        if "sections" in action:
            return f"claimed {where}: camps on " + ", ".join(action["sections"])
        return f"claimed {where}, trading {len(action.get('animals') or [])} animals"
    if "end_turn" in action:
        return "ended the turn"
    return None


def describe_event(event: dict[str, Any], players: list[Player]) -> str | None:
    """One line for a game event in record notation, or None if it is not one."""
    if "chance" in event and isinstance(event["chance"], dict):
        chance = event["chance"]
        if "first_player" in chance:
            return f"{name_of(players, chance['first_player'])} goes first."
        if "animals" in chance:
            return "The 36 animals were shuffled onto the mountain."
        return None
    if "action" not in event or "player" not in event:
        return None
    text = describe_action(event["action"] or {})
    return f"{name_of(players, event['player'])} {text}." if text else None
