"""Information (§20): per-seat observations and determinization from an observation.

``observation(state, seat)`` is the only way the state leaves the engine.  It has
two parts built from the same public/private split:

* readable fields (names, ``id#k``) for pages and people;
* ``"engine"``: the same information as compact ints, from which
  :func:`state_from_observation` rebuilds a full state for that seat.

What is never in a seat's observation: another seat's hand, any draw-pile
order, the exploration-pile order, the shop-deck order, which pool cards were
selected at setup (except the ones seen), another seat's sealed commitment or
trash choice, another seat's private knowledge.  What *is* included beyond the
table of §20.1 is only what every seat can derive from public history anyway
(§20.3, last paragraph): for each player the set "hand ∪ draw pile" (every
gain is public), the cards publicly known to be in a hand, and the public
block structure of the hidden piles (see docs/games/mountainhome.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ...core import CHANCE, RandomSource
from . import tables
from .bidding import Bid
from .constants import (
    A_BID,
    A_CHOOSE,
    A_REACT,
    A_TRASH,
    C_BALDUR,
    C_GOLEMS,
    C_REORG_PUT,
    P_CHOOSE,
    P_KARINA,
    P_LAGERTHA,
    P_TRASH,
    PROMPT_NAMES,
)

if TYPE_CHECKING:
    from .state import MountainhomeState


def _j(value: Any) -> Any:
    """Tuples -> lists, recursively (JSON shape)."""
    if isinstance(value, (tuple, list)):
        return [_j(v) for v in value]
    return value


def _t(value: Any) -> Any:
    """Lists -> tuples, recursively (back to the engine's immutable tasks)."""
    if isinstance(value, list):
        return tuple(_t(v) for v in value)
    return value


def _blocks(blocks: list[tuple[Any, ...]]) -> list[Any]:
    return [[list(cands), count] for cands, count in blocks]


def _unblocks(data: list[Any]) -> list[tuple[Any, ...]]:
    return [(tuple(cands), count) for cands, count in data]


def _pdata(state: StateBase) -> Any:
    return _j(state.prompt_data)  # chance prompts never hold hidden cards (see MountainhomeState.chance_cards)


def observation(state: StateBase, seat: int | None) -> dict[str, Any]:
    n = state.players
    names = state.names
    bid = state.bid
    revealed = bid is not None and bid.stage >= 2

    def nm(cards: list[int] | tuple[int, ...]) -> list[str]:
        return [names[c] for c in cards]

    hidden = [sorted(state.hand[s] + state.draw[s]) for s in range(n)]
    scores = state.scores()
    players = []
    for s in range(n):
        town = []
        for b in state.town[s]:
            town.append({
                "card": names[b],
                "steps": state.steps_done.get(b, 0),
                "of": len(tables.KSTEPS[state.kind[b]]),
                "finished": state.finished(b),
                "tapped": state.tapped.get(b, True),
                "stored": nm(state.stored.get(b, [])),
            })
        players.append({
            "seat": s,
            "legendary": tables.KID[state.legendaries[s]] if state.legendaries[s] >= 0 else None,
            "hand": nm(state.hand[s]) if seat == s else None,
            "hand_size": len(state.hand[s]),
            "hand_known": nm(state.hand_known[s]),
            "draw_size": len(state.draw[s]),
            "discard": nm(state.discard[s]),
            "town": town,
            "vp": scores[s],
            "tokens": state.vp_tokens[s],
        })
    to_move = list(state.to_move())
    prompt = PROMPT_NAMES.get(state.prompt, "none")
    pseat = state.prompt_seat
    pdata = _pdata(state)
    if state.prompt in (P_KARINA, P_LAGERTHA) and seat != state.prompt_seat:
        # §10.5: only the asked seat knows a reaction window is open
        prompt, to_move, pseat = "waiting", [], -1
        if state.prompt == P_LAGERTHA:
            pdata = None
    obs: dict[str, Any] = {
        "game": "mountainhome",
        "players": n,
        "options": dict(state.options),
        "viewer": seat,
        "prompt": prompt,
        "to_move": to_move,
        "round": state.round,
        "turn": state.turn,
        "active": state.active,
        "dwarves_found": state.dwarves_found,
        "end_at": n + 2,
        "resolve_at": n,
        "action_pool": dict(zip(tables.RES_NAMES, state.action_pool)),
        "seats": players,
        "shop": {"slots": [names[c] if c >= 0 else None for c in state.shop_slots], "deck_size": len(state.shop_deck)},
        "exploration_size": len(state.exploration),
        "area": [{"card": names[e], "counters": list(state.counters.get(e, []))} for e in state.shared_area],
        "fortress": nm(state.fortress_dwarves),
        "cavern": [{"card": names[c], "owner": o} for c, o in zip(state.cavern_dwarves, state.cavern_owners)],
        "trash": nm(state.trash),
        "aside": nm(state.aside_cards),
        "over": state.over,
        "turn_flags": {"bought": state.bought, "lair_used": state.lair_used, "offers_to": list(state.offers_to), "traded": state.traded},
        "vp_tie_play": {"on": state.vp_tie_play, "turns_left": state.vp_tie_turns_left},
    }
    if bid is not None:
        obs["bid"] = {
            "kind": ("dwarf", "party", "wizard")[bid.kind],
            "prize": names[bid.prize] if bid.prize >= 0 else None,
            "ready": list(bid.ready),
            "committed": [n > 0 for n in bid.commit_entries],  # who has sent a commit_bid (not what)
            "pools": [nm(p) for p in bid.pool] if revealed else None,
            "values": list(bid.values) if revealed else None,
            "my_commit": _commit_json(state, commit) if seat is not None and (commit := bid.commit[seat]) else None,
        }
    # ---- the compact engine section
    commits: list[Any] = []
    if bid is not None:
        for s in range(n):
            commits.append(_j(bid.commit[s]) if (revealed or s == seat) else None)
    eng: dict[str, Any] = {
        "extra": [[state.kind[i], state.kind_numbers[i]] for i in range(state.layout.nbase, len(state.kind))],
        "pk": state.prompt,
        "pseat": pseat,
        "pdata": pdata,
        "stack": _j(state.stack),
        "legend": list(state.legendaries),
        "hand": list(state.hand[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in state.hand],
        "draw_sizes": [len(d) for d in state.draw],
        "hidden": hidden,
        "disc": _j(state.discard),
        "town": _j(state.town),
        "prog": sorted([b, p] for b, p in state.steps_done.items()),
        "tapped": sorted([b, int(t)] for b, t in state.tapped.items()),
        "stored": sorted([b, list(c)] for b, c in state.stored.items()),
        "xsize": len(state.exploration),
        "shopsize": len(state.shop_deck),
        "slots": list(state.shop_slots),
        "trash": list(state.trash),
        "area": list(state.shared_area),
        "counters": sorted([e, list(c)] for e, c in state.counters.items()),
        "fortress": list(state.fortress_dwarves),
        "cav": list(state.cavern_dwarves),
        "cav_owner": list(state.cavern_owners),
        "aside": list(state.aside_cards),
        "aside_owner": list(state.aside_owners),
        "selected_pools": sorted(state.selected),
        "scalars": [
            state.round, state.turn, state.active, state.dwarves_found, state.action_pool[0], state.action_pool[1], state.action_pool[2], int(state.bought),
            int(state.lair_used), int(state.traded), state.pilings_pending, int(state.vp_tie_play), state.vp_tie_turns_left, int(state.over), state.actions_applied,
        ],
        "tokens": list(state.vp_tokens),
        "offers": list(state.offers_to),
        "doubled": list(state.doubled_kinds),
        "bid": _bid_json(state, bid, seat, commits) if bid is not None else None,
        "bid_stack": [_bid_json(state, b, seat, [_j(c) for c in b.commit]) for b in state.bid_stack],
        "xblocks": _blocks(state.exploration_blocks),
        "sblocks": _blocks(state.shop_blocks),
        "dblocks": [_blocks(b) for b in state.draw_blocks],
        "hknown": _j(state.hand_known),
        "private": _j(sorted(state.private_knowledge[seat].items())) if seat is not None else None,
    }
    obs["engine"] = eng
    return obs


def _commit_json(state: StateBase, commit: tuple[Any, ...]) -> dict[str, Any]:
    from .notation import Codec

    codec = Codec(state)
    return {"cards": [state.names[c] for c in commit[0]], "uses": [codec.use_json(u) for u in commit[1]]}


def _bid_json(state: StateBase, bid: Bid, seat: int | None, commits: list[Any]) -> dict[str, Any]:
    sealed_trash = state.prompt == P_TRASH and state.bid is bid
    return {
        "kind": bid.kind, "prize": bid.prize, "owner": bid.owner, "target": bid.target, "starter": bid.starter,
        "stage": bid.stage, "pool": _j(bid.pool), "bres": _j(bid.bid_resources), "commit": commits,
        "ready": [int(r) for r in bid.ready], "sizes": list(bid.sizes), "values": list(bid.values),
        "trashed": _j(bid.trashed),
        "choices": sorted([t, c] for t, c in bid.choices.items() if not sealed_trash or bid.loki_choosers.get(t, t) == seat),
        "chosen": sorted(bid.choices) if sealed_trash else None,
        "contenders": list(bid.contenders), "rounds": bid.rounds, "winner": bid.winner, "hut": list(bid.hut_extras),
        "conv": sorted([c, r] for c, r in bid.conversions.items()),
        "ygg": [int(x) for x in bid.ygg_revealed], "yggmark": [int(x) for x in bid.ygg_stopped], "losers": list(bid.losers),
        "queue": _j(bid.queue), "loki": sorted([v, c] for v, c in bid.loki_choosers.items()), "mishap": int(bid.mishap),
        "protected": [int(x) for x in bid.protected], "tapfa": [int(x) for x in bid.tapfa_on],
        "ncommit": list(bid.commit_entries), "mishappers": list(bid.mishap_committers), "wizstop": int(bid.wizard_stopped),
    }


def _bid_from(data: dict[str, Any], n: int) -> Bid:
    bid = Bid(n, data["kind"], data["prize"], data["starter"])
    bid.owner = data["owner"]
    bid.target = data["target"]
    bid.stage = data["stage"]
    bid.pool = [list(p) for p in data["pool"]]
    bid.bid_resources = [list(p) for p in data["bres"]]
    bid.commit = [_t(c) if c is not None else None for c in data["commit"]]
    bid.ready = [bool(r) for r in data["ready"]]
    bid.sizes = list(data["sizes"])
    bid.values = list(data["values"])
    bid.trashed = [list(t) for t in data["trashed"]]
    bid.choices = {t: c for t, c in data["choices"]}
    bid.contenders = list(data["contenders"])
    bid.rounds = data["rounds"]
    bid.winner = data["winner"]
    bid.hut_extras = list(data["hut"])
    bid.conversions = {c: r for c, r in data["conv"]}
    bid.ygg_revealed = [bool(x) for x in data["ygg"]]
    bid.ygg_stopped = [bool(x) for x in data["yggmark"]]
    bid.losers = list(data["losers"])
    bid.queue = [tuple(q) for q in data["queue"]]
    bid.loki_choosers = {v: c for v, c in data["loki"]}
    bid.mishap = bool(data["mishap"])
    bid.protected = [bool(x) for x in data["protected"]]
    bid.tapfa_on = [bool(x) for x in data["tapfa"]]
    bid.commit_entries = list(data["ncommit"])
    bid.mishap_committers = list(data["mishappers"])
    bid.wizard_stopped = bool(data["wizstop"])
    return bid


# ====================================================================== determinization


def _deal_blocks(blocks: list[tuple[Any, ...]], pool: set[int], forbidden: set[int], rng: RandomSource) -> list[list[int]] | None:
    """Cards for each block (bottom first) from ``pool``; None if the greedy deal fails."""
    order = sorted(range(len(blocks)), key=lambda i: len(blocks[i][0]))
    avail = set(pool)
    dealt: list[list[int]] = [[] for _ in blocks]
    for i in order:
        cands, count = blocks[i]
        choice = sorted(c for c in cands if c in avail and c not in forbidden)
        if len(choice) < count:
            return None
        picked = _sample(choice, count, rng)
        for c in picked:
            avail.discard(c)
        dealt[i] = picked
    return dealt


def _sample(items: list[int], k: int, rng: RandomSource) -> list[int]:
    """``k`` of ``items`` in random order: the last ``k`` steps of a Fisher-Yates shuffle (k draws, not len)."""
    items = list(items)
    n = len(items)
    stop = max(n - k, 1) - 1
    for i in range(n - 1, stop, -1):
        j = rng.randrange(i + 1)
        items[i], items[j] = items[j], items[i]
    return items[n - k:] if k else []


def _shuffled(items: list[int], rng: RandomSource) -> list[int]:
    return _sample(items, len(items), rng)


def state_from_observation(game: Any, obs: Mapping[str, Any], seat: int, rng: RandomSource) -> MountainhomeState:
    template, context = _parse(game, obs, seat)
    return _deal(template, context, seat, rng)


def determinizer(game: Any, obs: Mapping[str, Any], seat: int) -> Callable[[RandomSource], MountainhomeState]:
    """``rng -> state``: :func:`state_from_observation` with the observation parsed once.

    Every call clones the parsed template and deals the hidden cards afresh (ISMCTS deals one
    determinization per iteration).  ``determinizer(g, obs, seat)(rng)`` deals exactly what
    ``state_from_observation(g, obs, seat, rng)`` deals.
    """
    template, context = _parse(game, obs, seat)

    def deal(rng: RandomSource) -> MountainhomeState:
        return _deal(template.clone(), context, seat, rng)

    return deal


def _parse(game: Any, obs: Mapping[str, Any], seat: int) -> tuple[MountainhomeState, tuple[Any, ...]]:
    """Everything of the observation but the hidden cards: a template state and what the deal needs."""

    eng = obs["engine"]
    n = obs["players"]
    options = dict(obs["options"])
    state = game.blank_state(n, options)
    lay = state.layout
    for kind, num in eng["extra"]:
        state.kind.append(kind)
        state.kind_numbers.append(num)
        state.names.append(f"{tables.KID[kind]}#{num}")
        state.created[kind] = max(state.created.get(kind, 0), num)
    state.prompt = eng["pk"]
    state.prompt_seat = eng["pseat"]
    state.stack = list(_t(eng["stack"]))
    state.legendaries = list(eng["legend"])
    state.discard = [list(z) for z in eng["disc"]]
    state.town = [list(z) for z in eng["town"]]
    state.steps_done = {b: p for b, p in eng["prog"]}
    state.tapped = {b: bool(t) for b, t in eng["tapped"]}
    state.stored = {b: list(c) for b, c in eng["stored"]}
    state.shop_slots = list(eng["slots"])
    state.trash = list(eng["trash"])
    state.shared_area = list(eng["area"])
    state.counters = {e: list(c) for e, c in eng["counters"]}
    state.fortress_dwarves = list(eng["fortress"])
    state.cavern_dwarves = list(eng["cav"])
    state.cavern_owners = list(eng["cav_owner"])
    state.aside_cards = list(eng["aside"])
    state.aside_owners = list(eng["aside_owner"])
    (state.round, state.turn, state.active, state.dwarves_found, r, s_, b, bought, lair, traded, state.pilings_pending, tie, state.vp_tie_turns_left, over,
     state.actions_applied) = eng["scalars"]
    state.action_pool = [r, s_, b]
    state.bought, state.lair_used, state.traded = bool(bought), bool(lair), bool(traded)
    state.vp_tie_play, state.over = bool(tie), bool(over)
    state.vp_tokens = list(eng["tokens"])
    state.offers_to = list(eng["offers"])
    state.doubled_kinds = list(eng["doubled"])
    state.bid = _bid_from(eng["bid"], n) if eng["bid"] is not None else None
    state.bid_stack = [_bid_from(b, n) for b in eng["bid_stack"]]
    state.exploration_blocks = _unblocks(eng["xblocks"])
    state.shop_blocks = _unblocks(eng["sblocks"])
    state.draw_blocks = [_unblocks(b) for b in eng["dblocks"]]
    state.hand_known = [list(h) for h in eng["hknown"]]
    state.private_knowledge = [{} for _ in range(n)]
    if eng["private"] is not None:
        state.private_knowledge[seat] = {k: _t(v) for k, v in eng["private"]}

    state.prompt_data = _t(eng["pdata"])
    state.bid = _bid_from(eng["bid"], n) if eng["bid"] is not None else None
    # ---- a reaction window this seat cannot see: find who is asked, and keep the card in hand
    force: list[set[int]] = [set() for _ in range(n)]
    if state.prompt in (P_KARINA, P_LAGERTHA) and state.prompt_seat < 0:
        if state.prompt == P_KARINA:
            card = lay.legendary_inst[tables.KINDEX["karina"]]
            askable = [s for s in state.turn_order(state.prompt_data[0])[1:]]
        else:
            card = lay.legendary_inst[tables.KINDEX["lagertha"]]
            if state.prompt_data is None:
                victim, state.prompt_data = state.threat_context()
            else:
                victim = state.active
            askable = [victim]
        for s in askable:
            stored = any(card in state.stored.get(b, ()) for b in state.town[s])
            if stored or card in eng["hidden"][s]:
                state.prompt_seat = s
                if not stored:
                    force[s].add(card)
                break
        if state.prompt_seat < 0:
            raise ValueError(f"observation of seat {seat} shows a reaction window nobody can hold")

    if state.prompt == P_CHOOSE and state.prompt_data and state.prompt_data[0] == C_GOLEMS:
        force[state.prompt_seat].add(state.prompt_data[1])  # the drawn Rocks card waiting for its Golems choice

    state.hand = [[] for _ in range(n)]
    state.draw = [[] for _ in range(n)]
    state.shop_deck = []
    state.exploration = []
    state.selected = {}
    chosen = eng["bid"]["chosen"] if eng["bid"] is not None else None
    context = (eng["hidden"], eng["hand"], eng["hand_sizes"], eng["draw_sizes"], eng["selected_pools"], eng["xsize"],
               chosen, force)
    return state, context


def _deal(state: MountainhomeState, context: tuple[Any, ...], seat: int, rng: RandomSource) -> MountainhomeState:
    """Deal the hidden cards of a parsed template (in place) at random, agreeing with the observation."""
    hidden_sets, own_hand, hand_sizes, draw_sizes, selected_pools, xsize, chosen, force = context
    n = state.players
    lay = state.layout
    # ---- hands and draw piles
    state.hand = [[] for _ in range(n)]
    state.draw = [[] for _ in range(n)]
    for j in range(n):
        hidden = list(hidden_sets[j])
        if j == seat:
            hand = list(own_hand)
            pool = set(hidden) - set(hand)
            forbidden: set[int] = set()
        else:
            hand = []
            pool = set(hidden)
            forbidden = set(state.hand_known[j]) | force[j]
        blocks = list(state.draw_blocks[j])
        pinned: list[int] = []
        if j == seat:  # the cards this seat put back on top itself (Reorganisation), top first
            for card in state.private_knowledge[seat].get("top", ()):
                cands, count = blocks[-1]
                blocks[-1] = (cands, count - 1)
                if count == 1:
                    blocks.pop()
                pinned.append(card)
                pool.discard(card)
        dealt = None
        for _ in range(50):
            dealt = _deal_blocks(blocks, pool, forbidden, rng)
            if dealt is not None:
                break
        if dealt is None:
            raise ValueError(f"observation of seat {seat} is inconsistent: cannot deal seat {j}'s draw pile")
        draw: list[int] = []
        for cards in dealt:
            draw.extend(cards)  # already in random order (_sample)
        draw.extend(reversed(pinned))
        state.draw[j] = draw
        if j != seat:
            rest = sorted(set(hidden) - set(draw))
            known = [c for c in state.hand_known[j] if c in rest] + sorted(force[j] - set(state.hand_known[j]))
            others = _shuffled([c for c in rest if c not in known], rng)
            hand = known + others
        state.hand[j] = hand
        if len(hand) != hand_sizes[j] or len(draw) != draw_sizes[j]:
            raise ValueError(f"observation of seat {seat} is inconsistent about seat {j}'s hand and draw pile")

    # ---- shop deck
    shop: list[int] = []
    for cands, count in state.shop_blocks:
        shop.extend(_sample(list(cands), count, rng))
    state.shop_deck = shop

    # ---- pool selections and the exploration pile
    located: set[int] = set()
    for zone in (state.discard, state.town, state.hand, state.draw):
        for z in zone:
            located.update(z)
    for cards in state.stored.values():
        located.update(cards)
    located.update(state.trash, state.shared_area, state.fortress_dwarves, state.cavern_dwarves, state.aside_cards, (c for c in state.shop_slots if c >= 0))
    for each_bid in ([state.bid] if state.bid is not None else []) + state.bid_stack:
        for bid_pool in each_bid.pool:
            located.update(bid_pool)
    for known, _ in state.exploration_blocks:
        located.update(known)
    located.update(state.private_knowledge[seat].get("xtop", ()))  # seen by this seat (Baldur's look)
    state.selected = {}
    pools = {0: lay.dwarf_pool(state.legendaries) if all(k >= 0 for k in state.legendaries) else [], 1: lay.event_pool, 2: lay.recurring_pool}
    sizes = {0: tables.EXP["dwarves"][str(n)], 1: tables.EXP["events"][str(n)], 2: tables.EXP["recurring"][str(n)]}
    for p in selected_pools:
        members = pools[p]
        known = [c for c in members if c in located]
        unseen = [c for c in members if c not in located]
        state.selected[p] = tuple(sorted(known + _sample(unseen, sizes[p] - len(known), rng)))
    unknown: list[int] = []
    if len(state.selected) == 3:
        unknown = [c for c in lay.explore_resources + lay.fixed if c not in located]
        for p in range(3):
            unknown.extend(c for c in state.selected[p] if c not in located)
    unknown = _shuffled(sorted(unknown), rng)
    xp: list[int] = []
    xtop = list(state.private_knowledge[seat].get("xtop", ()))  # this seat's own knowledge of the top cards
    unknown = [c for c in unknown if c not in xtop]
    blocks = [(list(known), count) for known, count in state.exploration_blocks]
    pinned = []  # known top cards, top first, taken out of the blocks they sit in
    for card in xtop:
        known, count = blocks[-1]
        if card in known:
            known.remove(card)
        blocks[-1] = (known, count - 1)
        if count - 1 == 0:
            blocks.pop()
        pinned.append(card)
    for known, count in blocks:
        fill = unknown[: count - len(known)]
        unknown = unknown[count - len(known) :]
        xp.extend(_shuffled(known + fill, rng) if known else fill)  # ``unknown`` is shuffled already
    xp.extend(reversed(pinned))
    state.exploration = xp
    if len(xp) != xsize or (state.exploration_blocks and unknown):
        raise ValueError(f"observation of seat {seat} is inconsistent about the exploration pile ({len(xp)} cards dealt for {xsize}, {len(unknown)} unseen left: {[state.names[c] for c in unknown]})")
    if state.prompt == P_CHOOSE and state.prompt_data and state.prompt_data[0] == C_BALDUR and state.prompt_seat != seat:
        # another seat is looking at the top cards: in this deal, it sees the dealt ones
        m = min(5, len(state.exploration))
        state.private_knowledge[state.prompt_seat]["xtop"] = tuple(reversed(state.exploration[-m:]))
    bid = state.bid
    if bid is not None and bid.stage == 1:
        # another seat's sealed commitment (only "it has committed" is public): any cards it may commit,
        # each kept with probability 1/2 -- without this the deal would show it bidding nothing
        for j in range(n):
            if j != seat and bid.commit[j] is None and bid.commit_entries[j] > 0:
                bid.commit[j] = (tuple(c for c in state.commit_cards_available(j) if rng.randrange(2)), ())
    if state.bid is not None and chosen:
        for target in chosen:  # sealed trash choices of other seats: any eligible card
            if target not in state.bid.choices:  # sealed: another seat's trash choice, any eligible card
                eligible = state.eligible(target)
                state.bid.choices[target] = eligible[rng.randrange(len(eligible))]
    return state


if TYPE_CHECKING:
    from .base import StateBase
else:
    StateBase = object  # the state's fields and methods, for the type checker only (base.py)


class ObservationMixin(StateBase):
    """What each seat may see: the observation, what a seat sees of an event, and redacted record entries."""

    __slots__ = ()

    def observation(self, seat: int | None) -> dict[str, Any]:
        return observation(self, seat)

    # ------------------------------------------------------------------ what a seat sees of an event (ai/ismcts.py)

    def action_view(self, observer: int, seat: int, action: Any) -> Any:
        """What ``observer`` sees of ``seat`` doing ``action`` (``seat`` CHANCE: an outcome), before it is applied.

        The same split as :func:`_redact_event` (§20), on engine tuples: shuffle orders, pool selections,
        insert positions and Thorvald's bottom order are seen only as "that pile was shuffled"; another
        seat's ``commit_bid``, sealed ``trash`` choice, Reorganisation put-back and Baldur order only as
        "sealed"; a declined reaction window as nothing (one constant).  Everything else is public.
        What an event reveals *through its consequences* (cards drawn, the card explored) is not in
        the event: see :meth:`info_digest`.
        """
        if seat == CHANCE:
            what = action[0]
            if what == "shuffle":
                return ("shuffle", action[1])
            if what == "select":
                return ("select", action[1])
            if what == "insert":
                return ("insert", action[1])
            if what == "bottom":
                return ("bottom",)
            return action  # assign, roll, rtrash, deal: public
        if seat == observer:
            return action
        verb = action[0]
        if verb == A_BID or verb == A_TRASH:
            return ("sealed", verb)
        pk = self.prompt
        if pk == P_KARINA or pk == P_LAGERTHA:
            return action if verb == A_REACT else ("sealed",)
        if verb == A_CHOOSE and pk == P_CHOOSE and (action[1] == C_REORG_PUT or action[1] == C_BALDUR):
            return ("sealed", A_CHOOSE, action[1])
        return action

    def info_digest(self, observer: int) -> tuple[Any, ...]:
        """A cheap summary of what ``observer`` sees now (only parts of its observation).

        Used with :meth:`action_view` by ISMCTS to key nodes: after an event, this tells apart the
        outcomes the observer can tell apart through the event's consequences -- its own new hand
        after a draw, the explored card (discard piles, the set-aside cards, the shared area), shop
        refills, the trash, revealed bid pools and values.  Another seat's hand appears only as its
        size; a reaction window the observer is not asked about does not appear at all (§10.5).
        """
        pk = self.prompt
        pseat = self.prompt_seat
        if (pk == P_KARINA or pk == P_LAGERTHA) and pseat != observer:
            pk = pseat = -1
        bid = self.bid
        revealed = None
        if bid is not None and bid.stage >= 2:
            revealed = (tuple(map(tuple, bid.pool)), tuple(bid.values), bid.winner)
        trash = self.trash
        return (
            pk, pseat, tuple(sorted(self.hand[observer])), tuple(map(len, self.hand)), tuple(map(len, self.draw)),
            tuple(d[-1] if d else -1 for d in self.discard), tuple(map(len, self.discard)), tuple(self.shop_slots),
            tuple(self.aside_cards), tuple(self.shared_area), len(trash), trash[-1] if trash else -1, len(self.exploration),
            self.dwarves_found, tuple(self.action_pool), revealed,
        )



    def redact_event(self, event: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """The record entry as ``viewer`` may see it (§20, §23.1); called on the state just before it.

        Hidden from everyone while the match runs: shuffle orders, pool selections, insert positions and
        Thorvald's bottom order.  Hidden from other seats: a seat's ``commit_bid`` (shown as
        ``{"do": "commit_bid", "sealed": true}``), its sealed ``trash`` choices, its Reorganisation
        put-back and Baldur order, and a declined reaction window (``{"sealed": true}``, no seat: the
        service should not list it at all, since others see nothing when a window is declined).
        """
        if "chance" in event:
            data = event["chance"]
            kind = data.get("kind") if isinstance(data, dict) else None
            if kind in ("shuffle", "select", "bottom_order", "insert"):
                kept = {k: data[k] for k in ("kind", "pile", "pool", "card") if k in data}
                kept["sealed"] = True
                return {"chance": kept}
            return event
        seat = event.get("player")
        action = event.get("action")
        if seat == viewer or not isinstance(action, dict):
            return event
        verb = action.get("do")
        if verb in ("commit_bid", "trash"):
            return {"player": seat, "action": {"do": verb, "sealed": True}}
        if self.prompt in (P_KARINA, P_LAGERTHA) and verb == "pass":
            return {"sealed": True}
        if verb == "choose" and self.prompt == P_CHOOSE and self.prompt_data and self.prompt_data[0] in (C_REORG_PUT, C_BALDUR):
            return {"player": seat, "action": {"do": "choose", "sealed": True}}
        return event



