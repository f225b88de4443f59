"""Hidden piles and what is publicly known of them (draw piles, exploration pile, shop deck), and drawing (§0, §12).

A mixin of :class:`~engine.games.mountainhome.state.MountainhomeState`: it holds no state of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import tables as T
from .constants import C_GOLEMS, K_GOLEMS, P_CHOOSE, T_DRAW
from .tables import R

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
        blocks = self.dblocks[seat]
        cands, count = blocks[-1]
        if count == 1:
            blocks.pop()
            if len(cands) == 1 and to_hand:  # a publicly known top card: now known to be in hand
                self.hknown[seat].append(card)
        else:
            blocks[-1] = (cands, count - 1)
        priv = self.private[seat].get("top")
        if priv:
            self.private[seat]["top"] = priv[1:]
        return card

    def _draw_push_known(self, seat: int, card: int) -> None:
        """Put a card on top of a draw pile in public view (Dark Dungeon, Dragon Lair)."""
        self.draw[seat].append(card)
        self.dblocks[seat].append(((card,), 1))
        if self.private[seat].get("top"):
            self.private[seat]["top"] = (card, *self.private[seat]["top"])

    # Exploration-pile knowledge: blocks (known cards, count), bottom first.  A block holds its
    # known cards plus ``count - len(known)`` unseen ones, in an order nobody knows.
    # ``private[seat]["xtop"]`` is a seat's own knowledge of the top cards (Baldur's look).

    def _x_pop(self) -> int:
        """Reveal the top card of the exploration pile to everyone."""
        card = self.xp.pop()
        blocks = self.xblocks
        known, count = blocks[-1]
        if count == 1:
            blocks.pop()
        else:
            blocks[-1] = (tuple(c for c in known if c != card) if card in known else known, count - 1)
        for p in self.private:
            priv = p.get("xtop")
            if priv:
                p["xtop"] = priv[1:]
        return card

    def _x_bottom(self, card: int) -> None:
        self.xp.insert(0, card)
        self.xblocks.insert(0, ((card,), 1))

    def _x_top(self, card: int) -> None:
        self.xp.append(card)
        self.xblocks.append(((card,), 1))
        for p in self.private:
            if p.get("xtop"):
                p["xtop"] = (card, *p["xtop"])

    def _x_merge(self, extra: tuple[Any, ...] = (), count: int = 0) -> None:
        """Forget the pile's order: one block (a random insert, a shuffle, a blind search)."""
        known = tuple(sorted({c for k, _ in self.xblocks for c in k} | set(extra)))
        self.xblocks = [(known, len(self.xp))] if self.xp else []
        for p in self.private:
            p.pop("xtop", None)

    def _x_merge_top(self, m: int) -> None:
        """The top ``m`` cards were reordered in private: merge the blocks covering them."""
        blocks = self.xblocks
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
        if card not in self.xp:
            return False
        self.xp.remove(card)
        for i, (known, count) in enumerate(self.xblocks):
            if card in known:
                if count == 1:
                    del self.xblocks[i]
                else:
                    self.xblocks[i] = (tuple(c for c in known if c != card), count - 1)
                break
        else:
            self._x_merge()
        for p in self.private:
            p.pop("xtop", None)
        return True

    def _refill(self, slot: int) -> None:
        if self.slots[slot] >= 0 or not self.shop:
            return
        card = self.shop.pop()
        cands, count = self.sblocks[-1]
        if count == 1:
            self.sblocks.pop()
        else:
            self.sblocks[-1] = (tuple(c for c in cands if c != card), count - 1)
        self.slots[slot] = card

    # ------------------------------------------------------------------ drawing (§0, §12)

    def _t_draw(self, task: TaskEntry) -> None:
        seat, n = task[1], task[2]
        hut = len(task) > 3
        if n <= 0:
            return
        if not self.draw[seat]:
            if not self.disc[seat]:
                return  # both piles empty: the draw does nothing (§17)
            self.stack.append(task)
            self._chance(("shuffle", seat, tuple(self.disc[seat])))
            return
        card = self._draw_pop(seat)
        self.hand[seat].append(card)
        if hut:
            assert self.bid is not None  # a bid is running (narrows Bid | None)
            self.bid.hut[seat] += 1  # a Hut extra actually drawn (MH-89)
        if n > 1:
            self.stack.append((T_DRAW, seat, n - 1, 1) if hut else (T_DRAW, seat, n - 1))
        if T.KVALUE_RES[self.kind[card]] == R and self.in_area(K_GOLEMS):
            self._prompt(P_CHOOSE, seat, (C_GOLEMS, card))  # §13.2: decided before the next draw

