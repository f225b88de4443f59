"""Chance nodes (§21): what is drawn, its outcomes and their probabilities, sampling and checking.

A mixin of :class:`~engine.games.mountainhome.state.MountainhomeState`: it holds no state of its own.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any

from ...core import IllegalActionError, RandomSource
from . import tables as T
from .constants import P_CHANCE, PILE_EXPLORATION, PILE_SHOP, POOLS


def fisher_yates(items: list[Any], rng: RandomSource) -> list[Any]:
    """The documented shuffle: Fisher–Yates from the last position down (as engine.fair)."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.randrange(i + 1)
        items[i], items[j] = items[j], items[i]
    return items




if TYPE_CHECKING:
    from .base import StateBase
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class ChanceMixin(StateBase):
    __slots__ = ()

    # ------------------------------------------------------------------ chance (§21)

    def chance_cards(self) -> tuple[int, ...]:
        """The cards the pending chance event orders or picks from (in instance order)."""
        d = self.prompt_data
        what = d[0]
        if what == "shuffle":
            shuffled: tuple[int, ...] = d[2]
            return shuffled
        if what == "xshuffle":
            if d[1] is None:
                return tuple(sorted(self.layout.explore_resources + [c for p in range(3) for c in self.selected[p]] + self.layout.fixed))
            return tuple(sorted(self.xp + list(d[1])))
        if what == "select":
            pool: tuple[int, ...] = d[2]
            return pool
        if what in ("bottom", "deal"):
            cards: tuple[int, ...] = d[1]
            return cards
        if what == "rtrash":
            return tuple(sorted(c for c in self.hand[d[1]] if not T.IS_DWARF[self.kind[c]]))
        return ()

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.prompt != P_CHANCE:
            return []
        d = self.prompt_data
        what = d[0]
        if what == "assign":
            from itertools import permutations

            outs = list(permutations(T.LEGENDARIES, self.n))
            return [(("assign", o), 1 / len(outs)) for o in outs]
        if what == "select":
            pool, k = d[2], d[3]
            total = comb(len(pool), k)
            if total > 5000:
                raise NotImplementedError("too many selections to list; use sample_chance")
            return [(("select", d[1], c), 1 / total) for c in combinations(pool, k)]
        if what == "insert":
            n = len(self.xp)
            return [(("insert", d[1], pos), 1 / (n + 1)) for pos in range(n + 1)]
        if what == "roll":
            return [(("roll", d[1], v), 1 / 6) for v in range(1, 7)]
        if what == "rtrash":
            cards = self.chance_cards()
            return [(("rtrash", d[1], c), 1 / len(cards)) for c in cards]
        cards = self.chance_cards()
        if len(cards) <= 1:
            return [(self._order_outcome(cards), 1.0)]
        raise NotImplementedError("a permutation's outcomes are not listed; use sample_chance")

    def _order_outcome(self, order: tuple[Any, ...]) -> tuple[Any, ...]:
        d = self.prompt_data
        what = d[0]
        if what == "shuffle":
            return ("shuffle", d[1], order)
        if what == "xshuffle":
            return ("shuffle", PILE_EXPLORATION, order)
        return (what, order)

    def sample_chance(self, rng: RandomSource) -> Any:
        d = self.prompt_data
        what = d[0]
        if what == "assign":
            perm = fisher_yates(list(T.LEGENDARIES), rng)
            return ("assign", tuple(perm[: self.n]))
        if what == "select":
            perm = fisher_yates(list(d[2]), rng)
            return ("select", d[1], tuple(sorted(perm[: d[3]])))
        if what == "insert":
            return ("insert", d[1], rng.randrange(len(self.xp) + 1))
        if what == "roll":
            return ("roll", d[1], 1 + rng.randrange(6))
        if what == "rtrash":
            cards = self.chance_cards()
            return ("rtrash", d[1], cards[rng.randrange(len(cards))])
        return self._order_outcome(tuple(fisher_yates(list(self.chance_cards()), rng)))

    def check_chance(self, o: Any) -> None:
        if self.prompt != P_CHANCE:
            raise IllegalActionError(f"chance event {o!r} is illegal: no chance event is due")
        d = self.prompt_data
        due = "shuffle" if d[0] == "xshuffle" else d[0]
        if not isinstance(o, tuple) or not o or o[0] != due:
            raise IllegalActionError(f"chance event {self._chance_name(o)} is illegal: a {self._due_name()} is due")
        what = d[0]
        if what == "assign":
            legal = len(o[1]) == self.n and len(set(o[1])) == self.n and all(k in T.LEGENDARIES for k in o[1])
            if not legal:
                raise IllegalActionError(f"assign_legendaries needs {self.n} distinct legendaries")
        elif what == "select":
            if o[1] != d[1] or len(o[2]) != d[3] or len(set(o[2])) != d[3] or not set(o[2]) <= set(d[2]):
                raise IllegalActionError(
                    f"select must pick {d[3]} distinct cards of the {POOLS[d[1]]} pool, not {self._chance_name(o)}"
                )
        elif what in ("shuffle", "xshuffle"):
            pile = d[1] if what == "shuffle" else PILE_EXPLORATION
            if o[1] != pile:
                raise IllegalActionError(f"the shuffle due is of pile {self._pile_name(pile)}, not {self._pile_name(o[1])}")
            if sorted(o[2]) != sorted(self.chance_cards()):
                raise IllegalActionError(f"shuffle of {self._pile_name(pile)} must order exactly its {len(self.chance_cards())} cards")
        elif what == "insert":
            if o[1] != d[1] or type(o[2]) is not int or not 0 <= o[2] <= len(self.xp):
                raise IllegalActionError(f"insert of {self.names[d[1]]} needs a position 0..{len(self.xp)}")
        elif what == "roll":
            if o[1] != d[1] or type(o[2]) is not int or not 1 <= o[2] <= 6:
                raise IllegalActionError(f"the roll due is a d6 for {self.names[d[1]]}")
        elif what == "rtrash":
            if o[1] != d[1] or o[2] not in self.chance_cards():
                raise IllegalActionError(f"random_trash must pick a non-dwarf card in seat {d[1]}'s hand")
        elif what in ("bottom", "deal"):
            if sorted(o[1]) != sorted(d[1]):
                raise IllegalActionError(f"{what} order must list exactly its {len(d[1])} cards")

    def _due_name(self) -> str:
        names = {"assign": "assign_legendaries", "xshuffle": "shuffle", "bottom": "bottom_order", "rtrash": "random_trash", "deal": "deal_order"}
        what: str = self.prompt_data[0]
        return names.get(what, what)

    def _chance_name(self, o: Any) -> str:
        try:
            return str(self.chance_to_json(o))
        except Exception:  # noqa: BLE001 - an outcome without record notation still needs a name
            return repr(o)

    def _pile_name(self, pile: int) -> str:
        if pile < PILE_EXPLORATION:
            return f"draw:{pile}"
        if pile == PILE_EXPLORATION:
            return "exploration"
        return self.layout.shop_tier_names[pile - PILE_SHOP]

