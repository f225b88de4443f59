"""Public card facts for readers outside the engine (the page's presenter, docs, tools).

The presenter must not reach into the rules' internals (``cards.CARDS``, ``tables``, the
observation's compact ``engine`` section) or parse instance ids itself: it asks here.  Every
fact comes from the card data (``cards.json``, rules file §22) and the observation of one seat
(§20), so nothing hidden can come through this module.

* :func:`kind_of` - the card id of an instance id (``"shinies-3#2"`` -> ``"shinies-3"``, §23.2).
* :func:`card_facts` - name, family, type, printed value, construction steps, VP, resolve VP.
* :func:`shop_price` - a blueprint's price in shinies under a shop profile (§3.4).
* :func:`pending_choice` - what a ``choose`` / ``on_bid_choice`` prompt of an observation asks
  (``"golems"``, ``"party"`` …), or None.
* :data:`RESOURCES`, :data:`LEGENDARIES`, :data:`CARD_IDS`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .cards import BY_ID, CARDS, CONSTANTS
from .constants import Choice

RESOURCES: tuple[str, ...] = ("rocks", "shinies", "booze")
LEGENDARIES: tuple[str, ...] = tuple(CONSTANTS["legendaries"])
CARD_IDS: tuple[str, ...] = tuple(card["id"] for card in CARDS)
CHOICES: dict[int, str] = {int(c): c.name.lower() for c in Choice}


def kind_of(instance: str) -> str:
    """The card id of an instance id (§23.2); a plain card id is returned as it is."""
    return instance.split("#", 1)[0]


@cache
def _facts(card_id: str) -> dict[str, Any]:
    data = BY_ID.get(card_id)
    if data is None:
        return {"id": card_id, "name": card_id, "family": "unknown", "type": "unknown", "value": None,
                "steps": [], "vp": 0, "vp_per_step": 0, "vp_rule": None, "resolve_vp": None}
    vp = data.get("vp", 0)
    vp_rule = None
    per_step = 0
    if isinstance(vp, dict):
        per_step, vp = vp.get("per_step", 0), vp.get("finished", 0)
    elif vp == "stored_card_value":
        vp_rule, vp = "stored_card_value", 0
    value = data.get("value")
    return {
        "id": card_id,
        "name": data["name"],
        "family": data["family"],
        "type": data["type"],
        "value": dict(value) if value else None,
        "steps": [dict(step) for step in data.get("steps", ())],
        "vp": vp,
        "vp_per_step": per_step,
        "vp_rule": vp_rule,
        "resolve_vp": data.get("resolve_vp"),
    }


def card_facts(card: str) -> dict[str, Any]:
    """Printed facts of a card, by card id or instance id (a fresh dict each call).

    Keys: ``id``, ``name``, ``family`` and ``type`` (§22.1), ``value`` (``{"res", "amt"}`` for
    resource cards, else None), ``steps`` (construction steps in order, each ``{"rocks"?,
    "shinies"?, "booze"?}`` or ``{"any": k}``), ``vp`` (fixed VP, or VP when finished),
    ``vp_per_step`` (projects), ``vp_rule`` (``"stored_card_value"`` for the Pawn Shop),
    ``resolve_vp`` (recurring events: VP per counter).
    """
    facts = _facts(kind_of(card))
    return {**facts, "steps": [dict(s) for s in facts["steps"]], "value": dict(facts["value"]) if facts["value"] else None}


def shop_price(card: str, profile: str = "seed") -> int | None:
    """A blueprint's price in shinies in the construction office (§3.4); None if it is not sold there."""
    data = BY_ID.get(kind_of(card))
    if data is None:
        return None
    prices = CONSTANTS["shop"]["profiles"].get(profile, CONSTANTS["shop"]["profiles"]["seed"])["price_shinies"]
    price: int | None = prices.get(data["type"])
    return price


def pending_choice(observation: dict[str, Any]) -> str | None:
    """What the observation's ``choose`` or ``on_bid_choice`` prompt asks, as a lower-case name.

    One of ``boat``, ``golems``, ``dragon``, ``goblins``, ``reorg_n``, ``reorg_put``, ``cav_res``,
    ``cav_build``, ``baldur``, ``fortress``, ``party``, ``fools``, ``piling``, ``politics``, ``loki``,
    ``minecarts``; None for any other prompt.  Every seat's observation carries it (the kind of a
    pending choice is public, §20.1), so a spectator's page can say what is being decided.
    """
    if observation.get("prompt") not in ("choose", "on_bid_choice"):
        return None
    pdata = (observation.get("engine") or {}).get("pdata")
    if not pdata or not isinstance(pdata[0], int):
        return None
    return CHOICES.get(pdata[0])
