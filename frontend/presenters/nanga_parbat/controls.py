"""The decisions of the player to move, grouped the way the page offers them.

Only ``match["legal_actions"]`` (the engine's legal actions in record
notation) are offered, so an illegal choice is never on the page: each entry
here carries the action's JSON, which a form (or the board's script, through
the hidden ``#np-move-form``) sends as it is.
"""

from __future__ import annotations

from typing import Any

from engine.games.nanga_parbat import facts

from .labels import ANIMALS, POWERS, dumps


def _power(powers: dict[str, dict[str, Any]], kind: str) -> dict[str, Any]:
    return powers.setdefault(
        kind,
        {
            "type": kind,
            "name": ANIMALS[kind]["name"],
            "letter": ANIMALS[kind]["letter"],
            "effect": POWERS[kind],
            "yak": kind == "yak",
            "options": [],
        },
    )


def _claim_label(view: dict[str, Any], action: dict[str, Any]) -> str:
    if "sections" in action:
        return "camps on " + ", ".join(action["sections"])
    board = view["animal_boards"][view["active"]]
    return "trade " + ", ".join(f"#{i} {ANIMALS[board[i]['type']]['name']}" for i in action["animals"])


def controls(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Every legal decision of the viewer: traps, relocations, the guide's placement, powers, claims, end turn."""
    traps: list[dict[str, Any]] = []
    relocations: list[dict[str, Any]] = []
    powers: dict[str, dict[str, Any]] = {}
    claims: dict[tuple[int, int], dict[str, Any]] = {}
    guide_options: list[dict[str, Any]] = []
    end = None
    cells = {e["section"]: e for e in view["sections"] or []}
    for action in legal:
        text = dumps(action)
        if "trap" in action:
            kind = cells[action["trap"]].get("animal", "")
            traps.append({"section": action["trap"], "json": text, "label": f"{ANIMALS[kind]['name']} on {action['trap']}"})
        elif "relocate" in action:
            relocations.append({"region": action["relocate"], "json": text})
        elif "guide" in action and "activate" not in action:
            guide_options.append({"region": action["guide"], "json": text})
        elif "activate" in action:
            power = _power(powers, action["activate"])
            if power["yak"]:
                power["options"].append({"label": f"guide to region {action['guide']}", "json": text, "region": action["guide"]})
            else:
                a, b = action["swap"]
                power["options"].append({"label": f"{a} ↔ {b}", "json": text})
        elif "claim" in action:
            key = (action["claim"]["row"], action["claim"]["column"])
            claim = claims.setdefault(key, {"row": key[0], "column": key[1], "options": []})
            claim["options"].append({"label": _claim_label(view, action), "json": text})
        elif "end_turn" in action:
            end = text
    order = {kind: k for k, kind in enumerate(facts.ACTIVATED_TYPES)}
    return {
        "traps": traps,
        "relocations": relocations,
        "guide_options": guide_options,
        "powers": sorted(powers.values(), key=lambda p: order[p["type"]]),
        "claims": [claims[k] for k in sorted(claims)],
        "end": end,
        "any": bool(legal),
    }
