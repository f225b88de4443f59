"""Mountainhome moves in words, grouped, and attached to the cards they act on.

``legal_actions`` (record notation, §23.4) are the only moves offered.  Actions that differ
only in how they are paid or in a detail (``pay``, ``sources``, ``res``, ``n`` …) form one
group with a list of variants.  :func:`anchor` says which card (or shop slot, or legendary)
an action belongs to, so the page offers it by clicking that card; the rest are answers to
the prompt (buttons), and every move is also in the fallback list.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.games.mountainhome.facts import card_facts, kind_of

from .. import Player
from .cards import cost_text, short_name
from .texts import GROUP_LABEL, RES_NAME, RES_SHORT, VARIANT_KEYS

# ---------------------------------------------------------------------- labels of moves


def res_text(res: dict[str, int] | None) -> str:
    if not res:
        return "nothing"
    return " + ".join(f"{amt} {RES_SHORT[r]}" for r, amt in res.items() if amt)


def _n(instance: Any) -> str:
    return short_name(kind_of(instance)) if isinstance(instance, str) else str(instance)


def source_text(src: dict[str, Any]) -> str:
    if "card" in src and len(src) == 1:
        return _n(src["card"])
    if "tap" in src:
        return f"tap {_n(src['tap'])}" + (f" ×{src['n']}" if "n" in src else "")
    if "pawn" in src:
        return f"pawn {_n(src['card'])}"
    if "hoard" in src:
        return f"Hoard → {RES_SHORT.get(src.get('res', ''), src.get('res'))}"
    if "pool" in src:
        return "pool " + res_text(src["pool"])
    return json.dumps(src)


def use_text(use: dict[str, Any]) -> str:
    return source_text(use)


def variant_text(action: dict[str, Any], players: list[Player]) -> str:
    bits = []
    for key in VARIANT_KEYS:
        if key not in action:
            continue
        value = action[key]
        if key == "pay":
            bits.append("pay " + res_text(value))
        elif key == "sources":
            bits.append("pay with " + (", ".join(source_text(s) for s in value) or "nothing"))
        elif key == "want":
            bits.append("for any card" if value == "any" else f"for {short_name(value)}")
        elif key == "give":
            bits.append(f"give {_n(value)}")
        elif key == "res":
            bits.append(RES_NAME.get(value, str(value)))
        elif key == "n":
            bits.append(f"n = {value}")
        elif key in ("order", "keep", "cards"):
            bits.append((", ".join(_n(c) for c in value) or "none") if key != "order" else " › ".join(_n(c) for c in value))
        elif key == "steps":
            bits.append("steps on " + ", ".join(_n(b) for b in value))
        elif key == "moves":
            bits.append("; ".join(f"{_n(m['card'])} → {seat_name(players, m['to'])}" for m in value) or "rescue nothing")
        elif key == "consultants":
            if value:
                bits.append("with the Consultants (+4 S)")
        elif key == "mode":
            bits.append(str(value))
        elif key == "target":
            bits.append(f"on {_n(value)}" if value else "on nothing")
        elif key == "uses":
            if value:
                bits.append("uses: " + ", ".join(use_text(u) for u in value))
        elif key == "explore":
            bits.append("explore")
    return ", ".join(bits) or "as is"


def seat_name(players: list[Player], seat: Any) -> str:
    for p in players:
        if p.seat == seat:
            return p.name
    return f"Player {seat + 1}" if isinstance(seat, int) else str(seat)


def group_text(action: dict[str, Any], players: list[Player], shop: list[str | None]) -> str:
    verb = action.get("do", "?")
    head = GROUP_LABEL.get(verb, verb)
    parts = [head]
    if verb == "buy":
        slot = action.get("slot")
        name = shop[slot] if isinstance(slot, int) and slot < len(shop) and shop[slot] else None
        parts.append(short_name(kind_of(name)) if name else f"slot {slot + 1 if isinstance(slot, int) else slot}")
    if action.get("card") is not None:  # a tap that tucks nothing has "card": null (MH-93)
        parts.append(_n(action["card"]) if "#" in str(action["card"]) else short_name(action["card"]))
    if "building" in action:
        parts.append(("on " if verb in ("commit_dwarf", "dwelling_build", "choose") else "") + _n(action["building"]))
    if "to" in action and verb == "trade_offer":
        parts.append(f"to {seat_name(players, action['to'])}")
    if "option" in action:
        parts.append(f"({action['option']})")
    if "seat" in action:
        parts.append(seat_name(players, action["seat"]))
    if "for" in action:
        parts.append(f"for {seat_name(players, action['for'])}")
    return " ".join(parts)


def move_label(action: dict[str, Any], players: list[Player], shop: Sequence[str | None] = ()) -> str:
    head = group_text(action, players, list(shop))
    variant = variant_text(action, players)
    return head if variant == "as is" else f"{head}: {variant}"


def group_moves(actions: list[dict[str, Any]], players: list[Player], shop: list[str | None]) -> list[dict[str, Any]]:
    groups: dict[str, dict[str, Any]] = {}
    for action in actions:
        key = group_key(action)
        group = groups.setdefault(key, {"verb": action.get("do"), "label": group_text(action, players, shop), "variants": []})
        group["variants"].append({"label": variant_text(action, players), "json": json.dumps(action)})
    out = []
    for group in groups.values():
        first = group["variants"][0]
        group["single"] = first if len(group["variants"]) == 1 else None
        if group["single"] and first["label"] != "as is":
            group["label"] = f"{group['label']}: {first['label']}"
        out.append(group)
    return out


# ---------------------------------------------------------------------- moves on cards


def anchor(action: dict[str, Any]) -> str | None:
    """The card a move is made by clicking: an instance id, ``slot:i`` or ``legend:<id>``; None for prompt answers."""
    verb = action.get("do")
    if verb == "buy":
        return f"slot:{action.get('slot')}"
    if verb == "choose_legendary":
        return f"legend:{action.get('card')}"
    if verb in ("commit_dwarf", "tap", "pawn_buyback"):
        return action.get("building")
    if verb == "dwelling_build":
        return action.get("target") or action.get("building")
    if verb in ("trade_offer",):
        return action.get("give")
    if verb == "trade_accept":
        return action.get("give")
    if verb == "choose":
        if isinstance(card := action.get("card"), str):
            return card
        if isinstance(building := action.get("building"), str):
            return building
        return None
    if verb in ("play_treasure", "hoard", "play_action", "place_blueprint", "lair", "cavern_place", "fortress_release",
                "dwarf_ability", "react", "trash"):
        card = action.get("card")
        return card if isinstance(card, str) else None
    return None


TAP_HINT = {
    "mine": "gain 2 S", "quarry": "gain 2 R", "brewery": "gain 2 B", "boat": "draw 1, then discard 1 card",
    "clan_hall": "tuck dwarves from your hand into the Hall", "warehouse": "tuck a resource card into it",
    "dwelling": "pay 1 B, store a dwarf", "dungeon": "pay 2 S, put a discarded card on top of your draw pile",
    "pawnshop": "pawn a resource card for its value in S",
}


def hint(action: dict[str, Any], players: list[Player]) -> str:
    """What a move will do, in a few words (shown beside it)."""
    verb = action.get("do")
    card = action.get("card") if isinstance(action.get("card"), str) else None
    kind = kind_of(card) if card else ""
    if verb == "play_treasure":
        value = card_facts(kind)["value"]
        return f"+{value['amt']} {RES_SHORT[value['res']]} to your pool" if value else ""
    if verb == "dwarf_ability":
        if "res" in action:
            return f"gain 1 {RES_SHORT[action['res']]}; the dwarf goes to your discard pile"
        if action.get("option") == "gain":
            return {"ymir": "gain 3 B", "kartok": "gain 3 R", "didi": "gain 2 S"}.get(kind, "gain")
        if action.get("option") == "double":
            return {"ymir": "Breweries", "kartok": "Quarries", "didi": "Mines"}.get(kind, "buildings") + " give 4 this turn"
        if action.get("option") == "look":
            return "look at the top 5 exploration cards and reorder them"
        if action.get("option") == "explore":
            return "explore 5 times; Baldur then goes into the pile"
        if "steps" in action:
            return "build " + " and ".join(_n(b) for b in action["steps"])
        return {"ori": "draw 2", "thorvald": "bring the next event to the top of the pile"}.get(kind, "")
    if verb == "commit_dwarf":
        return f"{_n(card)} builds the next step; pay " + res_text(action.get("pay"))
    if verb == "dwelling_build":
        return "the stored dwarf builds the next step; pay " + res_text(action.get("pay"))
    if verb == "place_blueprint":
        return "into your town, no step built yet"
    if verb == "tap":
        b = kind_of(action.get("building") or "")
        if b in ("forge", "guild", "distillery"):
            res = {"forge": "S", "guild": "R", "distillery": "B"}[b]
            n = action.get("n", 1)
            return f"pay {n} {res}, gain {n * (3 if b == 'distillery' else 2)} {res}"
        if b == "workshop":
            return "pay 4 any: build a step" if action.get("mode") == "build" else "untap another building"
        key = "clan_hall" if b.endswith("-hall") else b
        return TAP_HINT.get(key, "")
    if verb == "buy":
        return "+4 S: straight into your town, step 1 built" if action.get("consultants") else "to your discard pile"
    if verb == "hoard":
        return f"trash it: draw 1 and gain 3 {RES_SHORT.get(action.get('res', ''), '')}"
    if verb == "lair":
        return "discard the dwarf; a Dragon Hoard goes on top of your draw pile"
    if verb == "cavern_place":
        return "it rolls a die each turn: 1–3 home, 4–5 gain 4, 6 a free step"
    if verb == "fortress_release":
        return "pay 3 B: the dwarf goes on top of the exploration pile"
    if verb == "pawn_buyback":
        return "pay its value in S, take the card into your hand"
    if verb == "end_action_step":
        return "explore the top card, then discard your hand and draw 6"
    if verb == "trade_offer":
        return f"{seat_name(players, action.get('to'))} may accept or decline"
    if verb == "trash":
        return "its bid value breaks ties"
    if verb == "play_action":
        return {"piling": "your next Rocks card gives Shinies", "panda": "rescue cards from the trash",
                "wizard": "everyone bids Shinies for a building"}.get(kind, "")
    return ""


def group_key(action: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in action.items() if k not in VARIANT_KEYS}, sort_keys=True)


def menus(actions: list[dict[str, Any]], players: list[Player], shop: list[str | None]) -> tuple[dict[str, list], list]:
    """Split legal moves into per-card menus (anchor -> groups) and prompt answers (groups)."""
    by_anchor: dict[str, list[dict[str, Any]]] = {}
    loose: list[dict[str, Any]] = []
    for action in actions:
        a = anchor(action)
        if a is None:
            loose.append(action)
        else:
            by_anchor.setdefault(a, []).append(action)
    out = {}
    for a, acts in by_anchor.items():
        groups = group_moves(acts, players, shop)
        for g, first in zip(groups, _firsts(acts)):
            g["hint"] = hint(first, players)
        out[a] = groups
    answers = group_moves(loose, players, shop)
    for g, first in zip(answers, _firsts(loose)):
        g["hint"] = hint(first, players)
    return out, answers


def _firsts(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for action in actions:
        seen.setdefault(group_key(action), action)
    return list(seen.values())


def step_cost_text(building: str, step: int) -> str:
    steps = card_facts(building)["steps"]
    return cost_text(steps[step - 1]) if 0 < step <= len(steps) else ""


__all__ = ["RES_NAME", "anchor", "group_moves", "hint", "menus", "move_label", "seat_name", "source_text", "use_text"]
