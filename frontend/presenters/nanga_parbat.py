"""Nanga Parbat on the page: the SVG mountain, the points chart, the scoring path,
the animal boards and every decision of the player to move.

Everything in Nanga Parbat is public (rules §14): the observation is the whole
position.  The geometry comes from the engine's data table (regions, sections,
dotted paths), never from a list of its own.

Decisions are offered only from ``match["legal_actions"]`` (the engine's legal
actions in record notation), so an illegal choice is never on the page:

* a trap: the animals that may be trapped are clickable on the mountain, and
  also listed as buttons;
* a relocation: the regions the guide may go to, likewise;
* an activation: pick the animal, then click its squares on the mountain (the
  script ``frontend/static/frontend/nanga-parbat.js`` highlights only squares
  that can still complete a legal swap); without the script, a list of the
  legal swaps;
* a claim: pick a free square of the chart, then click the hikers (row 1) or
  the animals on your board (rows 2 and 3); likewise with a list fallback;
* end turn: a button.
"""

from __future__ import annotations

import json
from typing import Any

from engine.games.nanga_parbat import (
    ACTIVATED_TYPES,
    DATA,
    REGION_NUMBERS,
    REGION_SECTIONS,
    SECTION_NAMES,
    TYPE_NAMES,
)

from . import Player

GAME_ID = "nanga-parbat"

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

# Geometry (SVG user units): the regions form a pyramid of pyramids, as in rules §3.
DX = 62  # between neighbouring sections of a row
DY = 64  # between rows (room for each section's name under it)
R = 24  # a section's radius
MARGIN_X = 40
MARGIN_TOP = 44
WIDTH = 2 * MARGIN_X + 8 * DX
HEIGHT = MARGIN_TOP + 8 * DY + R + 34
CENTRE = WIDTH / 2
TRACK_LENGTH = 40  # spaces shown on the scoring path (more if a score passes it)


def _section_xy() -> dict[str, tuple[float, float]]:
    """Centre of every section: region r sits at row rr, column rc of the big pyramid."""
    xy = {}
    regions = list(DATA["board"]["regions"])
    for r_index, key in enumerate(regions):
        rr = 0 if r_index == 0 else 1 if r_index < 3 else 2
        rc = r_index - (0 if rr == 0 else 1 if rr == 1 else 3)
        top_x = CENTRE + (rc - rr / 2) * 3 * DX
        for s_index, name in enumerate(DATA["board"]["regions"][key]):
            sr = 0 if s_index == 0 else 1 if s_index < 3 else 2
            sc = s_index - (0 if sr == 0 else 1 if sr == 1 else 3)
            x = top_x + (sc - sr / 2) * DX
            y = MARGIN_TOP + (3 * rr + sr) * DY
            xy[name] = (round(x, 1), round(y, 1))
    return xy


XY = _section_xy()


def _region_shape(r: int) -> dict[str, Any]:
    """The region's outline: the hull of circles around its three corner sections."""
    names = [SECTION_NAMES[i] for i in REGION_SECTIONS[r]]
    corners = [XY[names[0]], XY[names[3]], XY[names[5]]]  # top, bottom left, bottom right
    d = R + 5
    cx = sum(x for x, _ in corners) / 3
    cy = sum(y for _, y in corners) / 3
    offsets = []  # per edge k (corner k to k+1): the outward normal times d
    for k in range(3):
        (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 3]
        nx, ny = y2 - y1, x1 - x2
        length = (nx * nx + ny * ny) ** 0.5
        nx, ny = nx / length * d, ny / length * d
        if (x1 + nx - cx) ** 2 + (y1 + ny - cy) ** 2 < (x1 - cx) ** 2 + (y1 - cy) ** 2:
            nx, ny = -nx, -ny
        offsets.append((nx, ny))
    parts = []
    for k in range(3):
        (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 3]
        nx, ny = offsets[k]
        nnx, nny = offsets[(k + 1) % 3]
        parts.append(f"{'M' if k == 0 else 'L'}{x1 + nx:.1f},{y1 + ny:.1f} L{x2 + nx:.1f},{y2 + ny:.1f}")
        parts.append(f"A{d},{d} 0 0 0 {x2 + nnx:.1f},{y2 + nny:.1f}")
    top_x, top_y = corners[0]
    return {
        "path": " ".join(parts) + " Z",
        "label_x": round(top_x - 44, 1),
        "label_y": round(top_y - 10, 1),
    }


REGION_SHAPES = [_region_shape(r) for r in range(len(REGION_NUMBERS))]
PATHS = [
    {"a": a, "b": b, "x1": XY[a][0], "y1": XY[a][1], "x2": XY[b][0], "y2": XY[b][1]}
    for a, b in DATA["board"]["dotted_paths"]
]


def _name(players: list[Player], seat: int) -> str:
    for player in players:
        if player.seat == seat:
            return player.name
    return f"Player {seat + 1}"


def _dumps(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"))


def _cells(view: dict[str, Any], players: list[Player], traps: dict[str, str]) -> list[dict[str, Any]]:
    cells = []
    for entry in view["sections"] or []:
        name = entry["section"]
        x, y = XY[name]
        cell: dict[str, Any] = {"section": name, "x": x, "y": y, "trap": traps.get(name)}
        if "animal" in entry:
            kind = entry["animal"]
            cell.update(
                piece="animal",
                type=kind,
                letter=ANIMALS[kind]["letter"],
                title=f"{name}: {ANIMALS[kind]['name']}",
            )
        else:
            seat = entry.get("hiker", entry.get("camp"))
            piece = "hiker" if "hiker" in entry else "camp"
            cell.update(
                piece=piece,
                seat=seat,
                colour=seat % 4,
                label=str(seat + 1),
                title=f"{name}: {piece} of {_name(players, seat)}",
            )
        if cell["trap"]:
            cell["title"] += " (click to trap)"
        cells.append(cell)
    return cells


def _chart(view: dict[str, Any], players: list[Player], claimable: set[tuple[int, int]]) -> list[dict[str, Any]]:
    rows: dict[int, dict[str, Any]] = {}
    for square in view["chart"]:
        row = rows.setdefault(
            square["row"], {"row": square["row"], "label": ROW_LABELS.get(square["kind"], square["kind"]), "squares": []}
        )
        owner = square["owner"]
        row["squares"].append(
            {
                "row": square["row"],
                "column": square["column"],
                "requirement": square["requirement"],
                "points": square["points"],
                "owner": owner,
                "owner_colour": owner % 4 if owner is not None else None,
                "owner_label": str(owner + 1) if owner is not None else "",
                "owner_name": _name(players, owner) if owner is not None else "",
                "claimable": (square["row"], square["column"]) in claimable,
                "kind": square["kind"],
            }
        )
    return [rows[k] for k in sorted(rows)]


def _track(view: dict[str, Any], players: list[Player]) -> list[dict[str, Any]]:
    scores = view["scores"]
    length = max(TRACK_LENGTH, max(scores) + 5)
    spaces = []
    for value in range(length + 1):
        here = [p for p in players if scores[p.seat] == value]
        spaces.append({"value": value, "markers": here})
    return spaces


def _boards(view: dict[str, Any], players: list[Player]) -> list[dict[str, Any]]:
    out = []
    for player in players:
        seat = player.seat
        animals = []
        for index, entry in enumerate(view["animal_boards"][seat]):
            kind = entry["type"]
            animals.append(
                {
                    "index": index,
                    "type": kind,
                    "letter": ANIMALS[kind]["letter"],
                    "name": ANIMALS[kind]["name"],
                    "activated": entry["activated"],
                    "power": kind in ACTIVATED_TYPES,
                }
            )
        out.append(
            {
                "player": player,
                "score": view["scores"][seat],
                "hikers": view["hikers_in_stock"][seat],
                "camps": view["camps_in_stock"][seat],
                "cubes": view["cubes_in_stock"][seat],
                "animals": animals,
                "mine": player.is_you,
            }
        )
    return out


def _controls(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Every legal decision of the viewer, grouped the way the page offers them."""
    traps: list[dict[str, Any]] = []
    relocations: list[dict[str, Any]] = []
    powers: dict[str, dict[str, Any]] = {}
    claims: dict[tuple[int, int], dict[str, Any]] = {}
    guide_options: list[dict[str, Any]] = []
    end = None
    cells = {e["section"]: e for e in view["sections"] or []}
    for action in legal:
        text = _dumps(action)
        if "trap" in action:
            kind = cells[action["trap"]].get("animal", "")
            traps.append({"section": action["trap"], "json": text, "label": f"{ANIMALS[kind]['name']} on {action['trap']}"})
        elif "relocate" in action:
            relocations.append({"region": action["relocate"], "json": text})
        elif "guide" in action and "activate" not in action:
            guide_options.append({"region": action["guide"], "json": text})
        elif "activate" in action:
            kind = action["activate"]
            power = powers.setdefault(
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
            if kind == "yak":
                label = f"guide to region {action['guide']}"
                power["options"].append({"label": label, "json": text, "region": action["guide"]})
            else:
                a, b = action["swap"]
                power["options"].append({"label": f"{a} ↔ {b}", "json": text})
        elif "claim" in action:
            key = (action["claim"]["row"], action["claim"]["column"])
            claim = claims.setdefault(key, {"row": key[0], "column": key[1], "options": []})
            if "sections" in action:
                label = "camps on " + ", ".join(action["sections"])
            else:
                board = view["animal_boards"][view["active"]]
                label = "trade " + ", ".join(
                    f"#{i} {ANIMALS[board[i]['type']]['name']}" for i in action["animals"]
                )
            claim["options"].append({"label": label, "json": text})
        elif "end_turn" in action:
            end = text
    order = {kind: k for k, kind in enumerate(ACTIVATED_TYPES)}
    return {
        "traps": traps,
        "relocations": relocations,
        "guide_options": guide_options,
        "powers": sorted(powers.values(), key=lambda p: order[p["type"]]),
        "claims": [claims[k] for k in sorted(claims)],
        "end": end,
        "any": bool(legal),
    }


def _prompt(view: dict[str, Any], controls: dict[str, Any], my_turn: bool) -> str:
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


def present(match: dict[str, Any], players: list[Player]) -> dict[str, Any]:
    view = match["view"]
    my_seat = match.get("my_seat")
    legal = list(match.get("legal_actions") or [])
    controls = _controls(view, legal)
    my_turn = my_seat is not None and bool(legal)
    traps = {t["section"]: t["json"] for t in controls["traps"]}
    relocate = {r["region"]: r["json"] for r in controls["relocations"]}
    place = {g["region"]: g["json"] for g in controls["guide_options"]}
    animals_here = [0] * len(REGION_NUMBERS)
    for entry in view["sections"] or []:
        if "animal" in entry:
            animals_here[REGION_NUMBERS.index(int(entry["section"].split(".")[0]))] += 1
    regions = []
    for r, number in enumerate(REGION_NUMBERS):
        shape = REGION_SHAPES[r]
        regions.append(
            {
                "number": number,
                **shape,
                "guide": view["guide"] == number,
                "empty": view["sections"] is not None and animals_here[r] == 0,
                "animals": animals_here[r],
                "action": relocate.get(number) or place.get(number),
                "action_label": (
                    f"Relocate the guide to region {number}"
                    if number in relocate
                    else f"Place the guide on region {number}"
                    if number in place
                    else ""
                ),
            }
        )
    guide_shape = REGION_SHAPES[REGION_NUMBERS.index(view["guide"])] if view["guide"] else None
    claimable = {(c["row"], c["column"]) for c in controls["claims"]}
    legend = [{"type": t, **ANIMALS[t]} for t in TYPE_NAMES]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "r": R,
        "regions": regions,
        "paths": PATHS,
        "cells": _cells(view, players, traps),
        "guide": view["guide"],
        "guide_x": guide_shape["label_x"] - 22 if guide_shape else None,
        "guide_y": guide_shape["label_y"] if guide_shape else None,
        "legend": legend,
        "chart": _chart(view, players, claimable),
        "requirements": DATA["points_chart"]["column_requirements"],
        "track": _track(view, players),
        "boards": _boards(view, players),
        "controls": controls,
        "prompt": _prompt(view, controls, my_turn),
        "my_turn": my_turn,
        "my_seat": my_seat,
        "phase": view["phase"],
        "turn": view["turn"],
        "trapped": view["trapped"],
        "claimed": view["claimed"],
        "area_scoring": bool((view.get("options") or {}).get("area_scoring")),
        # the legal actions for the board's script (a data attribute: htmx drops <script> in swaps)
        "legal_json": json.dumps(legal, separators=(",", ":")),
        "sections_known": view["sections"] is not None,
        "board_name": DATA["board"]["name"],
    }


# ---------------------------------------------------------------- the event log


def describe_event(event: dict[str, Any], players: list[Player]) -> str | None:
    """One line for a game event in record notation, or None if it is not one."""
    if "chance" in event and isinstance(event["chance"], dict):
        chance = event["chance"]
        if "first_player" in chance:
            return f"{_name(players, chance['first_player'])} goes first."
        if "animals" in chance:
            return "The 36 animals were shuffled onto the mountain."
        return None
    if "action" not in event or "player" not in event:
        return None
    who = _name(players, event["player"])
    action = event["action"] or {}
    if "trap" in action:
        return f"{who} trapped the animal on {action['trap']}."
    if "relocate" in action:
        return f"{who} relocated the guide to region {action['relocate']}."
    if "guide" in action and "activate" not in action:
        return f"{who} placed the guide on region {action['guide']}."
    if "activate" in action:
        kind = action["activate"]
        name = ANIMALS.get(kind, {"name": kind})["name"]
        if "guide" in action:
            return f"{who} activated a {name}: the guide goes to region {action['guide']}."
        swap = action.get("swap") or ["?", "?"]
        return f"{who} activated a {name}: swapped {swap[0]} and {swap[1]}."
    if "claim" in action:
        square = action["claim"]
        where = f"row {square.get('row')}, column {square.get('column')}"
        if "sections" in action:
            return f"{who} claimed {where}: camps on " + ", ".join(action["sections"]) + "."
        return f"{who} claimed {where}, trading {len(action.get('animals') or [])} animals."
    if "end_turn" in action:
        return f"{who} ended the turn."
    return None

