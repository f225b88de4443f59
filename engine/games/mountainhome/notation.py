"""Record notation (§23): internal action / chance tuples <-> §23.3 and §23.4 JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core import IllegalActionError, NotationError
from . import tables
from .constants import (
    A_BID,
    A_BUY,
    A_BUYBACK,
    A_CAVERN,
    A_CHOOSE,
    A_COMMIT,
    A_DWARF,
    A_DWELL,
    A_END,
    A_FREL,
    A_HOARD,
    A_HUT,
    A_LAIR,
    A_OFFER,
    A_PASS,
    A_PICK,
    A_PLACE,
    A_PLAY,
    A_PLAYACT,
    A_REACT,
    A_READY,
    A_TACCEPT,
    A_TAP,
    A_TDECLINE,
    A_TRASH,
    C_BALDUR,
    C_BOAT,
    C_CAV_BUILD,
    C_CAV_RES,
    C_DRAGON,
    C_FOOLS,
    C_FORTRESS,
    C_GOBLINS,
    C_GOLEMS,
    C_LOKI,
    C_MINECARTS,
    C_PARTY,
    C_PILING,
    C_POLITICS,
    C_REORG_N,
    C_REORG_PUT,
    K_BALDUR,
    K_DUNGEON,
    K_DWELLING,
    K_HALL,
    K_MARG,
    K_ORI,
    K_PANDA,
    K_PAWNSHOP,
    K_THORVALD,
    K_WAREHOUSE,
    K_WIZARD,
    K_WORKSHOP,
    OPT_DOUBLE,
    OPT_GAIN,
    P_CHOOSE,
    P_ONBID,
    PILE_EXPLORATION,
    PILE_SHOP,
    POOLS,
    VERB_CODES,
    VERBS,
)

if TYPE_CHECKING:
    pass

RES = tables.RES_NAMES
OPTIONS = ("gain", "double")
BALDUR_OPTIONS = ("look", "explore")


# Every field an action of the record notation may have (any verb); any other is refused.
ACTION_FIELDS = frozenset({
    "do", "building", "card", "cards", "consultants", "explore", "for", "give", "keep", "mode", "moves", "n",
    "option", "order", "pay", "res", "seat", "slot", "sources", "steps", "target", "to", "uses", "want",
})


def pay_json(pay: tuple[int, int, int]) -> dict[str, int]:
    return {RES[i]: pay[i] for i in range(3) if pay[i]}


def _pay(data: Any) -> tuple[int, int, int]:
    if not isinstance(data, dict) or set(data) - set(RES):
        raise NotationError(f"'pay' must be an object with keys rocks, shinies, booze, not {data!r}")
    values = [data.get(r, 0) for r in RES]
    if any(type(v) is not int or v < 0 for v in values):
        raise NotationError(f"'pay' amounts must be whole numbers >= 0, not {data!r}")
    return (values[0], values[1], values[2])


def _res(data: Any) -> int:
    if not isinstance(data, str) or data not in tables.RES_INDEX:
        raise NotationError(f"{data!r} is not a resource (rocks, shinies, booze)")
    return tables.RES_INDEX[data]


class Codec:
    """Encodes and decodes for one state (instance names depend on the game)."""

    def __init__(self, state: StateBase) -> None:
        self.state = state

    # ---------------------------------------------------------------- names

    def card(self, data: Any, field: str = "card") -> int:
        state = self.state
        if not isinstance(data, str):
            raise NotationError(f"'{field}' must be a card instance id like 'shinies-2#1', not {data!r}")
        inst = state.layout.index.get(data)
        if inst is None:
            try:
                inst = state.names.index(data, state.layout.nbase)
            except ValueError:
                raise NotationError(f"'{field}': {data!r} is not a card of this game") from None
        return inst

    def opt_card(self, data: Any, field: str = "card") -> int:
        return -1 if data is None else self.card(data, field)

    def seat(self, data: Any, field: str) -> int:
        if type(data) is not int or not 0 <= data < self.state.players:
            raise NotationError(f"'{field}' must be a seat 0..{self.state.players - 1}, not {data!r}")
        return data

    def name_or_none(self, c: int) -> str | None:
        return None if c < 0 else self.state.names[c]

    # ---------------------------------------------------------------- actions

    def action_to_json(self, seat: int, a: tuple[Any, ...]) -> dict[str, Any]:
        state = self.state
        verb = a[0]
        out: dict[str, Any] = {"do": VERBS[verb]}
        names = state.names
        if verb == A_PICK:
            out["card"] = tables.KID[a[1]]
        elif verb == A_PLAYACT:
            out["card"] = names[a[1]]
            kind = state.kind[a[1]]
            if kind == K_WIZARD:
                out["building"] = names[a[2]]
            elif kind == K_PANDA:
                out["moves"] = [{"card": names[c], "to": to} for c, to in a[2]]
        elif verb in (A_PLAY, A_PLACE, A_LAIR, A_FREL, A_CAVERN):
            out["card"] = names[a[1]]
        elif verb == A_DWARF:
            out["card"] = names[a[1]]
            kind = state.kind[a[1]]
            if kind in tables.LABOURER_OPTIONS:
                out["res"] = RES[a[2]]
            elif kind in tables.RENOWNED:
                out["option"] = OPTIONS[a[2]]
            elif kind == K_BALDUR:
                out["option"] = BALDUR_OPTIONS[a[2]]
            elif kind == K_MARG:
                out["steps"] = [names[b] for b in a[2]]
                out["pay"] = pay_json(a[3])
        elif verb == A_COMMIT:
            out.update(card=names[a[1]], building=names[a[2]], pay=pay_json(a[3]))
        elif verb == A_DWELL:
            out.update(building=names[a[1]], target=names[a[2]], pay=pay_json(a[3]))
        elif verb == A_TAP:
            b = a[1]
            out["building"] = names[b]
            kind = state.kind[b]
            if kind in tables.MULTIPLIER:
                out["n"] = a[2]
            elif kind in K_HALL:
                out["cards"] = [names[c] for c in a[2]]
            elif kind in (K_WAREHOUSE, K_DWELLING, K_PAWNSHOP, K_DUNGEON):
                out["card"] = self.name_or_none(a[2])
            elif kind == K_WORKSHOP:
                out["mode"] = "build" if a[2] == 0 else "untap"
                out["target"] = self.name_or_none(a[3])
                if a[2] == 0:
                    out["pay"] = pay_json(a[4])
        elif verb == A_BUYBACK:
            out["building"] = names[a[1]]
        elif verb == A_HOARD:
            out.update(card=names[a[1]], res=RES[a[2]])
        elif verb == A_BUY:
            out.update(slot=a[1], consultants=bool(a[2]))
        elif verb == A_REACT:
            out["card"] = names[a[1]]
        elif verb == A_BID:
            out["cards"] = [names[c] for c in a[1]]
            out["uses"] = [self.use_json(u) for u in a[2]]
        elif verb == A_TRASH:
            out["card"] = names[a[1]]
            if a[2] >= 0:
                out["for"] = a[2]
        elif verb == A_CHOOSE:
            out.update(self.choose_json(a))
        elif verb == A_HUT:
            out["n"] = a[1]
        elif verb == A_OFFER:
            out.update(to=a[1], give=names[a[2]], want="any" if a[3] < 0 else tables.KID[a[3]])
        elif verb == A_TACCEPT:
            out["give"] = names[a[1]]
        return out

    def choose_json(self, a: tuple[Any, ...]) -> dict[str, Any]:
        names = self.state.names
        what = a[1]
        if what in (C_BOAT, C_PILING, C_FOOLS, C_POLITICS):
            return {"card": names[a[2]]}
        if what == C_LOKI:
            return {"seat": a[2]}
        if what == C_MINECARTS:
            return {"keep": [names[c] for c in a[2]]}
        if what == C_GOLEMS:
            return {"card": names[a[2]], "option": ("trash", "discard")[a[3]]}
        if what == C_DRAGON:
            if a[2] == 0:
                return {"option": "discard", "card": names[a[3]]}
            return {"option": "damage", "building": names[a[3]]} if a[3] >= 0 else {"option": "damage"}
        if what == C_GOBLINS:
            if a[2] == 0:
                return {"option": "tap", "building": names[a[3]]}
            if a[2] == 1:
                return {"option": "discard", "card": names[a[3]]}
            return {"option": "pay", "sources": [self.source_json(x) for x in a[3]]}
        if what == C_REORG_N:
            return {"n": a[2]}
        if what in (C_REORG_PUT, C_BALDUR):
            return {"order": [names[c] for c in a[2]]}
        if what == C_CAV_RES:
            return {"res": RES[a[2]]}
        if what == C_CAV_BUILD:
            return {"building": names[a[2]]}
        if what == C_FORTRESS:
            return {"option": "fortress", "sources": [self.source_json(x) for x in a[2]]}
        if what == C_PARTY:
            return {"explore": True}
        raise NotationError(f"unknown choose payload {a!r}")

    def source_json(self, src: tuple[Any, ...]) -> dict[str, Any]:
        names = self.state.names
        if src[0] == 0:
            return {"card": names[src[1]]}
        if src[0] == 1:
            out: dict[str, Any] = {"tap": names[src[1]]}
            if self.state.kind[src[1]] in tables.MULTIPLIER:
                out["n"] = src[2]
            return out
        if src[0] == 2:
            return {"pawn": names[src[1]], "card": names[src[2]]}
        if src[0] == 3:
            return {"hoard": names[src[1]], "res": RES[src[2]]}
        return {"pool": pay_json(src[1:4])}

    def source_from_json(self, data: Any) -> tuple[Any, ...]:
        if not isinstance(data, dict):
            raise NotationError(f"a source must be an object, not {data!r}")
        if "card" in data and len(data) == 1:
            return (0, self.card(data["card"]))
        if "tap" in data:
            b = self.card(data["tap"], "tap")
            if self.state.kind[b] in tables.MULTIPLIER:
                n = data.get("n")
                if type(n) is not int or n < 1:
                    raise NotationError("a variable tap needs 'n' >= 1")
                return (1, b, n)
            return (1, b, 0)
        if "pawn" in data:
            return (2, self.card(data["pawn"], "pawn"), self.card(data.get("card")))
        if "hoard" in data:
            return (3, self.card(data["hoard"], "hoard"), _res(data.get("res")))
        if "pool" in data:
            return (4, *_pay(data["pool"]))
        raise NotationError(f"unknown source {data!r}")

    def use_json(self, use: tuple[Any, ...]) -> dict[str, Any]:
        names = self.state.names
        if use[0] == 0:
            out: dict[str, Any] = {"tap": names[use[1]]}
            if self.state.kind[use[1]] in tables.MULTIPLIER:
                out["n"] = use[2]
            return out
        if use[0] == 1:
            return {"pawn": names[use[1]], "card": names[use[2]]}
        return {"hoard": names[use[1]], "res": RES[use[2]]}

    def use_from_json(self, data: Any) -> tuple[Any, ...]:
        if not isinstance(data, dict):
            raise NotationError(f"a use must be an object, not {data!r}")
        if "tap" in data:
            b = self.card(data["tap"], "tap")
            if self.state.kind[b] in tables.MULTIPLIER:
                n = data.get("n")
                if type(n) is not int or n < 1:
                    raise NotationError(f"the use of {data['tap']} needs a whole number 'n' >= 1")
                return (0, b, n)
            if self.state.kind[b] == K_PAWNSHOP:
                raise NotationError("a Pawn Shop use is written {\"pawn\": building, \"card\": id}")
            return (0, b, 0)
        if "pawn" in data:
            return (1, self.card(data["pawn"], "pawn"), self.card(data.get("card"), "card"))
        if "hoard" in data:
            return (2, self.card(data["hoard"], "hoard"), _res(data.get("res")))
        raise NotationError(f"a use is {{'tap'}}, {{'pawn','card'}} or {{'hoard','res'}}, not {data!r}")

    def action_from_json(self, seat: int, data: Any) -> tuple[Any, ...]:
        state = self.state
        if not isinstance(data, dict) or not isinstance(data.get("do"), str):
            raise NotationError(f"an action must be an object with a 'do' verb, not {data!r}")
        extra = set(data) - ACTION_FIELDS
        if extra:  # refused like every game's unknown fields, never silently dropped
            raise NotationError(
                f"action has unknown field {sorted(map(str, extra))[0][:40]!r}; allowed: {', '.join(sorted(ACTION_FIELDS))}"
            )
        verb = VERB_CODES.get(data["do"])
        if verb is None:
            raise NotationError(f"unknown verb {data['do']!r}")
        get = data.get
        if verb == A_PICK:
            card = get("card")
            if not isinstance(card, str) or card not in tables.KINDEX or tables.KINDEX[card] not in tables.LEGENDARIES:
                raise NotationError(f"choose_legendary needs a legendary card id, not {card!r}")
            return (A_PICK, tables.KINDEX[card])
        if verb in (A_PLAY, A_PLACE, A_LAIR, A_FREL, A_PLAYACT, A_CAVERN, A_REACT):
            if verb == A_PLAYACT:
                card = self.card(get("card"))
                kind = state.kind[card]
                if kind == K_WIZARD:
                    return (A_PLAYACT, card, self.card(get("building"), "building"))
                if kind == K_PANDA:
                    moves = get("moves")
                    if not isinstance(moves, list) or any(not isinstance(m, dict) for m in moves):
                        raise NotationError("Trash Panda needs 'moves': a list of {card, to}")
                    decoded = tuple(sorted((self.card(m.get("card")), self.seat(m.get("to"), "to")) for m in moves))
                    return (A_PLAYACT, card, decoded, state.actions_applied)
                return (A_PLAYACT, card)
            return (verb, self.card(get("card")))
        if verb in (A_END, A_PASS, A_READY, A_TDECLINE):
            return (verb,)
        if verb == A_DWARF:
            card = self.card(get("card"))
            kind = state.kind[card]
            if kind in tables.LABOURER_OPTIONS:
                return (A_DWARF, card, _res(get("res")))
            if kind in tables.RENOWNED:
                option = get("option")
                if option not in OPTIONS:
                    raise NotationError(f"option must be 'gain' or 'double', not {option!r}")
                return (A_DWARF, card, OPT_GAIN if option == "gain" else OPT_DOUBLE)
            if kind == K_BALDUR:
                option = get("option")
                if option not in BALDUR_OPTIONS:
                    raise NotationError(f"Baldur's option must be 'look' or 'explore', not {option!r}")
                return (A_DWARF, card, BALDUR_OPTIONS.index(option))
            if kind in (K_ORI, K_THORVALD):
                return (A_DWARF, card)
            if kind == K_MARG:
                steps = get("steps")
                if not isinstance(steps, list) or not 1 <= len(steps) <= 2:
                    raise NotationError("Marg's 'steps' must list 1 or 2 building ids")
                picked = [self.card(b, "steps") for b in steps]
                blds = tuple(sorted(picked))
                pay = self._pay_for(blds, get("pay"))
                return (A_DWARF, card, blds, pay)
            raise IllegalActionError(f"{get('card')} has no dwarf ability; commit it to construction instead")
        if verb == A_COMMIT:
            card = self.card(get("card"))
            b = self.card(get("building"), "building")
            return (A_COMMIT, card, b, self._pay_for((b,), get("pay")))
        if verb == A_DWELL:
            b = self.card(get("building"), "building")
            t = self.card(get("target"), "target")
            return (A_DWELL, b, t, self._pay_for((t,), get("pay")))
        if verb == A_TAP:
            b = self.card(get("building"), "building")
            kind = state.kind[b]
            if kind in tables.MULTIPLIER:
                n = get("n")
                if type(n) is not int or n < 1:
                    raise NotationError("this tap needs a whole number 'n' >= 1")
                if "pay" in data:
                    res = tables.MULTIPLIER[kind][0]
                    need = [0, 0, 0]
                    need[res] = n
                    if _pay(data["pay"]) != tuple(need):
                        raise IllegalActionError(f"'pay' must equal {n} {RES[res]} for this tap (MH-79)")
                return (A_TAP, b, n)
            if kind in K_HALL:
                cards = get("cards")
                if not isinstance(cards, list):
                    raise NotationError("a Clan Hall tap needs a 'cards' list (may be empty)")
                return (A_TAP, b, tuple(sorted(self.card(c, "cards") for c in cards)))
            if kind in (K_WAREHOUSE, K_DWELLING, K_PAWNSHOP, K_DUNGEON):
                if "card" not in data:
                    raise NotationError("this tap needs a 'card' (or null)")
                return (A_TAP, b, self.opt_card(get("card")))
            if kind == K_WORKSHOP:
                mode = get("mode")
                if mode == "build":
                    t = self.card(get("target"), "target")
                    paid = get("pay")
                    if paid is None:
                        raise NotationError("a Workshop build pays 4 any: 'pay' is required")
                    return (A_TAP, b, 0, t, _pay(paid))
                if mode == "untap":
                    return (A_TAP, b, 1, self.opt_card(get("target"), "target"))
                raise NotationError(f"Workshop 'mode' must be 'build' or 'untap', not {mode!r}")
            return (A_TAP, b)
        if verb == A_BUYBACK:
            return (A_BUYBACK, self.card(get("building"), "building"))
        if verb == A_HOARD:
            return (A_HOARD, self.card(get("card")), _res(get("res")))
        if verb == A_BUY:
            slot = get("slot")
            if type(slot) is not int or not 0 <= slot <= 2:
                raise NotationError(f"'slot' must be 0, 1 or 2, not {slot!r}")
            consultants = get("consultants", False)
            if type(consultants) is not bool:
                raise NotationError("'consultants' must be true or false")
            return (A_BUY, slot, int(consultants))
        if verb == A_BID:
            cards = get("cards", [])
            uses = get("uses", [])
            if not isinstance(cards, list) or not isinstance(uses, list):
                raise NotationError("commit_bid needs 'cards' and 'uses' lists")
            return (A_BID, tuple(self.card(c, "cards") for c in cards), tuple(self.use_from_json(u) for u in uses), state.actions_applied)
        if verb == A_TRASH:
            target = self.seat(get("for"), "for") if "for" in data else -1
            return (A_TRASH, self.card(get("card")), target)
        if verb == A_CHOOSE:
            return self.choose_from_json(data)
        if verb == A_HUT:
            n = get("n")
            if type(n) is not int or not 0 <= n <= 3:
                raise NotationError(f"hut_draw 'n' must be 0 to 3, not {n!r}")
            return (A_HUT, n)
        if verb == A_OFFER:
            want = get("want")
            if not isinstance(want, str) or (want != "any" and want not in tables.KINDEX):
                raise NotationError(f"'want' must be a card id or \"any\", not {want!r}")
            return (A_OFFER, self.seat(get("to"), "to"), self.card(get("give"), "give"), -1 if want == "any" else tables.KINDEX[want])
        if verb == A_TACCEPT:
            if "give" in data:
                return (A_TACCEPT, self.card(get("give"), "give"))
            if state.prompt == 7 and state.prompt_data[2] >= 0:  # want names a card id: the lowest-numbered instance (MH-76)
                mine = [c for c in state.hand[seat] if state.kind[c] == state.prompt_data[2]]
                if not mine:
                    raise IllegalActionError(f"seat {seat} has no {tables.KID[state.prompt_data[2]]} to give")
                return (A_TACCEPT, min(mine, key=lambda c: state.kind_numbers[c]))
            raise NotationError("trade_accept needs 'give' when the offer wants \"any\"")
        raise NotationError(f"unknown verb {data['do']!r}")

    def choose_from_json(self, data: dict[str, Any]) -> tuple[Any, ...]:
        state = self.state
        if state.prompt not in (P_CHOOSE, P_ONBID):
            raise IllegalActionError("'choose' answers a choose prompt, and none is open")
        what = state.prompt_data[0]
        get = data.get
        if what in (C_PILING, C_FOOLS, C_POLITICS):
            return (A_CHOOSE, what, self.card(get("card")))
        if what == C_LOKI:
            return (A_CHOOSE, C_LOKI, self.seat(get("seat"), "seat"))
        if what == C_MINECARTS:
            keep = get("keep")
            if not isinstance(keep, list):
                raise NotationError("Faulty Minecarts needs 'keep': a list of 0 to 3 cards")
            return (A_CHOOSE, C_MINECARTS, tuple(sorted(self.card(c, "keep") for c in keep)))
        if what == C_BOAT:
            return (A_CHOOSE, C_BOAT, self.card(get("card")))
        if what == C_GOLEMS:
            option = get("option")
            if option not in ("trash", "discard"):
                raise NotationError("Golems 'option' must be 'trash' or 'discard'")
            return (A_CHOOSE, C_GOLEMS, self.card(get("card")), 0 if option == "trash" else 1)
        if what == C_DRAGON:
            option = get("option")
            if option == "discard":
                return (A_CHOOSE, C_DRAGON, 0, self.card(get("card")))
            if option == "damage":
                return (A_CHOOSE, C_DRAGON, 1, self.card(get("building"), "building") if "building" in data else -1)
            raise NotationError("Dragon Attack! 'option' must be 'discard' or 'damage'")
        if what == C_GOBLINS:
            option = get("option")
            if option == "tap":
                return (A_CHOOSE, C_GOBLINS, 0, self.card(get("building"), "building"))
            if option == "discard":
                return (A_CHOOSE, C_GOBLINS, 1, self.card(get("card")))
            if option == "pay":
                sources = get("sources")
                if not isinstance(sources, list):
                    raise NotationError("'sources' must be a list")
                return (A_CHOOSE, C_GOBLINS, 2, tuple(self.source_from_json(x) for x in sources), state.actions_applied)
            raise NotationError("Goblins 'option' must be 'tap', 'discard' or 'pay'")
        if what == C_REORG_N:
            n = get("n")
            if type(n) is not int or not 0 <= n <= 3:
                raise NotationError("Reorganisation 'n' must be 0 to 3")
            return (A_CHOOSE, C_REORG_N, n)
        if what in (C_REORG_PUT, C_BALDUR):
            order = get("order")
            if not isinstance(order, list):
                raise NotationError("'order' must be a list of cards, top first")
            return (A_CHOOSE, what, tuple(self.card(c, "order") for c in order))
        if what == C_CAV_RES:
            return (A_CHOOSE, C_CAV_RES, _res(get("res")))
        if what == C_CAV_BUILD:
            return (A_CHOOSE, C_CAV_BUILD, self.card(get("building"), "building"))
        if what == C_FORTRESS:
            sources = get("sources")
            if get("option") != "fortress" or not isinstance(sources, list):
                raise NotationError("the Fortress capture is {\"option\": \"fortress\", \"sources\": [...]}")
            return (A_CHOOSE, C_FORTRESS, tuple(self.source_from_json(x) for x in sources), state.actions_applied)
        if what == C_PARTY:
            if get("explore") is not True:
                raise NotationError("the Party exploration is {\"explore\": true}; send pass to decline")
            return (A_CHOOSE, C_PARTY)
        raise IllegalActionError(f"the open choose prompt ({what}) is not implemented yet")

    def _pay_for(self, buildings: tuple[Any, ...], data: Any) -> tuple[int, int, int]:
        """The pay object, or the typed cost when it may be left out (§5.2)."""
        if data is not None:
            return _pay(data)
        state = self.state
        total = [0, 0, 0, 0]
        seen: dict[int, int] = {}
        for b in buildings:
            steps = tables.KSTEPS[state.kind[b]]
            p = state.steps_done.get(b, 0) + seen.get(b, 0)
            seen[b] = seen.get(b, 0) + 1
            if p >= len(steps):
                raise IllegalActionError(f"{state.names[b]} has no step left to build")
            for i in range(4):
                total[i] += steps[p][i]
        if total[3]:
            raise NotationError("this cost includes 'any': a 'pay' object is required (§23.4)")
        return (total[0], total[1], total[2])

    # ---------------------------------------------------------------- chance

    def chance_to_json(self, o: tuple[Any, ...]) -> dict[str, Any]:
        names = self.state.names
        if o[0] == "assign":
            return {"kind": "assign_legendaries", "cards": [tables.KID[k] for k in o[1]]}
        if o[0] == "shuffle":
            return {"kind": "shuffle", "pile": self.state._pile_name(o[1]), "order": [names[c] for c in o[2]]}
        if o[0] == "select":
            return {"kind": "select", "pool": POOLS[o[1]], "cards": [names[c] for c in o[2]]}
        if o[0] == "insert":
            return {"kind": "insert", "pile": "exploration", "card": names[o[1]], "position": o[2]}
        if o[0] == "roll":
            return {"kind": "roll", "die": 6, "card": names[o[1]], "value": o[2]}
        if o[0] == "bottom":
            return {"kind": "bottom_order", "pile": "exploration", "order": [names[c] for c in o[1]]}
        if o[0] == "rtrash":
            return {"kind": "random_trash", "seat": o[1], "card": names[o[2]]}
        if o[0] == "deal":
            return {"kind": "deal_order", "order": [names[c] for c in o[1]]}
        raise NotationError(f"unknown chance outcome {o!r}")

    def chance_from_json(self, data: Any) -> tuple[Any, ...]:
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise NotationError(f"a chance entry must be an object with a 'kind', not {data!r}")
        kind = data["kind"]
        if kind == "assign_legendaries":
            cards = data.get("cards")
            if not isinstance(cards, list) or any(not isinstance(c, str) or c not in tables.KINDEX for c in cards):
                raise NotationError("assign_legendaries needs 'cards': a list of legendary ids")
            return ("assign", tuple(tables.KINDEX[c] for c in cards))
        if kind == "shuffle":
            pile = data.get("pile")
            order = data.get("order")
            if not isinstance(order, list):
                raise NotationError("a shuffle needs an 'order' list")
            return ("shuffle", self._pile(pile), tuple(self.card(c, "order") for c in order))
        if kind == "select":
            pool = data.get("pool")
            if not isinstance(pool, str) or pool not in POOLS:
                raise NotationError(f"'pool' must be one of {', '.join(POOLS)}, not {pool!r}")
            cards = data.get("cards")
            if not isinstance(cards, list):
                raise NotationError("a select needs a 'cards' list")
            return ("select", POOLS.index(pool), tuple(sorted(self.card(c, "cards") for c in cards)))
        if kind == "insert":
            if data.get("pile") != "exploration" or type(data.get("position")) is not int:
                raise NotationError("an insert needs 'pile': 'exploration', 'card' and an int 'position'")
            return ("insert", self.card(data.get("card")), data["position"])
        if kind == "roll":
            if data.get("die") != 6 or type(data.get("value")) is not int:
                raise NotationError("a roll needs 'die': 6, 'card' and an int 'value'")
            return ("roll", self.card(data.get("card")), data["value"])
        if kind in ("bottom_order", "deal_order"):
            order = data.get("order")
            if not isinstance(order, list):
                raise NotationError(f"a {kind} needs an 'order' list")
            return ("bottom" if kind == "bottom_order" else "deal", tuple(self.card(c, "order") for c in order))
        if kind == "random_trash":
            return ("rtrash", self.seat(data.get("seat"), "seat"), self.card(data.get("card")))
        raise NotationError(f"unknown chance kind {kind!r}")

    def _pile(self, pile: Any) -> int:
        if isinstance(pile, str):
            if pile.startswith("draw:") and pile[5:].isdigit() and int(pile[5:]) < self.state.players:
                return int(pile[5:])
            if pile == "exploration":
                return PILE_EXPLORATION
            if pile in self.state.layout.shop_tier_names:
                return PILE_SHOP + self.state.layout.shop_tier_names.index(pile)
        raise NotationError(f"{pile!r} is not a pile of this game")


if TYPE_CHECKING:
    from .base import StateBase
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class CodecMixin(StateBase):
    """The record codec as methods of the state (the engine protocol's ``*_to_json`` / ``*_from_json``)."""

    __slots__ = ()

    def action_to_json(self, seat: int, action: Any) -> dict[str, Any]:
        return Codec(self).action_to_json(seat, action)

    def action_from_json(self, seat: int, data: Any) -> Any:
        return Codec(self).action_from_json(seat, data)

    def chance_to_json(self, outcome: Any) -> dict[str, Any]:
        return Codec(self).chance_to_json(outcome)

    def chance_from_json(self, data: Any) -> Any:
        return Codec(self).chance_from_json(data)
