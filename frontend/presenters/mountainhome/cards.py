"""Cards as the page draws them: name, type, cost in resource symbols, VP and effect text.

Everything printed comes from the engine's public card facts (``engine.games.mountainhome.facts``);
the effect wording from ``texts.TEXT``.  A card dict is what ``boards/mountainhome/card.html`` draws.
"""

from __future__ import annotations

from typing import Any

from engine.games.mountainhome.facts import card_facts, kind_of

from .texts import FAMILY_LABEL, RES_NAME, RES_SHORT, TEXT, TYPE_LABEL

SHORT_TEXT = 96  # characters of effect text shown before "more"


def short_name(kind: str) -> str:
    name: str = card_facts(kind)["name"]
    return name.split(",", 1)[0]


def cost_text(step: dict[str, int]) -> str:
    return "+".join(f"{amt}{' ' if res == 'any' else ''}{RES_SHORT[res]}" for res, amt in step.items())


def res_list(amounts: dict[str, int]) -> list[dict[str, Any]]:
    """``{"rocks": 2, "any": 3}`` -> symbols with counts, for the template's resource icons."""
    return [
        {"res": res, "amt": amt, "short": RES_SHORT[res], "name": RES_NAME[res]}
        for res, amt in amounts.items() if amt
    ]


def effect_text(kind: str) -> str:
    """The card's effect in words (empty for plain treasures: their value says it all)."""
    facts = card_facts(kind)
    if kind in TEXT:
        return TEXT[kind]
    if facts["value"]:
        res = RES_NAME[facts["value"]["res"]]
        return f"Play: +{facts['value']['amt']} {res}. In a bid: worth {facts['value']['amt']} where {res.lower()} count."
    return ""


def vp_label(kind: str) -> str:
    facts = card_facts(kind)
    if facts["resolve_vp"]:
        return f"{facts['resolve_vp']} VP/counter"
    if facts["vp_rule"] == "stored_card_value":
        return "VP = stored"
    if facts["vp_per_step"]:
        return f"{facts['vp_per_step']}/step +{facts['vp']}"
    if facts["vp"]:
        return f"{facts['vp']} VP"
    return ""


def card_text(kind: str) -> str:
    """One line with everything printed on the card (for screen readers and the fallback list)."""
    facts = card_facts(kind)
    parts = [f"{FAMILY_LABEL.get(facts['family'], facts['family'])}, {TYPE_LABEL.get(facts['type'], facts['type'])}."]
    value = facts["value"]
    if value:
        parts.append(f"Play: +{value['amt']} {RES_NAME[value['res']]}.")
    if kind in TEXT:
        parts.append(TEXT[kind])
    if facts["steps"]:
        parts.append("Steps: " + " · ".join(f"S{i} {cost_text(s)}" for i, s in enumerate(facts["steps"], 1)) + ".")
    if facts["resolve_vp"]:
        parts.append(f"{facts['resolve_vp']} VP per counter when it resolves.")
    elif facts["vp_rule"] == "stored_card_value":
        parts.append("VP = value of the stored card.")
    elif facts["vp"] and not facts["vp_per_step"]:
        parts.append(f"{facts['vp']} VP" + (" when finished." if facts["steps"] else "."))
    return " ".join(parts)


def css_class(kind: str) -> str:
    facts = card_facts(kind)
    if facts["value"]:
        return f"fam-{facts['family']} res-{facts['value']['res']}"
    return f"fam-{facts['family']}"


def card(instance: str | None, price: int | None = None) -> dict[str, Any] | None:
    """A card as drawn on the table. ``price``: the shop price in shinies, for a shop slot."""
    if not instance:
        return None
    kind = kind_of(instance)
    facts = card_facts(kind)
    text = effect_text(kind)
    cut = text if len(text) <= SHORT_TEXT else text[: text.rfind(" ", 0, SHORT_TEXT)] + "…"
    return {
        "id": instance, "kind": kind, "name": facts["name"], "short": short_name(kind),
        "family": facts["family"], "type_label": TYPE_LABEL.get(facts["type"], facts["type"]),
        "text": text, "text_short": cut, "text_long": cut != text,
        "title": f"{facts['name']} — {card_text(kind)}", "summary": card_text(kind),
        "css": css_class(kind),
        "value": res_list({facts["value"]["res"]: facts["value"]["amt"]}) if facts["value"] else [],
        "steps": [{"n": i, "cost": res_list(step), "done": False} for i, step in enumerate(facts["steps"], 1)],
        "price": res_list({"shinies": price}) if price else [],
        "vp": vp_label(kind),
        "menu": None, "reason": "", "recent": None,
    }


def cards(instances: list[str] | None) -> list[dict[str, Any]]:
    return [c for c in (card(i) for i in instances or [] if i) if c]


def building(entry: dict[str, Any]) -> dict[str, Any]:
    """A building in a town (§20.1): its card, completed steps, tapped state and stored cards."""
    c = card(entry["card"])
    assert c is not None
    for step in c["steps"]:
        step["done"] = step["n"] <= entry["steps"]
        step["next"] = step["n"] == entry["steps"] + 1
    return {
        **c,
        "built": entry["steps"], "of": entry["of"], "finished": entry["finished"], "tapped": entry["tapped"],
        "stored": cards(entry.get("stored")),
    }
