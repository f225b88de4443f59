"""Mountain Goats, per ``shared/rules/mountain-goats.md`` (Cairn edition).

Speed notes (this engine is the inner loop of every bot rollout):

* The state is a handful of flat int lists: ``pos[seat * 6 + i]`` is the
  position of ``seat``'s goat on mountain ``5 + i``; ``hold`` likewise counts
  tokens.  ``clone`` copies those lists with slices and nothing else.
* Every ordered roll (1,296 of them) maps to a precomputed tuple of reachable
  climbs, built once at import from the 126 distinct multisets.  Legal-action
  generation is a dict lookup done once when the roll is applied.
* A turn is applied from the climb multiset alone (rule 5.4), touching only
  the mountains named; sets and the end trigger are rechecked only when a
  token was taken.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations, combinations_with_replacement, product
from typing import Any

from ..core import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    NotationError,
    RandomSource,
    State,
)

# ---------------------------------------------------------------------- data (rules §10)

MOUNTAINS = (5, 6, 7, 8, 9, 10)
HEIGHT = (4, 4, 3, 3, 2, 2)
TOKENS_BY_PLAYERS = {
    2: (10, 9, 8, 7, 6, 5),
    3: (11, 10, 9, 8, 7, 6),
    4: (12, 11, 10, 9, 8, 7),
}
BONUS_TOKENS = (15, 12, 9, 6)
# Every field an action of the record notation may have: the climb and, optionally, how the dice make it.
ACTION_FIELDS = frozenset({"climb", "faces", "groups"})
END_EMPTY_STACKS = 3

PHASE_FIRST, PHASE_ROLL, PHASE_CLIMB, PHASE_OVER = 0, 1, 2, 3
PHASE_NAMES = ("first_player", "roll", "climb", "over")

Climb = tuple[int, ...]  # a sorted tuple of mountain numbers, 0 to 4 entries
Roll = tuple[int, ...]  # four faces 1..6, in die order

# ---------------------------------------------------------------------- climb tables


def _set_partitions(items: tuple[int, ...]) -> list[list[tuple[int, ...]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    result = []
    for part in _set_partitions(rest):
        result.append([(first,), *part])
        for k in range(len(part)):
            result.append(part[:k] + [(first, *part[k])] + part[k + 1 :])
    return result


PARTITIONS = _set_partitions((0, 1, 2, 3))  # the 15 ways to group four dice


def _climbs_from_faces(faces: tuple[int, ...]) -> frozenset[Climb]:
    """Every climb reachable from exactly these faces (no adjusting)."""
    climbs: set[Climb] = set()
    for partition in PARTITIONS:
        totals = sorted(t for t in (sum(faces[i] for i in block) for block in partition) if 5 <= t <= 10)
        for k in range(len(totals) + 1):
            climbs.update(combinations(totals, k))  # any sub-multiset is reachable (MG-5)
    return frozenset(climbs)


_NO_ADJUST: dict[tuple[int, ...], frozenset[Climb]] = {}


def climbs_from_faces(faces: tuple[int, ...]) -> frozenset[Climb]:
    key = tuple(sorted(faces))
    climbs = _NO_ADJUST.get(key)
    if climbs is None:
        climbs = _NO_ADJUST[key] = _climbs_from_faces(key)
    return climbs


def adjusted_faces(roll: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every legal result of the ones rule (§4.2) for this roll, the roll itself included."""
    ones = [i for i, face in enumerate(roll) if face == 1]
    if len(ones) < 2:
        return [tuple(roll)]
    result = []
    for values in product(range(1, 7), repeat=len(ones)):
        if 1 not in values:
            continue
        faces = list(roll)
        for i, value in zip(ones, values):
            faces[i] = value
        result.append(tuple(faces))
    return result


def _sort_key(climb: Climb) -> tuple[int, Climb]:
    return (len(climb), climb)


def _reachable(roll: tuple[int, ...]) -> tuple[Climb, ...]:
    climbs: set[Climb] = set()
    for faces in adjusted_faces(roll):
        climbs |= climbs_from_faces(faces)
    return tuple(sorted(climbs, key=_sort_key))


_BY_MULTISET: dict[Roll, tuple[Climb, ...]] = {roll: _reachable(roll) for roll in combinations_with_replacement(range(1, 7), 4)}
ROLLS: tuple[Roll, ...] = tuple(product(range(1, 7), repeat=4))  # index = base-6 digits of faces-1
LEGAL_CLIMBS: dict[Roll, tuple[Climb, ...]] = {roll: _BY_MULTISET[tuple(sorted(roll))] for roll in ROLLS}
LEGAL_BY_INDEX: tuple[tuple[Climb, ...], ...] = tuple(LEGAL_CLIMBS[roll] for roll in ROLLS)


def _multiset_probability(roll: tuple[int, ...]) -> float:
    from math import factorial

    counts: dict[int, int] = {}
    for face in roll:
        counts[face] = counts.get(face, 0) + 1
    ways = factorial(4)
    for c in counts.values():
        ways //= factorial(c)
    return ways / 1296


ROLL_OUTCOMES = [(roll, _multiset_probability(roll)) for roll in _BY_MULTISET]

# ---------------------------------------------------------------------- the game


class MountainGoats(Game):
    id = "mountain-goats"
    name = "Mountain Goats"
    min_players = 2
    max_players = 4
    action_fields = ACTION_FIELDS
    option_specs = ()
    perfect_information = True
    has_chance = True

    def max_events(self, players: int) -> int:
        # The rules have no turn limit (MG-16): a player may climb nothing
        # forever.  This is the bound the conformance test states for
        # *random* play, far above the longest random game we have measured.
        return 4000

    def new_initial_state(self, players: int, options: Mapping[str, Any] | None = None) -> MountainGoatsState:
        players = self.check_players(players)
        return MountainGoatsState(self, players, self.normalize_options(options))

    def state_from_observation(
        self, observation: Mapping[str, Any], seat: int, rng: RandomSource
    ) -> MountainGoatsState:
        # Perfect information: the observation is the whole state.
        return MountainGoatsState.from_observation(self, observation)


class MountainGoatsState(State):
    __slots__ = (
        "n",
        "phase",
        "first",
        "seat",
        "turns",
        "pos",
        "hold",
        "stacks",
        "summit",
        "bonuses",
        "bonus_next",
        "score",
        "empty",
        "ended",
        "roll",
        "actions",
    )

    def __init__(self, game: MountainGoats, players: int, options: dict[str, Any]) -> None:
        self.game = game
        self.players = self.n = players
        self.options = options
        self.phase = PHASE_FIRST
        self.first = -1
        self.seat = -1
        self.turns = 0
        self.pos = [0] * (6 * players)
        self.hold = [0] * (6 * players)
        self.stacks = list(TOKENS_BY_PLAYERS[players])
        self.summit = [-1] * 6
        self.bonuses: list[list[int]] = [[] for _ in range(players)]
        self.bonus_next = 0
        self.score = [0] * players
        self.empty = 0
        self.ended = False
        self.roll: Roll | None = None
        self.actions: tuple[Climb, ...] = ()

    # ---- who decides next

    def current_player(self) -> int:
        phase = self.phase
        if phase == PHASE_CLIMB:
            return self.seat
        if phase == PHASE_OVER:
            return TERMINAL
        return CHANCE

    def to_move(self) -> tuple[int, ...]:
        return (self.seat,) if self.phase == PHASE_CLIMB else ()

    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER

    def is_chance_node(self) -> bool:
        return self.phase < PHASE_CLIMB

    # ---- actions

    def legal_actions(self, seat: int | None = None) -> tuple[Climb, ...]:
        if self.phase != PHASE_CLIMB or (seat is not None and seat != self.seat):
            return ()
        return self.actions

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.phase == PHASE_FIRST:
            return [(k, 1 / self.n) for k in range(self.n)]
        if self.phase == PHASE_ROLL:
            return list(ROLL_OUTCOMES)
        return []

    def sample_chance(self, rng: RandomSource) -> Any:
        # first player: randrange(n).  roll: ROLLS[randrange(1296)], i.e. the
        # four base-6 digits of the draw, most significant first, plus one.
        if self.phase == PHASE_FIRST:
            return rng.randrange(self.n)
        return ROLLS[rng.randrange(1296)]

    def check_chance(self, outcome: Any) -> None:
        if self.phase == PHASE_FIRST:
            if type(outcome) is not int or not 0 <= outcome < self.n:
                raise IllegalActionError(f"first player {outcome!r} is not a seat of this {self.n}-player game")
        elif self.phase == PHASE_ROLL:
            if outcome not in LEGAL_CLIMBS:
                raise IllegalActionError(f"roll {outcome!r} is not four dice from 1 to 6")
        else:
            raise IllegalActionError(f"chance event {outcome!r} is illegal: no chance event is due")

    def why_illegal(self, seat: int, action: Any) -> str:
        roll = list(self.roll) if self.roll else None
        return f"climb {list(action)} cannot be reached from roll {roll}"

    def apply(self, seat: int, action: Any) -> None:
        phase = self.phase
        if phase == PHASE_CLIMB:
            self._climb(action)
        elif phase == PHASE_ROLL:
            self.roll = action
            self.actions = LEGAL_CLIMBS[action]
            self.phase = PHASE_CLIMB
        elif phase == PHASE_FIRST:
            self.first = self.seat = action
            self.phase = PHASE_ROLL
        else:
            raise AssertionError("apply() after the end of the game")

    def _climb(self, climb: Climb) -> None:
        s = self.seat
        base = 6 * s
        pos = self.pos
        stacks = self.stacks
        took = False
        for m in climb:
            i = m - 5
            p = pos[base + i]
            h = HEIGHT[i]
            if p < h:
                p += 1
                pos[base + i] = p
                if p < h:
                    continue
                occupant = self.summit[i]
                if occupant >= 0:  # MG-8: arrival bumps the occupant to the foot
                    pos[6 * occupant + i] = 0
                self.summit[i] = s
            if stacks[i]:  # MG-9: an empty stack gives nothing
                stacks[i] -= 1
                self.hold[base + i] += 1
                self.score[s] += m
                took = True
                if not stacks[i]:
                    self.empty += 1
        if took:
            bonus_next = self.bonus_next
            if bonus_next < 4:
                sets = min(self.hold[base : base + 6])
                held = self.bonuses[s]
                while sets > len(held) and bonus_next < 4:  # §5.3, MG-10
                    value = BONUS_TOKENS[bonus_next]
                    held.append(value)
                    self.score[s] += value
                    bonus_next += 1
                self.bonus_next = bonus_next
            if bonus_next == 4 or self.empty >= END_EMPTY_STACKS:
                self.ended = True
        self.turns += 1
        self.roll = None
        self.actions = ()
        if self.ended and s == (self.first - 1) % self.n:  # §7: finish the round
            self.phase = PHASE_OVER
        else:
            self.seat = (s + 1) % self.n
            self.phase = PHASE_ROLL

    def random_playout(self, rng: RandomSource) -> int:
        """Play uniformly random climbs (rolls sampled) to the end; the number of events.

        The same distribution as :func:`engine.core.random_playout`, fused into
        one loop with locals for rollout speed.
        """
        events = 0
        if self.phase == PHASE_FIRST:
            self.apply(CHANCE, rng.randrange(self.n))
            events += 1
        climb = self._climb
        by_index = LEGAL_BY_INDEX
        uniform = getattr(rng, "random", None)
        if uniform is not None:
            # random.Random.random() is about three times cheaper than randrange();
            # int(random() * k) is uniform to within 2**-53 for these small k.
            while self.phase != PHASE_OVER:
                if self.phase == PHASE_ROLL:
                    actions = by_index[int(uniform() * 1296)]
                    events += 2
                else:
                    actions = self.actions
                    events += 1
                climb(actions[int(uniform() * len(actions))])
        else:
            randrange = rng.randrange
            while self.phase != PHASE_OVER:
                if self.phase == PHASE_ROLL:
                    actions = by_index[randrange(1296)]
                    events += 2
                else:
                    actions = self.actions
                    events += 1
                climb(actions[randrange(len(actions))])
        self.roll = None
        return events

    def clone(self) -> MountainGoatsState:
        other = MountainGoatsState.__new__(MountainGoatsState)
        other.game = self.game
        other.players = other.n = self.n
        other.options = self.options
        other.phase = self.phase
        other.first = self.first
        other.seat = self.seat
        other.turns = self.turns
        other.pos = self.pos[:]
        other.hold = self.hold[:]
        other.stacks = self.stacks[:]
        other.summit = self.summit[:]
        other.bonuses = [held[:] for held in self.bonuses]
        other.bonus_next = self.bonus_next
        other.score = self.score[:]
        other.empty = self.empty
        other.ended = self.ended
        other.roll = self.roll
        other.actions = self.actions
        return other

    # ---- results

    def scores(self) -> list[int]:
        return self.score[:]

    def summits_of(self, seat: int) -> list[int]:
        return [MOUNTAINS[i] for i in range(6) if self.summit[i] == seat]

    def tiebreak_key(self, seat: int) -> tuple[int, int, int]:
        """§8: score, then goats on summits, then the highest summit (0 if none)."""
        summits = self.summits_of(seat)
        return (self.score[seat], len(summits), max(summits) if summits else 0)

    def ranking(self) -> list[int]:
        keys = [self.tiebreak_key(s) for s in range(self.n)]
        return [sum(1 for other in keys if other > key) for key in keys]

    def key(self) -> tuple[Any, ...]:
        return (
            self.n,
            self.phase,
            self.first,
            self.seat,
            self.turns,
            tuple(self.pos),
            tuple(self.hold),
            tuple(self.stacks),
            tuple(self.summit),
            tuple(tuple(b) for b in self.bonuses),
            self.bonus_next,
            self.ended,
            self.roll,
        )

    # ---- information (everything is public, §13)

    def observation(self, seat: int | None) -> dict[str, Any]:
        n = self.n
        return {
            "game": self.game.id,
            "players": n,
            "phase": PHASE_NAMES[self.phase],
            "first_player": self.first if self.first >= 0 else None,
            "active": self.seat if self.phase in (PHASE_ROLL, PHASE_CLIMB) else None,
            "to_move": list(self.to_move()),
            "turn": self.turns,
            "roll": list(self.roll) if self.roll else None,
            "mountains": list(MOUNTAINS),
            "heights": list(HEIGHT),
            "positions": [self.pos[6 * s : 6 * s + 6] for s in range(n)],
            "tokens": [self.hold[6 * s : 6 * s + 6] for s in range(n)],
            "stacks": self.stacks[:],
            "summits": [occ if occ >= 0 else None for occ in self.summit],
            "bonus_pile": list(BONUS_TOKENS[self.bonus_next :]),
            "bonuses": [held[:] for held in self.bonuses],
            "scores": self.score[:],
            "end_triggered": self.ended,
            "viewer": seat,
        }

    @classmethod
    def from_observation(cls, game: MountainGoats, obs: Mapping[str, Any]) -> MountainGoatsState:
        n = obs["players"]
        state = cls(game, n, {})
        state.phase = PHASE_NAMES.index(obs["phase"])
        state.first = obs["first_player"] if obs["first_player"] is not None else -1
        state.seat = obs["active"] if obs["active"] is not None else (
            (state.first - 1) % n if state.phase == PHASE_OVER else -1
        )
        state.turns = obs["turn"]
        state.pos = [p for row in obs["positions"] for p in row]
        state.hold = [t for row in obs["tokens"] for t in row]
        state.stacks = list(obs["stacks"])
        state.summit = [-1 if occ is None else occ for occ in obs["summits"]]
        state.bonuses = [list(b) for b in obs["bonuses"]]
        state.bonus_next = len(BONUS_TOKENS) - len(obs["bonus_pile"])
        state.score = list(obs["scores"])
        state.empty = sum(1 for c in state.stacks if c == 0)
        state.ended = obs["end_triggered"]
        if obs["roll"] is not None:
            state.roll = tuple(obs["roll"])
            state.actions = LEGAL_CLIMBS[state.roll]
        return state

    # ---- record notation (§11)

    def action_to_json(self, seat: int, action: Any) -> dict[str, Any]:
        return {"climb": list(action)}

    def action_from_json(self, seat: int, data: Any) -> Climb:
        if not isinstance(data, dict) or "climb" not in data:
            raise NotationError(f"action {data!r} must be an object with a 'climb' list")
        extra = set(data) - ACTION_FIELDS
        if extra:
            raise NotationError(f"action has unknown field {sorted(extra)[0]!r}; allowed: climb, faces, groups")
        climb = data["climb"]
        if (
            not isinstance(climb, list)
            or len(climb) > 4
            or any(type(m) is not int or not 5 <= m <= 10 for m in climb)
        ):
            raise NotationError(f"'climb' must list 0 to 4 mountains from 5 to 10, not {climb!r}")
        if climb != sorted(climb):
            raise NotationError(f"'climb' {climb} must be sorted ascending")
        result = tuple(climb)
        if "groups" in data and "faces" not in data:
            raise NotationError("'groups' is allowed only together with 'faces'")
        if "faces" in data:
            self._check_faces(result, data["faces"], data.get("groups"))
        return result

    def _check_faces(self, climb: Climb, faces: Any, groups: Any) -> None:
        roll = self.roll
        if roll is None:
            raise IllegalActionError("'faces' makes no sense before the dice are rolled")
        if not isinstance(faces, list) or len(faces) != 4 or any(type(f) is not int or not 1 <= f <= 6 for f in faces):
            raise NotationError(f"'faces' must list four faces from 1 to 6, not {faces!r}")
        ones = [i for i in range(4) if roll[i] == 1]
        for i in range(4):
            if roll[i] != 1 and faces[i] != roll[i]:
                raise IllegalActionError(
                    f"faces {faces} change die {i}, which was rolled as {roll[i]}; only extra 1s may be set"
                )
        if len(ones) < 2 and faces != list(roll):
            raise IllegalActionError(f"faces {faces} differ from roll {list(roll)}, which has fewer than two 1s")
        if len(ones) >= 2 and all(faces[i] != 1 for i in ones):
            raise IllegalActionError(f"faces {faces} must keep at least one of the rolled 1s showing 1")
        if climb not in climbs_from_faces(tuple(faces)):
            raise IllegalActionError(f"climb {list(climb)} cannot be made from faces {faces}")
        if groups is None:
            return
        if not isinstance(groups, list):
            raise NotationError(f"'groups' must be a list of lists of die indices, not {groups!r}")
        used: set[int] = set()
        totals = []
        for group in groups:
            if (
                not isinstance(group, list)
                or not group
                or any(type(i) is not int or not 0 <= i <= 3 for i in group)
            ):
                raise NotationError(f"group {group!r} must be a non-empty list of die indices 0 to 3")
            if used & set(group) or len(set(group)) != len(group):
                raise IllegalActionError(f"groups {groups} share a die; each die belongs to at most one group")
            used |= set(group)
            total = sum(faces[i] for i in group)
            if not 5 <= total <= 10:
                raise IllegalActionError(f"group {group} totals {total}, which names no mountain (5 to 10)")
            totals.append(total)
        if sorted(totals) != list(climb):
            raise IllegalActionError(f"groups {groups} total {sorted(totals)}, which is not the climb {list(climb)}")

    def chance_to_json(self, outcome: Any) -> dict[str, Any]:
        if type(outcome) is int:
            return {"first_player": outcome}
        return {"roll": list(outcome)}

    def chance_from_json(self, data: Any) -> Any:
        if not isinstance(data, dict) or len(data) != 1:
            raise NotationError(f"chance event {data!r} must be {{'first_player': k}} or {{'roll': [4 dice]}}")
        if "first_player" in data:
            if self.phase != PHASE_FIRST:
                raise IllegalActionError("chance event 'first_player' is illegal: a roll is due")
            k = data["first_player"]
            if type(k) is not int or not 0 <= k < self.n:
                raise NotationError(f"first_player {k!r} is not a seat 0 to {self.n - 1}")
            return k
        if "roll" in data:
            if self.phase == PHASE_FIRST:
                raise IllegalActionError("chance event 'roll' is illegal: the first player is drawn first")
            dice = data["roll"]
            if not isinstance(dice, list):
                raise NotationError(f"roll {dice!r} must be a list of four dice")
            if len(dice) != 4:
                raise NotationError(f"roll {dice} has {len(dice)} dice; Mountain Goats rolls exactly 4")
            for face in dice:
                if type(face) is not int or not 1 <= face <= 6:
                    raise NotationError(f"roll {dice} has a die showing {face!r}, outside 1..6")
            return tuple(dice)
        raise NotationError(f"chance event {data!r} must be {{'first_player': k}} or {{'roll': [4 dice]}}")
