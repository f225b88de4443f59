"""The last move on Mountain Goats' board, from ``match["recent"]`` (:mod:`frontend.recent`).

Each turn in the window (a roll, then one climb) becomes a legend line, and
the board marks:

* ``moved``: ``{(seat, mountain): steps}``, the goats that climbed;
* ``taken``: ``{(seat, mountain)}``, where that goat now stands on the summit
  of a mountain it climbed and the stack still holds tokens, so it took at
  least one (an arrival or a collection, rules §5.1-5.2).  How many exactly
  would need the position before the turn, which the page does not rebuild
  (the match is never replayed for a page); the legend says "a token" only
  when the goat climbed one step there.

Everything here is public (rules §13) and comes from the viewer's projected
events anyway, so nothing hidden can show.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .. import Player
from .board import dice
from .log import name_of


def _took(view: dict[str, Any], seat: int, steps: Counter) -> list[tuple[int, int]]:
    """(mountain, steps there) where the climber now holds the summit of a climbed mountain with tokens left."""
    out = []
    for i, number in enumerate(view["mountains"]):
        if steps.get(number) and view["positions"][seat][i] == view["heights"][i] and view["stacks"][i] > 0:
            out.append((number, steps[number]))
    return out


def _text(climb: list[int], took: list[tuple[int, int]], faces: list[int] | None, roll: list[int] | None) -> str:
    text = "climbed " + ", ".join(map(str, climb)) if climb else "climbed nothing"
    if faces and roll and list(faces) != list(roll):
        text = "set the dice to " + " ".join(map(str, faces)) + " and " + text
    for number, k in took:
        text += f"; took {'a ' + str(number) + '-token' if k == 1 else str(number) + '-tokens'} on the summit"
    return text


def last_move(match: dict[str, Any], players: list[Player]) -> dict[str, Any]:
    view = match["view"]
    moved: Counter = Counter()
    taken: set[tuple[int, int]] = set()
    turns = []
    roll = None
    for event in match.get("recent") or []:
        payload = event.get("payload") or {}
        if event.get("type") == "chance" and "roll" in (payload.get("chance") or {}):
            roll = payload["chance"]["roll"]
        elif event.get("type") == "action" and isinstance(payload.get("player"), int):
            seat, action = payload["player"], payload.get("action") or {}
            climb = list(action.get("climb") or [])
            steps = Counter(climb)
            for number, k in steps.items():
                moved[(seat, number)] += k
            took = _took(view, seat, steps)
            taken.update((seat, number) for number, _ in took)
            player = next((p for p in players if p.seat == seat), None)
            turns.append(
                {
                    "seat": seat,
                    "colour": seat % 4,
                    "number": seat + 1,
                    "name": player.name if player else name_of(players, seat),
                    "you": bool(player and player.is_you),
                    "dice": dice(roll),
                    "text": _text(climb, took, action.get("faces"), roll),
                }
            )
            roll = None
    return {"turns": turns, "moved": dict(moved), "taken": taken, "any": bool(turns)}
