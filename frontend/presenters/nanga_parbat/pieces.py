"""What the board template draws: the sections and their pieces, the regions, the points chart,
the scoring path and the animal boards, with the last move's marks (:mod:`.last_move`)."""

from __future__ import annotations

from typing import Any

from engine.games.nanga_parbat import facts

from .. import Player
from .geometry import REGION_SHAPES, XY
from .labels import ANIMALS, ROW_LABELS, name_of

TRACK_LENGTH = 40  # spaces shown on the scoring path (more if a score passes it)
MARK_WORDS = {"trap": "a hiker placed by a trap", "swap": "swapped", "camp": "a camp built"}


def cells(view: dict[str, Any], players: list[Player], traps: dict[str, str], marks: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for entry in view["sections"] or []:
        name = entry["section"]
        x, y = XY[name]
        mark = marks["sections"].get(name)
        cell: dict[str, Any] = {"section": name, "x": x, "y": y, "trap": traps.get(name), "last": mark}
        if "animal" in entry:
            kind = entry["animal"]
            cell.update(piece="animal", type=kind, letter=ANIMALS[kind]["letter"], title=f"{name}: {ANIMALS[kind]['name']}")
        else:
            seat = entry.get("hiker", entry.get("camp"))
            piece = "hiker" if "hiker" in entry else "camp"
            cell.update(
                piece=piece, seat=seat, colour=seat % 4, label=str(seat + 1), title=f"{name}: {piece} of {name_of(players, seat)}"
            )
        if mark:
            cell["title"] += f" (last move: {MARK_WORDS[mark]})"
        if cell["trap"]:
            cell["title"] += " (click to trap)"
        out.append(cell)
    return out


def regions(view: dict[str, Any], relocate: dict[int, str], place: dict[int, str]) -> list[dict[str, Any]]:
    animals_here = dict.fromkeys(facts.REGIONS, 0)
    for entry in view["sections"] or []:
        if "animal" in entry:
            animals_here[facts.region_of(entry["section"])] += 1
    out = []
    for number in facts.REGIONS:
        if number in relocate:
            label = f"Relocate the guide to region {number}"
        elif number in place:
            label = f"Place the guide on region {number}"
        else:
            label = ""
        out.append(
            {
                "number": number,
                **REGION_SHAPES[number],
                "guide": view["guide"] == number,
                "empty": view["sections"] is not None and animals_here[number] == 0,
                "animals": animals_here[number],
                "action": relocate.get(number) or place.get(number),
                "action_label": label,
            }
        )
    return out


def chart(
    view: dict[str, Any], players: list[Player], claimable: set[tuple[int, int]], marks: dict[str, Any]
) -> list[dict[str, Any]]:
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
                "owner_name": name_of(players, owner) if owner is not None else "",
                "claimable": (square["row"], square["column"]) in claimable,
                "kind": square["kind"],
                "last": (square["row"], square["column"]) in marks["squares"],
            }
        )
    return [rows[k] for k in sorted(rows)]


def track(view: dict[str, Any], players: list[Player]) -> list[dict[str, Any]]:
    scores = view["scores"]
    length = max(TRACK_LENGTH, max(scores) + 5)
    # Plain data (no Player): the same for every viewer, so the path renders once per score change (memo(...)).
    return [{"value": value, "markers": [p.badge() for p in players if scores[p.seat] == value]} for value in range(length + 1)]


def boards(view: dict[str, Any], players: list[Player], marks: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for player in players:
        seat = player.seat
        new = marks["new_animals"].get(seat, set())
        animals = [
            {
                "index": index,
                "type": entry["type"],
                "letter": ANIMALS[entry["type"]]["letter"],
                "name": ANIMALS[entry["type"]]["name"],
                "activated": entry["activated"],
                "power": entry["type"] in facts.ACTIVATED_TYPES,
                "last": index in new,
            }
            for index, entry in enumerate(view["animal_boards"][seat])
        ]
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
