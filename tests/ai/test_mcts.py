"""MCTS over the engine protocol: reproducibility, legality, tactics, chance, max^n."""

from __future__ import annotations

import random

import pytest
from toys import ThreeSeatTree, deal

from ai import LEVELS, choose_move
from ai.bots import choose_action
from ai.mcts import MCTS, MCTSConfig
from engine import get_game
from engine.core import CHANCE, TERMINAL
from engine.games.mountain_goats import LEGAL_CLIMBS, PHASE_CLIMB, ROLL_OUTCOMES

MG = get_game("mountain-goats")


def _first_decision(players: int, seed: int):
    state = MG.new_initial_state(players)
    rng = random.Random(seed)
    while state.current_player() == CHANCE:
        state.apply(CHANCE, state.sample_chance(rng))
    return state


def test_the_same_seed_gives_the_same_move() -> None:
    state = _first_decision(2, 7)
    seat = state.current_player()
    obs = state.observation(seat)
    config = MCTSConfig(iterations=300)
    moves = {repr(choose_action(MG, obs, seat, level="hard", seed=11, config=config)) for _ in range(3)}
    assert len(moves) == 1
    first = choose_move("mountain-goats", obs, seat, level="easy", seed=5, clock=None)
    again = choose_move("mountain-goats", obs, seat, level="easy", seed=5, clock=None)
    assert first == again and "climb" in first


def test_a_search_reads_no_clock_without_one() -> None:
    searcher = MCTS("mountain-goats", MCTSConfig(iterations=50, seconds=0.0), seed=1)
    searcher.search(_first_decision(2, 3))
    assert searcher.iterations_done == 50  # seconds are ignored with no clock


def test_the_time_budget_stops_the_search() -> None:
    ticks = iter(range(10**6))
    searcher = MCTS("mountain-goats", MCTSConfig(iterations=10**6, seconds=5), seed=1, clock=lambda: next(ticks))
    searcher.search(_first_decision(2, 3))
    assert searcher.iterations_done == 5  # one tick per iteration, a 5-tick budget


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_only_play_legal_moves_to_the_end(players: int) -> None:
    state = MG.new_initial_state(players)
    rng = random.Random(players)
    levels = ["random", "easy"]
    config = MCTSConfig(iterations=25)
    moves = 0
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        seat = state.current_player()
        level = levels[seat % 2]
        obs = state.observation(seat)
        if level == "random":
            move = choose_move("mountain-goats", obs, seat, level="random", seed=moves)
        else:
            move = state.action_to_json(seat, choose_action(MG, obs, seat, level="easy", seed=moves, config=config))
        state.apply_event({"player": seat, "action": move})  # the checked path raises on an illegal move
        moves += 1
        assert moves < 2000
    assert state.winners()


def _last_turn_position():
    """Seat 0 plays the last turn of the game, 5 points behind.

    Its goat on mountain 10 is one step below the summit; the roll 4-6-2-3
    can make 10 (4+6), which takes a 10 token and wins 60-55.  Every climb
    without a 10 scores nothing and loses.
    """
    state = MG.new_initial_state(2)
    state.first = 1
    state.seat = 0
    state.phase = PHASE_CLIMB
    state.turns = 40
    state.pos[5] = 1  # seat 0, mountain 10 (height 2)
    state.stacks = [4, 3, 2, 2, 1, 1]
    state.empty = 0
    state.score = [50, 55]
    state.ended = True
    state.roll = (4, 6, 2, 3)
    state.actions = LEGAL_CLIMBS[state.roll]
    return state


def _wins(state, action) -> bool:
    after = state.clone()
    after.apply(0, action)
    return after.is_terminal() and after.winners() == [0]


def test_mcts_finds_the_winning_climb() -> None:
    state = _last_turn_position()
    actions = state.legal_actions(0)
    winning = [a for a in actions if _wins(state, a)]
    assert winning and len(winning) < len(actions)  # the test can fail
    obs = state.observation(0)
    for seed in range(3):
        action = choose_action(MG, obs, 0, level="hard", seed=seed, config=MCTSConfig(iterations=400))
        assert action in winning


def test_chance_nodes_use_the_listed_roll_probabilities() -> None:
    state = _first_decision(2, 1)
    searcher = MCTS("mountain-goats", MCTSConfig(iterations=3000), seed=2)
    action = searcher.search(state)
    root = searcher.root
    chance = root.kids[root.actions.index(action)]
    assert chance.player == CHANCE
    assert list(chance.actions) == [roll for roll, _ in ROLL_OUTCOMES]  # 126 multisets, not 1,296 rolls
    assert chance.cum[-1] == pytest.approx(1.0)
    # The likeliest multisets are visited far more than the rarest ones.
    visited = {chance.actions[i]: kid for i, kid in enumerate(chance.kids) if kid is not None}
    assert len(visited) > 60
    ones = chance.actions.index((1, 1, 1, 1))
    assert chance.kids[ones] is None or sum(chance.kids[ones].n) < 10


def test_sampled_chance_outcomes_get_one_child_each() -> None:
    state = deal((1, 4, 8), (2, 3, 7), prize=2)

    def unlisted(self):
        raise NotImplementedError

    cls = type("UnlistedState", (type(state),), {"chance_outcomes": unlisted, "__slots__": ()})
    state.__class__ = cls
    searcher = MCTS("toy-sealed-bids", MCTSConfig(iterations=500), seed=3)
    searcher.search(state, seat=0)
    chance_nodes = [kid for kid in searcher.root.kids.values() if kid.player == CHANCE]
    assert chance_nodes
    for node in chance_nodes:
        assert node.cum is None and set(node.index) <= {1, 3} and len(node.actions) == len(node.index)


def test_simultaneous_bids_are_chosen_per_seat() -> None:
    # Perfect information (the search sees both hands): seat 0 holds 8, which
    # beats everything, for the biggest prize; seat 1 can only lose that round.
    state = deal((1, 2, 8), (3, 4, 5), prize=3)
    searcher = MCTS("toy-sealed-bids", MCTSConfig(iterations=2000), seed=4)
    move = searcher.search(state, seat=0)
    assert [s.seat for s in searcher.root.seats] == [0, 1]
    assert move in state.legal_actions(0)


def test_max_n_each_seat_maximises_its_own_result() -> None:
    game = ThreeSeatTree()
    root = game.new_initial_state(3)
    config = MCTSConfig(iterations=400, margin_weight=0.0)
    assert MCTS(game.id, config, seed=1).search(root) == "B"
    after_a = root.clone()
    after_a.apply(0, "A")
    assert MCTS(game.id, config, seed=1).search(after_a) == "y"


def test_tree_reuse_keeps_the_statistics_below_the_played_move() -> None:
    state = _first_decision(2, 5)
    searcher = MCTS("mountain-goats", MCTSConfig(iterations=2000, reuse_tree=True), seed=6)
    seat = state.current_player()
    action = searcher.search(state)
    searcher.advance(seat, action)
    state.apply(seat, action)
    roll = (3, 1, 2, 5)  # an ordered roll; the tree lists the multiset (1, 2, 3, 5)
    searcher.advance(CHANCE, roll)
    state.apply(CHANCE, roll)
    kept = searcher.root
    assert kept is not None and sum(kept.n) > 0
    before = sum(kept.n)
    searcher.search(state)
    assert searcher.root is kept and sum(kept.n) == before + 2000


def test_levels_publish_their_budgets() -> None:
    assert list(LEVELS) == ["random", "easy", "medium", "hard"]
    for spec in LEVELS.values():
        assert {"label", "description", "seconds", "iterations", "rating"} <= set(spec)
    assert LEVELS["easy"]["seconds"] < LEVELS["medium"]["seconds"] < LEVELS["hard"]["seconds"]
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_move("mountain-goats", _first_decision(2, 1).observation(0), 0, level="grandmaster")
