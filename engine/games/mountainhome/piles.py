"""Piles and chance: the hidden piles and what is publicly known of them (draw piles, exploration
pile, shop deck), drawing (§0, §12), and the chance nodes that shuffle, select, insert and roll
(§21: what is drawn, its outcomes and their probabilities, sampling and checking).

A mixin of :class:`~engine.games.mountainhome.state.MountainhomeState`: it holds no state of its own.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any

from ...core import IllegalActionError, RandomSource
from . import tables
from .constants import C_GOLEMS, K_GOLEMS, P_CHANCE, P_CHOOSE, PILE_EXPLORATION, PILE_SHOP, POOLS, T_DRAW
from .tables import ROCKS


def fisher_yates(items: list[Any], rng: RandomSource) -> list[Any]:
    """The documented shuffle: Fisher–Yates from the last position down (as engine.fair)."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.randrange(i + 1)
        items[i], items[j] = items[j], items[i]
    return items

if TYPE_CHECKING:
    from .base import StateBase, TaskEntry
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class PilesMixin(StateBase):
    __slots__ = ()

    # ------------------------------------------------------------------ knowledge upkeep

    def _draw_pop(self, seat: int, to_hand: bool = True) -> int:
        """Take the top card of ``seat``'s draw pile (into the hand: a private move)."""
        card = self.draw[seat].pop()
        blocks = self.draw_blocks[seat]
        cands, count = blocks[-1]
        if count == 1:
            blocks.pop()
            if len(cands) == 1 and to_hand:  # a publicly known top card: now known to be in hand
                self.hand_known[seat].append(card)
        else:
            blocks[-1] = (cands, count - 1)
        priv = self.private_knowledge[seat].get("top")
        if priv:
            self.private_knowledge[seat]["top"] = priv[1:]
        return card

    def _draw_push_known(self, seat: int, card: int) -> None:
        """Put a card on top of a draw pile in public view (Dark Dungeon, Dragon Lair)."""
        self.draw[seat].append(card)
        self.draw_blocks[seat].append(((card,), 1))
        if self.private_knowledge[seat].get("top"):
            self.private_knowledge[seat]["top"] = (card, *self.private_knowledge[seat]["top"])

    # Exploration-pile knowledge: blocks (known cards, count), bottom first.  A block holds its
    # known cards plus ``count - len(known)`` unseen ones, in an order nobody knows.
    # ``private[seat]["xtop"]`` is a seat's own knowledge of the top cards (Baldur's look).

    def _x_pop(self) -> int:
        """Reveal the top card of the exploration pile to everyone."""
        card = self.exploration.pop()
        blocks = self.exploration_blocks
        known, count = blocks[-1]
        if count == 1:
            blocks.pop()
        else:
            blocks[-1] = (tuple(c for c in known if c != card) if card in known else known, count - 1)
        for p in self.private_knowledge:
            priv = p.get("xtop")
            if priv:
                p["xtop"] = priv[1:]
        return card

    def _x_bottom(self, card: int) -> None:
        self.exploration.insert(0, card)
        self.exploration_blocks.insert(0, ((card,), 1))

    def _x_top(self, card: int) -> None:
        self.exploration.append(card)
        self.exploration_blocks.append(((card,), 1))
        for p in self.private_knowledge:
            if p.get("xtop"):
                p["xtop"] = (card, *p["xtop"])

    def _x_merge(self, extra: tuple[Any, ...] = (), count: int = 0) -> None:
        """Forget the pile's order: one block (a random insert, a shuffle, a blind search)."""
        known = tuple(sorted({c for k, _ in self.exploration_blocks for c in k} | set(extra)))
        self.exploration_blocks = [(known, len(self.exploration))] if self.exploration else []
        for p in self.private_knowledge:
            p.pop("xtop", None)

    def _x_merge_top(self, m: int) -> None:
        """The top ``m`` cards were reordered in private: merge the blocks covering them."""
        blocks = self.exploration_blocks
        known: set[int] = set()
        count = 0
        while blocks and count < m:
            k, c = blocks.pop()
            known.update(k)
            count += c
        if count:
            blocks.append((tuple(sorted(known)), count))

    def _x_remove(self, card: int) -> bool:
        """Take a card out of the pile without looking (Dragon Attack!'s Lair search, MH-57)."""
        if card not in self.exploration:
            return False
        self.exploration.remove(card)
        for i, (known, count) in enumerate(self.exploration_blocks):
            if card in known:
                if count == 1:
                    del self.exploration_blocks[i]
                else:
                    self.exploration_blocks[i] = (tuple(c for c in known if c != card), count - 1)
                break
        else:
            self._x_merge()
        for p in self.private_knowledge:
            p.pop("xtop", None)
        return True

    def _refill(self, slot: int) -> None:
        if self.shop_slots[slot] >= 0 or not self.shop_deck:
            return
        card = self.shop_deck.pop()
        cands, count = self.shop_blocks[-1]
        if count == 1:
            self.shop_blocks.pop()
        else:
            self.shop_blocks[-1] = (tuple(c for c in cands if c != card), count - 1)
        self.shop_slots[slot] = card

    # ------------------------------------------------------------------ drawing (§0, §12)

    def _t_draw(self, task: TaskEntry) -> None:
        seat, n = task[1], task[2]
        hut = len(task) > 3
        if n <= 0:
            return
        if not self.draw[seat]:
            if not self.discard[seat]:
                return  # both piles empty: the draw does nothing (§17)
            self.stack.append(task)
            self._chance(("shuffle", seat, tuple(self.discard[seat])))
            return
        card = self._draw_pop(seat)
        self.hand[seat].append(card)
        if hut:
            assert self.bid is not None  # a bid is running (narrows Bid | None)
            self.bid.hut_extras[seat] += 1  # a Hut extra actually drawn (MH-89)
        if n > 1:
            self.stack.append((T_DRAW, seat, n - 1, 1) if hut else (T_DRAW, seat, n - 1))
        if tables.KVALUE_RES[self.kind[card]] == ROCKS and self.in_area(K_GOLEMS):
            self._prompt(P_CHOOSE, seat, (C_GOLEMS, card))  # §13.2: decided before the next draw

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
            return tuple(sorted(self.exploration + list(d[1])))
        if what == "select":
            pool: tuple[int, ...] = d[2]
            return pool
        if what in ("bottom", "deal"):
            cards: tuple[int, ...] = d[1]
            return cards
        if what == "rtrash":
            return tuple(sorted(c for c in self.hand[d[1]] if not tables.IS_DWARF[self.kind[c]]))
        return ()

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.prompt != P_CHANCE:
            return []
        d = self.prompt_data
        what = d[0]
        if what == "assign":
            from itertools import permutations

            outs = list(permutations(tables.LEGENDARIES, self.players))
            return [(("assign", o), 1 / len(outs)) for o in outs]
        if what == "select":
            pool, k = d[2], d[3]
            total = comb(len(pool), k)
            if total > 5000:
                raise NotImplementedError("too many selections to list; use sample_chance")
            return [(("select", d[1], c), 1 / total) for c in combinations(pool, k)]
        if what == "insert":
            n = len(self.exploration)
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
            perm = fisher_yates(list(tables.LEGENDARIES), rng)
            return ("assign", tuple(perm[: self.players]))
        if what == "select":
            perm = fisher_yates(list(d[2]), rng)
            return ("select", d[1], tuple(sorted(perm[: d[3]])))
        if what == "insert":
            return ("insert", d[1], rng.randrange(len(self.exploration) + 1))
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
            legal = len(o[1]) == self.players and len(set(o[1])) == self.players and all(k in tables.LEGENDARIES for k in o[1])
            if not legal:
                raise IllegalActionError(f"assign_legendaries needs {self.players} distinct legendaries")
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
            if o[1] != d[1] or type(o[2]) is not int or not 0 <= o[2] <= len(self.exploration):
                raise IllegalActionError(f"insert of {self.names[d[1]]} needs a position 0..{len(self.exploration)}")
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
