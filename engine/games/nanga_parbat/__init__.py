"""Nanga Parbat (rules: shared/rules/nanga-parbat.md, Cairn board, edition 1).

Modules by job: ``tables`` (lookup tables built from :mod:`engine.games.nanga_parbat_data`),
``claims`` (camp groups and trade sets), ``state`` (who decides, legal actions, applying,
results), and, as mixins of the state, ``notation`` (the record codec, why an action is
illegal) and ``view`` (the observation; everything is public).  ``facts`` is the public
surface for user interfaces (board layout, chart requirements, type names).
"""

from ..nanga_parbat_data import DATA
from . import facts
from .claims import camp_groups, is_connected, trade_pays, trade_sets
from .state import NangaParbat, NangaParbatState
from .tables import (
    ACTIVATED_TYPES,
    ADJ,
    CAMP,
    DECK,
    EDGES,
    HIKER,
    MAX_EVENTS,
    POINTS,
    REGION_NUMBERS,
    REGION_SECTIONS,
    REQUIREMENTS,
    SECTION_INDEX,
    SECTION_NAMES,
    TYPE_CODE,
    TYPE_NAMES,
)

__all__ = [
    "NangaParbat", "NangaParbatState", "DATA", "facts", "camp_groups", "is_connected", "trade_pays", "trade_sets",
    "ACTIVATED_TYPES", "ADJ", "CAMP", "DECK", "EDGES", "HIKER", "MAX_EVENTS", "POINTS", "REGION_NUMBERS",
    "REGION_SECTIONS", "REQUIREMENTS", "SECTION_INDEX", "SECTION_NAMES", "TYPE_CODE", "TYPE_NAMES",
]
