"""Nanga Parbat's state: who decides, legal actions, applying and results, per ``shared/rules/nanga-parbat.md`` (Cairn board, edition 1).

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

from collections.abc import Mapping
from typing import Any

from ...core import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    OptionSpec,
    RandomSource,
    State,
)
from .claims import bits, camp_groups, trade_sets, trade_table
from .notation import ACTION_FIELDS, NotationMixin
from .tables import (
    ACTIVE,
    ADJ,
    ADJ_MASK,
    ANIMALS_PER_TYPE,
    AREA_POINTS,
    CAMP,
    CAMPS_PER_PLAYER,
    CAMPS_ROW,
    CLAIM,
    COLUMNS,
    CUBES_PER_PLAYER,
    DECK,
    DIFFERENT_ROW,
    END,
    END_ACTION,
    GUIDE,
    GUIDE_AFTER_TRAP,
    HIKER,
    HIKERS_PER_PLAYER,
    KIND_TYPE,
    MAX_EVENTS,
    MIN_REQUIREMENT,
    MUSK,
    MUSK_DEER,
    P_ANIMALS,
    P_FIRST,
    P_GUIDE,
    P_OVER,
    P_PLAY,
    POINTS,
    RED_PANDA,
    REGION_OF,
    REGION_SECTIONS,
    REGIONS,
    RELOCATE,
    REQUIREMENTS,
    ROW_KINDS,
    ROWS,
    RUN_BUILT,
    RUN_CLAIM,
    RUN_MUSK,
    SECTIONS,
    SNOW,
    SNOW_LEOPARD,
    TAHR,
    TAHR_TYPE,
    TRAP,
    TYPE_NAMES,
    YAK,
    YAK_TYPE,
)
from .view import ObservationMixin

# ---------------------------------------------------------------------- the game


class NangaParbat(Game):
    id = "nanga-parbat"
    name = "Nanga Parbat"
    min_players = 2
    max_players = 2
    action_fields = ACTION_FIELDS
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

    def new_initial_state(self, players: int = 2, options: Mapping[str, Any] | None = None) -> NangaParbatState:
        players = self.check_players(players)
        return NangaParbatState(self, self.normalize_options(options))

    def state_from_observation(
        self, observation: Mapping[str, Any], seat: int, rng: RandomSource
    ) -> NangaParbatState:
        # Perfect information (rules §14): the observation is the whole state.
        return NangaParbatState.from_observation(self, observation)


class NangaParbatState(ObservationMixin, NotationMixin, State):
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

    def _segments(self) -> list[tuple[int, int, Any]]:
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
                run: tuple[tuple[int, ...], ...] = tuple((TRAP, i) for i in REGION_SECTIONS[guide] if cells[i] < HIKER)
            else:
                ranimals = self.ranimals
                run = tuple((RELOCATE, r) for r in range(REGIONS) if ranimals[r])
            segs.append((len(run), RUN_BUILT, run))
        powers = self._power_types(s)
        if powers:
            if powers >> SNOW_LEOPARD & 1:
                h1 = self.hmask[1]
                pairs = []
                for a in bits(self.hmask[0]):
                    for b in bits(ADJ_MASK[a] & h1):
                        pairs.append((SNOW, a, b) if a < b else (SNOW, b, a))
                if pairs:
                    pairs.sort()
                    segs.append((len(pairs), RUN_BUILT, pairs))
            if powers >> TAHR_TYPE & 1:
                amask = self.amask
                run = tuple(
                    (TAHR, h, a)
                    for h in bits(self.hmask[0] | self.hmask[1])
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
                built: list[Any] = []
                for _count, tag, data in self._segments():
                    if tag == RUN_BUILT:
                        built += data
                    elif tag == RUN_CLAIM:
                        row, col, payloads = data
                        built += [(CLAIM, row, col, payload) for payload in payloads]
                    else:
                        built += self._musk_swaps()
                legal = self._legal = tuple(built)
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

    def clone(self) -> NangaParbatState:
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
