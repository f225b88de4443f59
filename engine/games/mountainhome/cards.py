"""Mountainhome card data: rules file §22.2 (cards) and §22.3 (constants), read from ``cards.json``.

``cards.json`` beside this module is the single source of card facts (ids, names, families,
types, copies, setup, VP, values, construction steps and the ability schema).  It is read once,
when the engine is imported, as package data (never at play time); the rules engine reads it
through ``tables.py``, and ``tests/engine/test_mountainhome_cards.py`` checks it against the
rules file.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

_DATA: dict[str, Any] = json.loads(files(__package__).joinpath("cards.json").read_text(encoding="utf-8"))

CARDS: list[dict[str, Any]] = _DATA["cards"]
CONSTANTS: dict[str, Any] = _DATA["constants"]
BY_ID: dict[str, dict[str, Any]] = {card["id"]: card for card in CARDS}
