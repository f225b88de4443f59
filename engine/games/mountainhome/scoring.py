"""Results (§18): victory points, scores and ranking.

A mixin of :class:`~engine.games.mountainhome.state.MountainhomeState`: it holds no state of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import tables as T
from .constants import K_PAWNSHOP

if TYPE_CHECKING:
    from .base import StateBase
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class ScoringMixin(StateBase):
    __slots__ = ()

    # ------------------------------------------------------------------ results (§18)

    def vp(self, seat: int) -> int:
        kinds = self.kind
        labourer_vp: int = self.options["labourer_vp"]
        total = self.tokens[seat]

        def card_vp(c: int) -> int:
            k = kinds[c]
            if T.KTYPE[k] == "labourer":
                return labourer_vp
            return T.KVP_FIXED[k]

        for zone in (self.draw[seat], self.hand[seat], self.disc[seat]):
            for c in zone:
                total += card_vp(c)
        for b in self.town[seat]:
            k = kinds[b]
            steps = self.prog.get(b, 0)
            done = steps >= len(T.KSTEPS[k])
            total += T.KVP_STEP[k] * steps
            if done:
                total += T.KVP_FINISHED[k]
                if k == K_PAWNSHOP and self.stored.get(b):
                    total += self.card_value(self.stored[b][0])
            for c in self.stored.get(b, ()):
                total += card_vp(c)
        for c, owner in zip(self.cav, self.cav_owner):
            if owner == seat:
                total += card_vp(c)
        for c, owner in zip(self.aside, self.aside_owner):
            if owner == seat:
                total += card_vp(c)
        if self.bid is not None:
            for c in self.bid.pool[seat]:
                total += card_vp(c)
        for bid in self.bid_stack:
            for c in bid.pool[seat]:
                total += card_vp(c)
        return total

    def scores(self) -> list[int]:
        return [self.vp(s) for s in range(self.n)]

    def ranking(self) -> list[int]:
        scores = self.scores()
        return [sum(1 for other in scores if other > mine) for mine in scores]

