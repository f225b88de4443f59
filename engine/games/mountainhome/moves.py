"""Move generation: every legal action of the seat to move, and why an action is illegal.

A mixin of :class:`~engine.games.mountainhome.state.MountainhomeState`: it holds no state of its own.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from ...core import CHANCE, TERMINAL, IllegalActionError, RandomSource
from . import tables
from .constants import (
    A_BID,
    A_BUY,
    A_BUYBACK,
    A_CAVERN,
    A_CHOOSE,
    A_COMMIT,
    A_DWARF,
    A_DWELL,
    A_END,
    A_FREL,
    A_HOARD,
    A_HUT,
    A_LAIR,
    A_OFFER,
    A_PASS,
    A_PICK,
    A_PLACE,
    A_PLAY,
    A_PLAYACT,
    A_REACT,
    A_READY,
    A_TACCEPT,
    A_TAP,
    A_TDECLINE,
    A_TRASH,
    C_BALDUR,
    C_BOAT,
    C_CAV_BUILD,
    C_CAV_RES,
    C_DRAGON,
    C_FORTRESS,
    C_GOBLINS,
    C_GOLEMS,
    C_PARTY,
    C_REORG_N,
    C_REORG_PUT,
    K_BALDUR,
    K_BOAT,
    K_CONSULTANTS,
    K_DUNGEON,
    K_DWELLING,
    K_FORTRESS,
    K_HALL,
    K_KARINA,
    K_LAGERTHA,
    K_LAIR,
    K_MARG,
    K_MARKET,
    K_ORI,
    K_PANDA,
    K_PAWNSHOP,
    K_PILING,
    K_THORVALD,
    K_WAREHOUSE,
    K_WIZARD,
    K_WORKSHOP,
    OPT_DOUBLE,
    OPT_GAIN,
    P_ACTION,
    P_CAVERN,
    P_CHANCE,
    P_CHOOSE,
    P_COMMIT,
    P_HUT,
    P_KARINA,
    P_LAGERTHA,
    P_NONE,
    P_ONBID,
    P_OVER,
    P_PICK,
    P_TRADE,
    P_TRASH,
    PROMPT_NAMES,
    missing_rule,
)
from .payment import add_cost, pays
from .tables import BOOZE, ROCKS, SHINIES

if TYPE_CHECKING:
    from .base import StateBase
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class MovesMixin(StateBase):
    __slots__ = ()

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int | None = None) -> list[tuple[Any, ...]]:
        prompt = self.prompt
        if prompt in (P_CHANCE, P_OVER, P_NONE):
            return []
        movers = self.to_move()
        if seat is None:
            if not movers:
                return []
            seat = movers[0]
        if seat not in movers:
            return []
        if prompt == P_ACTION:
            return self._action_step_actions(seat)
        if prompt == P_PICK:
            return [(A_PICK, k) for k in tables.LEGENDARIES if k not in self.legendaries]
        if prompt == P_KARINA:
            return [(A_REACT, self.layout.legendary_inst[K_KARINA]), (A_PASS,)]
        if prompt == P_LAGERTHA:
            return [(A_REACT, self.layout.legendary_inst[K_LAGERTHA]), (A_PASS,)]
        if prompt == P_COMMIT:
            return self._commit_neighbours(seat)
        if prompt == P_TRASH:
            return self._trash_actions(seat)
        if prompt == P_CHOOSE:
            return self._choose_actions(seat)
        if prompt == P_ONBID:
            return self._onbid_actions(seat)
        if prompt == P_CAVERN:
            return [(A_PASS,)] + [(A_CAVERN, d) for d in self.dwarves_available(seat)]
        if prompt == P_HUT:
            return [(A_HUT, k) for k in range(tables.CONSTANTS["hut_max_extra_draw"] + 1)]
        if prompt == P_TRADE:
            return self._trade_answers(seat)
        raise missing_rule(f"prompt {PROMPT_NAMES.get(prompt, prompt)}")

    def _trade_answers(self, seat: int) -> list[tuple[Any, ...]]:
        offerer, give, want = self.prompt_data
        kinds = self.kind
        acts: list[tuple[Any, ...]] = [(A_TDECLINE,)]
        project_ok = not self.owns_project(offerer)
        for c in self.hand[seat]:
            if (want < 0 or kinds[c] == want) and (project_ok or not tables.IS_PROJECT[kinds[c]]):
                acts.append((A_TACCEPT, c))
        return acts

    def dwarves_available(self, seat: int) -> list[int]:
        """Dwarves ``seat`` may use: hand and Clan Hall (§6.1)."""
        kinds = self.kind
        return [c for c in self.hand[seat] if tables.IS_DWARF[kinds[c]]] + self.hall_dwarves(seat)

    def _construct_options(self, seat: int) -> list[tuple[int, tuple[Any, ...]]]:
        """(building, pay) for one step of each unfinished building."""
        pool = self.action_pool
        return [(b, pay) for b in self.unfinished(seat) for pay in pays(self.next_step_cost(b), pool)]

    def _marg_options(self, seat: int) -> list[tuple[tuple[Any, ...], tuple[Any, ...]]]:
        pool = self.action_pool
        steps: list[tuple[tuple[int, ...], tuple[int, int, int, int]]] = []
        unfinished = self.unfinished(seat)
        for b in unfinished:
            p = self.steps_done.get(b, 0)
            costs = tables.KSTEPS[self.kind[b]]
            steps.append(((b,), costs[p]))
            if p + 1 < len(costs):
                steps.append(((b, b), add_cost(costs[p], costs[p + 1])))
        for b1, b2 in combinations(sorted(unfinished), 2):
            steps.append(((b1, b2), add_cost(self.next_step_cost(b1), self.next_step_cost(b2))))
        return [(st, pay) for st, cost in steps for pay in pays(cost, pool)]

    def _action_step_actions(self, seat: int) -> list[tuple[Any, ...]]:
        acts, offers = self._action_step_parts(seat)
        for to, cards, wants in offers:
            for c in cards:
                acts.extend((A_OFFER, to, c, w) for w in wants)
        acts.append((A_END,))
        return acts

    def _action_step_parts(self, seat: int) -> tuple[list[tuple[Any, ...]], list[tuple[int, list[int], list[int]]]]:
        """The action-step actions before the Marketplace offers, and the offers as (to, cards, wants).

        The listed order is: these actions, then every offer (target, card, want in that nesting),
        then ``end_action_step``; the fused playout indexes into it without building the offers.
        """
        kinds = self.kind
        pool = self.action_pool
        acts: list[tuple[Any, ...]] = []
        hand = self.hand[seat]
        warehouse = self.warehouse_cards(seat)
        for c in hand:
            if tables.IS_RESOURCE[kinds[c]]:
                acts.append((A_PLAY, c))
        for c in warehouse:
            acts.append((A_PLAY, c))
        construct = self._construct_options(seat)
        for d in self.dwarves_available(seat):
            kd = kinds[d]
            if kd in tables.LABOURER_OPTIONS:
                acts.extend((A_DWARF, d, res) for res, _ in tables.LABOURER_OPTIONS[kd])
            elif kd in tables.RENOWNED:
                acts.append((A_DWARF, d, OPT_GAIN))
                acts.append((A_DWARF, d, OPT_DOUBLE))
            elif kd == K_ORI or kd == K_THORVALD:
                acts.append((A_DWARF, d))
            elif kd == K_BALDUR:
                acts.append((A_DWARF, d, 0))
                acts.append((A_DWARF, d, 1))
            elif kd == K_MARG:
                acts.extend((A_DWARF, d, st, pay) for st, pay in self._marg_options(seat))
            acts.extend((A_COMMIT, d, b, pay) for b, pay in construct)
        project = self.owns_project(seat)
        for c in hand:
            if tables.IS_BUILDING[kinds[c]]:
                acts.append((A_PLACE, c))
        for b in self.town[seat]:
            if not self.upright(b):
                continue
            acts.extend(self._tap_actions(seat, b))
        for b in self.town[seat]:
            if kinds[b] == K_DWELLING and self.finished(b) and self.stored.get(b):
                acts.extend((A_DWELL, b, t, pay) for t, pay in construct)
        for s in range(self.players):
            for b in self.town[s]:
                if kinds[b] == K_PAWNSHOP and self.upright(b) and self.stored.get(b):
                    if self.card_value(self.stored[b][0]) <= pool[SHINIES]:
                        acts.append((A_BUYBACK, b))
        for c in hand:
            kc = kinds[c]
            if kc == tables.HOARD:
                acts.extend((A_HOARD, c, res) for res in (ROCKS, SHINIES, BOOZE))
            elif kc == K_PILING:
                acts.append((A_PLAYACT, c))
            elif kc == K_WIZARD:
                acts.extend((A_PLAYACT, c, b) for s in range(self.players) if s != seat for b in self.town[s])
            elif kc == K_PANDA:
                acts.extend(self._panda_plays(seat, c))
        if not self.bought:
            profile = self.options["shop_profile"]
            consultants = self.in_area(K_CONSULTANTS)
            for slot, card in enumerate(self.shop_slots):
                if card < 0 or (tables.IS_PROJECT[kinds[card]] and project):
                    continue
                cost = tables.price(kinds[card], profile)
                if cost <= pool[SHINIES]:
                    acts.append((A_BUY, slot, 0))
                    if consultants and cost + tables.CONSULTANTS_FEE <= pool[SHINIES]:
                        acts.append((A_BUY, slot, 1))
        if self.in_area(K_LAIR) and not self.lair_used:
            acts.extend((A_LAIR, d) for d in self.dwarves_available(seat))
        if self.in_area(K_FORTRESS) and pool[BOOZE] >= tables.FORTRESS["release_cost_booze"]:
            acts.extend((A_FREL, d) for d in self.fortress_dwarves)
        offers: list[tuple[int, list[int], list[int]]] = []
        if self.in_area(K_MARKET) and not self.traded:
            wants = [-1] + sorted(set(kinds))
            for to in range(self.players):
                if to == seat or to in self.offers_to:
                    continue
                to_project = self.owns_project(to)
                cards = [c for c in hand if not (tables.IS_PROJECT[kinds[c]] and to_project)]
                offers.append((to, cards, wants))
        return acts, offers

    def random_playout(self, rng: RandomSource) -> int:
        """Uniformly random legal play to the end; the number of events applied.

        The same draws and the same actions as :func:`engine.core.random_playout` (a test checks
        this); the action step is indexed without building its Marketplace offers.
        """
        events = 0
        randrange = rng.randrange
        while self.prompt != P_OVER:
            prompt = self.prompt
            if prompt == P_CHANCE:
                self.apply(CHANCE, self.sample_chance(rng))
            elif prompt == P_ACTION:
                seat = self.prompt_seat
                acts, offers = self._action_step_parts(seat)
                total = len(acts) + sum(len(cards) * len(wants) for _, cards, wants in offers) + 1
                i = randrange(total)
                if i < len(acts):
                    action = acts[i]
                elif i == total - 1:
                    action = (A_END,)
                else:
                    i -= len(acts)
                    for to, cards, wants in offers:
                        block = len(cards) * len(wants)
                        if i < block:
                            action = (A_OFFER, to, cards[i // len(wants)], wants[i % len(wants)])
                            break
                        i -= block
                self.apply(seat, action)
            else:
                seat = self.prompt_seat if self.prompt_seat >= 0 and prompt not in (P_COMMIT, P_TRASH) else self.to_move()[0]
                actions = self.legal_actions(seat)
                self.apply(seat, actions[randrange(len(actions))])
            events += 1
        return events

    def _tap_actions(self, seat: int, b: int) -> list[tuple[Any, ...]]:
        kinds = self.kind
        kind = kinds[b]
        pool = self.action_pool
        hand = self.hand[seat]
        if kind in tables.PRODUCER or kind == K_BOAT:
            return [(A_TAP, b)]
        if kind in tables.MULTIPLIER:
            res = tables.MULTIPLIER[kind][0]
            return [(A_TAP, b, n) for n in range(1, pool[res] + 1)]
        if kind in K_HALL:
            dwarves = sorted(c for c in hand if tables.IS_DWARF[kinds[c]])
            return [(A_TAP, b, sub) for k in range(len(dwarves) + 1) for sub in combinations(dwarves, k)]
        if kind == K_WAREHOUSE:
            return [(A_TAP, b, -1)] + [(A_TAP, b, c) for c in hand if tables.IS_RESOURCE[kinds[c]]]
        if kind == K_DWELLING:
            if pool[BOOZE] < tables.DWELLING_COST:
                return []
            acts: list[tuple[Any, ...]] = [(A_TAP, b, -1)]
            if not self.stored.get(b):
                acts.extend((A_TAP, b, c) for c in hand if tables.IS_DWARF[kinds[c]])
            return acts
        if kind == K_PAWNSHOP:
            cards = [c for c in hand if tables.IS_RESOURCE[kinds[c]]] + self.warehouse_cards(seat)
            return [(A_TAP, b, c) for c in cards]
        if kind == K_DUNGEON:
            if pool[SHINIES] < tables.DUNGEON_COST:
                return []
            return [(A_TAP, b, c) for c in self.discard[seat]]
        if kind == K_WORKSHOP:
            acts = [
                (A_TAP, b, 0, t, pay)
                for t in self.unfinished(seat)
                for pay in pays((0, 0, 0, tables.WORKSHOP_COST), pool)
            ]
            acts.append((A_TAP, b, 1, -1))
            acts.extend((A_TAP, b, 1, t) for t in self.town[seat] if t != b and self.finished(t))
            return acts
        return []  # no tap ability (Witch's Hut, projects)

    # ---- sealed commitments (B3): ready plus every commitment one edit away

    def commit_cards_available(self, seat: int) -> list[int]:
        """Cards ``seat`` may commit: hand, Clan Hall dwarves and Warehouse cards (§9.2 B3)."""
        return self.hand[seat] + self.hall_dwarves(seat) + self.warehouse_cards(seat)

    def _use_sources(self, seat: int) -> list[int]:
        """Finished upright buildings with a resource tap usable in a bid (§8.3)."""
        kinds = self.kind
        return [
            b for b in self.town[seat]
            if self.upright(b) and (kinds[b] in tables.PRODUCER or kinds[b] in tables.MULTIPLIER or kinds[b] == K_PAWNSHOP)
        ]

    def _uses_valid(self, seat: int, cards: tuple[Any, ...], uses: tuple[Any, ...]) -> str:
        """'' if this use list is valid for ``seat`` (given the committed cards), else the reason."""
        kinds = self.kind
        gained = [0, 0, 0]
        used_buildings: set[int] = set()
        used_cards: set[int] = set(cards)
        sources = set(self._use_sources(seat))
        hand = self.hand[seat]
        for use in uses:
            if use[0] in (0, 1):
                b = use[1]
                if b not in sources:
                    return f"{self.names[b]} is not a finished upright resource building of seat {seat}"
                if b in used_buildings:
                    return f"{self.names[b]} is used twice"
                used_buildings.add(b)
                kind = kinds[b]
                if use[0] == 0:
                    if kind in tables.PRODUCER:
                        res, amount, _ = tables.PRODUCER[kind]
                        gained[res] += amount * (2 if kind in self.doubled_kinds and seat == self.active else 1)
                    elif kind in tables.MULTIPLIER:
                        res, mult = tables.MULTIPLIER[kind]
                        n = use[2]
                        if n < 1 or n > gained[res]:
                            return f"{self.names[b]} needs n={n} from resources gained earlier in the list"
                        gained[res] += (mult - 1) * n
                    else:
                        return f"{self.names[b]} needs a card to pawn"
                else:
                    if kind != K_PAWNSHOP:
                        return f"{self.names[b]} is not a Pawn Shop"
                    card = use[2]
                    if card in used_cards:
                        return f"{self.names[card]} is committed or used twice"
                    if not (tables.IS_RESOURCE[kinds[card]] and (card in hand or card in self.warehouse_cards(seat))):
                        return f"{self.names[card]} is not a resource card in hand or Warehouse"
                    used_cards.add(card)
                    gained[SHINIES] += self.card_value(card)
            else:
                card = use[1]
                if card in used_cards:
                    return f"{self.names[card]} is committed or used twice"
                if kinds[card] != tables.HOARD or card not in hand:
                    return f"{self.names[card]} is not a Dragon Hoard in hand"
                used_cards.add(card)
                gained[use[2]] += tables.HOARD_GAIN
        return ""

    def _uses_gained(self, seat: int, uses: tuple[Any, ...]) -> list[int]:
        kinds = self.kind
        gained = [0, 0, 0]
        for use in uses:
            if use[0] == 0:
                kind = kinds[use[1]]
                if kind in tables.PRODUCER:
                    res, amount, _ = tables.PRODUCER[kind]
                    gained[res] += amount * (2 if kind in self.doubled_kinds and seat == self.active else 1)
                else:
                    res, mult = tables.MULTIPLIER[kind]
                    gained[res] += (mult - 1) * use[2]
            elif use[0] == 1:
                gained[SHINIES] += self.card_value(use[2])
            else:
                gained[use[2]] += tables.HOARD_GAIN
        return gained

    def commit_problem(self, seat: int, cards: tuple[Any, ...], uses: tuple[Any, ...]) -> str:
        available = self.commit_cards_available(seat)
        if len(set(cards)) != len(cards):
            return "a card is committed twice"
        for c in cards:
            if c not in available:
                return f"{self.names[c]} is not in seat {seat}'s hand, Clan Hall or Warehouse"
            if c in self.warehouse_cards(seat) and not tables.IS_RESOURCE[self.kind[c]]:
                return f"{self.names[c]} cannot be committed from the Warehouse"
        return self._uses_valid(seat, cards, uses)

    def _commit_neighbours(self, seat: int) -> list[tuple[Any, ...]]:
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        current = bid.commit[seat] or ((), ())
        cards, uses = current
        acts: list[tuple[Any, ...]] = [(A_READY,)]
        stamp = self.actions_applied
        used_cards = {u[2] if u[0] == 1 else u[1] for u in uses if u[0] != 0}
        for c in self.commit_cards_available(seat):
            if c not in cards and c not in used_cards:
                acts.append((A_BID, cards + (c,), uses, stamp))
        for i in range(len(cards)):
            acts.append((A_BID, cards[:i] + cards[i + 1 :], uses, stamp))
        # one more use at the end of the list
        kinds = self.kind
        candidates: list[tuple[Any, ...]] = []
        for b in self._use_sources(seat):
            kind = kinds[b]
            if kind in tables.PRODUCER:
                candidates.append((0, b, 0))
            elif kind in tables.MULTIPLIER:
                res = tables.MULTIPLIER[kind][0]
                candidates.extend((0, b, n) for n in range(1, self._uses_gained(seat, uses)[res] + 1))
            else:
                candidates.extend((1, b, c) for c in self.hand[seat] + self.warehouse_cards(seat) if tables.IS_RESOURCE[kinds[c]])
        for c in self.hand[seat]:
            if kinds[c] == tables.HOARD:
                candidates.extend((2, c, res) for res in (ROCKS, SHINIES, BOOZE))
        for use in candidates:
            new = uses + (use,)
            if not self._uses_valid(seat, cards, new):
                acts.append((A_BID, cards, new, stamp))
        for i in range(len(uses)):
            new = uses[:i] + uses[i + 1 :]
            if not self._uses_valid(seat, cards, new):
                acts.append((A_BID, cards, new, stamp))
        return list(dict.fromkeys(acts))

    def _trash_actions(self, seat: int) -> list[tuple[Any, ...]]:
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        acts: list[tuple[Any, ...]] = []
        for t in self._trash_targets():
            if bid.loki_choosers.get(t, t) == seat and t not in bid.choices:
                acts.extend((A_TRASH, c, -1 if t == seat else t) for c in self.eligible(t))
        return acts

    def _choose_actions(self, seat: int) -> list[tuple[Any, ...]]:
        d = self.prompt_data
        what = d[0]
        if what == C_BOAT:
            return [(A_CHOOSE, C_BOAT, c) for c in self.hand[seat]]
        if what == C_GOLEMS:
            return [(A_CHOOSE, C_GOLEMS, d[1], 0), (A_CHOOSE, C_GOLEMS, d[1], 1)]
        if what == C_DRAGON:
            acts = [(A_CHOOSE, C_DRAGON, 0, c) for c in self.dwarves_available(seat)]
            damaged = [(A_CHOOSE, C_DRAGON, 1, b) for b in self.town[seat] if self.steps_done.get(b, 0)]
            return acts + (damaged or [(A_CHOOSE, C_DRAGON, 1, -1)])
        if what == C_GOBLINS:
            return self._goblin_options(seat)
        if what == C_REORG_N:
            return [(A_CHOOSE, C_REORG_N, k) for k in range(4)]
        if what == C_REORG_PUT:
            from itertools import permutations

            k = min(d[1], len(self.hand[seat]))
            return [(A_CHOOSE, C_REORG_PUT, p) for p in permutations(self.hand[seat], k)]
        if what == C_CAV_RES:
            return [(A_CHOOSE, C_CAV_RES, tables.RES_INDEX[r]) for r in tables.CONSTANTS["cavern_d6"]["gain_choices"]]
        if what == C_CAV_BUILD:
            return [(A_CHOOSE, C_CAV_BUILD, b) for b in self.unfinished(seat)]
        if what == C_BALDUR:
            from itertools import permutations

            return [(A_CHOOSE, C_BALDUR, p) for p in permutations(self.private_knowledge[seat]["xtop"])]
        if what == C_FORTRESS:
            cost = tables.FORTRESS["capture_cost_booze"]
            return [(A_PASS,)] + [(A_CHOOSE, C_FORTRESS, src, self.actions_applied) for src in self.payment_options(seat, BOOZE, cost)]
        if what == C_PARTY:
            return [(A_CHOOSE, C_PARTY), (A_PASS,)]
        raise missing_rule(f"choose prompt {what}")

    # ------------------------------------------------------------------ checking

    def _validated(self, a: Any) -> bool:
        """Actions whose legal set is too large to list in full carry a stamp and a validator."""
        if not isinstance(a, tuple) or not a:
            return False
        verb = a[0]
        if verb == A_BID:
            return True
        if verb == A_PLAYACT and len(a) == 4:
            return True
        return verb == A_CHOOSE and len(a) > 2 and (a[1] == C_FORTRESS or (a[1] == C_GOBLINS and a[2] == 2))

    def check(self, seat: int, action: Any) -> None:
        if seat == CHANCE or not self._validated(action):
            super().check(seat, action)
            return
        from ...core import ChanceExpectedError, GameOverError, WrongSeatError

        player = self.current_player()
        if player == TERMINAL:
            raise GameOverError(f"{self.describe(seat, action)} is illegal: the game has ended")
        if player == CHANCE:
            raise ChanceExpectedError(f"{self.describe(seat, action)} is illegal: a chance event is due")
        if seat not in self.to_move():
            movers = " or ".join(f"seat {s}" for s in self.to_move())
            raise WrongSeatError(f"{self.describe(seat, action)} is illegal: it is {movers} to move")
        problem = self.why_illegal(seat, action)
        if problem:
            raise IllegalActionError(f"{self.describe(seat, action)} is illegal: {problem}")

    def why_illegal(self, seat: int, action: Any) -> str:
        if self._validated(action):
            if action[-1] != self.actions_applied:
                return "it was made for an earlier position"
            verb = action[0]
            if verb == A_BID:
                if self.prompt != P_COMMIT or len(action) != 4:
                    return "no sealed commitment is open"
                return self.commit_problem(seat, action[1], action[2])
            if verb == A_PLAYACT:
                if self.prompt != P_ACTION or seat != self.prompt_seat:
                    return "action cards are played in your own action step"
                return self.panda_problem(seat, action[1], action[2])
            if self.prompt != P_CHOOSE or self.prompt_data[0] != action[1] or seat != self.prompt_seat:
                return "that prompt is not open"
            if action[1] == C_GOBLINS:
                if self.prompt_data[0] != C_GOBLINS:
                    return "no Goblins prompt is open"
                return self.payment_problem(seat, BOOZE, 1, action[3])
            return self.payment_problem(seat, BOOZE, tables.FORTRESS["capture_cost_booze"], action[2])
        if action in self.legal_actions(seat):
            return ""
        return f"it is not a legal {PROMPT_NAMES.get(self.prompt, '?')} answer here"

