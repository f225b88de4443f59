"""The last moves on the table: what changed since the viewer's previous turn.

``match["recent"]`` holds the events the viewer may see (the shape of
``games.selectors.visible_events``: ``seq``, ``seat``, ``action`` in record notation with
hidden parts already redacted), oldest first, since the viewer's previous turn.  A mark is
put only on a card instance that such an event names and that the viewer's own observation
draws anyway, so a mark can never show a hidden card: a sealed entry names none, and a card
the viewer cannot see is not on the page to be marked.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import Player
from .log import describe_event

CARD_KEYS = ("card", "building", "give", "target")
LIST_KEYS = ("cards", "steps", "keep", "order")
MAX_LINES = 12


def _named(action: dict[str, Any]) -> Iterator[str]:
    for key in CARD_KEYS:
        value = action.get(key)
        if isinstance(value, str) and "#" in value:
            yield value
    for key in LIST_KEYS:
        for value in action.get(key) or ():
            if isinstance(value, str) and "#" in value:
                yield value
    for move in action.get("moves") or ():
        if isinstance(move, dict) and isinstance(move.get("card"), str):
            yield move["card"]
    for use in action.get("uses") or ():
        if isinstance(use, dict):
            for key in ("tap", "pawn", "hoard", "card"):
                if isinstance(use.get(key), str):
                    yield use[key]


def _entry(event: dict[str, Any]) -> tuple[int | None, dict[str, Any], bool]:
    """(acting seat, action or chance payload, is a chance entry).

    Accepts a ``visible_events`` item (``{"seq", "type", "payload": {"player", "action"} | {"chance"}}``)
    as well as a flat entry (``{"seq", "seat" or "player", "action"}`` or ``{"chance"}``).
    """
    if isinstance(event.get("payload"), dict):
        event = {**event["payload"], "seq": event.get("seq")}
    if "chance" in event:
        return None, event.get("chance") or {}, True
    action = event.get("action") or {}
    seat = event.get("seat", event.get("player"))
    return seat if isinstance(seat, int) else None, action, False


def marks(match: dict[str, Any], players: list[Player]) -> dict[str, Any]:
    """``{"cards": {instance: seat or None}, "slots": {slot: seat}, "lines": [...]}`` from ``match["recent"]``."""
    recent = match.get("recent") or []
    cards: dict[str, int | None] = {}
    slots: dict[int, int | None] = {}
    lines = []
    for event in recent:
        seat, payload, is_chance = _entry(event)
        if not is_chance and not payload:
            continue  # a match event (created, seats filled, ...): nobody moved, the log says it
        if payload.get("sealed"):
            text = describe_event({"player": seat, "action": payload} if not is_chance else {"chance": payload}, players)
        else:
            if is_chance:
                if payload.get("kind") == "roll" and isinstance(payload.get("card"), str):
                    cards[payload["card"]] = None
            else:
                for instance in _named(payload):
                    cards[instance] = seat
                if payload.get("do") == "choose_legendary" and isinstance(payload.get("card"), str):
                    cards[f"{payload['card']}#1"] = seat  # the setup pick names a legendary (one of each) by kind
                if payload.get("do") == "buy" and isinstance(payload.get("slot"), int):
                    slots[payload["slot"]] = seat
            text = describe_event({"chance": payload} if is_chance else {"player": seat, "action": payload}, players)
        if text:
            lines.append({"seat": seat, "text": text, "seq": event.get("seq")})
    by_seat = {p.seat: p for p in players}
    return {
        "cards": cards, "slots": slots,
        "lines": [{**line, "player": by_seat.get(line["seat"])} for line in lines[-MAX_LINES:]],
        "more": max(0, len(lines) - MAX_LINES),
    }


def apply_marks(card: dict[str, Any] | None, marked: dict[str, Any], players: list[Player], slot: int | None = None) -> None:
    """Mark one drawn card (in place) if a recent event named it (or bought from its slot)."""
    if card is None:
        return
    # Plain data (no Player), so that the card still renders through memo(...) (mh_card(...)).
    by_seat = {p.seat: p.badge() for p in players}
    if card["id"] in marked["cards"]:
        card["recent"] = {"player": by_seat.get(marked["cards"][card["id"]]), "what": "moved"}
    elif slot is not None and slot in marked["slots"]:
        card["recent"] = {"player": by_seat.get(marked["slots"][slot]), "what": "new in the shop"}
