"""Nanga Parbat's record notation (§12) and why an action is illegal, for error messages.

A mixin of :class:`~engine.games.nanga_parbat.state.NangaParbatState`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...core import IllegalActionError, NotationError
from .claims import is_connected, trade_pays
from .tables import (
    ACTIVATED_TYPES,
    CAMP,
    CAMPS_ROW,
    CLAIM,
    COLUMNS,
    DIFFERENT_ROW,
    END,
    END_ACTION,
    GUIDE,
    HIKER,
    KIND_TYPE,
    MUSK,
    P_ANIMALS,
    P_FIRST,
    P_GUIDE,
    POWER_KIND,
    REGION_INDEX,
    REGION_NUMBERS,
    REGION_OF,
    REGIONS,
    RELOCATE,
    REQUIREMENTS,
    ROW_KINDS,
    ROWS,
    SAME_ROW,
    SECTION_INDEX,
    SECTION_NAMES,
    SECTIONS,
    SNOW,
    TAHR,
    TRAP,
    TYPE_CODE,
    TYPE_NAMES,
    YAK,
)

# Every field an action of the record notation may have (each action is one fixed set of them).
ACTION_FIELDS = frozenset({"activate", "animals", "claim", "end_turn", "guide", "relocate", "sections", "swap", "trap"})

if TYPE_CHECKING:
    from .base import StateBase
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class NotationMixin(StateBase):
    __slots__ = ()

    # ---- record notation (§12)

    def action_to_json(self, seat: int, action: Any) -> dict[str, Any]:
        kind = action[0]
        if kind == TRAP:
            return {"trap": SECTION_NAMES[action[1]]}
        if kind == END:
            return {"end_turn": True}
        if kind == CLAIM:
            row, col, payload = action[1], action[2], action[3]
            square = {"row": row + 1, "column": col + 1}
            if ROW_KINDS[row] == CAMPS_ROW:
                return {"claim": square, "sections": [SECTION_NAMES[i] for i in payload]}
            return {"claim": square, "animals": list(payload)}
        if kind == RELOCATE:
            return {"relocate": REGION_NUMBERS[action[1]]}
        if kind == GUIDE:
            return {"guide": REGION_NUMBERS[action[1]]}
        if kind == YAK:
            return {"activate": "yak", "guide": REGION_NUMBERS[action[1]]}
        if kind in KIND_TYPE:
            return {
                "activate": TYPE_NAMES[KIND_TYPE[kind]],
                "swap": [SECTION_NAMES[action[1]], SECTION_NAMES[action[2]]],
            }
        raise ValueError(f"{action!r} is not a Nanga Parbat action")

    def action_from_json(self, seat: int, data: Any) -> Any:
        text = _text(data)
        if not isinstance(data, dict):
            raise NotationError(f"action {text} must be a JSON object")
        keys = set(data)
        if keys == {"trap"}:
            return (TRAP, _section(data["trap"], text, "'trap'"))
        if keys == {"end_turn"}:
            if data["end_turn"] is not True:
                raise NotationError(f"action {text}: 'end_turn' must be true")
            return END_ACTION
        if keys == {"relocate"}:
            return (RELOCATE, _region(data["relocate"], text, "'relocate'"))
        if keys == {"guide"}:
            return (GUIDE, _region(data["guide"], text, "'guide'"))
        if "activate" in keys:
            return _activation(data, keys, text)
        if "claim" in keys:
            return _claim_from_json(data, keys, text)
        raise NotationError(
            f"action {text} is not a Nanga Parbat action; expected one of 'guide', 'trap', 'relocate', "
            "'activate' (with 'swap' or 'guide'), 'claim' (with 'sections' or 'animals'), 'end_turn'"
        )

    def chance_to_json(self, outcome: Any) -> dict[str, Any]:
        if type(outcome) is int:
            return {"first_player": outcome}
        return {"animals": [TYPE_NAMES[t] for t in outcome]}

    def chance_from_json(self, data: Any) -> Any:
        text = _text(data)
        if not isinstance(data, dict) or len(data) != 1:
            raise NotationError(f"chance event {text} must be {{'first_player': k}} or {{'animals': [36 types]}}")
        if "first_player" in data:
            if self.phase != P_FIRST:
                raise IllegalActionError(f"chance event {text} is illegal: the first player has already been drawn")
            k = data["first_player"]
            if type(k) is not int or k not in (0, 1):
                raise NotationError(f"chance event {text}: 'first_player' must be 0 or 1")
            return k
        if "animals" in data:
            if self.phase != P_ANIMALS:
                raise IllegalActionError(
                    f"chance event {text} is illegal: "
                    + ("the first player is drawn first" if self.phase == P_FIRST else "the animals are already dealt")
                )
            animals = data["animals"]
            if not isinstance(animals, list) or len(animals) != SECTIONS:
                raise NotationError(f"chance event {text}: 'animals' must list {SECTIONS} type names")
            for name in animals:
                if not isinstance(name, str) or name not in TYPE_CODE:
                    raise NotationError(
                        f"chance event {text}: {name!r} is not an animal type ({', '.join(TYPE_NAMES)})"
                    )
            return tuple(TYPE_CODE[name] for name in animals)
        raise NotationError(f"chance event {text} must be {{'first_player': k}} or {{'animals': [36 types]}}")

    # ---- why an action is illegal (for error messages)

    def why_illegal(self, seat: int, action: Any) -> str:
        try:
            return self._why(seat, action)
        except Exception:  # noqa: BLE001 - a malformed action tuple still gets a message
            return "it is not an action of this game"

    def _why(self, seat: int, action: Any) -> str:
        kind = action[0]
        s = self.seat
        cells = self.cells
        if self.phase == P_GUIDE:
            return "the second player must first place the guide with {'guide': R}"
        if kind == GUIDE:
            return "the guide is placed only once, during setup; use a yak or relocation to move it"
        if kind in (TRAP, RELOCATE) and self.trapped:
            return f"this turn's trap has already been made; {'trapping' if kind == TRAP else 'relocation'} is over"
        if kind == TRAP:
            i = action[1]
            if REGION_OF[i] != self.guide:
                return f"{SECTION_NAMES[i]} is not in the guide's region {REGION_NUMBERS[self.guide]}"
            return f"{SECTION_NAMES[i]} holds {_piece(cells[i])}, not an animal"
        if kind == RELOCATE:
            r = action[1]
            if self.ranimals[self.guide]:
                return f"the guide's region {REGION_NUMBERS[self.guide]} still holds an animal"
            return f"region {REGION_NUMBERS[r]} holds no animal"
        if kind in KIND_TYPE:
            t = KIND_TYPE[kind]
            if not self._power_types(s) >> t & 1:
                return f"seat {s} has no non-activated {TYPE_NAMES[t]}"
            if kind == YAK:
                return f"the guide is already in region {REGION_NUMBERS[action[1]]}"
            a, b = action[1], action[2]
            na, nb = SECTION_NAMES[a], SECTION_NAMES[b]
            if kind == SNOW:
                if not (HIKER <= cells[a] < CAMP and HIKER <= cells[b] < CAMP):
                    return f"the snow leopard swaps two hikers; {na} holds {_piece(cells[a])}, {nb} {_piece(cells[b])}"
                if cells[a] == cells[b]:
                    return f"the hikers on {na} and {nb} are both seat {cells[a] - HIKER}'s (NP-5)"
                return f"{na} and {nb} are not adjacent"
            if kind == TAHR:
                if not HIKER <= cells[a] < CAMP:
                    return f"the tahr's first section must hold a hiker; {na} holds {_piece(cells[a])}"
                if cells[b] >= HIKER:
                    return f"the tahr's second section must hold an animal; {nb} holds {_piece(cells[b])}"
                return f"{na} and {nb} are not adjacent"
            if kind == MUSK:
                if cells[a] >= HIKER or cells[b] >= HIKER:
                    return f"the musk deer swaps two animals; {na} holds {_piece(cells[a])}, {nb} {_piece(cells[b])}"
                return f"{na} and {nb} both hold a {TYPE_NAMES[cells[a]]} (NP-7)"
        if kind == END:
            return "the trap must be made before the turn can end"
        if kind == CLAIM:
            return self._why_claim(s, action[1], action[2], action[3])
        return "it is not among the legal actions"

    def _why_claim(self, s: int, row: int, col: int, payload: tuple[int, ...]) -> str:
        square = f"square ({row + 1},{col + 1})"
        if not self.trapped:
            return "a claim needs this turn's trap first"
        if self.claimed:
            return "a square has already been claimed this turn"
        if not self.cubes[s]:
            return f"seat {s} has no chart cubes left"
        owner = self.chart[row * COLUMNS + col]
        if owner >= 0:
            return f"{square} is already claimed by seat {owner}"
        need = REQUIREMENTS[col]
        kind = ROW_KINDS[row]
        if kind == CAMPS_ROW:
            if len(payload) != need:
                return f"{square} needs exactly {need} sections, not {len(payload)} (NP-12)"
            if self.camps[s] < need:
                return f"seat {s} has {self.camps[s]} camps in stock, fewer than {need}"
            for i in payload:
                if self.cells[i] != HIKER + s:
                    return f"{SECTION_NAMES[i]} holds {_piece(self.cells[i])}, not a hiker of seat {s}"
            if not is_connected(payload):
                return "the sections are not connected to one another (NP-4)"
            return "it is not among the legal actions"
        board = self.boards[s]
        if len(payload) != need:
            return f"{square} needs exactly {need} animals, not {len(payload)} (NP-12)"
        if payload and payload[-1] >= len(board):
            return f"seat {s}'s animal board has no index {payload[-1]} (it holds {len(board)} animals)"
        types = [board[i] & 7 for i in payload]
        if kind == DIFFERENT_ROW and not trade_pays(types, True):
            return "these animals cannot represent different types (two non-bharal animals share a type)"
        if kind == SAME_ROW and not trade_pays(types, False):
            return "these animals cannot represent a single type (their non-bharal animals differ)"
        return "it is not among the legal actions"



# ---------------------------------------------------------------------- notation helpers


def _text(data: Any) -> str:
    try:
        return json.dumps(data, separators=(",", ":"), sort_keys=True)
    except (TypeError, ValueError):
        return repr(data)


def _piece(c: int) -> str:
    if c < 0:
        return "nothing"
    if c < HIKER:
        return f"a {TYPE_NAMES[c]}"
    if c < CAMP:
        return f"a hiker of seat {c - HIKER}"
    return f"a camp of seat {c - CAMP}"


def _section(value: Any, text: str, where: str) -> int:
    if not isinstance(value, str) or value not in SECTION_INDEX:
        raise NotationError(f"action {text}: {where} must be a section \"R.S\" (1.1 to 6.6), not {_text(value)}")
    return SECTION_INDEX[value]


def _region(value: Any, text: str, where: str) -> int:
    if type(value) is not int or value not in REGION_INDEX:
        raise NotationError(f"action {text}: {where} must be a region number 1 to {REGIONS}, not {_text(value)}")
    return REGION_INDEX[value]


def _activation(data: dict[str, Any], keys: set[str], text: str) -> tuple[int, ...]:
    name = data["activate"]
    if not isinstance(name, str) or name not in ACTIVATED_TYPES:
        raise NotationError(
            f"action {text}: 'activate' must name one of {', '.join(ACTIVATED_TYPES)}, not {_text(name)}"
        )
    t = TYPE_CODE[name]
    kind = POWER_KIND[t]
    if kind == YAK:
        if keys != {"activate", "guide"}:
            raise NotationError(f"action {text}: a yak activation is {{'activate': 'yak', 'guide': R}}")
        return (YAK, _region(data["guide"], text, "'guide'"))
    if keys != {"activate", "swap"}:
        raise NotationError(f"action {text}: a {name} activation is {{'activate': '{name}', 'swap': [\"R.S\", \"R.S\"]}}")
    swap = data["swap"]
    if not isinstance(swap, list) or len(swap) != 2:
        raise NotationError(f"action {text}: 'swap' must list exactly two sections")
    a = _section(swap[0], text, "'swap'")
    b = _section(swap[1], text, "'swap'")
    if a == b:
        raise NotationError(f"action {text}: 'swap' names {swap[0]} twice")
    if kind != TAHR and a > b:
        raise NotationError(
            f"action {text}: the {name}'s 'swap' must be in section order ({swap[1]} before {swap[0]})"
        )
    return (kind, a, b)


def _claim_from_json(data: dict[str, Any], keys: set[str], text: str) -> tuple[Any, ...]:
    square = data["claim"]
    if not isinstance(square, dict) or set(square) != {"row", "column"}:
        raise NotationError(f"action {text}: 'claim' must be {{'row': 1-{ROWS}, 'column': 1-{COLUMNS}}}")
    row, col = square["row"], square["column"]
    if type(row) is not int or not 1 <= row <= ROWS:
        raise NotationError(f"action {text}: claim row must be 1 to {ROWS}, not {_text(row)}")
    if type(col) is not int or not 1 <= col <= COLUMNS:
        raise NotationError(f"action {text}: claim column must be 1 to {COLUMNS}, not {_text(col)}")
    if ROW_KINDS[row - 1] == CAMPS_ROW:
        if keys != {"claim", "sections"}:
            raise NotationError(f"action {text}: a row {row} claim (build camps) names its hikers with 'sections'")
        names = data["sections"]
        if not isinstance(names, list) or not names:
            raise NotationError(f"action {text}: 'sections' must be a non-empty list of sections")
        payload = tuple(_section(name, text, "'sections'") for name in names)
        order = "sections"
    else:
        if keys != {"claim", "animals"}:
            raise NotationError(f"action {text}: a row {row} claim (a trade) names board indices with 'animals'")
        indices = data["animals"]
        if not isinstance(indices, list) or not indices or any(type(x) is not int or x < 0 for x in indices):
            raise NotationError(f"action {text}: 'animals' must be a non-empty list of board indices (0, 1, ...)")
        payload = tuple(indices)
        order = "animals"
    if any(payload[x] >= payload[x + 1] for x in range(len(payload) - 1)):
        rule = "section order" if order == "sections" else "ascending order"
        raise NotationError(f"action {text}: {order!r} must be in {rule} without repeats")
    return (CLAIM, row - 1, col - 1, payload)


def last_mover(obs: Mapping[str, Any]) -> int:
    """The seat whose end_turn ended the game: the first player moved on even turns."""
    first: int = obs["first_player"]
    return first if obs["turn"] % 2 == 1 else 1 - first

