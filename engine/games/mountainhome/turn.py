"""The game's course: setup, the turn (§4), construction (§7), recurring events (§13), and the
end of the game with its scores (§18).  Dwarf uses and reactions are in dwarves.py.

A mixin of :class:`~engine.games.mountainhome.state.MountainhomeState`: it holds no state of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import tables
from .constants import (
    A_CHOOSE,
    AFTER_DRAW_EVENTS,
    BID_DWARF,
    BID_PARTY,
    C_CAV_BUILD,
    C_CAV_RES,
    C_DRAGON,
    C_FORTRESS,
    C_GOBLINS,
    C_PARTY,
    C_REORG_N,
    C_REORG_PUT,
    K_CAVERN,
    K_DRAGON,
    K_FORTRESS,
    K_GOBLINS,
    K_LAIR,
    K_PAWNSHOP,
    P_ACTION,
    P_CAVERN,
    P_CHOOSE,
    P_OVER,
    P_PICK,
    PILE_SHOP,
    T_ACTION_START,
    T_AFTER_DRAW,
    T_CAVERN_ROLL,
    T_CHARITY,
    T_DECKS,
    T_DRAW,
    T_END_TURN,
    T_EXPLORE,
    T_INSERT,
    T_PREPARE,
    T_RESOLVE_CHECK,
    T_SELECT,
    T_SHOPSHUFFLE,
    T_TURN,
    K,
)
from .tables import BOOZE

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
        elif i < self.players:
            self._prompt(P_PICK, self.players - 1 - i, (i,))

    def _t_decks(self, task: TaskEntry) -> None:
        s = task[1]
        if s >= self.players:
            return
        self.stack.append((T_DECKS, s + 1))
        deck = (self.layout.legendary_inst[self.legendaries[s]], *self.layout.deck[s])
        self._chance(("shuffle", s, deck))

    def _t_select(self, task: TaskEntry) -> None:
        p = task[1]
        if p >= 3:
            return
        self.stack.append((T_SELECT, p + 1))
        lay = self.layout
        x = str(self.players)
        if p == 0:
            pool, k = lay.dwarf_pool(self.legendaries), tables.EXP["dwarves"][x]
        elif p == 1:
            pool, k = lay.event_pool, tables.EXP["events"][x]
        else:
            pool, k = lay.recurring_pool, tables.EXP["recurring"][x]
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
        for s in range(self.players - 1, -1, -1):
            self.stack.append((T_DRAW, s, tables.SETUP_DRAW))

    # ------------------------------------------------------------------ the turn (§4)

    def _t_turn(self, task: TaskEntry) -> None:
        seat = task[1]
        if seat == 0:
            self.round += 1
        self.turn += 1
        self.active = seat
        self.bought = False
        self.lair_used = False
        self.offers_to = []
        self.traded = False
        self.doubled_kinds = []
        self.pilings_pending = 0
        self.action_pool = [0, 0, 0]
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
        i = self.cavern_dwarves.index(card)
        owner = self.cavern_owners[i]
        if value <= 3:
            del self.cavern_dwarves[i]
            del self.cavern_owners[i]
            self.discard[owner].append(card)
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
        if not self.exploration:
            return
        card = self._x_pop()
        kind = self.kind[card]
        typ = tables.KTYPE[kind]
        if typ in ("resource", "unique_building") or tables.IS_ACTION[kind]:
            self.discard[seat].append(card)
        elif tables.IS_DWARF[kind]:
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
            self.shared_area.append(card)
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
            while self.exploration:
                card = self._x_pop()
                if tables.IS_RESOURCE[self.kind[card]]:
                    self.hand[seat].append(card)
                    self.hand_known[seat].append(card)
                    break
                self._set_aside(card, -1)
                revealed.append(card)
        self._chance(("xshuffle", tuple(revealed) + (event,)))

    def _t_prepare(self, task: TaskEntry) -> None:
        seat = task[1]
        hand = self.hand[seat]
        self.discard[seat].extend(hand)
        hand.clear()
        self.hand_known[seat] = []
        for b in self.town[seat]:
            if self.finished(b):
                self.tapped[b] = False
        self.stack.append((T_AFTER_DRAW, seat, None))
        self.stack.append((T_DRAW, seat, tables.HAND_DRAW))

    def _t_after_draw(self, task: TaskEntry) -> None:
        """§4.3 step 4: Dragon Attack!, Goblins, Reorganisation, oldest first (MH-62)."""
        seat, events = task[1], task[2]
        if events is None:
            events = tuple(e for e in self.shared_area if self.kind[e] in AFTER_DRAW_EVENTS)
        if not events:
            return
        event, rest = events[0], events[1:]
        self.stack.append((T_AFTER_DRAW, seat, rest))
        if event not in self.shared_area:
            return
        kind = self.kind[event]
        if kind == K_DRAGON:
            if self.dwarves_available(seat) or any(self.steps_done.get(b, 0) for b in self.town[seat]):
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
        res = [c for c in self.hand[seat] if tables.IS_RESOURCE[self.kind[c]]]
        if res:
            top = max(self.card_value(c) for c in res)
            opts.extend((A_CHOOSE, C_GOBLINS, 1, c) for c in res if self.card_value(c) == top)
        opts.extend((A_CHOOSE, C_GOBLINS, 2, src, self.actions_applied) for src in self.payment_options(seat, BOOZE, 1))
        return opts

    def _t_resolve_check(self, task: TaskEntry) -> None:
        event = task[1]
        if event in self.counters and len(self.counters[event]) >= self.players:
            self._resolve_event(event)

    def _t_reorg_put(self, task: TaskEntry) -> None:
        seat, k = task[1], task[2]
        if min(k, len(self.hand[seat])) > 0:
            self._prompt(P_CHOOSE, seat, (C_REORG_PUT, k))

    def _t_damage(self, task: TaskEntry) -> None:
        """§7.5: remove the last completed step (after the N10 window)."""
        seat, b = task[1], task[2]
        was_finished = self.finished(b)
        self.steps_done[b] -= 1
        self.tapped[b] = True
        if was_finished and self.stored.get(b):
            self.discard[seat].extend(self.stored.pop(b))  # MH-29

    def _t_hangover(self, task: TaskEntry) -> None:
        self.discard[task[1]].append(self.new_instance(tables.HANGOVER))

    def _t_party_explore(self, task: TaskEntry) -> None:
        self._prompt(P_CHOOSE, task[1], (C_PARTY,))

    def _t_end_turn(self, task: TaskEntry) -> None:
        seat = task[1]
        self.doubled_kinds = []
        self.pilings_pending = 0
        n = self.players
        if self.vp_tie_play:
            self.vp_tie_turns_left -= 1
            if self.vp_tie_turns_left <= 0:
                self._end()
                return
        elif self.dwarves_found >= n + 2:
            if self._single_leader():
                self._end()
                return
            self.vp_tie_play = True
            self.vp_tie_turns_left = tables.TIE_EXTRA_ROUNDS * n
        if seat == n - 1 and self.round >= tables.MAX_ROUNDS:
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
        self.steps_done[b] = self.steps_done.get(b, 0) + 1
        if self.finished(b):
            self.tapped[b] = False  # upright at once (§7.3)

    def _pay(self, pay: tuple[int, int, int]) -> None:
        pool = self.action_pool
        pool[0] -= pay[0]
        pool[1] -= pay[1]
        pool[2] -= pay[2]

    # ------------------------------------------------------------------ recurring events (§13)

    def _add_counter(self, event: int, seat: int, resolve: bool = True) -> None:
        counters = self.counters[event]
        counters.append(seat)
        if resolve and len(counters) >= self.players:
            self._resolve_event(event)

    def _resolve_event(self, event: int) -> None:
        """§13.1: VP tokens per counter, the card is trashed; the Dragon brings the Lair (MH-57)."""
        vp = tables.KRESOLVE_VP[self.kind[event]]
        for seat in self.counters[event]:
            self.vp_tokens[seat] += vp
        del self.counters[event]
        self.shared_area.remove(event)
        self.trash.append(event)
        if self.kind[event] == K_DRAGON:
            lair = next((c for c in self.exploration if self.kind[c] == K_LAIR), -1)
            if lair >= 0 and self._x_remove(lair):
                self.shared_area.append(lair)
                self.counters[lair] = []

    # ------------------------------------------------------------------ results (§18)

    def vp(self, seat: int) -> int:
        kinds = self.kind
        labourer_vp: int = self.options["labourer_vp"]
        total = self.vp_tokens[seat]

        def card_vp(c: int) -> int:
            k = kinds[c]
            if tables.KTYPE[k] == "labourer":
                return labourer_vp
            return tables.KVP_FIXED[k]

        for zone in (self.draw[seat], self.hand[seat], self.discard[seat]):
            for c in zone:
                total += card_vp(c)
        for b in self.town[seat]:
            k = kinds[b]
            steps = self.steps_done.get(b, 0)
            done = steps >= len(tables.KSTEPS[k])
            total += tables.KVP_STEP[k] * steps
            if done:
                total += tables.KVP_FINISHED[k]
                if k == K_PAWNSHOP and self.stored.get(b):
                    total += self.card_value(self.stored[b][0])
            for c in self.stored.get(b, ()):
                total += card_vp(c)
        for c, owner in zip(self.cavern_dwarves, self.cavern_owners):
            if owner == seat:
                total += card_vp(c)
        for c, owner in zip(self.aside_cards, self.aside_owners):
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
        return [self.vp(s) for s in range(self.players)]

    def ranking(self) -> list[int]:
        scores = self.scores()
        return [sum(1 for other in scores if other > mine) for mine in scores]
