"""Mountain Goats' event-log lines, from record-notation entries (rules §11)."""

from __future__ import annotations

from typing import Any

from .. import Player


def name_of(players: list[Player], seat: int) -> str:
    for player in players:
        if player.seat == seat:
            return player.name
    return f"Player {seat + 1}"


def describe_event(event: dict[str, Any], players: list[Player]) -> str | None:
    """One line for a game event in record notation, or None if it is not one."""
    if "chance" in event and isinstance(event["chance"], dict):
        chance = event["chance"]
        if "first_player" in chance:
            return f"{name_of(players, chance['first_player'])} goes first."
        if "roll" in chance:
            return "Rolled " + " ".join(map(str, chance["roll"])) + "."
        return None
    if "action" in event and "player" in event:
        action = event["action"] or {}
        who = name_of(players, event["player"])
        climb = action.get("climb") or []
        text = f"{who} climbed " + ", ".join(map(str, climb)) + "." if climb else f"{who} climbed nothing."
        if "faces" in action:
            text += " Dice set to " + " ".join(map(str, action["faces"])) + "."
        return text
    return None


def describe_events(events: list[dict[str, Any]], players: list[Player]) -> list[str | None]:
    """The log lines of a whole match's record entries, in order, naming who rolled."""
    lines: list[str | None] = []
    seat: int | None = None
    n = len(players) or 1
    for event in events:
        chance = event.get("chance") if isinstance(event, dict) else None
        if isinstance(chance, dict) and "first_player" in chance:
            seat = chance["first_player"]
        if isinstance(chance, dict) and "roll" in chance and seat is not None:
            lines.append(f"{name_of(players, seat)} rolled " + " ".join(map(str, chance["roll"])) + ".")
            continue
        lines.append(describe_event(event, players))
        if isinstance(event, dict) and "player" in event and "action" in event:
            seat = (event["player"] + 1) % n
    return lines
