"""The public facts of Nanga Parbat's board and components, for user interfaces.

A presenter (or any other reader) needs to know how the mountain is laid out
and what the chart asks, but not how the engine stores a position.  This
module is that small, stable surface; everything in it is read from the board
data (rules §11, :mod:`engine.games.nanga_parbat_data`) and is public
information (rules §14).

* ``BOARD_NAME``: the board edition's name.
* ``REGIONS``: the region numbers in board order (the big pyramid, top first).
* ``SECTIONS``: ``{region number: its section names "R.S" in section order}``.
* ``DOTTED_PATHS``: the cross-region paths as pairs of section names.
* ``COLUMN_REQUIREMENTS``: the chart's N per column, left to right.
* ``ANIMAL_TYPES`` and ``ACTIVATED_TYPES``: the type names (record notation).
* :func:`region_of`: the region number of a section name.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..nanga_parbat_data import DATA
from .tables import ACTIVATED_TYPES as _ACTIVATED
from .tables import REGION_NUMBERS, REQUIREMENTS, TYPE_NAMES

BOARD_NAME: str = DATA["board"]["name"]
REGIONS: tuple[int, ...] = REGION_NUMBERS
SECTIONS: Mapping[int, tuple[str, ...]] = MappingProxyType(
    {int(region): tuple(names) for region, names in DATA["board"]["regions"].items()}
)
DOTTED_PATHS: tuple[tuple[str, str], ...] = tuple((a, b) for a, b in DATA["board"]["dotted_paths"])
COLUMN_REQUIREMENTS: tuple[int, ...] = REQUIREMENTS
ANIMAL_TYPES: tuple[str, ...] = TYPE_NAMES
ACTIVATED_TYPES: tuple[str, ...] = _ACTIVATED

_REGION_OF: Mapping[str, int] = MappingProxyType(
    {name: region for region, names in SECTIONS.items() for name in names}
)


def region_of(section: str) -> int:
    """The number of the region that holds ``section`` (a name such as ``"2.4"``); KeyError if there is none."""
    return _REGION_OF[section]


__all__ = [
    "ACTIVATED_TYPES", "ANIMAL_TYPES", "BOARD_NAME", "COLUMN_REQUIREMENTS", "DOTTED_PATHS", "REGIONS", "SECTIONS",
    "region_of",
]
