"""Mountainhome on the page: your hand and town, the shared area, the other towns, the bid panel
and every decision of the viewer, built only from ``match["view"]`` (the viewer's own §20
observation) and ``match["legal_actions"]`` (record notation, §23.4).

Moves are offered from the legal actions only.  Actions that differ only in how they are paid
or in a detail (``pay``, ``sources``, ``want``, ``res``, ``n``, ``order``, ``keep`` …) are grouped:
one row per group, with a list of its variants, so a 500-action position stays readable.  A sealed
bid commitment has its own builder (tick cards and uses, seal, then *Ready*), turned into a
``commit_bid`` by :func:`action_from_form`; the engine checks it.  Anything else legal but not
listed (a longer payment, say) can be typed as JSON in the "record notation" box.

Card texts are short paraphrases of the rules file's card list; costs, VP and values come from
the card data (``engine/games/mountainhome/cards.py``).
"""

from __future__ import annotations

import json
from typing import Any

from engine.games.mountainhome.cards import CARDS

from . import FormError, Player

GAME_ID = "mountainhome"

CARD = {c["id"]: c for c in CARDS}
RES_SHORT = {"rocks": "R", "shinies": "S", "booze": "B", "any": "any"}
RES_NAME = {"rocks": "Rocks", "shinies": "Shinies", "booze": "Booze"}

# Paraphrased effects (rules file §2); facts like steps, VP and values are added from the data.
TEXT: dict[str, str] = {
    "hoard": "Trash it from your hand: draw 1 card and gain 3 resources of one type you name. Usable in your action step and in resource windows.",
    "labourer": "Put to work: gain 1 R, 1 S or 1 B.",
    "ymir": "Put to work: gain 3 B, or your Breweries produce double this turn.",
    "kartok": "Put to work: gain 3 R, or your Quarries produce double this turn.",
    "didi": "Put to work: gain 2 S, or your Mines produce double this turn.",
    "baldur": "Put to work: secretly look at the top 5 exploration cards and reorder them; or explore 5 times, then shuffle Baldur into the exploration pile.",
    "karina": "Reaction: when an opponent puts a dwarf to work, discard Karina (from hand or town) to cancel that use.",
    "lagertha": "Reaction: when a negative effect would hit you, discard Lagertha (from hand or town) to be spared.",
    "loki": "On Bid: name another player; you make their trash choices in this bid.",
    "marg": "Put to work: complete up to two construction steps (one building twice, or two buildings), paying both.",
    "ori": "Put to work: draw 2. On Bid: the top two cards of your draw pile join your bid pool.",
    "tapfa": "On Bid: your printed-Rocks cards count as Shinies of the same value in this bid.",
    "thorvald": "Put to work: turn over exploration cards until an Event shows; it goes back on top, the rest underneath in random order.",
    "clan_hall": "Tap: tuck any number of dwarves from your hand into the Hall. Dwarves there can be used as if in your hand.",
    "boat": "Tap: draw 1, then discard any 1 card from your hand.",
    "hut": "In a bid draw you may take 0–3 extra cards; after the bid, each extra card costs a random non-dwarf card from your hand, trashed.",
    "warehouse": "Tap: tuck at most one resource card from your hand into it. Cards there can be used as if in your hand.",
    "dungeon": "Tap and pay 2 S: put a card from your discard pile on top of your draw pile.",
    "pawnshop": "Tap and put a resource card in: gain its value in S (a card already inside goes to your discard). While upright, any player may buy the stored card in their action step for its value in S.",
    "cavern": "At the start of each action step, the player may place a dwarf here. Then roll for each of their dwarves here: 1–3 the dwarf goes home to the discard pile; 4–5 gain 4 S or 4 R; 6 one free construction step.",
    "fortress": "Mushroom Wine is worth 3 B. Whoever explores a dwarf may pay 5 B to lock it in here instead of bidding. In your action step, pay 3 B to move a dwarf from here onto the exploration pile.",
    "lair": "Once per turn in your action step: give up a dwarf from hand or Clan Hall (to your discard) to put a new Dragon Hoard on top of your draw pile.",
    "marketplace": "Once per turn in your action step: offer one card from your hand for one from another player's hand; they accept or decline.",
    "brewery": "Tap: gain 2 B.",
    "dwelling": "Tap and pay 1 B: store up to one dwarf from your hand (it holds one). Or discard the stored dwarf to complete a construction step, paying its cost (a dwarf use).",
    "mine": "Tap: gain 2 S.",
    "quarry": "Tap: gain 2 R.",
    "distillery": "+3 B to your bid value whenever booze counts. Tap and pay n B: gain 3n B.",
    "forge": "Tap and pay n S: gain 2n S.",
    "guild": "Tap and pay n R: gain 2n R.",
    "workshop": "Tap and pay 4 any: complete the next step of one of your unfinished buildings. Or tap: untap one of your other finished buildings.",
    "adventurers": "Unique project (at most one per player).",
    "garden": "Unique project (at most one per player): 1 VP per completed step, +2 when finished.",
    "tavern": "Unique project (at most one per player): 1 VP per completed step, +2 when finished.",
    "vault": "Unique project (at most one per player): 1 VP per completed step, +2 when finished.",
    "fools": "On Bid: pick one printed-Shinies card in any bid pool; it counts as Rocks in this bid.",
    "minecarts": "On Bid: every player cuts their bid down to at most three resource cards; the rest go back to their discard piles.",
    "mishap": "On Bid: after the bid, the non-dwarf cards left in the pools are dealt out at random among the discard piles. Dwarves go home.",
    "panda": "Play: rescue up to three cards from the trash (not actions or events) into any discard piles.",
    "piling": "Play: your next Rocks card this turn gives Shinies. On Bid: one printed-Rocks card in your pool counts as Shinies.",
    "politics": "On Bid: steal one non-dwarf card from an opponent's bid pool into yours for good. Trashed after the bid.",
    "wizard": "Play: pick a building in another town. Everyone bids Shinies for it (its owner gets +2); the winner takes it.",
    "ygg": "On Bid: no negative effect from another player affects you in this bid. Afterwards discarded if it stopped something, else trashed.",
    "charity": "Immediate: in turn order, each player reveals exploration cards until a resource card shows and takes it into hand; the rest go back and the pile is shuffled.",
    "party": "Immediate: a Booze bid. Each worst loser gains a Hangover; the winner may explore once.",
    "consultants": "While in play: when you buy a blueprint you may pay 4 S more to add a counter; the blueprint goes straight into your town with its first step done.",
    "dragon": "After each Prepare draw: discard a dwarf (adding a counter) or lose a completed construction step. On resolving, the Dragon Lair comes into play.",
    "goblins": "After each Prepare draw: add a counter, then tap a building, discard your best resource card, or pay 1 B.",
    "golems": "Whenever a player draws a printed-Rocks card, they trash it (adding a counter) or discard it.",
    "reorg": "After each Prepare draw: add a counter, draw up to 3, then put as many cards from your hand back on top of your draw pile.",
    "hangover": "No effect. −1 VP.",
}
for _kind in ("tobias", "erik", "alisa", "paulie"):
    TEXT[_kind] = TEXT["labourer"]
for _kind in ("ruby-hall", "emerald-hall", "amethyst-hall", "sapphire-hall"):
    TEXT[_kind] = TEXT["clan_hall"]

FAMILY_LABEL = {
    "treasure": "Treasure", "dwarf": "Dwarf", "building": "Building", "location": "Location",
    "action": "Action", "event": "Event", "status": "Status",
}
TYPE_LABEL = {
    "resource": "resource", "loot": "loot", "labourer": "labourer", "renowned": "renowned dwarf",
    "legendary": "legendary dwarf", "clan_hall": "Clan Hall", "unique_building": "unique building",
    "basic": "basic building", "advanced": "advanced building", "project": "unique project",
    "location": "Unique Location", "action": "action", "event_immediate": "immediate event",
    "event_recurring": "recurring event", "status": "status",
}

PROMPTS = {
    "setup_pick": "Pick your legendary dwarf.",
    "cavern_place": "You may place a dwarf in the Expansive Cavern.",
    "action_step": "Your action step: play cards, build, buy, then end the action step.",
    "karina": "An opponent put a dwarf to work: cancel it with Karina?",
    "lagertha": "A negative effect is about to hit you: stop it with Lagertha?",
    "trade_answer": "A Marketplace offer: accept or decline.",
    "hut_draw": "Witch's Hut: how many extra cards do you draw for this bid?",
    "bid_commit": "Sealed bid: choose the cards and uses you commit, then press Ready.",
    "bid_trash": "Choose the card to trash from your bid pool (sealed).",
    "waiting": "",
}
CHOOSE_PROMPTS = {
    1: "Ferry Boat: discard one card from your hand.",
    2: "Rock Golems: trash the Rocks card you drew (adding a counter) or discard it.",
    3: "Dragon Attack!: discard a dwarf or lose a construction step.",
    4: "Goblin Raiding Party: tap a building, discard your best resource card, or pay 1 B.",
    5: "Reorganisation: draw up to 3 cards.",
    6: "Reorganisation: put cards back on top of your draw pile (first = top).",
    7: "Cavern roll 4–5: gain 4 Shinies or 4 Rocks.",
    8: "Cavern roll 6: choose the building that gets a free step.",
    9: "Baldur: put the top exploration cards back in the order you like (first = top).",
    10: "Dwarf Fortress: pay 5 B to lock the explored dwarf in the Fortress, or pass to bid for it.",
    11: "Party: you won. Explore once?",
    12: "Fool's Gold: pick a Shinies card that counts as Rocks in this bid.",
    13: "Strategic Piling: pick a Rocks card in your pool that counts as Shinies.",
    14: "Cuttbeard Politics: steal a card from another bid pool.",
    15: "Loki: name the player whose trash choices you make.",
    16: "Faulty Minecarts: keep at most three resource cards in your bid pool.",
}
BID_KIND = {"dwarf": "Dwarf bid", "party": "Party (booze bid)", "wizard": "Wizard Auctioneer (shinies bid)"}

# Keys that make variants of one move (shown in a list); the rest name the move.
VARIANT_KEYS = ("pay", "sources", "want", "res", "n", "order", "keep", "cards", "steps", "moves",
                "consultants", "mode", "target", "give", "uses", "explore")
GROUP_LABEL = {
    "play_treasure": "Play", "dwarf_ability": "Put to work", "commit_dwarf": "Commit", "place_blueprint": "Place blueprint",
    "tap": "Tap", "dwelling_build": "Dwelling build", "pawn_buyback": "Buy back from", "hoard": "Use",
    "buy": "Buy", "play_action": "Play", "lair": "Dragon Lair: give up", "fortress_release": "Release from the Fortress",
    "trade_offer": "Offer", "end_action_step": "End the action step", "cavern_place": "Place in the Cavern",
    "choose_legendary": "Pick", "react": "React with", "pass": "Pass", "trade_accept": "Accept the trade",
    "trade_decline": "Decline the trade", "hut_draw": "Draw extra", "ready": "Ready", "trash": "Trash", "choose": "Choose",
    "commit_bid": "Commit",
}
SECTIONS = (
    ("Play cards", ("play_treasure", "hoard", "play_action")),
    ("Dwarves", ("dwarf_ability", "commit_dwarf", "dwelling_build", "lair", "cavern_place")),
    ("Buildings", ("tap", "place_blueprint", "pawn_buyback", "fortress_release")),
    ("Construction office", ("buy",)),
    ("Marketplace", ("trade_offer",)),
)


# ---------------------------------------------------------------------- cards


def kind_of(instance: str) -> str:
    return instance.split("#", 1)[0]


def short_name(kind: str) -> str:
    name = CARD.get(kind, {}).get("name", kind)
    return name.split(",", 1)[0]


def cost_text(step: dict[str, int]) -> str:
    return "+".join(f"{amt}{' ' if res == 'any' else ''}{RES_SHORT[res]}" for res, amt in step.items())


def card_text(kind: str) -> str:
    data = CARD.get(kind)
    if data is None:
        return ""
    parts = [f"{FAMILY_LABEL.get(data['family'], data['family'])}, {TYPE_LABEL.get(data['type'], data['type'])}."]
    value = data.get("value")
    if value:
        parts.append(f"Play: +{value['amt']} {RES_NAME[value['res']]}.")
    if kind in TEXT:
        parts.append(TEXT[kind])
    if data.get("steps"):
        parts.append("Steps: " + " · ".join(f"S{i} {cost_text(s)}" for i, s in enumerate(data["steps"], 1)) + ".")
    vp = data.get("vp")
    if data.get("resolve_vp"):
        parts.append(f"{data['resolve_vp']} VP per counter when it resolves.")
    elif isinstance(vp, int) and vp:
        parts.append(f"{vp} VP" + (" when finished." if data.get("steps") else "."))
    elif isinstance(vp, dict) and vp.get("finished") and not vp.get("per_step"):
        parts.append(f"{vp['finished']} VP when finished.")
    elif vp == "stored_card_value":
        parts.append("VP = value of the stored card.")
    return " ".join(parts)


def css_class(kind: str) -> str:
    data = CARD.get(kind, {})
    family = data.get("family", "unknown")
    if data.get("value"):
        return f"fam-{family} res-{data['value']['res']}"
    return f"fam-{family}"


def card(instance: str | None) -> dict[str, Any] | None:
    if not instance:
        return None
    kind = kind_of(instance)
    name = CARD.get(kind, {}).get("name", kind)
    text = card_text(kind)
    return {
        "id": instance, "kind": kind, "name": name, "short": short_name(kind), "text": text,
        "title": f"{name} — {text}", "css": css_class(kind),
    }


def cards(instances: list[str] | None) -> list[dict[str, Any]]:
    return [card(i) for i in instances or [] if i]


def building(entry: dict[str, Any]) -> dict[str, Any]:
    c = card(entry["card"])
    return {
        **c,
        "steps": entry["steps"], "of": entry["of"], "finished": entry["finished"], "tapped": entry["tapped"],
        "pips": [i < entry["steps"] for i in range(entry["of"])],
        "stored": cards(entry.get("stored")),
    }


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
        return f"Hoard → {RES_SHORT.get(src.get('res'), src.get('res'))}"
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
        parts.append(short_name(kind_of(name)) if name else f"slot {slot + 1}")
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


def move_label(action: dict[str, Any], players: list[Player], shop: list[str | None] = ()) -> str:
    head = group_text(action, players, list(shop))
    variant = variant_text(action, players)
    return head if variant == "as is" else f"{head}: {variant}"


def group_moves(actions: list[dict[str, Any]], players: list[Player], shop: list[str | None]) -> list[dict[str, Any]]:
    groups: dict[str, dict[str, Any]] = {}
    for action in actions:
        key = json.dumps({k: v for k, v in action.items() if k not in VARIANT_KEYS}, sort_keys=True)
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


# ---------------------------------------------------------------------- the board


def _prompt_text(view: dict[str, Any], my_turn: bool) -> str:
    prompt = view.get("prompt")
    if prompt in ("choose", "on_bid_choice"):
        pdata = (view.get("engine") or {}).get("pdata") or [None]
        return CHOOSE_PROMPTS.get(pdata[0], "Choose.") if my_turn else ""
    return PROMPTS.get(prompt, "") if my_turn else ""


def present(match: dict[str, Any], players: list[Player]) -> dict[str, Any]:
    view = match["view"]
    me = match.get("my_seat")
    legal = list(match.get("legal_actions") or [])
    my_turn = bool(legal)
    by_seat = {p.seat: p for p in players}
    seats = view["seats"]
    shop_slots = list(view["shop"]["slots"])

    def seat_board(entry: dict[str, Any]) -> dict[str, Any]:
        return {
            "player": by_seat.get(entry["seat"]),
            "seat": entry["seat"],
            "legendary": card(f"{entry['legendary']}#1") if entry.get("legendary") else None,
            "hand": cards(entry.get("hand")),
            "hand_size": entry["hand_size"],
            "hand_known": cards(entry.get("hand_known")),
            "draw_size": entry["draw_size"],
            "discard": cards(entry["discard"]),
            "discard_top": card(entry["discard"][-1]) if entry["discard"] else None,
            "town": [building(b) for b in entry["town"]],
            "vp": entry["vp"],
            "tokens": entry["tokens"],
            "active": entry["seat"] == view.get("active"),
        }

    mine = seat_board(seats[me]) if me is not None else None
    others = [seat_board(s) for s in seats if s["seat"] != me]

    area = []
    for entry in view["area"]:
        c = card(entry["card"])
        counters = [by_seat.get(s) for s in entry["counters"]]
        data = CARD.get(c["kind"], {})
        area.append({
            **c, "counters": counters, "recurring": data.get("type") == "event_recurring",
            "resolve_vp": data.get("resolve_vp"),
        })
    bid = None
    if view.get("bid"):
        b = view["bid"]
        rows = []
        for s in range(view["players"]):
            rows.append({
                "player": by_seat.get(s), "ready": b["ready"][s],
                "pool": cards(b["pools"][s]) if b.get("pools") else None,
                "value": b["values"][s] if b.get("values") else None,
            })
        bid = {
            "kind": BID_KIND.get(b["kind"], b["kind"]), "prize": card(b.get("prize")), "rows": rows,
            "revealed": b.get("pools") is not None,
            "my_commit": {
                "cards": cards(b["my_commit"]["cards"]), "uses": [use_text(u) for u in b["my_commit"]["uses"]],
            } if b.get("my_commit") else None,
            "committing": view.get("prompt") == "bid_commit",
        }

    # the viewer's decisions
    builder = None
    rest = legal
    if my_turn and view.get("prompt") == "bid_commit":
        commits = [a for a in legal if a.get("do") == "commit_bid"]
        current = (view.get("bid") or {}).get("my_commit") or {"cards": [], "uses": []}
        pickable: list[str] = list(current["cards"])
        uses: dict[str, dict] = {json.dumps(u, sort_keys=True): u for u in current["uses"]}
        for a in commits:
            for c in a["cards"]:
                if c not in pickable:
                    pickable.append(c)
            for u in a["uses"]:
                uses.setdefault(json.dumps(u, sort_keys=True), u)
        chosen_uses = {json.dumps(u, sort_keys=True) for u in current["uses"]}
        builder = {
            "cards": [{**card(c), "checked": c in current["cards"]} for c in pickable],
            "uses": [{"label": use_text(u), "json": key, "checked": key in chosen_uses} for key, u in uses.items()],
            "ready": json.dumps({"do": "ready"}),
            "current": current,
        }
        rest = [a for a in legal if a.get("do") not in ("commit_bid", "ready")]
    sections = []
    end_action = None
    other_moves = []
    if my_turn:
        grouped = group_moves(rest, players, shop_slots)
        used = set()
        if view.get("prompt") == "action_step":
            for title, verbs in SECTIONS:
                items = [g for g in grouped if g["verb"] in verbs]
                used.update(id(g) for g in items)
                if items:
                    sections.append({"title": title, "groups": items})
            end = [g for g in grouped if g["verb"] == "end_action_step"]
            used.update(id(g) for g in end)
            end_action = end[0]["single"]["json"] if end else None
        other_moves = [g for g in grouped if id(g) not in used]

    pool = view.get("action_pool") or {}
    return {
        "my_turn": my_turn,
        "prompt": _prompt_text(view, my_turn),
        "prompt_name": view.get("prompt"),
        "round": view.get("round"),
        "turn": view.get("turn"),
        "active": by_seat.get(view.get("active")),
        "dwarves_found": view.get("dwarves_found"),
        "end_at": view.get("end_at"),
        "pool": [{"res": r, "short": RES_SHORT[r], "amt": pool.get(r, 0)} for r in ("rocks", "shinies", "booze")],
        "flags": view.get("turn_flags") or {},
        "tie_play": view.get("vp_tie_play") or {},
        "me": mine,
        "others": others,
        "shop": [card(s) for s in shop_slots],
        "shop_deck": view["shop"]["deck_size"],
        "exploration_size": view["exploration_size"],
        "area": area,
        "fortress": cards(view.get("fortress")),
        "cavern": [{"card": card(c["card"]), "owner": by_seat.get(c["owner"])} for c in view.get("cavern") or []],
        "trash": cards(view.get("trash")),
        "aside": cards(view.get("aside")),
        "bid": bid,
        "builder": builder,
        "sections": sections,
        "end_action": end_action,
        "moves": other_moves,
        "legal_count": len(legal),
        "scores": [{"player": by_seat.get(s["seat"]), "vp": s["vp"]} for s in seats],
    }


# ---------------------------------------------------------------------- forms and the event log


def action_from_form(data: Any, match: dict[str, Any]) -> dict[str, Any]:
    """The bid builder: ticked ``bid_card`` and ``bid_use`` fields -> ``commit_bid`` (the engine checks it)."""
    if data.get("mh_form") != "commit":
        raise FormError("No move was sent.")
    uses = []
    for raw in data.getlist("bid_use"):
        try:
            uses.append(json.loads(raw))
        except ValueError:
            raise FormError(f"The use {raw!r} could not be read.") from None
    return {"do": "commit_bid", "cards": list(data.getlist("bid_card")), "uses": uses}


CHANCE_TEXT = {
    "select": "Setup: the {pool} pool is drawn (sealed).",
    "bottom_order": "Cards go under the exploration pile in random order.",
    "deal_order": "Logistical Mishap: the bid pools are dealt out.",
}


def describe_event(event: dict[str, Any], players: list[Player]) -> str | None:
    if "chance" in event:
        data = event["chance"]
        kind = data.get("kind")
        if kind == "shuffle":
            pile = data.get("pile", "")
            if pile.startswith("draw:"):
                return f"{seat_name(players, int(pile[5:]))} shuffles their draw pile."
            if pile == "shop":
                return "The shop deck is shuffled."
            if pile.startswith("shop:"):  # the tiered shop profile: basic, advanced, project
                return f"The {pile[5:]} shop deck is shuffled."
            return f"The {pile} pile is shuffled."
        if kind == "roll":
            return f"Cavern roll for {_n(data.get('card'))}: {data.get('value')}."
        if kind == "insert":
            return f"{_n(data.get('card'))} is shuffled into the exploration pile."
        if kind == "random_trash":
            return f"Witch's Hut: {seat_name(players, data.get('seat'))} loses {_n(data.get('card'))}."
        if kind == "assign_legendaries":
            return "Legendary dwarves are dealt: " + ", ".join(short_name(c) for c in data.get("cards", [])) + "."
        if kind in CHANCE_TEXT:
            return CHANCE_TEXT[kind].format(pool=data.get("pool", ""))
        return None
    if "player" in event:
        name = seat_name(players, event["player"])
        action = event.get("action") or {}
        if action.get("sealed"):
            return {
                "commit_bid": f"{name} commits to the bid (sealed).",
                "trash": f"{name} chooses a card to trash (sealed).",
            }.get(action.get("do"), f"{name} makes a private choice.")
        verb = action.get("do")
        if verb == "ready":
            return f"{name} is ready."
        if verb == "end_action_step":
            return f"{name} ends the action step."
        return f"{name}: {move_label(action, players)}."
    return None
