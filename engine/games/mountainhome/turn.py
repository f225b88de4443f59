"""The task machine's turn structure: setup, the turn (§4), construction (§7), dwarf uses and
Karina (§6, §10.4), recurring events (§13) and negative effects (§10).

A mixin of :class:`~engine.games.mountainhome.state.MountainhomeState`: it holds no state of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import tables as T
from .constants import (
    A_CHOOSE,
    A_COMMIT,
    A_DWARF,
    A_DWELL,
    AFTER_DRAW_EVENTS,
    BID_DWARF,
    BID_PARTY,
    C_BALDUR,
    C_CAV_BUILD,
    C_CAV_RES,
    C_DRAGON,
    C_FORTRESS,
    C_GOBLINS,
    C_PARTY,
    C_REORG_N,
    C_REORG_PUT,
    K_BALDUR,
    K_CAVERN,
    K_DRAGON,
    K_DWELLING,
    K_FORTRESS,
    K_GOBLINS,
    K_HALL,
    K_KARINA,
    K_LAGERTHA,
    K_LAIR,
    K_MARG,
    K_ORI,
    K_THORVALD,
    OPT_GAIN,
    P_ACTION,
    P_CAVERN,
    P_CHOOSE,
    P_KARINA,
    P_LAGERTHA,
    P_NONE,
    P_OVER,
    P_PICK,
    PILE_SHOP,
    T_ACTION,
    T_ACTION_START,
    T_AFTER_DRAW,
    T_CAVERN_ROLL,
    T_CHARITY,
    T_CONV,
    T_DAMAGE,
    T_DECKS,
    T_DRAW,
    T_DWARF_RESOLVE,
    T_END_TURN,
    T_EXPLORE,
    T_FINISH_USE,
    T_HANGOVER,
    T_INSERT,
    T_KARINA,
    T_KEEP,
    T_LOKI,
    T_NOP,
    T_PANDA_MOVE,
    T_PREPARE,
    T_PROTECT,
    T_RESOLVE_CHECK,
    T_SELECT,
    T_SHOPSHUFFLE,
    T_STEAL,
    T_TURN,
    K,
    missing_rule,
)
from .tables import B

if TYPE_CHECKING:
    from .base import StateBase, TaskEntry
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class TurnMixin(StateBase):
    __slots__ = ()

    # ------------------------------------------------------------------ setup tasks (§3, §23.3)

    def _t_pick(self, task: TaskEntry) -> None:
        i = task[1]
        if i < 0:
            self._chance(("assign",))
        elif i < self.n:
            self._prompt(P_PICK, self.n - 1 - i, (i,))

    def _t_decks(self, task: TaskEntry) -> None:
        s = task[1]
        if s >= self.n:
            return
        self.stack.append((T_DECKS, s + 1))
        deck = (self.layout.legendary_inst[self.legend[s]], *self.layout.deck[s])
        self._chance(("shuffle", s, deck))

    def _t_select(self, task: TaskEntry) -> None:
        p = task[1]
        if p >= 3:
            return
        self.stack.append((T_SELECT, p + 1))
        lay = self.layout
        x = str(self.n)
        if p == 0:
            pool, k = lay.dwarf_pool(self.legend), T.EXP["dwarves"][x]
        elif p == 1:
            pool, k = lay.event_pool, T.EXP["events"][x]
        else:
            pool, k = lay.recurring_pool, T.EXP["recurring"][x]
        self._chance(("select", p, tuple(pool), k))

    def _t_xshuffle(self, task: TaskEntry) -> None:
        self._chance(("xshuffle", None))

    def _t_shopshuffle(self, task: TaskEntry) -> None:
        t = task[1]
        tiers = self.layout.shop_tiers
        if t >= len(tiers):
            for i in range(3):
                self._refill(i)
            return
        self.stack.append((T_SHOPSHUFFLE, t + 1))
        self._chance(("shuffle", PILE_SHOP + t, tuple(tiers[t])))

    def _t_opening(self, task: TaskEntry) -> None:
        self.stack.append((T_TURN, 0))
        for s in range(self.n - 1, -1, -1):
            self.stack.append((T_DRAW, s, T.SETUP_DRAW))

    # ------------------------------------------------------------------ the turn (§4)

    def _t_turn(self, task: TaskEntry) -> None:
        seat = task[1]
        if seat == 0:
            self.round += 1
        self.turn += 1
        self.active = seat
        self.bought = False
        self.lair_used = False
        self.offers = []
        self.traded = False
        self.doubled = []
        self.piling = 0
        self.apool = [0, 0, 0]
        self.stack.extend(((T_END_TURN, seat), (T_PREPARE, seat), (T_EXPLORE, seat), (T_ACTION_START, seat)))

    def _t_action_start(self, task: TaskEntry) -> None:
        seat = task[1]
        if self.in_area(K_CAVERN):
            self._prompt(P_CAVERN, seat)
        else:
            self._prompt(P_ACTION, seat)

    def _t_cavern_roll(self, task: TaskEntry) -> None:
        _, seat, cards = task
        if not cards:
            return
        self.stack.append((T_CAVERN_ROLL, seat, cards[1:]))
        self._chance(("roll", cards[0]))

    def _cavern_roll(self, card: int, value: int) -> None:
        """§15.1: 1-3 the dwarf goes home; 4-5 gain 4 S or 4 R; 6 a free step."""
        i = self.cav.index(card)
        owner = self.cav_owner[i]
        if value <= 3:
            del self.cav[i]
            del self.cav_owner[i]
            self.disc[owner].append(card)
        elif value <= 5:
            self._prompt(P_CHOOSE, owner, (C_CAV_RES,))
        elif self.unfinished(owner):
            self._prompt(P_CHOOSE, owner, (C_CAV_BUILD,))

    def _t_action(self, task: TaskEntry) -> None:
        self._prompt(P_ACTION, task[1])

    def _t_explore(self, task: TaskEntry) -> None:
        self.explore(task[1])

    def explore(self, seat: int) -> None:
        """§4.4: reveal the top exploration card and resolve it."""
        if not self.xp:
            return
        card = self._x_pop()
        kind = self.kind[card]
        typ = T.KTYPE[kind]
        if typ in ("resource", "unique_building") or T.IS_ACTION[kind]:
            self.disc[seat].append(card)
        elif T.IS_DWARF[kind]:
            self._set_aside(card, -1)
            if self.in_area(K_FORTRESS):
                self._prompt(P_CHOOSE, seat, (C_FORTRESS, card))
            else:
                self.start_bid(BID_DWARF, card, seat)
        elif typ == "event_immediate":
            self._set_aside(card, -1)
            if kind == K["charity"]:
                self.stack.append((T_CHARITY, card))
            else:  # Party at the Dining Hall!: a booze bid, then the card goes back (MH-61)
                self.stack.append((T_INSERT, card))
                self.start_bid(BID_PARTY, -1, seat)
        else:  # recurring event or Unique Location
            self.area.append(card)
            self.counters[card] = []

    def _t_insert(self, task: TaskEntry) -> None:
        self._chance(("insert", task[1]))

    def _t_charity(self, task: TaskEntry) -> None:
        """§14: each player in turn order reveals until a resource card; then one shuffle.

        "In turn order" starts with the active player (§0), whoever explored the
        Charity: a Party winner exploring in another player's turn (MH-61) does not
        become the active player, so the deal still starts with the active player.
        """
        event = task[1]
        revealed: list[int] = []
        for seat in self.turn_order(self.active):
            while self.xp:
                card = self._x_pop()
                if T.IS_RESOURCE[self.kind[card]]:
                    self.hand[seat].append(card)
                    self.hknown[seat].append(card)
                    break
                self._set_aside(card, -1)
                revealed.append(card)
        self._chance(("xshuffle", tuple(revealed) + (event,)))

    def _t_prepare(self, task: TaskEntry) -> None:
        seat = task[1]
        hand = self.hand[seat]
        self.disc[seat].extend(hand)
        hand.clear()
        self.hknown[seat] = []
        for b in self.town[seat]:
            if self.finished(b):
                self.tapped[b] = False
        self.stack.append((T_AFTER_DRAW, seat, None))
        self.stack.append((T_DRAW, seat, T.HAND_DRAW))

    def _t_after_draw(self, task: TaskEntry) -> None:
        """§4.3 step 4: Dragon Attack!, Goblins, Reorganisation, oldest first (MH-62)."""
        seat, events = task[1], task[2]
        if events is None:
            events = tuple(e for e in self.area if self.kind[e] in AFTER_DRAW_EVENTS)
        if not events:
            return
        event, rest = events[0], events[1:]
        self.stack.append((T_AFTER_DRAW, seat, rest))
        if event not in self.area:
            return
        kind = self.kind[event]
        if kind == K_DRAGON:
            if self.dwarves_available(seat) or any(self.prog.get(b, 0) for b in self.town[seat]):
                self._prompt(P_CHOOSE, seat, (C_DRAGON, event))
        elif kind == K_GOBLINS:
            self._add_counter(event, seat, resolve=False)  # counter first (MH-87)
            self.stack.append((T_RESOLVE_CHECK, event))
            if self._goblin_options(seat):
                self._prompt(P_CHOOSE, seat, (C_GOBLINS, event))
        else:  # Reorganisation
            self._add_counter(event, seat, resolve=False)
            self.stack.append((T_RESOLVE_CHECK, event))
            self._prompt(P_CHOOSE, seat, (C_REORG_N, event))

    def _goblin_options(self, seat: int) -> list[tuple[Any, ...]]:
        opts: list[tuple[Any, ...]] = [(A_CHOOSE, C_GOBLINS, 0, b) for b in self.town[seat] if self.upright(b)]
        res = [c for c in self.hand[seat] if T.IS_RESOURCE[self.kind[c]]]
        if res:
            top = max(self.card_value(c) for c in res)
            opts.extend((A_CHOOSE, C_GOBLINS, 1, c) for c in res if self.card_value(c) == top)
        opts.extend((A_CHOOSE, C_GOBLINS, 2, src, self.nact) for src in self.payment_options(seat, B, 1))
        return opts

    def _t_resolve_check(self, task: TaskEntry) -> None:
        event = task[1]
        if event in self.counters and len(self.counters[event]) >= self.n:
            self._resolve_event(event)

    def _t_reorg_put(self, task: TaskEntry) -> None:
        seat, k = task[1], task[2]
        if min(k, len(self.hand[seat])) > 0:
            self._prompt(P_CHOOSE, seat, (C_REORG_PUT, k))

    def _t_damage(self, task: TaskEntry) -> None:
        """§7.5: remove the last completed step (after the N10 window)."""
        seat, b = task[1], task[2]
        was_finished = self.finished(b)
        self.prog[b] -= 1
        self.tapped[b] = True
        if was_finished and self.stored.get(b):
            self.disc[seat].extend(self.stored.pop(b))  # MH-29

    def _t_hangover(self, task: TaskEntry) -> None:
        self.disc[task[1]].append(self.new_instance(T.HANGOVER))

    def _t_party_explore(self, task: TaskEntry) -> None:
        self._prompt(P_CHOOSE, task[1], (C_PARTY,))

    def _t_end_turn(self, task: TaskEntry) -> None:
        seat = task[1]
        self.doubled = []
        self.piling = 0
        n = self.n
        if self.tie_mode:
            self.tie_left -= 1
            if self.tie_left <= 0:
                self._end()
                return
        elif self.found >= n + 2:
            if self._single_leader():
                self._end()
                return
            self.tie_mode = True
            self.tie_left = T.TIE_EXTRA_ROUNDS * n
        if seat == n - 1 and self.round >= T.MAX_ROUNDS:
            self._end()
            return
        self.stack.append((T_TURN, (seat + 1) % n))

    def _end(self) -> None:
        self.over = True
        self.stack.clear()
        self._prompt(P_OVER)

    def _single_leader(self) -> bool:
        scores = self.scores()
        top = max(scores)
        return scores.count(top) == 1

    # ------------------------------------------------------------------ construction (§7)

    def _complete_step(self, b: int) -> None:
        self.prog[b] = self.prog.get(b, 0) + 1
        if self.finished(b):
            self.tapped[b] = False  # upright at once (§7.3)

    def _pay(self, pay: tuple[int, int, int]) -> None:
        pool = self.apool
        pool[0] -= pay[0]
        pool[1] -= pay[1]
        pool[2] -= pay[2]

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
        self.disc[seat].append(inst)

    def _set_aside(self, card: int, owner: int) -> None:
        self.aside.append(card)
        self.aside_owner.append(owner)

    def _unaside(self, card: int) -> int:
        i = self.aside.index(card)
        del self.aside[i]
        return self.aside_owner.pop(i)

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
        self.disc[seat].append(dwarf)

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
        if kind in T.LABOURER_OPTIONS:
            self.apool[a[2]] += dict(T.LABOURER_OPTIONS[kind])[a[2]]
        elif kind in T.RENOWNED:
            res, amount, building = T.RENOWNED[kind]
            if a[2] == OPT_GAIN:
                self.apool[res] += amount
            elif building not in self.doubled:
                self.doubled.append(building)
        elif kind == K_ORI:
            self.stack.append((T_DRAW, seat, T.ORI_DRAW))
        elif kind == K_MARG:
            self._pay(a[3])
            for b in a[2]:
                self._complete_step(b)
        elif kind == K_BALDUR:  # (a): a private look at up to 5 top cards, then a new order
            m = min(5, len(self.xp))
            if m:
                self.private[seat]["xtop"] = tuple(reversed(self.xp[-m:]))
                self._prompt(P_CHOOSE, seat, (C_BALDUR,))
        elif kind == K_THORVALD:
            self._thorvald()
        else:
            raise missing_rule(f"the ability of {T.KNAME[kind]}")

    def _thorvald(self) -> None:
        """Turn cards over until an Event: it goes back on top, the rest to the bottom (MH-31)."""
        others: list[int] = []
        while self.xp:
            card = self._x_pop()
            if T.KTYPE[self.kind[card]] in ("event_immediate", "event_recurring"):
                self._x_top(card)
                break
            self._set_aside(card, -1)
            others.append(card)
        if others:
            self._chance(("bottom", tuple(sorted(others))))

    def _t_finish_use(self, task: TaskEntry) -> None:
        _, seat, card = task
        self._unaside(card)
        self.disc[seat].append(card)

    # ------------------------------------------------------------------ recurring events (§13)

    def _add_counter(self, event: int, seat: int, resolve: bool = True) -> None:
        counters = self.counters[event]
        counters.append(seat)
        if resolve and len(counters) >= self.n:
            self._resolve_event(event)

    def _resolve_event(self, event: int) -> None:
        """§13.1: VP tokens per counter, the card is trashed; the Dragon brings the Lair (MH-57)."""
        vp = T.KRESOLVE_VP[self.kind[event]]
        for seat in self.counters[event]:
            self.tokens[seat] += vp
        del self.counters[event]
        self.area.remove(event)
        self.trash.append(event)
        if self.kind[event] == K_DRAGON:
            lair = next((c for c in self.xp if self.kind[c] == K_LAIR), -1)
            if lair >= 0 and self._x_remove(lair):
                self.area.append(lair)
                self.counters[lair] = []

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
        if bid is None or source == victim or not bid.ygg[victim]:
            return False
        bid.yggmark[victim] = True
        return True

    def _t_threaten(self, task: TaskEntry) -> None:
        _, victim, code, inner, source = task[:5]
        self._threaten(victim, code, inner, source, task[5] if len(task) > 5 else None)

