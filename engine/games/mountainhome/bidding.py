"""Bids (§9): drawing, sealed commitments, the reveal, trash rounds, the winner and the prize.

A mixin of :class:`~engine.games.mountainhome.state.MountainhomeState`: it holds no state of its own.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from . import tables
from .constants import (
    A_CHOOSE,
    A_PASS,
    A_PLAYACT,
    BID_DWARF,
    BID_KINDS,
    BID_PARTY,
    BID_WIZARD,
    C_FOOLS,
    C_LOKI,
    C_MINECARTS,
    C_PILING,
    C_POLITICS,
    K_FOOLS,
    K_HUT,
    K_LOKI,
    K_MINECARTS,
    K_MISHAP,
    K_ORI,
    K_PANDA,
    K_PILING,
    K_POLITICS,
    K_TAPFA,
    K_YGG,
    P_COMMIT,
    P_HUT,
    P_NONE,
    P_ONBID,
    P_TRASH,
    T_BID_CLEANUP,
    T_BID_COMMIT,
    T_BID_DRAW,
    T_BID_END,
    T_BID_PRIZE,
    T_BID_REVEAL,
    T_BID_WINNER,
    T_CONV,
    T_DRAW,
    T_HANGOVER,
    T_HUT_TRASH,
    T_KEEP,
    T_LOKI,
    T_NOP,
    T_ONBID,
    T_ORI_TAKE,
    T_PARTY_EXPLORE,
    T_PROTECT,
    T_STEAL,
    T_THREATEN,
)
from .tables import BOOZE, ROCKS, SHINIES


class Bid:
    """One running bid (§9).  Copied by :meth:`clone`."""

    # The fields, declared once: the slots are made from these annotations (clone and key name each
    # one again, written out for speed; tests/engine/test_mountainhome_state_fields.py checks them).
    kind: int  # BID_DWARF, BID_PARTY or BID_WIZARD
    prize: int  # the dwarf, or the Wizard's building (-1: none)
    owner: int  # wizard: the owner of the building
    target: int  # wizard: the building
    starter: int  # the seat whose exploration or card started the bid
    stage: int  # 0 drawing, 1 sealed commitments, 2 and on: revealed
    pool: list[list[int]]  # per seat: the bid pool
    bid_resources: list[list[int]]  # per seat: rocks, shinies, booze gained in this bid (§5.3)
    commit: list[tuple[Any, ...] | None]  # per seat: the sealed commitment (cards, uses)
    ready: list[bool]
    sizes: list[int]  # hand sizes when the commitments began (§20.5: all the others see of B3)
    values: list[int]  # per seat: the bid value (§9.3)
    trashed: list[list[int]]  # per seat: the bid value of each trashed card, per round
    choices: dict[int, int]  # target seat -> trashed card (sealed until all chose)
    contenders: list[int]  # seats choosing in the current trash round
    rounds: int  # tie-break rounds so far
    winner: int
    hut_extras: list[int]  # per seat: the Witch's Hut extras drawn (§9.2 B2)
    conversions: dict[int, int]  # card -> counted resource type (Tapfa, Piling, Fool's Gold)
    ygg_revealed: list[bool]  # per seat: revealed a Ygg (protected from B5 on)
    ygg_stopped: list[bool]  # per seat: a Ygg stopped something
    losers: list[int]  # the worst losers (party)
    queue: list[tuple[int, int]]  # On Bid texts still to resolve: (seat, card)
    loki_choosers: dict[int, int]  # victim -> the seat that makes its trash choices
    mishap: bool  # a Logistical Mishap resolved
    protected: list[bool]  # B10: kept out of the Mishap deal / the Wizard move stopped
    tapfa_on: list[bool]  # per seat: Tapfa counts its printed Rocks as Shinies
    commit_entries: list[int]  # per seat: commit_bid entries so far (public: sealed entries are listed)
    mishap_committers: list[int]
    wizard_stopped: bool  # the Wizard move was stopped (N7)

    __slots__ = tuple(__annotations__)

    def __init__(self, players: int, kind: int, prize: int, starter: int) -> None:
        self.kind = kind
        self.prize = prize
        self.owner = -1
        self.target = -1
        self.starter = starter
        self.stage = 0
        self.pool = [[] for _ in range(players)]
        self.bid_resources = [[0, 0, 0] for _ in range(players)]
        self.commit = [None] * players
        self.ready = [False] * players
        self.sizes = []
        self.values = [0] * players
        self.trashed = [[] for _ in range(players)]
        self.choices = {}
        self.contenders = []
        self.rounds = 0
        self.winner = -1
        self.hut_extras = [0] * players
        self.conversions = {}
        self.ygg_revealed = [False] * players
        self.ygg_stopped = [False] * players
        self.losers = []
        self.queue = []
        self.loki_choosers = {}
        self.mishap = False
        self.protected = [False] * players
        self.tapfa_on = [False] * players
        self.commit_entries = [0] * players
        self.mishap_committers = []
        self.wizard_stopped = False

    def clone(self) -> Bid:
        other = Bid.__new__(Bid)
        other.kind = self.kind
        other.prize = self.prize
        other.owner = self.owner
        other.target = self.target
        other.starter = self.starter
        other.stage = self.stage
        other.pool = [p[:] for p in self.pool]
        other.bid_resources = [p[:] for p in self.bid_resources]
        other.commit = self.commit[:]
        other.ready = self.ready[:]
        other.sizes = self.sizes[:]
        other.values = self.values[:]
        other.trashed = [t[:] for t in self.trashed]
        other.choices = dict(self.choices)
        other.contenders = self.contenders[:]
        other.rounds = self.rounds
        other.winner = self.winner
        other.hut_extras = self.hut_extras[:]
        other.conversions = dict(self.conversions)
        other.ygg_revealed = self.ygg_revealed[:]
        other.ygg_stopped = self.ygg_stopped[:]
        other.losers = self.losers[:]
        other.queue = self.queue[:]
        other.loki_choosers = dict(self.loki_choosers)
        other.mishap = self.mishap
        other.protected = self.protected[:]
        other.tapfa_on = self.tapfa_on[:]
        other.commit_entries = self.commit_entries[:]
        other.mishap_committers = self.mishap_committers[:]
        other.wizard_stopped = self.wizard_stopped
        return other

    def key(self) -> tuple[Any, ...]:
        return (
            self.kind, self.prize, self.owner, self.target, self.starter, self.stage,
            tuple(map(tuple, self.pool)), tuple(map(tuple, self.bid_resources)), tuple(self.commit),
            tuple(self.ready), tuple(self.sizes), tuple(self.values), tuple(map(tuple, self.trashed)),
            tuple(sorted(self.choices.items())), tuple(self.contenders), self.rounds, self.winner,
            tuple(self.hut_extras), tuple(sorted(self.conversions.items())), tuple(self.ygg_revealed), tuple(self.ygg_stopped),
            tuple(self.losers), tuple(self.queue), tuple(sorted(self.loki_choosers.items())), self.mishap,
            tuple(self.protected), tuple(self.tapfa_on), tuple(self.commit_entries), tuple(self.mishap_committers), self.wizard_stopped,
        )




if TYPE_CHECKING:
    from .base import StateBase, TaskEntry
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class BiddingMixin(StateBase):
    __slots__ = ()

    # ------------------------------------------------------------------ bids (§9)

    def start_bid(self, kind: int, prize: int, starter: int) -> None:
        if self.bid is not None:
            self.bid_stack.append(self.bid)
        self.bid = Bid(self.players, kind, prize, starter)
        if prize >= 0 and prize not in self.aside_cards:
            self._set_aside(prize, -1)
        self.stack.append((T_BID_COMMIT,))
        for seat in reversed(self.turn_order(self.active)):
            self.stack.append((T_BID_DRAW, seat, 0))

    def _t_bid_draw(self, task: TaskEntry) -> None:
        _, seat, phase = task
        if phase == 0:
            self.stack.append((T_BID_DRAW, seat, 1))
            self.stack.append((T_DRAW, seat, tables.BID_DRAW))
        elif self.own_building(seat, K_HUT) >= 0:
            self._prompt(P_HUT, seat)

    def _t_bid_commit(self, task: TaskEntry) -> None:
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        bid.stage = 1
        bid.sizes = [len(h) for h in self.hand]
        self._prompt(P_COMMIT)

    def _t_bid_reveal(self, task: TaskEntry) -> None:
        """B4: all commitments become public; the uses run in turn order (task = (_, i, u))."""
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        order = self.turn_order(self.active)
        _, i, u = task
        if i == 0 and u == 0:
            bid.stage = 2
            for seat in order:
                commit = bid.commit[seat]
                if commit is None:
                    continue
                for card in commit[0]:
                    self.take_from_hand_or_store(seat, card)
                    bid.pool[seat].append(card)
        while i < len(order):
            seat = order[i]
            commit = bid.commit[seat]
            uses = commit[1] if commit is not None else ()
            while u < len(uses):
                use = uses[u]
                u += 1
                if self._bid_use(seat, use):
                    self.stack.append((T_BID_REVEAL, i, u))
                    self.stack.append((T_DRAW, seat, tables.HOARD_DRAW))
                    return
            i += 1
            u = 0
        self._on_bid()

    def _bid_use(self, seat: int, use: tuple[Any, ...]) -> bool:
        """Carry out one resource use at B4; True when it needs a draw (a Hoard)."""
        assert self.bid is not None  # a bid is running (narrows Bid | None)
        bres = self.bid.bid_resources[seat]
        if use[0] == 0:  # tap
            b = use[1]
            kind = self.kind[b]
            self.tapped[b] = True
            if kind in tables.PRODUCER:
                res, amount, _ = tables.PRODUCER[kind]
                bres[res] += amount * (2 if kind in self.doubled_kinds and seat == self.active else 1)
            else:
                res, mult = tables.MULTIPLIER[kind]
                bres[res] += (mult - 1) * use[2]
            return False
        if use[0] == 1:  # pawn
            b, card = use[1], use[2]
            self.take_from_hand_or_store(seat, card)
            old = self.stored.get(b)
            if old:
                self.discard[seat].extend(old)
            self.stored[b] = [card]
            self.tapped[b] = True
            bres[SHINIES] += self.card_value(card)
            return False
        card = use[1]  # hoard
        self.hand[seat].remove(card)
        self._hand_left(seat, card)
        self.trash.append(card)
        bres[use[2]] += tables.HOARD_GAIN
        return True

    def _on_bid(self) -> None:
        """B5: Ygg protection, then the On Bid texts one card at a time (§9.4, MH-51)."""
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        kinds = self.kind
        queue = []
        for seat in self.turn_order(self.active):
            commit = bid.commit[seat]
            for card in commit[0] if commit is not None else ():
                kind = kinds[card]
                if kind == K_YGG:
                    bid.ygg_revealed[seat] = True
                if kind == K_MISHAP and seat not in bid.mishap_committers:
                    bid.mishap_committers.append(seat)
                if kind in tables.ON_BID:
                    queue.append((seat, card))
        bid.queue = queue
        self.stack.append((T_ONBID,))

    def _t_onbid(self, task: TaskEntry) -> None:
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        if not bid.queue:
            self._bid_values()
            bid.contenders = list(range(self.players))
            self._open_trash_round()
            return
        seat, card = bid.queue.pop(0)
        self.stack.append((T_ONBID,))
        kind = self.kind[card]
        if kind == K_ORI:
            self.stack.append((T_ORI_TAKE, seat, tables.ORI_DRAW))
        elif kind == K_TAPFA:
            bid.tapfa_on[seat] = True
        elif kind == K_PILING:
            self._prompt(P_ONBID, seat, (C_PILING, card))
        elif kind == K_FOOLS:
            self._prompt(P_ONBID, seat, (C_FOOLS, card))
        elif kind == K_LOKI:
            self._prompt(P_ONBID, seat, (C_LOKI, card))
        elif kind == K_POLITICS:
            if self._politics_targets(seat):
                self._prompt(P_ONBID, seat, (C_POLITICS, card))
        elif kind == K_MINECARTS:
            for p in reversed(self.turn_order(self.active)):
                keep = (T_KEEP, p)
                if p == seat:
                    self.stack.append(keep)
                else:
                    self.stack.append((T_THREATEN, p, 5, keep, seat))
        elif kind == K_MISHAP:
            bid.mishap = True
        # Ygg: nothing at resolution; its protection started at B5 and its fate is decided in cleanup

    def _politics_targets(self, seat: int) -> list[int]:
        assert self.bid is not None  # a bid is running (narrows Bid | None)
        kinds = self.kind
        return [
            c for s in range(self.players) if s != seat for c in self.bid.pool[s] if not tables.IS_DWARF[kinds[c]]
        ]

    def _pool_of(self, card: int) -> int:
        assert self.bid is not None  # a bid is running (narrows Bid | None)
        for s, pool in enumerate(self.bid.pool):
            if card in pool:
                return s
        return -1

    def _t_ori_take(self, task: TaskEntry) -> None:
        """Ori's On Bid: the top cards of the draw pile join the pool; not a draw (MH-55)."""
        assert self.bid is not None  # a bid is running (narrows Bid | None)
        _, seat, n = task
        if n <= 0:
            return
        if not self.draw[seat]:
            if not self.discard[seat]:
                return
            self.stack.append(task)
            self._chance(("shuffle", seat, tuple(self.discard[seat])))
            return
        card = self._draw_pop(seat, to_hand=False)
        self.bid.pool[seat].append(card)
        if n > 1:
            self.stack.append((T_ORI_TAKE, seat, n - 1))

    def _t_keep(self, task: TaskEntry) -> None:
        self._prompt(P_ONBID, task[1], (C_MINECARTS,))

    def _t_conv(self, task: TaskEntry) -> None:
        assert self.bid is not None  # a bid is running (narrows Bid | None)
        self.bid.conversions[task[1]] = task[2]

    def _t_loki(self, task: TaskEntry) -> None:
        assert self.bid is not None  # a bid is running (narrows Bid | None)
        self.bid.loki_choosers[task[1]] = task[2]

    def _t_steal(self, task: TaskEntry) -> None:
        assert self.bid is not None  # a bid is running (narrows Bid | None)
        _, card, victim, thief = task
        if card in self.bid.pool[victim]:
            self.bid.pool[victim].remove(card)
            self.bid.pool[thief].append(card)

    def _t_protect(self, task: TaskEntry) -> None:
        """A stopped N6 keeps the seat out of the Mishap deal; a stopped N7 keeps its building."""
        assert self.bid is not None  # a bid is running (narrows Bid | None)
        if task[2] == 7:
            self.bid.wizard_stopped = True
        else:
            self.bid.protected[task[1]] = True

    def _t_nop(self, task: TaskEntry) -> None:
        return

    def _t_panda_move(self, task: TaskEntry) -> None:
        _, card, to = task
        self.trash.remove(card)
        self.discard[to].append(card)

    def panda_eligible(self, card: int) -> bool:
        kind = self.kind[card]
        return not (tables.IS_ACTION[kind] or tables.KFAMILY[kind] == "event" or kind == K_PANDA)

    def panda_problem(self, seat: int, card: int, moves: Any) -> str:
        if card not in self.hand[seat] or self.kind[card] != K_PANDA:
            return "that card is not a Trash Panda in your hand"
        if not isinstance(moves, tuple) or len(moves) > 3:
            return "Trash Panda moves 0 to 3 cards"
        cards = [m[0] for m in moves]
        if len(set(cards)) != len(cards):
            return "a card is moved twice"
        for c, to in moves:
            if c not in self.trash or not self.panda_eligible(c):
                return f"{self.names[c]} is not a card Trash Panda may take from the trash"
            if not 0 <= to < self.players:
                return f"seat {to} does not exist"
            if tables.IS_PROJECT[self.kind[c]] and self.owns_project(to):
                return f"seat {to} already owns a project (MH-65)"
        return ""

    def _panda_plays(self, seat: int, card: int) -> list[tuple[Any, ...]]:
        """Panda plays up to symmetry: identical cards in the trash are taken lowest-numbered first."""
        from itertools import combinations_with_replacement, product

        by_kind: dict[int, list[int]] = {}
        for c in self.trash:
            if self.panda_eligible(c):
                by_kind.setdefault(self.kind[c], []).append(c)
        for cards in by_kind.values():
            cards.sort(key=lambda c: self.kind_numbers[c])
        kinds = sorted(by_kind)
        plays = []
        for k in range(4):
            for combo in combinations_with_replacement(kinds, k):
                if any(combo.count(x) > len(by_kind[x]) for x in set(combo)):
                    continue
                picked = []
                for x in sorted(set(combo)):
                    picked.extend(by_kind[x][: combo.count(x)])
                picked.sort()
                dests = [range(self.players) if self.kind[c] == tables.HANGOVER else (seat,) for c in picked]
                for to in product(*dests):
                    moves = tuple(zip(picked, to))
                    if all(not (tables.IS_PROJECT[self.kind[c]] and self.owns_project(d)) for c, d in moves):
                        plays.append((A_PLAYACT, card, moves, self.actions_applied))
        return plays

    def _onbid_actions(self, seat: int) -> list[tuple[Any, ...]]:
        d = self.prompt_data
        what = d[0]
        kinds = self.kind
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        if what == C_PILING:
            return [(A_PASS,)] + [(A_CHOOSE, C_PILING, c) for c in bid.pool[seat] if tables.KVALUE_RES[kinds[c]] == ROCKS]
        if what == C_FOOLS:
            return [(A_PASS,)] + [
                (A_CHOOSE, C_FOOLS, c) for p in bid.pool for c in p if tables.KVALUE_RES[kinds[c]] == SHINIES
            ]
        if what == C_LOKI:
            return [(A_CHOOSE, C_LOKI, s) for s in range(self.players) if s != seat]
        if what == C_POLITICS:
            return [(A_CHOOSE, C_POLITICS, c) for c in self._politics_targets(seat)]
        if what == C_MINECARTS:
            res = sorted(c for c in bid.pool[seat] if tables.IS_RESOURCE[kinds[c]])
            return [(A_CHOOSE, C_MINECARTS, keep) for k in range(min(3, len(res)) + 1) for keep in combinations(res, k)]
        raise AssertionError(f"unknown On Bid prompt {what}")

    def _apply_onbid(self, seat: int, a: tuple[Any, ...]) -> None:
        d = self.prompt_data
        what = d[0]
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        self.prompt = P_NONE
        if a[0] == A_PASS:
            return
        if what == C_PILING:
            bid.conversions[a[2]] = SHINIES
        elif what == C_FOOLS:
            card = a[2]
            victim = self._pool_of(card)
            if victim == seat:
                bid.conversions[card] = ROCKS
            else:
                self._threaten(victim, 4, (T_CONV, card, ROCKS), seat)
        elif what == C_LOKI:
            self._threaten(a[2], 2, (T_LOKI, a[2], seat), seat)
        elif what == C_POLITICS:
            card = a[2]
            self._threaten(self._pool_of(card), 3, (T_STEAL, card, self._pool_of(card), seat), seat)
        elif what == C_MINECARTS:
            keep = set(a[2])
            kinds = self.kind
            stay = []
            for c in bid.pool[seat]:
                if tables.IS_RESOURCE[kinds[c]] and c not in keep:
                    self.discard[seat].append(c)
                else:
                    stay.append(c)
            bid.pool[seat] = stay

    def counted_type(self, card: int, seat: int = -1) -> int:
        """A card's type for bid values: printed, unless Piling, Fool's Gold or Tapfa convert it."""
        bid = self.bid
        printed = tables.KVALUE_RES[self.kind[card]]
        if bid is None:
            return printed
        if card in bid.conversions:
            return bid.conversions[card]
        if printed == ROCKS and seat >= 0 and bid.tapfa_on[seat]:
            return SHINIES
        return printed

    def card_bid_value(self, card: int, seat: int = -1) -> int:
        assert self.bid is not None  # a bid is running (narrows Bid | None)
        res = self.counted_type(card, seat)
        if res >= 0 and res in tables.CURRENCY[BID_KINDS[self.bid.kind]]:
            return self.card_value(card)
        return 0

    def _bid_values(self) -> None:
        """B6 (§9.3)."""
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        currency = tables.CURRENCY[BID_KINDS[bid.kind]]
        for seat in range(self.players):
            value = sum(self.card_bid_value(c, seat) for c in bid.pool[seat])
            value += sum(bid.bid_resources[seat][r] for r in currency)
            if BOOZE in currency:
                value += tables.DISTILLERY_BONUS * sum(
                    1 for b in self.town[seat] if self.kind[b] == tables.DISTILLERY and self.finished(b)
                )
            if bid.kind == BID_WIZARD and seat == bid.owner:
                value += tables.WIZARD_BONUS
            bid.values[seat] = value

    def eligible(self, seat: int) -> list[int]:
        """Cards ``seat`` may trash from its bid pool (MH-53)."""
        assert self.bid is not None  # a bid is running (narrows Bid | None)
        kinds = self.kind
        return [
            c for c in self.bid.pool[seat]
            if not tables.IS_DWARF[kinds[c]] and kinds[c] not in tables.TRASH_INELIGIBLE_IDS
        ]

    def _trash_targets(self) -> list[int]:
        assert self.bid is not None  # a bid is running (narrows Bid | None)
        return [s for s in self.bid.contenders if self.eligible(s)]

    def _trash_choosers(self) -> list[int]:
        assert self.bid is not None  # a bid is running (narrows Bid | None)
        loki = self.bid.loki_choosers
        return sorted({loki.get(t, t) for t in self._trash_targets()})

    def _trash_done(self, chooser: int) -> bool:
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        return all(t in bid.choices for t in self._trash_targets() if bid.loki_choosers.get(t, t) == chooser)

    def _open_trash_round(self) -> None:
        if self._trash_targets():
            self._prompt(P_TRASH)
        else:
            self._reveal_trash()

    def _reveal_trash(self) -> None:
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        for seat in self.turn_order(self.active):
            if seat not in bid.contenders:
                continue
            card = bid.choices.get(seat, -1)
            if card < 0:
                bid.trashed[seat].append(0)
                continue
            bid.trashed[seat].append(self.card_bid_value(card, seat))
            bid.pool[seat].remove(card)
            self.trash.append(card)
        bid.choices = {}
        self.prompt = P_NONE
        self.stack.append((T_BID_WINNER,))

    def _t_bid_winner(self, task: TaskEntry) -> None:
        """B8 and the tie-break rounds (§9.5)."""
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        r = bid.rounds
        if r == 0:
            top = max(bid.values)
            if top == 0:
                return self._bid_decided(-1)
            tied = [s for s in range(self.players) if bid.values[s] == top]
            if len(tied) == 1:
                return self._bid_decided(tied[0])
        else:
            tied = bid.contenders
        best = max(bid.trashed[s][r] for s in tied)
        tied = [s for s in tied if bid.trashed[s][r] == best]
        if len(tied) == 1:
            return self._bid_decided(tied[0])
        if not any(self.eligible(s) for s in tied):
            return self._bid_decided(-1)
        bid.rounds = r + 1
        bid.contenders = tied
        self._open_trash_round()

    def _bid_decided(self, winner: int) -> None:
        """After B8: B9 worst loser, B10 protection, B11 cleanup, B12 prize, B13 return."""
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        bid.winner = winner
        bid.stage = 3
        self.stack.append((T_BID_END,))
        order = self.turn_order(self.active)
        if bid.kind == BID_DWARF:
            self.stack.append((T_BID_PRIZE,))
        elif bid.kind == BID_PARTY:
            bid.losers = self._worst_losers()
            if winner >= 0:
                self.stack.append((T_PARTY_EXPLORE, winner))
            for seat in reversed(order):
                if seat in bid.losers:
                    self.stack.append((T_THREATEN, seat, 9, (T_HANGOVER, seat), -1))
        else:
            self.stack.append((T_BID_PRIZE,))
        self.stack.append((T_BID_CLEANUP,))
        # B10: end-of-bid protection, each affected player in turn order (pushed in reverse)
        threats: list[tuple[int, int, int]] = []
        if bid.mishap:
            threats.extend((p, 6, -1) for p in order if p not in bid.mishap_committers)
        if bid.kind == BID_WIZARD and winner >= 0 and winner != bid.owner:
            threats.append((bid.owner, 7, bid.starter))
        for victim, code, source in reversed(threats):
            self.stack.append((T_THREATEN, victim, code, (T_NOP, victim, code), source, (T_PROTECT, victim, code)))

    def _worst_losers(self) -> list[int]:
        """§9.6 (MH-14)."""
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        others = [s for s in range(self.players) if s != bid.winner]
        low = min(bid.values[s] for s in others)
        tied = [s for s in others if bid.values[s] == low]
        if len(tied) > 1:
            worst = min(bid.trashed[s][0] if bid.trashed[s] else 0 for s in tied)
            tied = [s for s in tied if (bid.trashed[s][0] if bid.trashed[s] else 0) == worst]
        return tied

    def _t_bid_cleanup(self, task: TaskEntry) -> None:
        """B11 (§9.7): self-trashing cards, remaining cards home, Hut trashes, resources emptied."""
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        kinds = self.kind
        for seat in range(self.players):
            keep = []
            for c in bid.pool[seat]:
                if kinds[c] == K_POLITICS:
                    self.trash.append(c)
                elif kinds[c] == K_YGG:
                    (self.discard[seat] if bid.ygg_stopped[seat] else self.trash).append(c)
                else:
                    keep.append(c)
            bid.pool[seat] = keep
        deal: list[int] = []
        for seat in range(self.players):
            if bid.mishap and not (bid.protected[seat] and seat not in bid.mishap_committers):
                for c in bid.pool[seat]:
                    (self.discard[seat] if tables.IS_DWARF[kinds[c]] else deal).append(c)
            else:
                self.discard[seat].extend(bid.pool[seat])
            bid.pool[seat] = []
            bid.bid_resources[seat] = [0, 0, 0]
        for seat in reversed(self.turn_order(self.active)):
            if bid.hut_extras[seat]:
                self.stack.append((T_HUT_TRASH, seat, bid.hut_extras[seat]))
        if deal:
            for c in deal:
                self._set_aside(c, -1)
            self._chance(("deal", tuple(sorted(deal))))

    def _mishap_deal(self, order: tuple[Any, ...]) -> None:
        """§9.7: card i goes to the i-th unprotected player, in turn order from the active player."""
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        targets = [p for p in self.turn_order(self.active) if not (bid.protected[p] and p not in bid.mishap_committers)]
        for i, c in enumerate(order):
            self._unaside(c)
            self.discard[targets[i % len(targets)]].append(c)

    def _t_hut_trash(self, task: TaskEntry) -> None:
        _, seat, left = task
        if left <= 0 or not any(not tables.IS_DWARF[self.kind[c]] for c in self.hand[seat]):
            return
        self.stack.append((T_HUT_TRASH, seat, left - 1))
        self._chance(("rtrash", seat))

    def _t_bid_prize(self, task: TaskEntry) -> None:
        """B12 (§9.8) for a dwarf bid and a Wizard bid."""
        bid = self.bid
        assert bid is not None  # a bid is running (narrows Bid | None)
        if bid.kind == BID_WIZARD:
            b, owner, winner = bid.target, bid.owner, bid.winner
            if winner < 0 or winner == owner or bid.wizard_stopped or b not in self.town[owner]:
                return
            if tables.IS_PROJECT[self.kind[b]] and self.owns_project(winner):
                return  # MH-84
            self.town[owner].remove(b)
            self.town[winner].append(b)
            stored = self.stored.get(b)
            if stored:
                dwarves = [c for c in stored if tables.IS_DWARF[self.kind[c]]]
                self.discard[owner].extend(dwarves)
                self.stored[b] = [c for c in stored if not tables.IS_DWARF[self.kind[c]]]
            return
        self._unaside(bid.prize)
        if bid.winner >= 0:
            self.discard[bid.winner].append(bid.prize)
            self.dwarves_found += 1
        else:
            self._x_bottom(bid.prize)

    def _t_bid_end(self, task: TaskEntry) -> None:
        self.bid = self.bid_stack.pop() if self.bid_stack else None

