"""The Mountainhome table, piece by piece, from one viewer's observation (§20) and legal moves.

Each function builds one part of the board dict the template draws: seats, the shared area,
the bid panel, the bid builder, the step tracker and the legendary pick.  ``attach`` puts the
viewer's legal moves on the cards they act on (see ``moves.anchor``); ``explain`` gives a card
that cannot be used now the reason, shown on hover and focus.
"""

from __future__ import annotations

import json
from typing import Any

from engine.games.mountainhome.facts import LEGENDARIES, card_facts, kind_of, pending_choice, shop_price

from .. import Player
from .cards import building, card, cards
from .moves import step_cost_text, use_text
from .texts import (
    BID_KIND,
    BID_ONLY,
    BID_STEPS,
    CHOICE_STEP,
    CHOOSE_PROMPTS,
    MUST,
    PROMPT_STEP,
    PROMPTS,
    TURN_STEPS,
)

# Moves made by one click on the card; any other move (giving a dwarf up, buying…) opens a menu first.
ONE_CLICK = ("play_treasure", "place_blueprint", "choose_legendary", "trash", "react", "cavern_place", "choose",
             "trade_accept", "fortress_release")


def _short_label(label: str, c: dict[str, Any]) -> str:
    """A move's label on its own card, without the card's name ("Play Gold Coins" -> "Play")."""
    for name in (c["name"], c["short"]):
        if name in label:
            label = label.replace(name, "").replace("  ", " ").strip(" :")
    return label or "Choose"


class Attacher:
    """Hands out per-card menus once each; what is never drawn stays in ``left`` for the prompt panel."""

    def __init__(self, menus: dict[str, list[dict[str, Any]]]):
        self.menus = menus
        self.used: set[str] = set()

    def __call__(self, c: dict[str, Any] | None, key: str | None = None) -> dict[str, Any] | None:
        if c is None:
            return None
        key = key or c["id"]
        groups = self.menus.get(key)
        if groups and key not in self.used:
            self.used.add(key)
            c["menu"] = groups
            for g in groups:  # on its own card a move is named without the card ("Put to work", not "Put to …")
                g["on_card"] = _short_label(g["label"], c)
            only = groups[0]["single"] if len(groups) == 1 and groups[0]["verb"] in ONE_CLICK else None
            c["single"] = only
            c["single_hint"] = groups[0].get("hint", "") if only else ""
            c["do"] = _short_label(groups[0]["label"], c) if len(groups) == 1 else f"{len(groups)} moves"
        return c

    def left(self) -> list[dict[str, Any]]:
        return [g for key, groups in self.menus.items() if key not in self.used for g in groups]


def seat_board(entry: dict[str, Any], by_seat: dict[int, Player], view: dict[str, Any], attach: Attacher) -> dict[str, Any]:
    town = []
    for b in entry["town"]:
        built = attach(building(b))
        assert built is not None
        built["stored"] = [attach(c) for c in built["stored"]]
        town.append(built)
    discard = cards(entry["discard"])
    return {
        "player": by_seat.get(entry["seat"]),
        "seat": entry["seat"],
        "legendary": card(f"{entry['legendary']}#1") if entry.get("legendary") else None,
        "hand": [attach(c) for c in cards(entry.get("hand"))],
        "hand_size": entry["hand_size"],
        "hand_known": cards(entry.get("hand_known")),
        "draw_size": entry["draw_size"],
        "discard": discard,
        "discard_top": discard[-1] if discard else None,
        "town": town,
        "vp": entry["vp"],
        "tokens": entry["tokens"],
        "active": entry["seat"] == view.get("active"),
        "is_bidding": bool(view.get("bid")),
    }


def shop(view: dict[str, Any], attach: Attacher) -> list[dict[str, Any] | None]:
    profile = (view.get("options") or {}).get("shop_profile", "seed")
    out = []
    for i, slot in enumerate(view["shop"]["slots"]):
        c = card(slot, price=shop_price(slot, profile)) if slot else None
        out.append(attach(c, f"slot:{i}"))
    return out


def area(view: dict[str, Any], by_seat: dict[int, Player]) -> list[dict[str, Any]]:
    out = []
    for entry in view["area"]:
        c = card(entry["card"])
        assert c is not None
        out.append({
            **c, "counters": [by_seat.get(s) for s in entry["counters"]],
            "recurring": card_facts(c["kind"])["type"] == "event_recurring",
            "resolve_at": view.get("resolve_at"),
        })
    return out


def bid_panel(view: dict[str, Any], by_seat: dict[int, Player], attach: Attacher) -> dict[str, Any] | None:
    b = view.get("bid")
    if not b:
        return None
    rows = []
    for s in range(view["players"]):
        pool = [attach(c) for c in cards(b["pools"][s])] if b.get("pools") else None
        rows.append({"player": by_seat.get(s), "ready": b["ready"][s], "pool": pool,
                     "value": b["values"][s] if b.get("values") else None})
    return {
        "kind": BID_KIND.get(b["kind"], b["kind"]), "currency": {"dwarf": "shinies + booze", "party": "booze",
                                                                  "wizard": "shinies"}.get(b["kind"], ""),
        "prize": card(b.get("prize")), "rows": rows, "revealed": b.get("pools") is not None,
        "my_commit": {
            "cards": cards(b["my_commit"]["cards"]), "uses": [use_text(u) for u in b["my_commit"]["uses"]],
        } if b.get("my_commit") else None,
        "committing": view.get("prompt") == "bid_commit",
    }


def builder(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The sealed-bid builder: every card and use some legal ``commit_bid`` names, the current ones ticked."""
    if view.get("prompt") != "bid_commit" or not legal:
        return None
    current = (view.get("bid") or {}).get("my_commit") or {"cards": [], "uses": []}
    pickable: list[str] = list(current["cards"])
    uses: dict[str, dict] = {json.dumps(u, sort_keys=True): u for u in current["uses"]}
    for a in legal:
        if a.get("do") != "commit_bid":
            continue
        for c in a["cards"]:
            if c not in pickable:
                pickable.append(c)
        for u in a["uses"]:
            uses.setdefault(json.dumps(u, sort_keys=True), u)
    chosen = {json.dumps(u, sort_keys=True) for u in current["uses"]}
    return {
        "cards": [{**(card(c) or {}), "checked": c in current["cards"]} for c in pickable],
        "uses": [{"label": use_text(u), "json": key, "checked": key in chosen} for key, u in uses.items()],
        "ready": json.dumps({"do": "ready"}),
        "current": current,
    }


def legend_pick(view: dict[str, Any], by_seat: dict[int, Player], attach: Attacher) -> list[dict[str, Any]] | None:
    """The setup pick (§3.1): all eight legendaries, with their powers; the ones taken say by whom."""
    if view.get("prompt") != "setup_pick" and not (view.get("round") == 0 and view.get("options", {}).get("legendaries") == "pick"):
        return None
    taken = {s["legendary"]: by_seat.get(s["seat"]) for s in view["seats"] if s.get("legendary")}
    out = []
    for kind in LEGENDARIES:
        c = attach(card(f"{kind}#1"), f"legend:{kind}")
        assert c is not None
        c["taken_by"] = taken.get(kind)
        out.append(c)
    return out


def tracker(view: dict[str, Any], my_turn: bool) -> dict[str, Any]:
    """Which step of the turn (§4) and of a bid (§9.2) the game is in, and what the viewer is asked."""
    prompt = view.get("prompt")
    choice = pending_choice(view)
    step, sub = PROMPT_STEP.get(prompt or "", (None, None))
    if choice:
        step, sub = CHOICE_STEP.get(choice, (None, None))
    b = view.get("bid")
    if b:
        step = "bid"
        if not sub:
            sub = "onbid" if b.get("pools") is not None else "commit"
    if step is None:
        step = "action" if view.get("round") else None
    has_cavern = any(kind_of(e["card"]) == "cavern" for e in view.get("area") or [])
    steps = [{"key": k, "label": label, "help": text, "current": k == step}
             for k, label, text in TURN_STEPS if k != "cavern" or has_cavern or step == "cavern"]
    bid_steps = [{"key": k, "label": label, "help": text, "current": k == sub} for k, label, text in BID_STEPS] if step == "bid" else []
    if prompt in ("choose", "on_bid_choice"):
        asked = CHOOSE_PROMPTS.get(choice or "", "A choice is being made.")
    else:
        asked = PROMPTS.get(prompt or "", "")
    reaction = prompt in ("karina", "lagertha")
    return {
        "setup": prompt == "setup_pick", "over": prompt == "over" or bool(view.get("over")),
        "steps": steps, "bid_steps": bid_steps, "reaction": reaction,
        "asked": asked if my_turn else "", "what": asked.split(":")[0] if prompt in ("choose", "on_bid_choice") else "",
    }


def explain(me: dict[str, Any], shop_cards: list, view: dict[str, Any], my_action_step: bool) -> None:
    """Give each of the viewer's cards without a legal move the reason, in their action step."""
    if not my_action_step:
        return
    pool = view.get("action_pool") or {}
    flags = view.get("turn_flags") or {}
    profile = (view.get("options") or {}).get("shop_profile", "seed")
    for c in me["hand"]:
        if c["menu"]:
            continue
        facts = card_facts(c["kind"])
        if facts["type"] == "action":
            c["reason"] = BID_ONLY
        elif c["kind"] == "hangover":
            c["reason"] = "A Hangover does nothing; it costs 1 VP while you own it."
        elif facts["family"] == "dwarf":
            c["reason"] = ("This dwarf has no ability to use now. To put it to work building, you need an unfinished "
                           "building in your town and that step's cost in your pool.")
        else:
            c["reason"] = "It cannot be used right now."
    for c in shop_cards:
        if c is None or c["menu"]:
            continue
        price = shop_price(c["kind"], profile) or 0
        if flags.get("bought"):
            c["reason"] = "You have already bought a blueprint this turn (one per turn)."
        elif pool.get("shinies", 0) < price:
            c["reason"] = f"Costs {price} S; your pool has {pool.get('shinies', 0)} S. Play Shinies first."
        else:
            c["reason"] = "You cannot buy this blueprint (at most one project each, MH-65)."
    for b in me["town"]:
        if b["menu"]:
            continue
        if not b["finished"]:
            cost = step_cost_text(b["kind"], b["built"] + 1)
            b["reason"] = (f"Step {b['built'] + 1} of {b['of']} costs {cost}: put a dwarf to work on it "
                           "with enough resources in your pool.")
        elif b["tapped"]:
            b["reason"] = "Tapped: it stands up again in your Prepare step."
        else:
            b["reason"] = "Its tap needs something you do not have now (resources in your pool or a card)."


def must_line(view: dict[str, Any], my_turn: bool, waiting_for: list[str]) -> str:
    """What the viewer must do now ("You must …"), or whom the table waits for and what they decide."""
    prompt = view.get("prompt") or ""
    if prompt == "over" or view.get("over"):
        return "The game is over."
    choice = pending_choice(view)
    if choice:
        mine = f"resolve {CHOOSE_PROMPTS.get(choice, 'the choice in play.').rstrip('.')}"
        theirs = f"resolve {CHOOSE_PROMPTS.get(choice, 'a choice').split(':')[0]}"
    else:
        mine, theirs = MUST.get(prompt, ("make your move", ""))
    if my_turn:
        return f"You must {mine}."
    if not waiting_for:
        return "Waiting…"
    names = ", ".join(waiting_for)
    return f"Waiting for {names}, who must {theirs}." if theirs else f"Waiting for {names}."
