"""Per-game knowledge the search may use, each piece optional.

* ``EVALUATORS[game_id](state, margin_weight) -> reward vector``: a cheap
  estimate of an unfinished game, used when a rollout is cut off early
  (``MCTSConfig.rollout_depth``).  Games without one fall back to
  :func:`ai.reward.score_evaluation`.
* ``ITERATION_FACTOR[game_id]``: scales the levels' iteration caps.
* ``ROLLOUT_DEPTH[game_id]``: the levels' rollout cut-off in that game (default: play out).
* ``CHANCE_KEYS[game_id](outcome) -> outcome``: maps a chance outcome as the
  game *samples* it to the outcome as ``chance_outcomes()`` *lists* it, so that
  a tree kept between moves (tree reuse) can follow the real dice.  Mountain
  Goats samples ordered rolls (1,296) but lists the 126 sorted multisets,
  which give the same climbs.
"""

from __future__ import annotations

from collections.abc import Callable
from math import exp
from typing import Any

from engine.core import State

from .reward import _from_scores, score_evaluation, terminal_reward


def _mountain_goats(state: Any, margin_weight: float) -> list[float]:
    """Scores plus what each goat on the slopes is likely to earn.

    A goat on a summit takes a token of that mountain (worth its number) on
    each later climb there, while the stack lasts; a goat part-way up is
    worth a share of that.  The weights were tried against full rollouts with
    ``python -m benchmarks.arena`` (docs/AI.md, "Early-stopping rollouts").
    """
    if state.phase == 3:
        return terminal_reward(state, margin_weight)
    n = state.n
    pos = state.pos
    stacks = state.stacks
    est = list(state.score)
    for i in range(6):
        if not stacks[i]:
            continue
        m = 5 + i
        h = (4, 4, 3, 3, 2, 2)[i]
        for s in range(n):
            p = pos[6 * s + i]
            if p:
                est[s] += m * (1.0 if p == h else 0.35 * p / h)
    return _from_scores(est, margin_weight, 8.0)


def _mountainhome(state: Any, margin_weight: float) -> list[float]:
    """Victory points, plus part of what half-built buildings and a running auction will bring.

    * A building scores only when finished (projects also per step, which ``vp`` counts), so a
      half-built one is worth ``MH_HALF_BUILT`` times its VP times the share of steps done.
    * A dwarf auction still open (its commitments not yet revealed) gives the dwarf's VP to the
      seats in proportion to a logistic of each seat's committed bid value over the best other
      (``MH_BID_WIDTH`` value points wide); a Party costs the loser its Hangover.  Without this a
      rollout cut off before the reveal would see no reason to bid.  Each ``commit_bid`` entry
      costs ``MH_COMMIT_COST``: replacing a commitment is free in the rules, and without a cost
      the search would as soon change it again as say ``ready``.
    * The lead is turned into a win chance over ``MH_TEMPERATURE`` points.

    Tried against full rollouts with ``python -m benchmarks.arena`` (docs/AI.md, "Mountainhome").
    """
    if state.over:
        return terminal_reward(state, margin_weight)
    from engine.games.mountainhome import tables

    ksteps = tables.KSTEPS
    kfinished = tables.KVP_FINISHED
    kinds = state.kind
    steps_done = state.steps_done
    n = state.players
    est = []
    for s in range(n):
        v = float(state.vp(s))
        for b in state.town[s]:
            k = kinds[b]
            done = steps_done.get(b, 0)
            total = len(ksteps[k])
            if 0 < done < total:
                v += MH_HALF_BUILT * kfinished[k] * done / total
        est.append(v)
    bid = state.bid
    if bid is not None:
        for s in range(n):  # each commit_bid entry costs a little, or a search could re-commit forever
            est[s] -= MH_COMMIT_COST * bid.commit_entries[s]
    if bid is not None and bid.stage <= 1 and bid.kind <= 1:
        values = []
        for s in range(n):
            commit = bid.commit[s]
            values.append(sum(state.card_bid_value(c, s) for c in commit[0]) if commit else 0)
        if bid.kind == 0:
            win, lose = (float(tables.KVP_FIXED[kinds[bid.prize]]) or 0.5) if bid.prize >= 0 else 0.0, 0.0
        else:
            win, lose = 0.5, -1.0
        for s in range(n):
            lead = (values[s] - max(values[j] for j in range(n) if j != s)) / MH_BID_WIDTH
            lead = -30.0 if lead < -30.0 else 30.0 if lead > 30.0 else lead
            share = 1.0 / (1.0 + exp(-lead))
            est[s] += share * win + (1.0 - share) * lose
    return _from_scores(est, margin_weight, MH_TEMPERATURE)


MH_HALF_BUILT = 0.5
MH_TEMPERATURE = 3.0
MH_BID_WIDTH = 1.5
MH_COMMIT_COST = 0.05

EVALUATORS: dict[str, Callable[[State, float], list[float]]] = {
    "mountain-goats": _mountain_goats,
    "mountainhome": _mountainhome,
}


def _mountainhome_public(state: Any) -> tuple[Any, ...]:
    """What every seat sees of a Mountainhome position: ``info_digest`` without any seat's own view.

    The same parts as ``MountainhomeState.info_digest(observer)`` (view.py) except the observer's
    own hand, and with a reaction window (Karina, Lagertha) hidden, since only its seat is asked.
    ISMCTS keys the public tree with it, where every seat but the observer decides.
    """
    from engine.games.mountainhome.constants import P_KARINA, P_LAGERTHA

    pk = state.prompt
    pseat = state.prompt_seat
    if pk == P_KARINA or pk == P_LAGERTHA:
        pk = pseat = -1
    bid = state.bid
    revealed = None
    if bid is not None and bid.stage >= 2:
        revealed = (tuple(map(tuple, bid.pool)), tuple(bid.values), bid.winner)
    trash = state.trash
    return (
        pk, pseat, tuple(map(len, state.hand)), tuple(map(len, state.draw)),
        tuple(d[-1] if d else -1 for d in state.discard), tuple(map(len, state.discard)), tuple(state.shop_slots),
        tuple(state.aside_cards), tuple(state.shared_area), len(trash), trash[-1] if trash else -1,
        len(state.exploration), state.dwarves_found, tuple(state.action_pool), revealed,
    )


# ``PUBLIC_DIGESTS[game_id](state)``: with ``State.action_view``, a cheap summary of what *every* seat
# sees now; ISMCTS keys its public tree (the other seats' decisions) by it.  Without one the public tree
# is keyed by the spectator's observation (``observation(None)``) as canonical JSON.
PUBLIC_DIGESTS: dict[str, Callable[[Any], Any]] = {
    "mountainhome": _mountainhome_public,
}


def _mountainhome_moves(state: Any, seat: int, actions: list[Any]) -> list[Any]:
    """The moves the search considers: a sealed commitment is built once, in one order, then ``ready``.

    The rules let a seat replace its commitment as often as it likes before ``ready`` (§9.2 B3), and
    the engine lists each replacement as one step from the current commitment (one card or use added
    or removed).  To a search every such step is a move, so it can walk round and round the same
    commitments: each search from the new commitment is asked again whether to stop (``ready``) or
    move on, and "move on" is backed up with the best of everything reachable after it, so it keeps
    looking a little better than stopping (a max of noisy estimates), the more so the more iterations
    explore beyond it.  A 400-iteration bot made 78 ``commit_bid`` entries in one dwarf bid (docs/AI.md,
    "Why more iterations lost").  Every final commitment can be reached by adding its cards in
    increasing instance order and then its uses in their listed order, so the search keeps only
    those steps: ``ready``, adding a card above the last one while no use is listed yet, and adding a
    use at the end.  Removals and other orders are dropped: they only undo or re-order an earlier
    step.  The rules are unchanged (a human may still replace a commitment); only the bots' own
    candidate moves are fewer, and a bid takes at most as many entries as the commitment has parts.
    """
    if state.prompt != _MH_COMMIT or len(actions) <= 1:
        return actions
    current = state.bid.commit[seat]
    cards, uses = current if current else ((), ())
    ncards, nuses = len(cards), len(uses)
    last = cards[-1] if cards else -1
    kept: list[Any] = []
    for action in actions:
        if action[0] != _MH_BID:
            kept.append(action)
            continue
        new_cards, new_uses = action[1], action[2]
        if len(new_uses) == nuses + 1 and new_cards == cards:  # a use added at the end
            kept.append(action)
        elif not nuses and len(new_cards) == ncards + 1 and new_cards[-1] > last:  # a card, in order
            kept.append(action)
    return kept


def _mh_constants() -> tuple[int, int]:
    from engine.games.mountainhome.constants import A_BID, P_COMMIT

    return int(P_COMMIT), int(A_BID)


_MH_COMMIT, _MH_BID = _mh_constants()

# ``MOVE_FILTERS[game_id](state, seat, legal) -> moves``: the legal moves a search considers for
# ``seat`` (a subset, never empty when ``legal`` is not, and a function of what ``seat`` itself
# knows: its own legal moves and its own sealed commitment).  Games without one: every legal move.
# ``MCTSConfig.prune_moves`` (default on) applies it in ISMCTS's tree, rollouts and final choice.
MOVE_FILTERS: dict[str, Callable[[Any, int, list[Any]], list[Any]]] = {
    "mountainhome": _mountainhome_moves,
}


def move_filter_for(game_id: str) -> Callable[[Any, int, list[Any]], list[Any]] | None:
    return MOVE_FILTERS.get(game_id)


def _sorted_roll(outcome: Any) -> Any:
    return tuple(sorted(outcome)) if type(outcome) is tuple else outcome


CHANCE_KEYS: dict[str, Callable[[Any], Any]] = {
    "mountain-goats": _sorted_roll,
}


# A level's iteration cap is set for Mountain Goats; a game whose iterations
# cost more gets a smaller cap so that it takes about the level's seconds
# without a clock.  Measured with `python -m benchmarks.arena speed` on both games in
# one run (docs/AI.md, "Levels and budgets").
ITERATION_FACTOR: dict[str, float] = {
    "nanga-parbat": 0.2,
}

# A game may instead give each level's iteration cap outright (``--scale`` still multiplies it).
# Mountainhome: the rungs of docs/AI.md's ladder, measured with the move filter
# (``MOVE_FILTERS``); at about 1,300-2,500 iterations/s inside games, hard's 1,600 take 0.6-1.2 s
# of its 2 s, medium's 400 0.15-0.3 s of its 0.5 s.  Before the fix the caps were hard 400,
# medium 100, easy 20 (factor 0.05), because with clocks (about 5,000 vs 250 iterations) hard had
# lost 5 of 6 games to easy.
LEVEL_ITERATIONS: dict[str, dict[str, int]] = {
    "mountainhome": {"easy": 20, "medium": 400, "hard": 1600},
}


# Levels cut rollouts off after this many decisions (``MCTSConfig.rollout_depth``) in these games and
# score the position with the game's evaluator; other games play rollouts to the end.
ROLLOUT_DEPTH: dict[str, int] = {
    "mountainhome": 10,
}


def evaluator_for(game_id: str) -> Callable[[State, float], list[float]]:
    return EVALUATORS.get(game_id, score_evaluation)


def public_digest_for(game_id: str) -> Callable[[Any], Any] | None:
    return PUBLIC_DIGESTS.get(game_id)


def chance_key_for(game_id: str) -> Callable[[Any], Any] | None:
    return CHANCE_KEYS.get(game_id)
