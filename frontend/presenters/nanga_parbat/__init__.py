"""Nanga Parbat on the page (rules: shared/rules/nanga-parbat.md): the SVG mountain, the points
chart, the scoring path, the animal boards and every decision of the player to move.

Presenter modules by job:

* :mod:`.geometry`: the mountain's SVG geometry, from the engine's public facts
  (:mod:`engine.games.nanga_parbat.facts`);
* :mod:`.pieces`: what the board draws (sections, regions, chart, scoring path, animal boards);
* :mod:`.controls`: the viewer's legal decisions grouped for the forms and the board's script;
* :mod:`.labels`: animal names, powers, chart rows and the prompt;
* :mod:`.log`: the event-log lines (``describe_event``);
* :mod:`.last_move`: the marks of the last move, from ``match["recent"]``.

Everything in Nanga Parbat is public (rules §14).  Decisions are offered only
from ``match["legal_actions"]``: traps and relocations are clickable on the
mountain and listed as buttons; an activation or a claim is picked by clicking
squares (``frontend/static/frontend/nanga-parbat.js``) with a list fallback.
"""

from __future__ import annotations

import json
from typing import Any

from engine.games.nanga_parbat import facts

from .. import Player
from .controls import controls
from .geometry import HEIGHT, PATHS, REGION_SHAPES, WIDTH, R
from .labels import ANIMALS, prompt
from .last_move import last_move
from .log import describe_event
from .pieces import boards, cells, chart, regions, track

GAME_ID = "nanga-parbat"

__all__ = ["GAME_ID", "describe_event", "present"]


def present(match: dict[str, Any], players: list[Player]) -> dict[str, Any]:
    view = match["view"]
    legal = list(match.get("legal_actions") or [])
    decisions = controls(view, legal)
    my_turn = match.get("my_seat") is not None and bool(legal)
    marks = last_move(match, players)
    guide_shape = REGION_SHAPES[view["guide"]] if view["guide"] else None
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "r": R,
        "regions": regions(
            view,
            {r["region"]: r["json"] for r in decisions["relocations"]},
            {g["region"]: g["json"] for g in decisions["guide_options"]},
        ),
        "paths": PATHS,
        "cells": cells(view, players, {t["section"]: t["json"] for t in decisions["traps"]}, marks),
        "guide": view["guide"],
        "guide_x": guide_shape["label_x"] - 22 if guide_shape else None,
        "guide_y": guide_shape["label_y"] if guide_shape else None,
        "legend": [{"type": t, **ANIMALS[t]} for t in facts.ANIMAL_TYPES],
        "chart": chart(view, players, {(c["row"], c["column"]) for c in decisions["claims"]}, marks),
        "requirements": facts.COLUMN_REQUIREMENTS,
        "track": track(view, players),
        "boards": boards(view, players, marks),
        "last_move": marks,
        "controls": decisions,
        "prompt": prompt(view, decisions, my_turn),
        "my_turn": my_turn,
        "my_seat": match.get("my_seat"),
        "phase": view["phase"],
        "turn": view["turn"],
        "trapped": view["trapped"],
        "claimed": view["claimed"],
        "area_scoring": bool((view.get("options") or {}).get("area_scoring")),
        # the legal actions for the board's script (a data attribute: htmx drops <script> in swaps)
        "legal_json": json.dumps(legal, separators=(",", ":")),
        "sections_known": view["sections"] is not None,
        "board_name": facts.BOARD_NAME,
    }
