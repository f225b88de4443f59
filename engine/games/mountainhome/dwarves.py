"""Dwarf uses and reactions: declaring a use, the Karina window and each dwarf's ability (§6,
§10.4), and the negative effects of §10 with Ygg and the Lagertha window.

A mixin of :class:`~engine.games.mountainhome.state.MountainhomeState`: it holds no state of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import tables
from .constants import (
    A_COMMIT,
    A_DWARF,
    A_DWELL,
    C_BALDUR,
    K_BALDUR,
    K_DWELLING,
    K_HALL,
    K_KARINA,
    K_LAGERTHA,
    K_MARG,
    K_ORI,
    K_THORVALD,
    OPT_GAIN,
    P_CHOOSE,
    P_KARINA,
    P_LAGERTHA,
    P_NONE,
    T_ACTION,
    T_CONV,
    T_DAMAGE,
    T_DRAW,
    T_DWARF_RESOLVE,
    T_EXPLORE,
    T_FINISH_USE,
    T_HANGOVER,
    T_INSERT,
    T_KARINA,
    T_KEEP,
    T_LOKI,
    T_NOP,
    T_PANDA_MOVE,
    T_PROTECT,
    T_STEAL,
    missing_rule,
)

if TYPE_CHECKING:
    from .base import StateBase, TaskEntry
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class DwarvesMixin(StateBase):
    __slots__ = ()

    # ------------------------------------------------------------------ dwarf uses and Karina (§6, §10.4)

    def _where_reactable(self, seat: int, inst: int) -> bool:
        """Is this reaction card in ``seat``'s hand, Clan Hall or Dwelling (§10)?"""
        if inst in self.hand[seat]:
            return True
        for b in self.town[seat]:
            if self.kind[b] in K_HALL or self.kind[b] == K_DWELLING:
                if self.finished(b) and inst in self.stored.get(b, ()):
                    return True
        return False

    def _remove_reaction_card(self, seat: int, inst: int) -> None:
        if inst in self.hand[seat]:
            self.hand[seat].remove(inst)
            self._hand_left(seat, inst)
        else:
            for b in self.town[seat]:
                cards = self.stored.get(b)
                if cards and inst in cards:
                    cards.remove(inst)
                    break
        self.discard[seat].append(inst)

    def _set_aside(self, card: int, owner: int) -> None:
        self.aside_cards.append(card)
        self.aside_owners.append(owner)

    def _unaside(self, card: int) -> int:
        i = self.aside_cards.index(card)
        del self.aside_cards[i]
        return self.aside_owners.pop(i)

    def _declare_dwarf_use(self, seat: int, action: tuple[Any, ...], dwarf: int, from_dwelling: int = -1) -> None:
        if from_dwelling >= 0:
            self.stored[from_dwelling].remove(dwarf)
        else:
            self.take_from_hand_or_store(seat, dwarf)
        self._set_aside(dwarf, seat)
        self.stack.append((T_ACTION, seat))
        self.stack.append((T_DWARF_RESOLVE, seat, action, dwarf))
        self.stack.append((T_KARINA, seat))
        self.prompt = P_NONE

    def _t_karina(self, task: TaskEntry) -> None:
        actor = task[1]
        karina = self.layout.legendary_inst[K_KARINA]
        for s in self.turn_order(actor)[1:]:
            if self._where_reactable(s, karina):
                self._prompt(P_KARINA, s, (actor,))
                return

    def threat_context(self) -> tuple[int, tuple[Any, ...]]:
        """At an open Lagertha window: (victim, prompt_data), from the threatened task on the stack."""
        if self.prompt_data and self.prompt_data[0] == 1:
            return self.active, self.prompt_data
        task = self.stack[-1]
        kind = task[0]
        if kind == T_DWARF_RESOLVE:  # N1: Karina's cancel, the acting player is asked
            return task[1], (1, None)
        if kind == T_DAMAGE:
            return task[1], (10, None)
        if kind == T_HANGOVER:
            return task[1], (9, None)
        if kind == T_CONV:
            return self._pool_of(task[1]), (4, None)
        if kind == T_LOKI:
            return task[1], (2, None)
        if kind == T_STEAL:
            return task[2], (3, None)
        if kind == T_KEEP:
            return task[1], (5, None)
        if kind == T_NOP:
            return task[1], (task[2], (T_PROTECT, task[1], task[2]))
        if kind == T_PANDA_MOVE:
            return task[2], (8, None)
        raise AssertionError(f"no threatened effect on the stack: {task!r}")

    def _lagertha_holder(self, seat: int) -> bool:
        return self._where_reactable(seat, self.layout.legendary_inst[K_LAGERTHA])

    def _cancel_dwarf_use(self) -> None:
        task = self.stack.pop()
        assert task[0] == T_DWARF_RESOLVE
        _, seat, _, dwarf = task
        self._unaside(dwarf)
        self.discard[seat].append(dwarf)

    def _t_dwarf_resolve(self, task: TaskEntry) -> None:
        _, seat, a, dwarf = task
        verb = a[0]
        if verb == A_DWARF and self.kind[dwarf] == K_BALDUR and a[2] == 1:
            # five explorations, then Baldur is shuffled into the pile and leaves your cards (MH-41)
            self.stack.append((T_INSERT, dwarf))
            for _ in range(5):
                self.stack.append((T_EXPLORE, seat))
            return
        self.stack.append((T_FINISH_USE, seat, dwarf))
        if verb == A_COMMIT or verb == A_DWELL:
            self._pay(a[3])
            self._complete_step(a[2])
            return
        kind = self.kind[dwarf]
        if kind in tables.LABOURER_OPTIONS:
            self.action_pool[a[2]] += dict(tables.LABOURER_OPTIONS[kind])[a[2]]
        elif kind in tables.RENOWNED:
            res, amount, building = tables.RENOWNED[kind]
            if a[2] == OPT_GAIN:
                self.action_pool[res] += amount
            elif building not in self.doubled_kinds:
                self.doubled_kinds.append(building)
        elif kind == K_ORI:
            self.stack.append((T_DRAW, seat, tables.ORI_DRAW))
        elif kind == K_MARG:
            self._pay(a[3])
            for b in a[2]:
                self._complete_step(b)
        elif kind == K_BALDUR:  # (a): a private look at up to 5 top cards, then a new order
            m = min(5, len(self.exploration))
            if m:
                self.private_knowledge[seat]["xtop"] = tuple(reversed(self.exploration[-m:]))
                self._prompt(P_CHOOSE, seat, (C_BALDUR,))
        elif kind == K_THORVALD:
            self._thorvald()
        else:
            raise missing_rule(f"the ability of {tables.KNAME[kind]}")

    def _thorvald(self) -> None:
        """Turn cards over until an Event: it goes back on top, the rest to the bottom (MH-31)."""
        others: list[int] = []
        while self.exploration:
            card = self._x_pop()
            if tables.KTYPE[self.kind[card]] in ("event_immediate", "event_recurring"):
                self._x_top(card)
                break
            self._set_aside(card, -1)
            others.append(card)
        if others:
            self._chance(("bottom", tuple(sorted(others))))

    def _t_finish_use(self, task: TaskEntry) -> None:
        _, seat, card = task
        self._unaside(card)
        self.discard[seat].append(card)

    # ------------------------------------------------------------------ negative effects (§10)

    def _threaten(self, victim: int, code: int, task: tuple[Any, ...], source: int = -1, cancel: tuple[Any, ...] | None = None) -> None:
        """A listed negative effect is about to apply to ``victim`` (§10): Ygg, then Lagertha.

        ``task`` is the effect; ``cancel`` (optional) what happens instead when it is stopped.
        """
        if 2 <= code <= 7 and self._ygg_stops(victim, source):
            if cancel is not None:
                self.stack.append(cancel)
            return
        self.stack.append(task)
        if self._lagertha_holder(victim):
            self._prompt(P_LAGERTHA, victim, (code, cancel))

    def _ygg_stops(self, victim: int, source: int) -> bool:
        bid = self.bid
        if bid is None or source == victim or not bid.ygg_revealed[victim]:
            return False
        bid.ygg_stopped[victim] = True
        return True

    def _t_threaten(self, task: TaskEntry) -> None:
        _, victim, code, inner, source = task[:5]
        self._threaten(victim, code, inner, source, task[5] if len(task) > 5 else None)
