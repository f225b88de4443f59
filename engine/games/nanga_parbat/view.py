"""What a seat sees (everything is public, §14), and the state rebuilt from an observation.

A mixin of :class:`~engine.games.nanga_parbat.state.NangaParbatState`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .notation import last_mover
from .tables import (
    ACTIVE,
    CAMP,
    COLUMNS,
    HIKER,
    P_ANIMALS,
    P_GUIDE,
    P_OVER,
    P_PLAY,
    PHASE_NAMES,
    POINTS,
    REGION_INDEX,
    REGION_NUMBERS,
    REQUIREMENTS,
    ROW_KINDS,
    ROWS,
    SECTION_INDEX,
    SECTION_NAMES,
    TYPE_CODE,
    TYPE_NAMES,
)

if TYPE_CHECKING:
    from typing import Self

    from .base import StateBase
    from .state import NangaParbat
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class ObservationMixin(StateBase):
    __slots__ = ()

    # ---- information (everything is public, §14)

    def observation(self, seat: int | None) -> dict[str, Any]:
        dealt = self.phase > P_ANIMALS
        sections: list[dict[str, Any]] | None = None
        if dealt:
            sections = []
            for i, c in enumerate(self.cells):
                if c < HIKER:
                    sections.append({"section": SECTION_NAMES[i], "animal": TYPE_NAMES[c]})
                elif c < CAMP:
                    sections.append({"section": SECTION_NAMES[i], "hiker": c - HIKER})
                else:
                    sections.append({"section": SECTION_NAMES[i], "camp": c - CAMP})
        return {
            "game": self.game.id,
            "players": 2,
            "options": {"area_scoring": self.area},
            "phase": PHASE_NAMES[self.phase],
            "first_player": self.first if self.first >= 0 else None,
            "active": self.seat if self.phase in (P_GUIDE, P_PLAY) else None,
            "to_move": list(self.to_move()),
            "turn": self.turns,
            "guide": REGION_NUMBERS[self.guide] if self.guide >= 0 else None,
            "sections": sections,
            "animal_boards": [
                [{"type": TYPE_NAMES[e & 7], "activated": e >= ACTIVE} for e in board] for board in self.boards
            ],
            "hikers_in_stock": self.hikers[:],
            "camps_in_stock": self.camps[:],
            "cubes_in_stock": self.cubes[:],
            "chart": [
                {
                    "row": row + 1,
                    "column": col + 1,
                    "kind": ROW_KINDS[row],
                    "requirement": REQUIREMENTS[col],
                    "points": POINTS[row][col],
                    "owner": self.chart[row * COLUMNS + col] if self.chart[row * COLUMNS + col] >= 0 else None,
                }
                for row in range(ROWS)
                for col in range(COLUMNS)
            ],
            "scores": self.score[:],
            "trapped": self.trapped,
            "claimed": self.claimed,
            "viewer": seat,
        }

    @classmethod
    def from_observation(cls, game: NangaParbat, obs: Mapping[str, Any]) -> Self:
        state = cls(game, game.normalize_options(obs.get("options")))
        state.phase = PHASE_NAMES.index(obs["phase"])
        state.first = obs["first_player"] if obs["first_player"] is not None else -1
        if obs["active"] is not None:
            state.seat = obs["active"]
        elif state.phase == P_ANIMALS:
            state.seat = 1 - state.first
        elif state.phase == P_OVER:
            state.seat = last_mover(obs)
        state.turns = obs["turn"]
        state.guide = REGION_INDEX[obs["guide"]] if obs["guide"] is not None else -1
        if obs["sections"] is not None:
            for entry in obs["sections"]:
                i = SECTION_INDEX[entry["section"]]
                if "animal" in entry:
                    state.cells[i] = TYPE_CODE[entry["animal"]]
                elif "hiker" in entry:
                    state.cells[i] = HIKER + entry["hiker"]
                else:
                    state.cells[i] = CAMP + entry["camp"]
            state.derive()
        state.boards = [
            [TYPE_CODE[e["type"]] | (ACTIVE if e["activated"] else 0) for e in board] for board in obs["animal_boards"]
        ]
        state.hikers = list(obs["hikers_in_stock"])
        state.camps = list(obs["camps_in_stock"])
        state.cubes = list(obs["cubes_in_stock"])
        for square in obs["chart"]:
            if square["owner"] is not None:
                state.chart[(square["row"] - 1) * COLUMNS + square["column"] - 1] = square["owner"]
        state.score = list(obs["scores"])
        state.trapped = bool(obs["trapped"])
        state.claimed = bool(obs["claimed"])
        return state

