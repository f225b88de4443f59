"""The last move on Nanga Parbat's board, from ``match["recent"]`` (:mod:`frontend.recent`).

The actions in the window are replayed *symbolically* (which sections and
squares they touched, which animals joined a board), never on an engine
state, since the page never replays the match:

* ``sections``: ``{section: "trap" | "swap" | "camp"}``, the newest change of
  each section: the hiker a trap placed, the pieces a snow leopard, tahr or
  musk deer swapped, the camps a claim built;
* ``squares``: the chart squares claimed;
* ``guide``: whether the guide moved (placed, relocated, or sent by an activation);
* ``new_animals``: ``{seat: {board index}}``, the animals trapped in the
  window that are still on that seat's board (a trade renumbers the board,
  rules §6.2, and is followed here);
* ``turns``: the legend, one line per turn (a run of one seat's actions).

Everything in Nanga Parbat is public (rules §14) and the events are the
viewer's projected ones anyway, so nothing hidden can show.
"""

from __future__ import annotations

from typing import Any

from .. import Player
from .labels import animal_name, name_of
from .log import describe_action


def _actions(recent: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for event in recent:
        payload = event.get("payload") or {}
        if event.get("type") == "action" and isinstance(payload.get("player"), int):
            out.append((payload["player"], payload.get("action") or {}))
    return out


def _boards(view: dict[str, Any], actions: list[tuple[int, dict[str, Any]]]) -> tuple[dict[int, set[int]], dict[int, str]]:
    """Which final board entries were trapped in the window, and the type each trap (by action index) took."""
    boards = view["animal_boards"]
    symbolic: dict[int, list[int | None]] = {}
    for seat, final in enumerate(boards):
        traps = sum(1 for s, a in actions if s == seat and "trap" in a)
        traded = sum(len(a.get("animals") or []) for s, a in actions if s == seat and "claim" in a)
        symbolic[seat] = [None] * max(0, len(final) - traps + traded)
    for k, (seat, action) in enumerate(actions):
        if seat not in symbolic:
            continue
        if "trap" in action:
            symbolic[seat].append(k)
        elif "claim" in action and action.get("animals"):
            for index in sorted(set(action["animals"]), reverse=True):
                if 0 <= index < len(symbolic[seat]):
                    del symbolic[seat][index]
    new: dict[int, set[int]] = {}
    kinds: dict[int, str] = {}
    for seat, entries in symbolic.items():
        if len(entries) != len(boards[seat]):
            continue  # the window does not explain this board (cut at MAX_RECENT): mark nothing on it
        for index, trap in enumerate(entries):
            if trap is not None:
                new.setdefault(seat, set()).add(index)
                kinds[trap] = boards[seat][index]["type"]
    return new, kinds


def _phrase(view: dict[str, Any], action: dict[str, Any], kind: str | None) -> str | None:
    if "end_turn" in action:
        return None
    if "trap" in action and kind:
        return f"trapped a {animal_name(kind)} on {action['trap']}"
    text = describe_action(action)
    if "claim" in action and text:
        square = next(
            (s for s in view["chart"] if s["row"] == action["claim"].get("row") and s["column"] == action["claim"].get("column")),
            None,
        )
        if square:
            text += f" ({square['points']} points)"
    return text


def last_move(match: dict[str, Any], players: list[Player]) -> dict[str, Any]:
    view = match["view"]
    actions = _actions(match.get("recent") or [])
    sections: dict[str, str] = {}
    squares: set[tuple[int, int]] = set()
    guide = False
    new_animals, kinds = _boards(view, actions) if view.get("animal_boards") else ({}, {})
    turns: list[dict[str, Any]] = []
    for k, (seat, action) in enumerate(actions):
        guide = guide or "guide" in action or "relocate" in action
        if "trap" in action:
            sections[action["trap"]] = "trap"
        elif "swap" in action:
            for section in action["swap"]:
                sections[section] = "swap"
        elif "claim" in action:
            squares.add((action["claim"].get("row"), action["claim"].get("column")))
            for section in action.get("sections") or []:
                sections[section] = "camp"
        if not turns or turns[-1]["seat"] != seat:
            player = next((p for p in players if p.seat == seat), None)
            turns.append(
                {
                    "seat": seat, "colour": seat % 4, "number": seat + 1, "name": name_of(players, seat),
                    "you": bool(player and player.is_you), "items": [],
                }
            )
        phrase = _phrase(view, action, kinds.get(k))
        if phrase:
            turns[-1]["items"].append(phrase)
    for turn in turns:
        turn["text"] = "; ".join(turn["items"]) if turn["items"] else "ended the turn"
    return {
        "turns": turns,
        "sections": sections,
        "squares": squares,
        "guide": guide,
        "new_animals": new_animals,
        "any": bool(turns),
    }
