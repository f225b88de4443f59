"""Mountain Goats on the page: the SVG board, the dice and the climb chooser.

Everything in Mountain Goats is public (rules §13), so the observation is the
whole position.  The presenter reads it and computes:

* the geometry of the board (six mountains, their cards, goats and stacks);
* for the player to move, every reachable climb with what it would score,
  by applying it to a copy of the position (the engine is pure and cheap);
* the dice, and for a roll with two or more 1s, which dice may be set
  (rule §4.2, MG-2/MG-3), for the builder form.

Moves are sent in the rules file's record notation (§11): ``{"climb": [...]}``
from the list, or ``{"climb", "faces", "groups"}`` from the builder.
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine import get_game

from . import FormError, Player

GAME_ID = "mountain-goats"
GROUP_NAMES = ("A", "B", "C", "D")

# Board geometry (SVG user units).  Positions are 0 (the foot) to H (the summit).
COLUMN_WIDTH = 100
LEFT = 10
FOOT_TOP = 270
FOOT_HEIGHT = 50
CARD_PITCH = 56
CARD_HEIGHT = 50
VIEW_WIDTH = LEFT * 2 + 6 * COLUMN_WIDTH
VIEW_HEIGHT = 352
GOAT_RADIUS = 10


def _goat_spots(x: float, y: float, width: float, height: float, count: int) -> list[tuple[float, float]]:
    """Centres for ``count`` goats inside a slot: one row for up to 2, else a 2x2 grid."""
    step = 2 * GOAT_RADIUS + 3
    if count <= 2:
        cy = y + height / 2
        start = x + width / 2 - step * (count - 1) / 2
        return [(start + k * step, cy) for k in range(count)]
    spots = []
    for k in range(count):
        row, col = divmod(k, 2)
        spots.append((x + width / 2 + (col - 0.5) * step, y + height / 2 + (row - 0.5) * (2 * GOAT_RADIUS + 2)))
    return spots


def _mountains(view: dict[str, Any], players: list[Player]) -> list[dict[str, Any]]:
    by_seat = {p.seat: p for p in players}
    mountains = []
    for i, number in enumerate(view["mountains"]):
        height = view["heights"][i]
        x0 = LEFT + i * COLUMN_WIDTH
        cx = x0 + COLUMN_WIDTH // 2
        summit_top = FOOT_TOP - height * CARD_PITCH
        slots = []
        for pos in range(height + 1):
            if pos == 0:
                y, h, w = FOOT_TOP, FOOT_HEIGHT, COLUMN_WIDTH - 8
            else:
                y, h, w = FOOT_TOP - pos * CARD_PITCH, CARD_HEIGHT, 80 - 4 * (pos - 1)
            seats_here = [s for s in range(view["players"]) if view["positions"][s][i] == pos]
            goats = []
            for seat, (gx, gy) in zip(seats_here, _goat_spots(cx - w / 2, y, w, h, len(seats_here))):
                player = by_seat.get(seat)
                goats.append(
                    {
                        "seat": seat,
                        "colour": seat % 4,
                        "label": str(seat + 1),
                        "x": round(gx, 1),
                        "y": round(gy, 1),
                        "title": f"{player.name if player else f'Player {seat + 1}'}: "
                        + ("summit" if pos == height else "foot" if pos == 0 else f"step {pos} of {height}")
                        + f" on {number}",
                    }
                )
            slots.append(
                {
                    "pos": pos,
                    "x": round(cx - w / 2, 1),
                    "y": y,
                    "cx": cx,
                    "cy": y + h / 2,
                    "w": w,
                    "h": h,
                    "summit": pos == height,
                    "foot": pos == 0,
                    "goats": goats,
                }
            )
        occupant = view["summits"][i]
        stack = view["stacks"][i]
        where = []
        for seat in range(view["players"]):
            p = view["positions"][seat][i]
            name = by_seat[seat].name if seat in by_seat else f"Player {seat + 1}"
            where.append(f"{name} " + ("on the summit" if p == height else "at the foot" if p == 0 else f"at step {p}"))
        summary = (
            f"Mountain {number}, {height} steps to the summit, "
            + (f"{stack} token{'s' if stack != 1 else ''} left" if stack else "no tokens left")
            + ". "
            + "; ".join(where)
            + "."
        )
        mountains.append(
            {
                "number": number,
                "index": i,
                "summary": summary,
                "height": height,
                "cx": cx,
                "x0": x0,
                "slots": slots,
                "stack": stack,
                "stack_y": summit_top - 30,
                # each mountain is its own small SVG: its viewBox starts just above its stack
                "vb_top": summit_top - 52,
                "vb_height": VIEW_HEIGHT - (summit_top - 52),
                "label_y": FOOT_TOP + FOOT_HEIGHT + 16,
                "stack_discs": list(range(min(stack, 4))),
                "occupant": occupant,
                "occupant_name": by_seat[occupant].name if occupant is not None and occupant in by_seat else None,
                # the silhouette behind the cards: a trapezoid from the foot to above the summit
                "outline": " ".join(
                    f"{px:.0f},{py:.0f}"
                    for px, py in (
                        (x0 + 2, FOOT_TOP + FOOT_HEIGHT - 4),
                        (cx - 30, summit_top - 6),
                        (cx + 30, summit_top - 6),
                        (x0 + COLUMN_WIDTH - 2, FOOT_TOP + FOOT_HEIGHT - 4),
                    )
                ),
            }
        )
    return mountains


def _table(view: dict[str, Any], players: list[Player]) -> list[dict[str, Any]]:
    rows = []
    summits = view["summits"]
    for player in players:
        seat = player.seat
        rows.append(
            {
                "player": player,
                "tokens": [
                    {"mountain": m, "count": view["tokens"][seat][i]} for i, m in enumerate(view["mountains"])
                ],
                "bonuses": view["bonuses"][seat],
                "score": view["scores"][seat],
                "summits": [m for i, m in enumerate(view["mountains"]) if summits[i] == seat],
                "sets": min(view["tokens"][seat]),
            }
        )
    return rows


def _dice(roll: list[int] | None) -> list[dict[str, Any]]:
    if not roll:
        return []
    ones = [i for i, face in enumerate(roll) if face == 1]
    adjustable = len(ones) >= 2
    return [
        {"index": i, "face": face, "adjustable": adjustable and face == 1, "pips": PIPS[face]}
        for i, face in enumerate(roll)
    ]


# Pip centres on a 0..30 die face.
PIPS = {
    1: [(15, 15)],
    2: [(8, 8), (22, 22)],
    3: [(8, 8), (15, 15), (22, 22)],
    4: [(8, 8), (22, 8), (8, 22), (22, 22)],
    5: [(8, 8), (22, 8), (15, 15), (8, 22), (22, 22)],
    6: [(8, 7), (22, 7), (8, 15), (22, 15), (8, 23), (22, 23)],
}


def _climb_options(match: dict[str, Any]) -> list[dict[str, Any]]:
    """Every legal climb for the viewer, with what it would bring, best-looking first."""
    view = match["view"]
    seat = match.get("my_seat")
    legal = match.get("legal_actions") or []
    if seat is None or not legal:
        return []
    game = get_game(GAME_ID)
    state = game.state_from_observation(view, seat, random.Random(0))
    before = state.scores()[seat]
    summits_before = list(view["summits"])
    options = []
    for action in legal:
        climb = list(action["climb"])
        after = state.clone()
        after.apply(seat, tuple(climb))
        obs = after.observation(seat)
        gain = obs["scores"][seat] - before
        arrivals = [
            m for i, m in enumerate(view["mountains"]) if obs["summits"][i] == seat and summits_before[i] != seat
        ]
        bumps = [
            m
            for i, m in enumerate(view["mountains"])
            if summits_before[i] is not None and summits_before[i] != seat and obs["summits"][i] == seat
        ]
        bonus = len(obs["bonuses"][seat]) - len(view["bonuses"][seat])
        notes = []
        if arrivals:
            notes.append("summit " + ", ".join(map(str, arrivals)))
        if bumps:
            notes.append("knocks off the goat on " + ", ".join(map(str, bumps)))
        if bonus:
            notes.append("bonus token" if bonus == 1 else f"{bonus} bonus tokens")
        options.append(
            {
                "climb": climb,
                "json": json.dumps({"climb": climb}),
                "label": " + ".join(map(str, climb)) if climb else "Climb nothing",
                "gain": gain,
                "notes": notes,
                "ends": bool(obs["end_triggered"]) and not view["end_triggered"],
                "empty": not climb,
            }
        )
    # Longest climbs first, then the higher mountains; "nothing" last.
    options.sort(key=lambda o: (-len(o["climb"]), [-m for m in o["climb"]]))
    return options


def present(match: dict[str, Any], players: list[Player]) -> dict[str, Any]:
    view = match["view"]
    my_seat = match.get("my_seat")
    roll = view.get("roll")
    options = _climb_options(match)
    return {
        "prompt": "Choose a climb.",
        "width": VIEW_WIDTH,
        "column_width": COLUMN_WIDTH,
        "height": VIEW_HEIGHT,
        "goat_radius": GOAT_RADIUS,
        "mountains": _mountains(view, players),
        "table": _table(view, players),
        "dice": _dice(roll),
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
        "my_seat": my_seat,
        "roller": next((p.name for p in players if p.seat == view.get("active")), None),
    }


# ---------------------------------------------------------------- the event log


def _name(players: list[Player], seat: int) -> str:
    for player in players:
        if player.seat == seat:
            return player.name
    return f"Player {seat + 1}"


def describe_event(event: dict[str, Any], players: list[Player]) -> str | None:
    """One line for a game event in record notation, or None if it is not one."""
    if "chance" in event and isinstance(event["chance"], dict):
        chance = event["chance"]
        if "first_player" in chance:
            return f"{_name(players, chance['first_player'])} goes first."
        if "roll" in chance:
            return "Rolled " + " ".join(map(str, chance["roll"])) + "."
        return None
    if "action" in event and "player" in event:
        action = event["action"] or {}
        who = _name(players, event["player"])
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
            lines.append(f"{_name(players, seat)} rolled " + " ".join(map(str, chance["roll"])) + ".")
            continue
        lines.append(describe_event(event, players))
        if isinstance(event, dict) and "player" in event and "action" in event:
            seat = (event["player"] + 1) % n
    return lines


# ---------------------------------------------------------------- the climb builder


def action_from_form(data: Any, match: dict[str, Any]) -> dict[str, Any]:
    """Build ``{"climb", "faces", "groups"}`` from the builder's fields.

    Fields: ``face-<i>`` for a die rolled as 1 when two or more 1s were rolled
    (any face 1 to 6; other dice keep their roll), and ``group-<i>`` naming the
    group (A to D) of die ``i``, or empty for an unused die.  Every non-empty
    group must total 5 to 10 (a mountain); the engine checks the rest (the
    ones rule, and that the groups give the climb).
    """
    roll = match["view"].get("roll")
    if not roll:
        raise FormError("There are no dice to group: it is not a climbing turn.")
    faces = list(roll)
    adjustable = sum(1 for f in roll if f == 1) >= 2
    for i, face in enumerate(roll):
        raw = data.get(f"face-{i}")
        if raw in (None, ""):
            continue
        try:
            value = int(raw)
        except ValueError:
            raise FormError(f"Die {i + 1}: {raw!r} is not a face from 1 to 6.") from None
        if value != face and not (adjustable and face == 1):
            raise FormError(f"Die {i + 1} was rolled as {face}; only extra 1s may be set.")
        if not 1 <= value <= 6:
            raise FormError(f"Die {i + 1}: {value} is not a face from 1 to 6.")
        faces[i] = value
    groups: dict[str, list[int]] = {}
    for i in range(len(roll)):
        name = (data.get(f"group-{i}") or "").strip().upper()
        if not name:
            continue
        if name not in GROUP_NAMES:
            raise FormError(f"Die {i + 1}: {name!r} is not a group (A to D).")
        groups.setdefault(name, []).append(i)
    ordered = [groups[name] for name in GROUP_NAMES if name in groups]
    for name in GROUP_NAMES:
        if name in groups:
            total = sum(faces[i] for i in groups[name])
            if not 5 <= total <= 10:
                dice = ", ".join(str(i + 1) for i in groups[name])
                raise FormError(
                    f"Group {name} (dice {dice}) totals {total}, which names no mountain: "
                    "a group must total 5 to 10. Leave those dice unused or regroup them."
                )
    climb = sorted(sum(faces[i] for i in group) for group in ordered)
    return {"climb": climb, "faces": faces, "groups": ordered}
