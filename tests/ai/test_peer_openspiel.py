"""The OpenSpiel wrapper and timed MCTSBot (benchmarks/ai_openspiel_game.py, ai_peer_openspiel.py); skipped without open-spiel."""

from __future__ import annotations

import os
import random
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("open_spiel.python.algorithms.mcts")

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))

import ai_openspiel_game
import ai_peer_openspiel
import numpy as np
from open_spiel.python.algorithms import mcts

from engine import get_game
from engine.core import CHANCE


def _position():
    state = get_game("mountain-goats").new_initial_state(2)
    rng = random.Random(4)
    while state.current_player() == CHANCE:
        state.apply(CHANCE, state.sample_chance(rng))
    return state


def test_the_wrapped_game_mirrors_the_engine_and_clones_independently() -> None:
    game = ai_openspiel_game.register("mountain-goats", 2)
    inner = _position()
    wrapped = ai_openspiel_game.wrap(game, inner)
    assert wrapped.current_player() == inner.current_player()
    assert sorted(map(repr, inner.legal_actions())) == sorted(
        wrapped.action_to_string(wrapped.current_player(), a) for a in wrapped.legal_actions()
    )
    copy = wrapped.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert copy.current_player() == CHANCE and wrapped.current_player() == inner.current_player()
    assert len(copy.chance_outcomes()) == 126


def test_openspiel_mctsbot_plays_a_legal_move_on_our_rules() -> None:
    game = ai_openspiel_game.register("mountain-goats", 2)
    inner = _position()
    wrapped = ai_openspiel_game.wrap(game, inner)
    bot = mcts.MCTSBot(game, 2.0, 50, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), solve=False,
                       random_state=np.random.RandomState(1))
    action = wrapped.engine_action(bot.step(wrapped))
    inner.check(inner.current_player(), action)


def test_the_timed_mctsbot_stops_on_its_clock_between_simulations() -> None:
    ticks = iter(range(10**6))
    game = ai_openspiel_game.register("mountain-goats", 2)
    inner = _position()
    wrapped = ai_openspiel_game.wrap(game, inner)
    bot = ai_peer_openspiel.TimedMCTSBot(
        game, 2.0, 10**9, ai_peer_openspiel.FusedRolloutEvaluator(0), solve=False,
        random_state=np.random.RandomState(1), seconds=7, clock=lambda: next(ticks),
    )
    action = wrapped.engine_action(bot.step(wrapped))
    inner.check(inner.current_player(), action)
    # One tick to set the deadline, then one check per simulation: 7 simulations.
    assert bot.simulations == 7


def test_timed_ismcts_bot_plays_a_legal_mountainhome_move_from_world_samples() -> None:
    import itertools

    import ai_peer_ismcts

    game = get_game("mountainhome")
    osgame = ai_peer_ismcts.register("mountainhome", 2)
    state = game.new_initial_state(2)
    rng = random.Random(2)
    while True:  # a decision with a choice, a few moves in
        if state.current_player() == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1 and state.actions_applied > 6:
            break
        state.apply(seat, legal[rng.randrange(len(legal))])
    bot = ai_peer_ismcts.peer_bot(osgame, game, 5.0, 7)
    ticks = itertools.count()
    bot.clock = lambda: float(next(ticks))  # one tick per reading: the budget of 5 allows a few simulations
    view = game.state_from_observation(state.observation(seat), seat, random.Random(1))
    action = osgame.new_initial_state(view).engine_action(bot.step(osgame.new_initial_state(view)))
    assert action in legal
    assert 1 <= bot.simulations <= 5
    # its information state is the seat's observation, the same in every world sample
    wrapped = osgame.new_initial_state(view)
    again = osgame.new_initial_state(game.state_from_observation(state.observation(seat), seat, random.Random(9)))
    assert wrapped.information_state_string(seat) == again.information_state_string(seat)
