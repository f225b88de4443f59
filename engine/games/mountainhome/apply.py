"""Applying a player's action: the action-step actions (§4.1) and every other prompt's answer.

A mixin of :class:`~engine.games.mountainhome.state.MountainhomeState`: it holds no state of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core import CHANCE
from . import tables
from .constants import (
    A_BID,
    A_BUY,
    A_BUYBACK,
    A_CAVERN,
    A_COMMIT,
    A_DWARF,
    A_DWELL,
    A_END,
    A_FREL,
    A_HOARD,
    A_LAIR,
    A_OFFER,
    A_PASS,
    A_PLACE,
    A_PLAY,
    A_PLAYACT,
    A_REACT,
    A_TACCEPT,
    A_TAP,
    BID_DWARF,
    BID_WIZARD,
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
    K_BOAT,
    K_CONSULTANTS,
    K_DUNGEON,
    K_DWELLING,
    K_GOLEMS,
    K_HALL,
    K_PAWNSHOP,
    K_PILING,
    K_WAREHOUSE,
    K_WIZARD,
    K_WORKSHOP,
    P_ACTION,
    P_CAVERN,
    P_CHOOSE,
    P_COMMIT,
    P_HUT,
    P_KARINA,
    P_LAGERTHA,
    P_NONE,
    P_ONBID,
    P_PICK,
    P_TRADE,
    P_TRASH,
    PILE_EXPLORATION,
    T_ACTION,
    T_BID_REVEAL,
    T_BOAT_DISCARD,
    T_CAVERN_ROLL,
    T_DAMAGE,
    T_DRAW,
    T_EXPLORE,
    T_FINISH_USE,
    T_PANDA_MOVE,
    T_PICK,
    T_REORG_PUT,
    T_THREATEN,
    VERBS,
    missing_rule,
)
from .tables import ROCKS, SHINIES

if TYPE_CHECKING:
    from .base import StateBase, TaskEntry
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class ApplyMixin(StateBase):
    __slots__ = ()

    # ------------------------------------------------------------------ action-step actions (§4.1)

    def _do_action(self, seat: int, a: tuple[Any, ...]) -> None:
        verb = a[0]
        if verb == A_END:
            self.action_pool = [0, 0, 0]
            self.prompt = P_NONE
            return
        if verb == A_PLAY:
            card = a[1]
            self.take_from_hand_or_store(seat, card)
            res = tables.KVALUE_RES[self.kind[card]]
            if res == ROCKS and self.pilings_pending > 0:
                self.pilings_pending -= 1
                res = SHINIES
            self.action_pool[res] += self.card_value(card)
            self.discard[seat].append(card)
        elif verb == A_DWARF or verb == A_COMMIT:
            self._declare_dwarf_use(seat, a, a[1])
        elif verb == A_DWELL:
            dwelling = a[1]
            self._declare_dwarf_use(seat, a, self.stored[dwelling][0], dwelling)
        elif verb == A_PLACE:
            card = a[1]
            self.hand[seat].remove(card)
            self._hand_left(seat, card)
            self.town[seat].append(card)
            self.steps_done[card] = 0
            self.tapped[card] = True
        elif verb == A_TAP:
            self._do_tap(seat, a)
        elif verb == A_HOARD:
            card = a[1]
            self.hand[seat].remove(card)
            self._hand_left(seat, card)
            self.trash.append(card)
            self.action_pool[a[2]] += tables.HOARD_GAIN
            self.stack.append((T_ACTION, seat))
            self.stack.append((T_DRAW, seat, tables.HOARD_DRAW))
            self.prompt = P_NONE
        elif verb == A_BUY:
            self._do_buy(seat, a[1], a[2])
        elif verb == A_PLAYACT:
            card = a[1]
            kind = self.kind[card]
            self.hand[seat].remove(card)
            self._hand_left(seat, card)
            if kind == K_PILING:
                self.pilings_pending += 1
                self.discard[seat].append(card)
                return
            self._set_aside(card, seat)  # until resolved (MH-85)
            self.stack.append((T_ACTION, seat))
            self.stack.append((T_FINISH_USE, seat, card))
            self.prompt = P_NONE
            if kind == K_WIZARD:
                b = a[2]
                owner = next(s for s in range(self.players) if b in self.town[s])
                self.start_bid(BID_WIZARD, -1, seat)
                assert self.bid is not None  # start_bid made it (narrows Bid | None)
                self.bid.owner = owner
                self.bid.target = b
            else:  # Trash Panda: each move in order; a Hangover for another player is N8
                for c, to in reversed(a[2]):
                    if self.kind[c] == tables.HANGOVER and to != seat:
                        self.stack.append((T_THREATEN, to, 8, (T_PANDA_MOVE, c, to), seat))
                    else:
                        self.stack.append((T_PANDA_MOVE, c, to))
        elif verb == A_LAIR:
            self.take_from_hand_or_store(seat, a[1])
            self.discard[seat].append(a[1])
            self.lair_used = True
            self._draw_push_known(seat, self.new_instance(tables.HOARD))
        elif verb == A_FREL:
            self._pay((0, 0, tables.FORTRESS["release_cost_booze"]))
            self.fortress_dwarves.remove(a[1])
            self._x_top(a[1])
        elif verb == A_BUYBACK:
            shop = a[1]
            card = self.stored[shop].pop()
            self._pay((0, self.card_value(card), 0))
            self.hand[seat].append(card)
            self.hand_known[seat].append(card)
        elif verb == A_OFFER:
            self.offers_to.append(a[1])
            if a[2] not in self.hand_known[seat]:
                self.hand_known[seat].append(a[2])  # the offered card is shown (§11)
            self.stack.append((T_ACTION, seat))
            self._prompt(P_TRADE, a[1], (seat, a[2], a[3]))
        else:
            raise missing_rule(VERBS[verb])

    def _do_buy(self, seat: int, slot: int, consultants: int) -> None:
        card = self.shop_slots[slot]
        cost = tables.price(self.kind[card], self.options["shop_profile"])
        if consultants:
            cost += tables.CONSULTANTS_FEE
        self._pay((0, cost, 0))
        self.bought = True
        self.shop_slots[slot] = -1
        if consultants:
            event = next(e for e in self.shared_area if self.kind[e] == K_CONSULTANTS)
            self.town[seat].append(card)
            self.steps_done[card] = 0
            self.tapped[card] = True
            self._complete_step(card)
            self._refill(slot)
            self._add_counter(event, seat)
        else:
            self.discard[seat].append(card)
            self._refill(slot)

    def _do_tap(self, seat: int, a: tuple[Any, ...]) -> None:
        b = a[1]
        kind = self.kind[b]
        self.tapped[b] = True
        if kind in tables.PRODUCER:
            res, amount, _ = tables.PRODUCER[kind]
            self.action_pool[res] += amount * (2 if kind in self.doubled_kinds else 1)
        elif kind in tables.MULTIPLIER:
            res, mult = tables.MULTIPLIER[kind]
            self.action_pool[res] += (mult - 1) * a[2]
        elif kind in K_HALL:
            for card in a[2]:
                self.hand[seat].remove(card)
                self._hand_left(seat, card)
                self.stored.setdefault(b, []).append(card)
        elif kind == K_WAREHOUSE or kind == K_DWELLING:
            if kind == K_DWELLING:
                self._pay((0, 0, tables.DWELLING_COST))
            if a[2] >= 0:
                self.hand[seat].remove(a[2])
                self._hand_left(seat, a[2])
                self.stored.setdefault(b, []).append(a[2])
        elif kind == K_PAWNSHOP:
            card = a[2]
            self.take_from_hand_or_store(seat, card)
            old = self.stored.get(b)
            if old:
                self.discard[seat].extend(old)
            self.stored[b] = [card]
            self.action_pool[SHINIES] += self.card_value(card)
        elif kind == K_DUNGEON:
            self._pay((0, tables.DUNGEON_COST, 0))
            self.discard[seat].remove(a[2])
            self._draw_push_known(seat, a[2])
        elif kind == K_WORKSHOP:
            if a[2] == 0:  # build
                self._pay(a[4])
                self._complete_step(a[3])
            elif a[3] >= 0 and self.finished(a[3]):
                self.tapped[a[3]] = False
        elif kind == K_BOAT:
            self.stack.append((T_ACTION, seat))
            self.stack.append((T_BOAT_DISCARD, seat))
            self.stack.append((T_DRAW, seat, tables.BOAT_DRAW))
            self.prompt = P_NONE
        else:
            raise missing_rule(f"the tap of {tables.KNAME[kind]}")

    def _t_boat_discard(self, task: TaskEntry) -> None:
        seat = task[1]
        if self.hand[seat]:
            self._prompt(P_CHOOSE, seat, (C_BOAT,))

    # ------------------------------------------------------------------ applying

    def apply(self, seat: int, action: Any) -> None:
        if seat == CHANCE:
            self._apply_chance(action)
        else:
            self.actions_applied += 1
            self._apply_action(seat, action)
        self._advance()
        if self.vp_tie_play and not self.over and self._single_leader():
            self._end()  # a check point with a single leader (§18.3, MH-66)

    def _apply_action(self, seat: int, a: tuple[Any, ...]) -> None:
        prompt = self.prompt
        verb = a[0]
        if prompt == P_ACTION:
            self._do_action(seat, a)
        elif prompt == P_PICK:
            self.legendaries[seat] = a[1]
            self.stack.append((T_PICK, self.prompt_data[0] + 1))
            self.prompt = P_NONE
        elif prompt == P_COMMIT:
            bid = self.bid
            assert bid is not None  # a bid is running (narrows Bid | None)
            if verb == A_BID:
                bid.commit[seat] = (a[1], a[2])
                bid.commit_entries[seat] += 1
            else:
                bid.ready[seat] = True
                if all(bid.ready):
                    self.stack.append((T_BID_REVEAL, 0, 0))
                    self.prompt = P_NONE
        elif prompt == P_TRASH:
            bid = self.bid
            assert bid is not None  # a bid is running (narrows Bid | None)
            target = seat if a[2] < 0 else a[2]
            bid.choices[target] = a[1]
            if all(t in bid.choices for t in self._trash_targets()):
                self._reveal_trash()
        elif prompt == P_KARINA:
            self.prompt = P_NONE
            if verb == A_REACT:
                self._remove_reaction_card(seat, a[1])
                actor = self.prompt_data[0]
                if self._lagertha_holder(actor):
                    self._prompt(P_LAGERTHA, actor, (1, None))  # N1
                else:
                    self._cancel_dwarf_use()
        elif prompt == P_LAGERTHA:
            self.prompt = P_NONE
            code = self.prompt_data[0]
            if verb == A_REACT:
                self._remove_reaction_card(seat, a[1])
                if code != 1:
                    self.stack.pop()  # the threatened effect does not apply to this seat
                    if self.prompt_data[1] is not None:
                        self.stack.append(self.prompt_data[1])
            elif code == 1:
                self._cancel_dwarf_use()
        elif prompt == P_CHOOSE:
            self._apply_choose(seat, a)
        elif prompt == P_ONBID:
            self._apply_onbid(seat, a)
        elif prompt == P_CAVERN:
            self.prompt = P_NONE
            if verb == A_CAVERN:
                self.take_from_hand_or_store(seat, a[1])
                self.cavern_dwarves.append(a[1])
                self.cavern_owners.append(seat)
            self.stack.append((T_ACTION, seat))
            self.stack.append((T_CAVERN_ROLL, seat, tuple(c for c, o in zip(self.cavern_dwarves, self.cavern_owners) if o == seat)))
        elif prompt == P_HUT:
            self.prompt = P_NONE
            if a[1]:
                self.stack.append((T_DRAW, seat, a[1], 1))
        elif prompt == P_TRADE:
            self.prompt = P_NONE
            if verb == A_TACCEPT:
                offerer, give = self.prompt_data[0], self.prompt_data[1]
                take = a[1]
                self.hand[offerer].remove(give)
                self._hand_left(offerer, give)
                self.hand[seat].remove(take)
                self._hand_left(seat, take)
                self.hand[seat].append(give)
                self.hand_known[seat].append(give)
                self.hand[offerer].append(take)
                self.hand_known[offerer].append(take)
                self.traded = True
        else:
            raise AssertionError(f"no player action is due at prompt {prompt}")

    def _apply_choose(self, seat: int, a: tuple[Any, ...]) -> None:
        d = self.prompt_data
        what = d[0]
        self.prompt = P_NONE
        if a[0] == A_PASS:
            if what == C_FORTRESS:
                self.start_bid(BID_DWARF, d[1], seat)
            return
        if what == C_BOAT:
            card = a[2]
            self.hand[seat].remove(card)
            self._hand_left(seat, card)
            self.discard[seat].append(card)
        elif what == C_GOLEMS:
            card = a[2]
            self.hand[seat].remove(card)
            self._hand_left(seat, card)
            if a[3] == 0:
                self.trash.append(card)
                event = next(e for e in self.shared_area if self.kind[e] == K_GOLEMS)
                self._add_counter(event, seat)
            else:
                self.discard[seat].append(card)
        elif what == C_DRAGON:
            if a[2] == 0:
                self.take_from_hand_or_store(seat, a[3])
                self.discard[seat].append(a[3])
                self._add_counter(d[1], seat)
            elif a[3] >= 0:
                self._threaten(seat, 10, (T_DAMAGE, seat, a[3]))  # MH-78
        elif what == C_GOBLINS:
            if a[2] == 0:
                self.tapped[a[3]] = True
            elif a[2] == 1:
                self.hand[seat].remove(a[3])
                self._hand_left(seat, a[3])
                self.discard[seat].append(a[3])
            else:
                self._pay_sources(seat, a[3])
        elif what == C_REORG_N:
            self.stack.append((T_REORG_PUT, seat, a[2]))
            self.stack.append((T_DRAW, seat, a[2]))
        elif what == C_REORG_PUT:
            order = a[2]
            # what the public can say: the cards came from the hand, i.e. not from a draw-pile block
            # whose candidates are exactly its cards
            exact = {c for cands, count in self.draw_blocks[seat] if len(cands) == count for c in cands}
            hidden = tuple(sorted(c for c in self.hand[seat] + self.draw[seat] if c not in exact))
            for c in order:
                self.hand[seat].remove(c)
            self.draw[seat].extend(reversed(order))
            self.draw_blocks[seat].append((hidden, len(order)))
            self.hand_known[seat] = []
            self.private_knowledge[seat]["top"] = tuple(order) + tuple(self.private_knowledge[seat].get("top", ()))
        elif what == C_CAV_RES:
            self.action_pool[a[2]] += tables.CONSTANTS["cavern_d6"]["gain_amount"]
        elif what == C_CAV_BUILD:
            self._complete_step(a[2])
        elif what == C_BALDUR:
            order = a[2]
            m = len(order)
            self.exploration[-m:] = list(reversed(order))
            self._x_merge_top(m)
            self.private_knowledge[seat]["xtop"] = tuple(order)
        elif what == C_FORTRESS:
            self._pay_sources(seat, a[2])
            self._unaside(d[1])
            self.fortress_dwarves.append(d[1])
        elif what == C_PARTY:
            self.stack.append((T_EXPLORE, seat))
        else:
            raise missing_rule(f"choose prompt {what}")

    def _apply_chance(self, o: tuple[Any, ...]) -> None:
        what = o[0]
        d = self.prompt_data
        self.prompt = P_NONE
        if what == "assign":
            self.legendaries = list(o[1])
        elif what == "shuffle":
            pile, order = o[1], o[2]
            cands = tuple(sorted(order))
            if pile < PILE_EXPLORATION:
                self.draw[pile] = list(reversed(order))
                self.discard[pile] = []
                self.draw_blocks[pile] = [(cands, len(order))]
                self.private_knowledge[pile].pop("top", None)
            elif pile == PILE_EXPLORATION:
                extras = d[1] or ()
                for c in extras:
                    self._unaside(c)
                self.exploration = list(reversed(order))
                self._x_merge(extras)
            else:
                self.shop_deck[:0] = list(reversed(order))
                self.shop_blocks.insert(0, (cands, len(order)))
        elif what == "select":
            self.selected[o[1]] = o[2]
        elif what == "insert":
            card, pos = o[1], o[2]
            self._unaside(card)
            self.exploration.insert(len(self.exploration) - pos, card)
            self._x_merge((card,))
        elif what == "roll":
            self._cavern_roll(o[1], o[2])
        elif what == "bottom":
            order = o[1]
            for c in order:
                self._unaside(c)
            self.exploration[:0] = list(reversed(order))
            self.exploration_blocks.insert(0, (tuple(sorted(order)), len(order)))
        elif what == "rtrash":
            seat, card = o[1], o[2]
            self.hand[seat].remove(card)
            self._hand_left(seat, card)
            self.trash.append(card)
        elif what == "deal":
            self._mishap_deal(o[1])
        else:
            raise AssertionError(f"unknown chance outcome {o!r}")

