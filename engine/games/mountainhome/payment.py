"""Paying: payment windows (§5.4) and the ways a cost can be paid.

A mixin of :class:`~engine.games.mountainhome.state.MountainhomeState`: it holds no state of its own.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from . import tables
from .constants import K_PAWNSHOP, P_CHOOSE, T_ACTION, T_DRAW
from .tables import SHINIES


def pays(cost: tuple[int, int, int, int], pool: list[int] | tuple[int, ...]) -> list[tuple[int, int, int]]:
    """Every exact payment of ``cost`` (rocks, shinies, booze, any) that ``pool`` covers (§5.2)."""
    r0, s0, b0, anyk = cost
    pr, ps, pb = pool[0] - r0, pool[1] - s0, pool[2] - b0
    if pr < 0 or ps < 0 or pb < 0:
        return []
    if anyk == 0:
        return [(r0, s0, b0)]
    result = []
    for r in range(min(pr, anyk) + 1):
        rest = anyk - r
        for s in range(max(0, rest - pb), min(ps, rest) + 1):
            result.append((r0 + r, s0 + s, b0 + rest - s))
    return result


def add_cost(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])




if TYPE_CHECKING:
    from .base import StateBase
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class PaymentMixin(StateBase):
    __slots__ = ()

    # ------------------------------------------------------------------ payment windows (§5.4)

    def payment_options(self, seat: int, res: int, cost: int) -> list[tuple[Any, ...]]:
        """Source lists that pay ``cost`` of ``res``, each source needed (see the docs)."""
        kinds = self.kind
        atoms: list[tuple[tuple[Any, ...], int]] = []
        for c in self.hand[seat] + self.warehouse_cards(seat):
            if tables.KVALUE_RES[kinds[c]] == res:
                atoms.append(((0, c), self.card_value(c)))
        boost = -1
        for b in self.town[seat]:
            if not self.upright(b):
                continue
            kind = kinds[b]
            if kind in tables.PRODUCER and tables.PRODUCER[kind][0] == res:
                amount = tables.PRODUCER[kind][1] * (2 if kind in self.doubled_kinds and seat == self.active else 1)
                atoms.append(((1, b, 0), amount))
            elif kind in tables.MULTIPLIER and tables.MULTIPLIER[kind][0] == res and boost < 0:
                boost = b
            elif kind == K_PAWNSHOP and res == SHINIES:
                for c in self.hand[seat] + self.warehouse_cards(seat):
                    if tables.IS_RESOURCE[kinds[c]]:
                        atoms.append(((2, b, c), self.card_value(c)))
        for c in self.hand[seat]:
            if kinds[c] == tables.HOARD:
                atoms.append(((3, c, res), tables.HOARD_GAIN))
        if self.prompt == P_CHOOSE and seat == self.active and self._in_action_step() and self.action_pool[res]:
            pay = [0, 0, 0]
            pay[res] = min(cost, self.action_pool[res])
            atoms.append(((4, *pay), pay[res]))
        options: list[tuple[Any, ...]] = []
        for k in range(1, len(atoms) + 1):
            for combo in combinations(range(len(atoms)), k):
                total = sum(atoms[i][1] for i in combo)
                if total >= cost and all(total - atoms[i][1] < cost for i in combo):
                    if self._distinct_cards([atoms[i][0] for i in combo]):
                        options.append(tuple(atoms[i][0] for i in combo))
                elif total < cost and boost >= 0:
                    mult = tables.MULTIPLIER[kinds[boost]][1]
                    n = -(-(cost - total) // (mult - 1))
                    if n <= total and self._distinct_cards([atoms[i][0] for i in combo]):
                        options.append(tuple(atoms[i][0] for i in combo) + ((1, boost, n),))
            if k >= 4:
                break
        return list(dict.fromkeys(options))

    def _distinct_cards(self, sources: list[tuple[Any, ...]]) -> bool:
        cards = [s[1] if s[0] in (0, 3) else s[2] for s in sources if s[0] in (0, 2, 3)]
        pawns = [s[1] for s in sources if s[0] == 2]
        return len(set(cards)) == len(cards) and len(set(pawns)) == len(pawns)

    def _in_action_step(self) -> bool:
        return any(t[0] == T_ACTION for t in self.stack)

    def payment_problem(self, seat: int, res: int, cost: int, sources: tuple[Any, ...]) -> str:
        kinds = self.kind
        gained = [0, 0, 0]
        seen: set[int] = set()
        for src in sources:
            if src[0] == 0:
                c = src[1]
                if c in seen or not (tables.IS_RESOURCE[kinds[c]] and (c in self.hand[seat] or c in self.warehouse_cards(seat))):
                    return f"{self.names[c]} is not a resource card in hand or Warehouse"
                seen.add(c)
                gained[tables.KVALUE_RES[kinds[c]]] += self.card_value(c)
            elif src[0] in (1, 2):
                b = src[1]
                if b in seen or b not in self.town[seat] or not self.upright(b):
                    return f"{self.names[b]} is not a finished upright building of seat {seat}"
                seen.add(b)
                kind = kinds[b]
                if src[0] == 1 and kind in tables.PRODUCER:
                    r, amount, _ = tables.PRODUCER[kind]
                    gained[r] += amount * (2 if kind in self.doubled_kinds and seat == self.active else 1)
                elif src[0] == 1 and kind in tables.MULTIPLIER:
                    r, mult = tables.MULTIPLIER[kind]
                    if not 1 <= src[2] <= gained[r]:
                        return f"{self.names[b]} must pay n from resources gained earlier in the list"
                    gained[r] += (mult - 1) * src[2]
                elif src[0] == 2 and kind == K_PAWNSHOP:
                    c = src[2]
                    if c in seen or not (tables.IS_RESOURCE[kinds[c]] and (c in self.hand[seat] or c in self.warehouse_cards(seat))):
                        return f"{self.names[c]} cannot be pawned"
                    seen.add(c)
                    gained[SHINIES] += self.card_value(c)
                else:
                    return f"{self.names[b]} has no such resource ability"
            elif src[0] == 3:
                c = src[1]
                if c in seen or kinds[c] != tables.HOARD or c not in self.hand[seat]:
                    return f"{self.names[c]} is not a Dragon Hoard in hand"
                seen.add(c)
                gained[src[2]] += tables.HOARD_GAIN
            else:
                if not (seat == self.active and self._in_action_step()):
                    return "the action pool is usable only in your own action step"
                pay = src[1:4]
                if any(pay[i] > self.action_pool[i] for i in range(3)):
                    return "the action pool does not hold that much"
                for i in range(3):
                    gained[i] += pay[i]
        if gained[res] < cost:
            return f"the sources give {gained[res]} {tables.RES_NAMES[res]}, not {cost}"
        return ""

    def _pay_sources(self, seat: int, sources: tuple[Any, ...]) -> None:
        """Carry out a payment window's sources; leftovers are lost (§5.4)."""
        kinds = self.kind
        for src in sources:
            if src[0] == 0:
                self.take_from_hand_or_store(seat, src[1])
                self.discard[seat].append(src[1])
            elif src[0] == 1:
                self.tapped[src[1]] = True
            elif src[0] == 2:
                b, c = src[1], src[2]
                self.take_from_hand_or_store(seat, c)
                old = self.stored.get(b)
                if old:
                    self.discard[seat].extend(old)
                self.stored[b] = [c]
                self.tapped[b] = True
            elif src[0] == 3:
                self.hand[seat].remove(src[1])
                self._hand_left(seat, src[1])
                self.trash.append(src[1])
                self.stack.append((T_DRAW, seat, tables.HOARD_DRAW))
            else:
                self._pay(src[1:4])
        del kinds

