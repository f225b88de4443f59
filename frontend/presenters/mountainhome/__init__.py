"""Mountainhome on the page, built only from ``match["view"]`` (the viewer's own §20 observation),
``match["legal_actions"]`` (record notation, §23.4) and ``match["recent"]`` (the events the viewer
may see since their previous turn).

The package by job:

* ``texts``  - card effect wording, labels, prompts and the turn's steps;
* ``cards``  - a card as drawn: name, type, cost in resource symbols, VP, effect text;
* ``moves``  - moves in words, grouped by variant, and the card each one is made on;
* ``board``  - the table's parts (seats, shop, area, bid, builder, tracker, legendary pick);
* ``recent`` - last-move marks; ``forms`` - the bid builder's form; ``log`` - event-log lines.

Card facts come from the engine's public API ``engine.games.mountainhome.facts``.
"""

from __future__ import annotations

from typing import Any

from .. import Player
from . import board as parts
from . import cards as card_parts
from .cards import card, card_text, short_name
from .forms import action_from_form
from .log import describe_event
from .moves import group_moves, menus, move_label
from .recent import apply_marks, marks
from .texts import FAMILY_LABEL, SECTIONS, TEXT

GAME_ID = "mountainhome"

__all__ = ["present", "describe_event", "action_from_form", "card_text", "short_name", "group_moves", "move_label",
           "TEXT", "FAMILY_LABEL"]


def _fallback(legal: list[dict[str, Any]], players: list[Player], shop: list[str | None], prompt: str | None) -> dict[str, Any]:
    """Every legal move as a grouped list (keyboards, screen readers), sectioned in the action step."""
    grouped = group_moves([a for a in legal if a.get("do") not in ("commit_bid",)], players, shop)
    sections = []
    if prompt == "action_step":
        used: set[int] = set()
        for title, verbs in SECTIONS + (("End", ("end_action_step",)),):
            items = [g for g in grouped if g["verb"] in verbs]
            used.update(id(g) for g in items)
            if items:
                sections.append({"title": title, "groups": items})
        rest = [g for g in grouped if id(g) not in used]
        if rest:
            sections.append({"title": "Other", "groups": rest})
    elif grouped:
        sections.append({"title": "", "groups": grouped})
    return {"sections": sections}


def present(match: dict[str, Any], players: list[Player]) -> dict[str, Any]:
    view = match["view"]
    me = match.get("my_seat")
    legal = list(match.get("legal_actions") or [])
    my_turn = bool(legal)
    by_seat = {p.seat: p for p in players}
    slots = list(view["shop"]["slots"])
    prompt = view.get("prompt")
    on_cards, answers = menus([a for a in legal if a.get("do") not in ("commit_bid", "ready")], players, slots)
    attach = parts.Attacher(on_cards)

    mine = parts.seat_board(view["seats"][me], by_seat, view, attach) if me is not None else None
    others = [parts.seat_board(s, by_seat, view, attach) for s in view["seats"] if s["seat"] != me]
    shop = parts.shop(view, attach)
    bid = parts.bid_panel(view, by_seat, attach)
    legends = parts.legend_pick(view, by_seat, attach)
    fortress = [attach(c) for c in card_parts.cards(view.get("fortress"))]
    if mine is not None:
        parts.explain(mine, shop, view, my_turn and prompt == "action_step")

    marked = marks(match, players)
    drawn = [*(mine["hand"] if mine else []), *fortress, *(legends or []), *(bid and [c for r in bid["rows"] for c in r["pool"] or []] or [])]
    for seat in ([mine] if mine else []) + others:
        drawn += seat["town"] + [c for b in seat["town"] for c in b["stored"]]
        if seat["discard_top"]:
            drawn.append(seat["discard_top"])
    for c in drawn:
        apply_marks(c, marked, players)
    for i, c in enumerate(shop):
        apply_marks(c, marked, players, slot=i)

    pool = view.get("action_pool") or {}
    return {
        "my_turn": my_turn,
        "prompt": parts.tracker(view, my_turn)["asked"],
        "must": parts.must_line(view, my_turn, [p.name for p in players if p.to_move and p.seat != me]),
        "prompt_name": prompt,
        "tracker": parts.tracker(view, my_turn),
        "round": view.get("round"),
        "turn": view.get("turn"),
        "active": by_seat.get(view.get("active")),
        "dwarves_found": view.get("dwarves_found"),
        "end_at": view.get("end_at"),
        "pool": [{"res": r, "amt": pool.get(r, 0), "name": r.capitalize()} for r in ("rocks", "shinies", "booze")],
        "pool_is_mine": me is not None and view.get("active") == me,
        "flags": view.get("turn_flags") or {},
        "tie_play": view.get("vp_tie_play") or {},
        "me": mine,
        "others": others,
        "compact": len(others) >= 2,
        "shop": shop,
        "shop_deck": view["shop"]["deck_size"],
        "exploration_size": view["exploration_size"],
        "area": parts.area(view, by_seat),
        "fortress": fortress,
        "cavern": [{"card": card(c["card"]), "owner": by_seat.get(c["owner"])} for c in view.get("cavern") or []],
        "trash": card_parts.cards(view.get("trash")),
        "aside": card_parts.cards(view.get("aside")),
        "bid": bid,
        "builder": parts.builder(view, legal) if my_turn else None,
        "legends": legends,
        "answers": answers + attach.left(),
        "fallback": _fallback(legal, players, slots, prompt) if my_turn else None,
        "legal_count": len(legal),
        "recent": marked,
        "scores": [{"player": by_seat.get(s["seat"]), "vp": s["vp"]} for s in view["seats"]],
    }
