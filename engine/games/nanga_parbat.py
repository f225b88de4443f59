"""Nanga Parbat, per ``shared/rules/nanga-parbat.md`` (Cairn board, edition 1).

The board and the points chart are data (:mod:`engine.games.nanga_parbat_data`,
the rules file's §11); this module turns that table into flat lookup tables at
import and never names a section, an adjacency or a chart value itself.

Representation (all flat ints, so ``clone`` is a handful of slices):

* ``cells[i]`` for section ``i`` in section order (1.1 = 0, ..., 6.6 = 35):
  an animal type code ``0..5`` (the position in ``animal_types``), a hiker
  ``HIKER + seat`` or a camp ``CAMP + seat``; ``-1`` only before the deal.
* ``ranimals[r]`` counts the animals in region ``r`` (0-based), kept up to date
  by every move, so "is the guide's region empty?" is one lookup; likewise
  ``mcount[t]`` counts the animals of type ``t`` on the mountain, and the bit
  sets ``hmask[seat]`` (that seat's hikers) and ``amask`` (animals) mirror
  ``cells`` for the adjacency work of the snow leopard, the tahr and camps.
* ``boards[seat]`` lists the seat's animal board, oldest first: the type code,
  plus ``ACTIVE`` once activated.
* ``chart[row * COLUMNS + column]`` is the owner of a square or ``-1``.

Actions are small int tuples whose first element is the kind; the kinds are
numbered so that generating them kind by kind yields a sorted list:

====================  ==========================================
``(GUIDE, r)``        the second player places the guide (setup)
``(TRAP, i)``         trap the animal on section ``i``
``(RELOCATE, r)``     relocate the guide to region ``r``
``(SNOW, a, b)``      snow leopard: swap hikers on ``a < b``
``(TAHR, h, a)``      tahr: swap the hiker on ``h`` with the animal on ``a``
``(MUSK, a, b)``      musk deer: swap animals on ``a < b``
``(YAK, r)``          yak: move the guide to region ``r``
``(CLAIM, row, col, payload)``  claim a square; ``payload`` is the sorted
                      tuple of sections (camp rows) or board indices (trades)
``(END,)``            end the turn
====================  ==========================================

Speed notes: adjacency is a tuple of neighbour tuples plus bit masks; camp
groups are grown outward from each own hiker over those masks, inside
connected components big enough to matter (connected subsets only, each found
once, never all N-subsets), memoised by the hiker bit set; trade sets are enumerated by a pruned
depth-first search and memoised by the board's types; the musk deer's swaps
(often the largest group of actions) are counted in closed form and only
built when asked for, which the fused :meth:`NangaParbatState.random_playout`
uses to pick the k-th legal action without building the list.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from ..core import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    NotationError,
    OptionSpec,
    RandomSource,
    State,
)
from .nanga_parbat_data import DATA

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

# ---------------------------------------------------------------------- claim enumeration

_MEMO_LIMIT = 20_000  # entries per memo; cleared when full (bounded memory in long-lived bot workers)
_camp_memo: dict[tuple[int, int], dict[int, tuple[tuple[int, ...], ...]]] = {}


def _bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _components(mask: int) -> list[int]:
    """The connected components (bit sets) of the sections in ``mask``."""
    comps = []
    while mask:
        comp = frontier = mask & -mask
        while frontier:
            reach = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                reach |= ADJ_MASK[low.bit_length() - 1]
            frontier = reach & mask & ~comp
            comp |= frontier
        comps.append(comp)
        mask &= ~comp
    return comps


_NO_GROUPS: dict[int, tuple[tuple[int, ...], ...]] = {}


def camp_groups(hikers: int, largest: int) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Connected sets of 3 .. ``largest`` sections inside the bit set ``hikers``, by size.

    Each value is sorted in section order.  Only components of at least 3
    hikers are searched; inside one, every connected set is grown outward
    from its lowest section ``v`` one adjacent hiker at a time (Wernicke's
    ESU: a new section joins the extension only if it is above ``v`` and not
    already next to the set), so each set is produced exactly once.  Camps,
    animals and opponent hikers are not in ``hikers``, so they never bridge a
    gap (NP-4).  Non-empty results are memoised by ``(hikers, largest)``.
    """
    # Any connected set of 3 has a middle section with 2 neighbours in the set:
    # without such a hiker there is nothing to search (the common case, not memoised).
    rest = hikers
    while rest:
        low = rest & -rest
        rest ^= low
        near = ADJ_MASK[low.bit_length() - 1] & hikers
        if near & (near - 1):
            break
    else:
        return _NO_GROUPS
    key = (hikers, largest)
    found = _camp_memo.get(key)
    if found is not None:
        return found
    by_size: dict[int, list[tuple[int, ...]]] = {}
    for comp in _components(hikers):
        if bin(comp).count("1") < 3:
            continue
        for v in _bits(comp):
            above = comp & ~((2 << v) - 1)
            stack = [(1 << v, ADJ_MASK[v] | 1 << v, ADJ_MASK[v] & above, 1)]
            while stack:
                group, closed, ext, size = stack.pop()
                if size >= 3:
                    by_size.setdefault(size, []).append(_bits(group))
                if size == largest:
                    continue
                while ext:
                    low = ext & -ext
                    ext ^= low
                    w = low.bit_length() - 1
                    stack.append(
                        (group | low, closed | ADJ_MASK[w], ext | (ADJ_MASK[w] & above & ~closed), size + 1)
                    )
    found = {size: tuple(sorted(groups)) for size, groups in by_size.items()} if by_size else _NO_GROUPS
    if len(_camp_memo) >= _MEMO_LIMIT:
        _camp_memo.clear()
    _camp_memo[key] = found
    return found


def trade_sets(types: tuple[int, ...], size: int, different: bool) -> tuple[tuple[int, ...], ...]:
    """Every ascending index set of ``size`` board animals that pays for a trade.

    ``different``: the non-bharal animals are of pairwise different types
    (row ``trade_different_types``); otherwise they all share one type
    (``trade_same_type``).  Bharals are wild (6.6, NP-11).  Lexicographic order.
    A depth-first search that drops a branch as soon as a type repeats (or
    differs), so it visits only the sets that pay and their prefixes.
    """
    m = len(types)
    wild = types.count(BHARAL)
    plain = [t for t in types if t != BHARAL]
    if different:
        feasible = wild + len(set(plain)) >= size
    else:
        feasible = wild + max((plain.count(t) for t in set(plain)), default=0) >= size
    result: list[tuple[int, ...]] = []
    if feasible and m >= size:
        chosen: list[int] = []

        def walk(start: int, mark: int) -> None:
            # mark: the set of types used (different) or 1 + the shared type (same; 0 = none yet)
            need = size - len(chosen)
            if need == 0:
                result.append(tuple(chosen))
                return
            for i in range(start, m - need + 1):
                t = types[i]
                if t == BHARAL:
                    nxt = mark
                elif different:
                    if mark >> t & 1:
                        continue
                    nxt = mark | 1 << t
                else:
                    if mark and mark != t + 1:
                        continue
                    nxt = t + 1
                chosen.append(i)
                walk(i + 1, nxt)
                chosen.pop()

        walk(0, 0)
    return tuple(result)


_trade_tables: dict[tuple[int, ...], dict[tuple[bool, int], tuple[tuple[int, ...], ...]]] = {}


def trade_table(types: tuple[int, ...]) -> dict[tuple[bool, int], tuple[tuple[int, ...], ...]]:
    """The memo of ``trade_sets`` for one board, keyed ``(different, need)``; filled on demand."""
    table = _trade_tables.get(types)
    if table is None:
        if len(_trade_tables) >= _MEMO_LIMIT:
            _trade_tables.clear()
        table = _trade_tables[types] = {}
    return table


def trade_pays(types: list[int], different: bool) -> bool:
    """Whether these animal types can represent N different types / one type (6.7)."""
    plain = [t for t in types if t != BHARAL]
    if different:
        return len(set(plain)) == len(plain)
    return len(set(plain)) <= 1


def is_connected(sections: tuple[int, ...]) -> bool:
    """Whether these sections are connected using only themselves (NP-4)."""
    inside = set(sections)
    seen = {sections[0]}
    todo = [sections[0]]
    while todo:
        for j in ADJ[todo.pop()]:
            if j in inside and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(inside)


# ---------------------------------------------------------------------- the game


class NangaParbat(Game):
    id = "nanga-parbat"
    name = "Nanga Parbat"
    min_players = 2
    max_players = 2
    option_specs = (
        OptionSpec(
            "area_scoring",
            False,
            (False, True),
            "Area-scoring variant: after the end, regions 1-6 score 1/2/3 points for 4/5/6 hikers and camps.",
        ),
    )
    perfect_information = True
    has_chance = True

    def max_events(self, players: int) -> int:
        # 2 chance events + the guide placement; at most 30 turns (condition
        # (a) holds after the 30th), each with one trap, one end_turn, at most
        # one claim and one relocation not preceded by an activation; each of
        # the 24 activatable animals is activated at most once, and each
        # activation can make at most one more relocation legal.
        return MAX_EVENTS

    def new_initial_state(self, players: int = 2, options: Mapping[str, Any] | None = None) -> "NangaParbatState":
        players = self.check_players(players)
        return NangaParbatState(self, self.normalize_options(options))

    def state_from_observation(
        self, observation: Mapping[str, Any], seat: int, rng: RandomSource
    ) -> "NangaParbatState":
        # Perfect information (rules §14): the observation is the whole state.
        return NangaParbatState.from_observation(self, observation)


class NangaParbatState(State):
    __slots__ = (
        "area",
        "phase",
        "first",
        "seat",
        "guide",
        "cells",
        "ranimals",
        "mcount",
        "hmask",
        "amask",
        "boards",
        "hikers",
        "camps",
        "cubes",
        "chart",
        "score",
        "trapped",
        "claimed",
        "turns",
        "_legal",
    )

    def __init__(self, game: NangaParbat, options: dict[str, Any]) -> None:
        self.game = game
        self.players = 2
        self.options = options
        self.area = bool(options.get("area_scoring", False))
        self.phase = P_FIRST
        self.first = -1
        self.seat = -1
        self.guide = -1
        self.cells = [-1] * SECTIONS
        self.ranimals = [0] * REGIONS
        self.mcount = [0] * len(TYPE_NAMES)
        self.hmask = [0, 0]
        self.amask = 0
        self.boards: list[list[int]] = [[], []]
        self.hikers = [HIKERS_PER_PLAYER, HIKERS_PER_PLAYER]
        self.camps = [CAMPS_PER_PLAYER, CAMPS_PER_PLAYER]
        self.cubes = [CUBES_PER_PLAYER, CUBES_PER_PLAYER]
        self.chart = [-1] * (ROWS * COLUMNS)
        self.score = [0, 0]
        self.trapped = False
        self.claimed = False
        self.turns = 0
        self._legal: tuple[Any, ...] | None = None

    # ---- who decides next

    def current_player(self) -> int:
        phase = self.phase
        if phase == P_PLAY or phase == P_GUIDE:
            return self.seat
        if phase == P_OVER:
            return TERMINAL
        return CHANCE

    def to_move(self) -> tuple[int, ...]:
        return (self.seat,) if self.phase == P_PLAY or self.phase == P_GUIDE else ()

    def is_terminal(self) -> bool:
        return self.phase == P_OVER

    def is_chance_node(self) -> bool:
        return self.phase < P_GUIDE

    # ---- legal actions

    def _power_types(self, seat: int) -> int:
        """Bit set of the activatable types of which ``seat`` has a non-activated animal."""
        mask = 0
        for entry in self.boards[seat]:
            if entry < ACTIVE:
                mask |= 1 << entry
        return mask

    def _segments(self) -> list[tuple[int, Any]]:
        """The legal actions of the active seat as runs ``(count, tag, data)``, in sorted order.

        ``tag`` RUN_BUILT: ``data`` is the tuple of actions.  RUN_MUSK: the
        musk deer's swaps, only counted here (built by :meth:`_musk_swap`).
        RUN_CLAIM: ``data`` is ``(row, col, payloads)`` and the actions are
        ``(CLAIM, row, col, payload)``, built only when asked for.
        """
        s = self.seat
        cells = self.cells
        guide = self.guide
        segs: list[tuple[int, int, Any]] = []
        if not self.trapped:
            if self.ranimals[guide]:
                run = tuple((TRAP, i) for i in REGION_SECTIONS[guide] if cells[i] < HIKER)
            else:
                ranimals = self.ranimals
                run = tuple((RELOCATE, r) for r in range(REGIONS) if ranimals[r])
            segs.append((len(run), RUN_BUILT, run))
        powers = self._power_types(s)
        if powers:
            if powers >> SNOW_LEOPARD & 1:
                h1 = self.hmask[1]
                pairs = []
                for a in _bits(self.hmask[0]):
                    for b in _bits(ADJ_MASK[a] & h1):
                        pairs.append((SNOW, a, b) if a < b else (SNOW, b, a))
                if pairs:
                    pairs.sort()
                    segs.append((len(pairs), RUN_BUILT, pairs))
            if powers >> TAHR_TYPE & 1:
                amask = self.amask
                run = tuple(
                    (TAHR, h, a)
                    for h in _bits(self.hmask[0] | self.hmask[1])
                    for a in ADJ[h]
                    if amask >> a & 1
                )
                if run:
                    segs.append((len(run), RUN_BUILT, run))
            if powers >> MUSK_DEER & 1:
                count = self._musk_count()
                if count:
                    segs.append((count, RUN_MUSK, None))
            if powers >> YAK_TYPE & 1:
                run = tuple((YAK, r) for r in range(REGIONS) if r != guide)
                segs.append((len(run), RUN_BUILT, run))
        if self.trapped:
            if not self.claimed and self.cubes[s]:
                self._claims(s, segs)
            segs.append((1, RUN_BUILT, (END_ACTION,)))
        return segs

    def _musk_count(self) -> int:
        """Pairs of animals on the mountain of different types."""
        total = 0
        same = 0
        for k in self.mcount:
            total += k
            same += k * (k - 1)
        return (total * (total - 1) - same) // 2

    def _musk_swaps(self) -> tuple[tuple[int, int, int], ...]:
        cells = self.cells
        animals = [i for i in range(SECTIONS) if cells[i] < HIKER]
        return tuple(
            (MUSK, a, b)
            for x, a in enumerate(animals)
            for b in animals[x + 1 :]
            if cells[a] != cells[b]
        )

    def _musk_swap(self, k: int) -> tuple[int, int, int]:
        """The k-th musk-deer swap in sorted order, without building the others."""
        cells = self.cells
        animals = [i for i in range(SECTIONS) if cells[i] < HIKER]
        left = [0] * len(TYPE_NAMES)  # animals of each type after position x
        for i in animals:
            left[cells[i]] += 1
        remaining = len(animals)
        for x, a in enumerate(animals):
            t = cells[a]
            left[t] -= 1
            remaining -= 1
            here = remaining - left[t]
            if k < here:
                for b in animals[x + 1 :]:
                    if cells[b] != t:
                        if k == 0:
                            return (MUSK, a, b)
                        k -= 1
            k -= here
        raise IndexError("musk-deer swap index out of range")

    def _claims(self, s: int, segs: list[tuple[int, int, Any]]) -> None:
        """Append one RUN_CLAIM run per free square that ``s`` can claim now."""
        chart = self.chart
        camps = self.camps[s]
        trades: dict[tuple[bool, int], tuple[tuple[int, ...], ...]] | None = None
        types: tuple[int, ...] = ()
        for row in range(ROWS):
            kind = ROW_KINDS[row]
            base = row * COLUMNS
            if kind == CAMPS_ROW:
                largest = 0
                for col in range(COLUMNS):
                    need = REQUIREMENTS[col]
                    if chart[base + col] < 0 and largest < need <= camps:
                        largest = need
                if not largest:
                    continue
                by_size = camp_groups(self.hmask[s], largest)
                if not by_size:
                    continue
                for col in range(COLUMNS):
                    if chart[base + col] < 0:
                        groups = by_size.get(REQUIREMENTS[col])
                        if groups and REQUIREMENTS[col] <= camps:
                            segs.append((len(groups), RUN_CLAIM, (row, col, groups)))
            else:
                if trades is None:
                    board = self.boards[s]
                    types = tuple([entry & 7 for entry in board]) if len(board) >= MIN_REQUIREMENT else ()
                    trades = trade_table(types) if types else {}
                if not types:
                    continue  # too few animals for any trade
                different = kind == DIFFERENT_ROW
                for col in range(COLUMNS):
                    if chart[base + col] < 0:
                        need = REQUIREMENTS[col]
                        groups = trades.get((different, need))
                        if groups is None:
                            groups = trades[(different, need)] = trade_sets(types, need, different)
                        if groups:
                            segs.append((len(groups), RUN_CLAIM, (row, col, groups)))

    def legal_actions(self, seat: int | None = None) -> tuple[Any, ...]:
        phase = self.phase
        if seat is not None and seat != self.seat:
            return ()
        if phase == P_PLAY:
            legal = self._legal
            if legal is None:
                legal = []
                for _count, tag, data in self._segments():
                    if tag == RUN_BUILT:
                        legal += data
                    elif tag == RUN_CLAIM:
                        row, col, payloads = data
                        legal += [(CLAIM, row, col, payload) for payload in payloads]
                    else:
                        legal += self._musk_swaps()
                legal = self._legal = tuple(legal)
            return legal
        if phase == P_GUIDE:
            return tuple((GUIDE, r) for r in range(REGIONS))
        return ()

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.phase == P_FIRST:
            return [(0, 0.5), (1, 0.5)]
        if self.phase == P_ANIMALS:
            raise NotImplementedError(
                "the animal layout is a shuffle of 36 animals (36!/(6!)^6 outcomes); use sample_chance"
            )
        return []

    def sample_chance(self, rng: RandomSource) -> Any:
        # first player: randrange(2).
        # animals: Fisher-Yates over DECK (6 of each type in ``animal_types``
        # order), from the last position down: for i = 35, 34, ..., 1 draw
        # j = randrange(i + 1) and swap positions i and j.  The result, in
        # section order 1.1 .. 6.6, is the layout.  Every arrangement of the
        # multiset is equally likely.
        if self.phase == P_FIRST:
            return rng.randrange(2)
        deck = list(DECK)
        for i in range(len(deck) - 1, 0, -1):
            j = rng.randrange(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return tuple(deck)

    def check_chance(self, outcome: Any) -> None:
        if self.phase == P_FIRST:
            if type(outcome) is not int or outcome not in (0, 1):
                raise IllegalActionError(f"first player {outcome!r} is not seat 0 or 1")
        elif self.phase == P_ANIMALS:
            if (
                type(outcome) is not tuple
                or len(outcome) != SECTIONS
                or any(type(t) is not int or not 0 <= t < len(TYPE_NAMES) for t in outcome)
            ):
                raise IllegalActionError(f"animal layout {outcome!r} is not {SECTIONS} animal types")
            for t in range(len(TYPE_NAMES)):
                if outcome.count(t) != ANIMALS_PER_TYPE:
                    raise IllegalActionError(
                        f"chance event {self.describe(CHANCE, outcome)} is impossible: it has "
                        f"{outcome.count(t)} {TYPE_NAMES[t]}, not {ANIMALS_PER_TYPE}"
                    )
        else:
            raise IllegalActionError(f"chance event {outcome!r} is illegal: no chance event is due")

    # ---- applying

    def apply(self, seat: int, action: Any) -> None:
        phase = self.phase
        self._legal = None
        if phase == P_PLAY:
            kind = action[0]
            if kind == TRAP:
                self._trap(action[1])
            elif kind == END:
                self._end_turn()
            elif kind == CLAIM:
                self._claim(action[1], action[2], action[3])
            elif kind == RELOCATE:
                self.guide = action[1]
            else:
                self._activate(action)
        elif phase == P_ANIMALS:
            self.cells = list(action)
            self.derive()
            self.phase = P_GUIDE
        elif phase == P_FIRST:
            self.first = action
            self.seat = 1 - action  # the second player places the guide (§4.4)
            self.phase = P_ANIMALS
        elif phase == P_GUIDE:
            self.guide = action[1]
            self.seat = self.first
            self.phase = P_PLAY
        else:
            raise AssertionError("apply() after the end of the game")

    def derive(self) -> None:
        """Recompute ``ranimals``, ``mcount``, ``hmask`` and ``amask`` from ``cells``."""
        self.ranimals = [0] * REGIONS
        self.mcount = [0] * len(TYPE_NAMES)
        self.hmask = [0, 0]
        self.amask = 0
        for i, c in enumerate(self.cells):
            if c < 0:
                continue
            if c < HIKER:
                self.ranimals[REGION_OF[i]] += 1
                self.mcount[c] += 1
                self.amask |= 1 << i
            elif c < CAMP:
                self.hmask[c - HIKER] |= 1 << i
        self._legal = None

    def _gain(self, s: int, points: int) -> None:
        """§6.8: add points; landing on the opponent's space bumps one further."""
        new = self.score[s] + points
        if new == self.score[1 - s]:
            new += 1
        self.score[s] = new

    def _trap(self, i: int) -> None:
        s = self.seat
        t = self.cells[i]
        if t == RED_PANDA and self.score[s] <= self.score[1 - s]:  # 6.6, NP-10
            self._gain(s, 1)
        self.boards[s].append(t)
        self.hikers[s] -= 1
        self.cells[i] = HIKER + s
        self.ranimals[REGION_OF[i]] -= 1
        self.mcount[t] -= 1
        self.hmask[s] |= 1 << i
        self.amask ^= 1 << i
        self.guide = GUIDE_AFTER_TRAP[i]
        self.trapped = True

    def _activate(self, action: tuple[int, ...]) -> None:
        kind = action[0]
        board = self.boards[self.seat]
        t = KIND_TYPE[kind]
        board[board.index(t)] = t | ACTIVE  # the lowest-index non-activated one (NP-17)
        if kind == YAK:
            self.guide = action[1]
            return
        cells = self.cells
        a, b = action[1], action[2]
        cells[a], cells[b] = cells[b], cells[a]
        both = 1 << a | 1 << b
        if kind == SNOW:  # one hiker of each seat trades places
            self.hmask[0] ^= both
            self.hmask[1] ^= both
        elif kind == TAHR:  # the hiker goes from a to b, the animal from b to a
            self.hmask[cells[b] - HIKER] ^= both
            self.amask ^= both
            ra, rb = REGION_OF[a], REGION_OF[b]
            if ra != rb:
                self.ranimals[ra] += 1
                self.ranimals[rb] -= 1

    def _claim(self, row: int, col: int, payload: tuple[int, ...]) -> None:
        s = self.seat
        kind = ROW_KINDS[row]
        if kind == CAMPS_ROW:
            cells = self.cells
            for i in payload:
                cells[i] = CAMP + s
                self.hmask[s] ^= 1 << i
            self.camps[s] -= len(payload)
        else:
            board = self.boards[s]
            gone = set(payload)
            self.boards[s] = [entry for x, entry in enumerate(board) if x not in gone]
        self.chart[row * COLUMNS + col] = s
        self.cubes[s] -= 1
        self.claimed = True
        self._gain(s, POINTS[row][col])

    def _end_turn(self) -> None:
        self.turns += 1
        hikers, cubes = self.hikers, self.cubes
        if (hikers[0] == 0 and hikers[1] == 0) or (cubes[0] == 0 and cubes[1] == 0):  # §8
            if self.area:
                self._area_scoring()
            self.phase = P_OVER
            return
        self.seat = 1 - self.seat
        self.trapped = False
        self.claimed = False

    def _area_scoring(self) -> None:
        cells = self.cells
        for r in range(REGIONS):  # regions in order 1..6: the bumps depend on it (§7)
            count = [0, 0]
            for i in REGION_SECTIONS[r]:
                c = cells[i]
                if c >= HIKER:
                    count[(c - HIKER) & 1] += 1
            for s in (0, 1):
                points = AREA_POINTS.get(count[s], 0)
                if points:
                    self._gain(s, points)

    def random_playout(self, rng: RandomSource) -> int:
        """Uniformly random legal actions (chance sampled) to the end; the number of events.

        Draws exactly what :func:`engine.core.random_playout` draws (one
        ``randrange(len(legal_actions))`` per move) and picks the same action,
        but finds the k-th action from the runs of :meth:`_segments` without
        building the whole list.
        """
        events = 0
        randrange = rng.randrange
        while True:
            phase = self.phase
            if phase == P_PLAY:
                segs = self._segments()
                total = 0
                for seg in segs:
                    total += seg[0]
                k = randrange(total)
                for count, tag, data in segs:
                    if k < count:
                        if tag == RUN_BUILT:
                            action = data[k]
                        elif tag == RUN_CLAIM:
                            action = (CLAIM, data[0], data[1], data[2][k])
                        else:
                            action = self._musk_swap(k)
                        break
                    k -= count
                self.apply(self.seat, action)
            elif phase == P_OVER:
                break
            elif phase == P_GUIDE:
                self.apply(self.seat, (GUIDE, randrange(REGIONS)))
            else:
                self.apply(CHANCE, self.sample_chance(rng))
            events += 1
        return events

    def clone(self) -> "NangaParbatState":
        other = NangaParbatState.__new__(NangaParbatState)
        other.game = self.game
        other.players = 2
        other.options = self.options
        other.area = self.area
        other.phase = self.phase
        other.first = self.first
        other.seat = self.seat
        other.guide = self.guide
        other.cells = self.cells[:]
        other.ranimals = self.ranimals[:]
        other.mcount = self.mcount[:]
        other.hmask = self.hmask[:]
        other.amask = self.amask
        other.boards = [self.boards[0][:], self.boards[1][:]]
        other.hikers = self.hikers[:]
        other.camps = self.camps[:]
        other.cubes = self.cubes[:]
        other.chart = self.chart[:]
        other.score = self.score[:]
        other.trapped = self.trapped
        other.claimed = self.claimed
        other.turns = self.turns
        other._legal = self._legal
        return other

    # ---- results

    def scores(self) -> list[int]:
        return self.score[:]

    def ranking(self) -> list[int]:
        a, b = self.score
        return [int(b > a), int(a > b)]  # equal scores (only 0-0) are a draw (§9, NP-16)

    def key(self) -> tuple[Any, ...]:
        return (
            self.area,
            self.phase,
            self.first,
            self.seat,
            self.guide,
            tuple(self.cells),
            tuple(self.boards[0]),
            tuple(self.boards[1]),
            tuple(self.hikers),
            tuple(self.camps),
            tuple(self.cubes),
            tuple(self.chart),
            tuple(self.score),
            self.trapped,
            self.claimed,
            self.turns,
        )

    # ---- information (everything is public, §14)

    def observation(self, seat: int | None) -> dict[str, Any]:
        dealt = self.phase > P_ANIMALS
        sections = None
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
    def from_observation(cls, game: NangaParbat, obs: Mapping[str, Any]) -> "NangaParbatState":
        state = cls(game, game.normalize_options(obs.get("options")))
        state.phase = PHASE_NAMES.index(obs["phase"])
        state.first = obs["first_player"] if obs["first_player"] is not None else -1
        if obs["active"] is not None:
            state.seat = obs["active"]
        elif state.phase == P_ANIMALS:
            state.seat = 1 - state.first
        elif state.phase == P_OVER:
            state.seat = _last_mover(obs)
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
        except Exception:  # a malformed action tuple still gets a message
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


def _last_mover(obs: Mapping[str, Any]) -> int:
    """The seat whose end_turn ended the game: the first player moved on even turns."""
    first = obs["first_player"]
    return first if obs["turn"] % 2 == 1 else 1 - first
