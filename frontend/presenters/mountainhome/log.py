"""Mountainhome's event log: one line per record entry as the viewer may see it (sealed parts stay sealed)."""

from __future__ import annotations

from typing import Any

from .. import Player
from .cards import short_name
from .moves import _n, move_label, seat_name

CHANCE_TEXT = {
    "select": "Setup: the {pool} pool is drawn (sealed).",
    "bottom_order": "Cards go under the exploration pile in random order.",
    "deal_order": "Logistical Mishap: the bid pools are dealt out.",
}


def describe_event(event: dict[str, Any], players: list[Player]) -> str | None:
    if "chance" in event:
        data = event["chance"]
        kind = data.get("kind")
        if kind == "shuffle":
            pile = data.get("pile", "")
            if pile.startswith("draw:"):
                return f"{seat_name(players, int(pile[5:]))} shuffles their draw pile."
            if pile == "shop":
                return "The shop deck is shuffled."
            if pile.startswith("shop:"):  # the tiered shop profile: basic, advanced, project
                return f"The {pile[5:]} shop deck is shuffled."
            return f"The {pile} pile is shuffled."
        if kind == "roll":
            return f"Cavern roll for {_n(data.get('card'))}: {data.get('value')}."
        if kind == "insert":
            return f"{_n(data.get('card'))} is shuffled into the exploration pile."
        if kind == "random_trash":
            return f"Witch's Hut: {seat_name(players, data.get('seat'))} loses {_n(data.get('card'))}."
        if kind == "assign_legendaries":
            return "Legendary dwarves are dealt: " + ", ".join(short_name(c) for c in data.get("cards", [])) + "."
        if kind in CHANCE_TEXT:
            return CHANCE_TEXT[kind].format(pool=data.get("pool", ""))
        return None
    if "player" in event:
        name = seat_name(players, event["player"])
        action = event.get("action") or {}
        if action.get("sealed"):
            return {
                "commit_bid": f"{name} commits to the bid (sealed).",
                "trash": f"{name} chooses a card to trash (sealed).",
            }.get(action.get("do", ""), f"{name} makes a private choice.")
        verb = action.get("do")
        if verb == "ready":
            return f"{name} is ready."
        if verb == "end_action_step":
            return f"{name} ends the action step."
        return f"{name}: {move_label(action, players)}."
    return None
