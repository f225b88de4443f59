"""Flat tables derived once, at import, from the card data (``cards.py``).

Card *kinds* are indices into :data:`cards.CARDS`; the rules read these tuples
instead of the nested dicts so the inner loop stays on ints.  Every number the
rules use for a card (VP, value, construction steps, tap yields, costs) comes
from the data here; nothing is typed in twice.
"""

from __future__ import annotations

from typing import Any

from .cards import BY_ID, CARDS
from .cards import CONSTANTS as CONSTANTS  # re-exported: the rules read tables.CONSTANTS

ROCKS, SHINIES, BOOZE = 0, 1, 2
RES_NAMES = ("rocks", "shinies", "booze")
RES_INDEX = {name: i for i, name in enumerate(RES_NAMES)}

NK = len(CARDS)
KID: tuple[str, ...] = tuple(c["id"] for c in CARDS)
KNAME: tuple[str, ...] = tuple(c["name"] for c in CARDS)
KINDEX: dict[str, int] = {cid: k for k, cid in enumerate(KID)}
KFAMILY: tuple[str, ...] = tuple(c["family"] for c in CARDS)
KTYPE: tuple[str, ...] = tuple(c["type"] for c in CARDS)


def _value(card: dict[str, Any]) -> tuple[int, int]:
    value = card.get("value")
    if not value:
        return (-1, 0)
    return (RES_INDEX[value["res"]], value["amt"])


KVALUE_RES: tuple[int, ...] = tuple(_value(c)[0] for c in CARDS)  # -1: not a resource card
KVALUE_AMT: tuple[int, ...] = tuple(_value(c)[1] for c in CARDS)
IS_RESOURCE: tuple[bool, ...] = tuple(KTYPE[k] == "resource" for k in range(NK))
IS_DWARF: tuple[bool, ...] = tuple(KFAMILY[k] == "dwarf" for k in range(NK))
IS_BUILDING: tuple[bool, ...] = tuple(KFAMILY[k] == "building" for k in range(NK))
IS_PROJECT: tuple[bool, ...] = tuple(KTYPE[k] == "project" for k in range(NK))
IS_ACTION: tuple[bool, ...] = tuple(KFAMILY[k] == "action" for k in range(NK))


def _step(step: dict[str, int]) -> tuple[int, int, int, int]:
    return (step.get("rocks", 0), step.get("shinies", 0), step.get("booze", 0), step.get("any", 0))


# KSTEPS[k] = ((rocks, shinies, booze, any), ...) in printed order
KSTEPS: tuple[tuple[tuple[int, int, int, int], ...], ...] = tuple(
    tuple(_step(s) for s in c.get("steps", ())) for c in CARDS
)


def _vp(card: dict[str, Any]) -> tuple[int, int, int]:
    """(fixed vp, vp per completed step, vp when finished); pawnshop handled by the rules."""
    vp = card["vp"]
    if isinstance(vp, dict):
        return (0, vp["per_step"], vp["finished"])
    if vp == "stored_card_value":
        return (0, 0, 0)
    if card["family"] == "building":
        return (0, 0, vp)
    return (vp, 0, 0)


KVP_FIXED: tuple[int, ...] = tuple(_vp(c)[0] for c in CARDS)
KVP_STEP: tuple[int, ...] = tuple(_vp(c)[1] for c in CARDS)
KVP_FINISHED: tuple[int, ...] = tuple(_vp(c)[2] for c in CARDS)
KRESOLVE_VP: tuple[int, ...] = tuple(c.get("resolve_vp", 0) for c in CARDS)


def _abilities(card_id: str, when: str) -> list[dict[str, Any]]:
    return [a for a in BY_ID[card_id]["abilities"] if a["when"] == when]


def _ops(card_id: str, when: str) -> list[dict[str, Any]]:
    return [op for a in _abilities(card_id, when) for op in a["do"]]


# Labourers: the resource options of gain_one_of.
LABOURER_OPTIONS: dict[int, tuple[tuple[int, int], ...]] = {}
# Renowned: (gain res, gain amount, doubled building kind).
RENOWNED: dict[int, tuple[int, int, int]] = {}
for _k, _c in enumerate(CARDS):
    if _c["type"] == "labourer":
        (_op,) = _ops(_c["id"], "dwarf_action")
        LABOURER_OPTIONS[_k] = tuple((RES_INDEX[o["res"]], o["amt"]) for o in _op["gain_one_of"])
    elif _c["type"] == "renowned":
        (_op,) = _ops(_c["id"], "dwarf_action")
        _gain = _op["choose"]["gain"][0]["gain"]
        _double = _op["choose"]["double"][0]["double_output"]["building"]
        RENOWNED[_k] = (RES_INDEX[_gain["res"]], _gain["amt"], KINDEX[_double])

# Simple producing taps: building kind -> (res, amount, renowned kind that doubles it).
PRODUCER: dict[int, tuple[int, int, int]] = {}
# Variable taps: building kind -> (res paid n, multiplier).
MULTIPLIER: dict[int, tuple[int, int]] = {}
for _k, _c in enumerate(CARDS):
    for _a in _c["abilities"]:
        if _a["when"] != "tap" or len(_a["do"]) != 1 or "gain" not in _a["do"][0]:
            continue
        _g = _a["do"][0]["gain"]
        if isinstance(_g["amt"], int):
            PRODUCER[_k] = (RES_INDEX[_g["res"]], _g["amt"], KINDEX[_g["doubled_by"]])
        else:  # "2n" / "3n" with a cost {res: "n"}
            (_res,) = [r for r, v in _a["cost"].items() if v == "n"]
            assert _res == _g["res"]
            MULTIPLIER[_k] = (RES_INDEX[_res], int(_g["amt"][:-1]))

HOARD = KINDEX["hoard"]
HANGOVER = KINDEX["hangover"]
(_hoard_op,) = [op for op in _ops("hoard", "activated") if "gain_any_one" in op]
HOARD_GAIN = _hoard_op["gain_any_one"]["amt"]
HOARD_DRAW = [op for op in _ops("hoard", "activated") if "draw" in op][0]["draw"]["n"]
ORI_DRAW = [op for op in _ops("ori", "dwarf_action") if "draw" in op][0]["draw"]["n"]
BOAT_DRAW = _ops("boat", "tap")[0]["draw"]["n"]
DUNGEON_COST = _abilities("dungeon", "tap")[0]["cost"]["shinies"]
DWELLING_COST = _abilities("dwelling", "tap")[0]["cost"]["booze"]
WORKSHOP_COST = [a for a in _abilities("workshop", "tap") if "cost" in a][0]["cost"]["any"]
assert DUNGEON_COST == CONSTANTS["dungeon_cost_shinies"]
assert DWELLING_COST == CONSTANTS["dwelling_cost_booze"]
assert WORKSHOP_COST == CONSTANTS["workshop_build_cost_any"]

LEGENDARIES = tuple(KINDEX[c] for c in CONSTANTS["legendaries"])
START_DECK = CONSTANTS["start_deck"]
HALL_BY_SEAT = tuple(KINDEX[c] for c in CONSTANTS["clan_hall_by_seat"])
LABOURER_BY_SEAT = tuple(KINDEX[c] for c in CONSTANTS["labourer_by_seat"])
SETUP_DRAW = CONSTANTS["setup_draw"]
HAND_DRAW = CONSTANTS["hand_draw"]
BID_DRAW = CONSTANTS["bid_extra_draw"]
EXP = CONSTANTS["exploration"]
SHOP = CONSTANTS["shop"]
BIDC = CONSTANTS["bid"]
CURRENCY = {kind: tuple(RES_INDEX[r] for r in res) for kind, res in BIDC["currency"].items()}
TRASH_INELIGIBLE_IDS = tuple(KINDEX[c] for c in BIDC["trash_ineligible"]["ids"])
DISTILLERY = KINDEX["distillery"]
DISTILLERY_BONUS = BIDC["distillery_bonus_booze"]
WIZARD_BONUS = BIDC["wizard_owner_bonus_shinies"]
FORTRESS: dict[str, int] = CONSTANTS["fortress"]
MUSHROOM_WINE = KINDEX["booze-2"]
MAX_ROUNDS = CONSTANTS["max_rounds"]
TIE_EXTRA_ROUNDS = CONSTANTS["vp_tie_extra_rounds"]
CONSULTANTS_FEE = CONSTANTS["consultants_fee_shinies"]

# Kinds that have an On Bid text (B5).
ON_BID: frozenset[int] = frozenset(k for k, c in enumerate(CARDS) if any(a["when"] == "on_bid" for a in c["abilities"]))


def price(kind: int, profile: str) -> int:
    shinies: int = SHOP["profiles"][profile]["price_shinies"][KTYPE[kind]]
    return shinies


def k(card_id: str) -> int:
    return KINDEX[card_id]
