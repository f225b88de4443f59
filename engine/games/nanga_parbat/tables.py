"""Nanga Parbat's lookup tables, built once at import from the board data (rules §11).

No section, adjacency or chart value is typed here: every table is derived from
:mod:`engine.games.nanga_parbat_data`.
"""

from __future__ import annotations

from ..nanga_parbat_data import DATA

# ---------------------------------------------------------------------- tables from the data

TYPE_NAMES: tuple[str, ...] = tuple(DATA["animal_types"])
TYPE_CODE: dict[str, int] = {name: code for code, name in enumerate(TYPE_NAMES)}
ACTIVATED_TYPES: tuple[str, ...] = tuple(DATA["activated_types"])
BHARAL = TYPE_CODE["bharal"]
RED_PANDA = TYPE_CODE["red_panda"]
SNOW_LEOPARD = TYPE_CODE["snow_leopard"]
TAHR_TYPE = TYPE_CODE["tahr"]
MUSK_DEER = TYPE_CODE["musk_deer"]
YAK_TYPE = TYPE_CODE["yak"]
ANIMALS_PER_TYPE: int = DATA["animals_per_type"]
HIKERS_PER_PLAYER: int = DATA["hikers_per_player"]
CAMPS_PER_PLAYER: int = DATA["camps_per_player"]
CUBES_PER_PLAYER: int = DATA["chart_cubes_per_player"]
AREA_POINTS: dict[int, int] = {int(k): v for k, v in DATA["area_scoring_points"].items()}

_BOARD = DATA["board"]
REGION_NUMBERS: tuple[int, ...] = tuple(int(r) for r in _BOARD["regions"])  # r index -> number
REGION_INDEX: dict[int, int] = {number: r for r, number in enumerate(REGION_NUMBERS)}
REGIONS = len(REGION_NUMBERS)
SECTION_NAMES: tuple[str, ...] = tuple(name for r in _BOARD["regions"] for name in _BOARD["regions"][r])
SECTION_INDEX: dict[str, int] = {name: i for i, name in enumerate(SECTION_NAMES)}
SECTIONS = len(SECTION_NAMES)
REGION_OF: tuple[int, ...] = tuple(
    REGION_INDEX[int(r)] for r in _BOARD["regions"] for _ in _BOARD["regions"][r]
)
REGION_SECTIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(SECTIONS) if REGION_OF[i] == r) for r in range(REGIONS)
)
# §6.1 step 4: the guide goes to the region numbered like the trapped section.
GUIDE_AFTER_TRAP: tuple[int, ...] = tuple(REGION_INDEX[int(name.split(".")[1])] for name in SECTION_NAMES)
ADJ: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(SECTION_INDEX[n] for n in _BOARD["adjacency"][name])) for name in SECTION_NAMES
)
ADJ_MASK: tuple[int, ...] = tuple(sum(1 << j for j in ADJ[i]) for i in range(SECTIONS))
EDGES: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(SECTIONS) for b in ADJ[a] if a < b)

_CHART = DATA["points_chart"]
ROW_KINDS: tuple[str, ...] = tuple(_CHART["rows"][r] for r in sorted(_CHART["rows"], key=int))
ROWS = len(ROW_KINDS)
REQUIREMENTS: tuple[int, ...] = tuple(_CHART["column_requirements"])
COLUMNS = len(REQUIREMENTS)
MIN_REQUIREMENT = min(REQUIREMENTS)
POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_CHART["vp"][r]) for r in sorted(_CHART["vp"], key=int)
)
CAMPS_ROW, DIFFERENT_ROW, SAME_ROW = "build_camps", "trade_different_types", "trade_same_type"

# pieces in ``cells``
HIKER = 6
CAMP = 8
ACTIVE = 8  # flag on an animal-board entry

# action kinds, numbered in the order the legal-action list is built
GUIDE, TRAP, RELOCATE, SNOW, TAHR, MUSK, YAK, CLAIM, END = 0, 1, 2, 3, 4, 5, 6, 7, 10
END_ACTION = (END,)
RUN_BUILT, RUN_MUSK, RUN_CLAIM = 0, 1, 2  # kinds of runs in NangaParbatState._segments
POWER_KIND = {SNOW_LEOPARD: SNOW, TAHR_TYPE: TAHR, MUSK_DEER: MUSK, YAK_TYPE: YAK}
KIND_TYPE = {kind: t for t, kind in POWER_KIND.items()}

P_FIRST, P_ANIMALS, P_GUIDE, P_PLAY, P_OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("first_player", "animals", "guide", "play", "over")

# the 36 animals in data order (6 of each type, in ``animal_types`` order), the list
# that the shuffle in ``sample_chance`` permutes
DECK: tuple[int, ...] = tuple(t for t in range(len(TYPE_NAMES)) for _ in range(ANIMALS_PER_TYPE))

# Bound on the events of any game (see NangaParbat.max_events).
MAX_TURNS = 2 * HIKERS_PER_PLAYER
ACTIVATABLE_ANIMALS = len(ACTIVATED_TYPES) * ANIMALS_PER_TYPE
MAX_EVENTS = 3 + MAX_TURNS * 4 + ACTIVATABLE_ANIMALS * 2

