"""Mountain Goats' board as SVG data: six mountains, their cards, goats and token stacks; the dice; the score table.

Positions are 0 (the foot) to H (the summit), rules §2.  ``marks`` is the
last move (:mod:`.last_move`): the goats that climbed and the stacks taken from
are flagged so the template can ring them.
"""

from __future__ import annotations

from typing import Any

from .. import Player
from .log import name_of

# Board geometry (SVG user units).
COLUMN_WIDTH = 100
LEFT = 10
FOOT_TOP = 270
FOOT_HEIGHT = 50
CARD_PITCH = 56
CARD_HEIGHT = 50
VIEW_WIDTH = LEFT * 2 + 6 * COLUMN_WIDTH
VIEW_HEIGHT = 352
GOAT_RADIUS = 10

# Pip centres on a 0..30 die face.
PIPS = {
    1: [(15, 15)],
    2: [(8, 8), (22, 22)],
    3: [(8, 8), (15, 15), (22, 22)],
    4: [(8, 8), (22, 8), (8, 22), (22, 22)],
    5: [(8, 8), (22, 8), (15, 15), (8, 22), (22, 22)],
    6: [(8, 7), (22, 7), (8, 15), (22, 15), (8, 23), (22, 23)],
}


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


def _where(pos: int, height: int) -> str:
    return "summit" if pos == height else "foot" if pos == 0 else f"step {pos} of {height}"


def _slots(view: dict[str, Any], players: list[Player], i: int, cx: float, marks: dict[str, Any]) -> list[dict[str, Any]]:
    number, height = view["mountains"][i], view["heights"][i]
    moved = marks.get("moved") or {}
    slots = []
    for pos in range(height + 1):
        if pos == 0:
            y, h, w = FOOT_TOP, FOOT_HEIGHT, COLUMN_WIDTH - 8
        else:
            y, h, w = FOOT_TOP - pos * CARD_PITCH, CARD_HEIGHT, 80 - 4 * (pos - 1)
        seats_here = [s for s in range(view["players"]) if view["positions"][s][i] == pos]
        goats = []
        for seat, (gx, gy) in zip(seats_here, _goat_spots(cx - w / 2, y, w, h, len(seats_here))):
            steps = moved.get((seat, number), 0)
            title = f"{name_of(players, seat)}: {_where(pos, height)} on {number}"
            if steps:
                title += f" (last move: climbed {steps} step{'s' if steps != 1 else ''}"
                title += ", then knocked off)" if pos == 0 else ")"
            goats.append(
                {
                    "seat": seat,
                    "colour": seat % 4,
                    "label": str(seat + 1),
                    "x": round(gx, 1),
                    "y": round(gy, 1),
                    "title": title,
                    "last": bool(steps),
                }
            )
        slots.append(
            {
                "pos": pos, "x": round(cx - w / 2, 1), "y": y, "cx": cx, "cy": y + h / 2, "w": w, "h": h,
                "summit": pos == height, "foot": pos == 0, "goats": goats,
            }
        )
    return slots


def _summary(view: dict[str, Any], players: list[Player], i: int) -> str:
    number, height, stack = view["mountains"][i], view["heights"][i], view["stacks"][i]
    where = []
    for seat in range(view["players"]):
        p = view["positions"][seat][i]
        where.append(
            f"{name_of(players, seat)} " + ("on the summit" if p == height else "at the foot" if p == 0 else f"at step {p}")
        )
    tokens = f"{stack} token{'s' if stack != 1 else ''} left" if stack else "no tokens left"
    return f"Mountain {number}, {height} steps to the summit, {tokens}. " + "; ".join(where) + "."


def mountains(view: dict[str, Any], players: list[Player], marks: dict[str, Any]) -> list[dict[str, Any]]:
    """One small SVG's data per mountain, in mountain order."""
    taken = {m for _, m in marks.get("taken") or ()}
    climbed = {m for _, m in marks.get("moved") or {}}
    out = []
    for i, number in enumerate(view["mountains"]):
        height = view["heights"][i]
        x0 = LEFT + i * COLUMN_WIDTH
        cx = x0 + COLUMN_WIDTH // 2
        summit_top = FOOT_TOP - height * CARD_PITCH
        occupant = view["summits"][i]
        stack = view["stacks"][i]
        out.append(
            {
                "number": number,
                "index": i,
                "summary": _summary(view, players, i),
                "height": height,
                "cx": cx,
                "x0": x0,
                "slots": _slots(view, players, i, cx, marks),
                "stack": stack,
                "stack_y": summit_top - 30,
                # each mountain is its own small SVG: its viewBox starts just above its stack
                "vb_top": summit_top - 52,
                "vb_height": VIEW_HEIGHT - (summit_top - 52),
                "label_y": FOOT_TOP + FOOT_HEIGHT + 16,
                "stack_discs": list(range(min(stack, 4))),
                "occupant": occupant,
                "occupant_name": name_of(players, occupant) if occupant is not None else None,
                "climbed": number in climbed,
                "taken": number in taken,
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
    return out


def table(view: dict[str, Any], players: list[Player], marks: dict[str, Any]) -> list[dict[str, Any]]:
    """The score table: tokens per mountain (those just taken flagged), bonus tokens and score per player."""
    taken = set(marks.get("taken") or ())
    rows = []
    summits = view["summits"]
    for player in players:
        seat = player.seat
        rows.append(
            {
                "player": player,
                "tokens": [
                    {"mountain": m, "count": view["tokens"][seat][i], "last": (seat, m) in taken}
                    for i, m in enumerate(view["mountains"])
                ],
                "bonuses": view["bonuses"][seat],
                "score": view["scores"][seat],
                "summits": [m for i, m in enumerate(view["mountains"]) if summits[i] == seat],
                "sets": min(view["tokens"][seat]),
            }
        )
    return rows


def dice(roll: list[int] | None) -> list[dict[str, Any]]:
    """The four dice as rolled; with two or more 1s, the 1s may be set (rules §4.2)."""
    if not roll:
        return []
    adjustable = sum(1 for face in roll if face == 1) >= 2
    return [
        {"index": i, "face": face, "adjustable": adjustable and face == 1, "pips": PIPS[face]}
        for i, face in enumerate(roll)
    ]
