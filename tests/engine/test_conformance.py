"""One conformance test over every registered game (OpenSpiel-style).

Random games, seeded, checking at every step that:
legal actions are unique; the checked path rejects illegal actions and the
wrong seat; clone() is independent of the original; observations are JSON and
determinization agrees with them; every action and chance outcome round-trips
through the record notation; the game ends within its stated bound; and
replaying the recorded history rebuilds an equal state.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import (
    CHANCE,
    SIMULTANEOUS,
    IllegalActionError,
    WrongSeatError,
    all_games,
)
from engine.record import make_record, replay, summary

CASES = [(game, players) for game in all_games() for players in game.player_counts()]
GAMES_PER_CASE = 6


def _ids(case):
    game, players = case
    return f"{game.id}-{players}p"


def _json_roundtrip(obj):
    return json.loads(json.dumps(obj))


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_conformance(case):
    game, players = case
    options = game.normalize_options({})
    for game_index in range(GAMES_PER_CASE):
        rng = random.Random(1000 * players + game_index)
        state = game.new_initial_state(players, options)
        events = []
        seen_actions: list = []
        bound = game.max_events(players)
        while not state.is_terminal():
            assert len(events) < bound, f"{game.id} did not end within {bound} events"
            player = state.current_player()
            deep_check = len(events) % 7 == 0
            if deep_check:
                for viewer in [None, *range(players)]:
                    obs = state.observation(viewer)
                    assert _json_roundtrip(obs) == obs
                for seat in range(players):
                    det = state.determinize(seat, random.Random(seat))
                    assert det.observation(seat) == state.observation(seat)
            if player == CHANCE:
                outcome = state.sample_chance(rng)
                encoded = state.chance_to_json(outcome)
                assert _json_roundtrip(encoded) == encoded
                assert state.chance_from_json(encoded) == outcome
                state.check(CHANCE, outcome)
                seat, action = CHANCE, outcome
            else:
                movers = state.to_move()
                assert movers and (player >= 0 or player == SIMULTANEOUS)
                seat = movers[0] if player == SIMULTANEOUS else player
                actions = list(state.legal_actions(seat))
                assert actions, f"{game.id}: seat {seat} to move with no legal action"
                assert len(set(actions)) == len(actions), "legal actions must be unique"
                for action in actions if deep_check else actions[:3]:
                    encoded = state.action_to_json(seat, action)
                    assert _json_roundtrip(encoded) == encoded
                    assert state.action_from_json(seat, encoded) == action
                # The checked path refuses the wrong seat and an illegal action.
                others = [s for s in range(players) if s not in movers]
                if others:
                    with pytest.raises(WrongSeatError):
                        state.check(others[0], actions[0])
                legal = set(actions)
                illegal = next((a for a in reversed(seen_actions) if a not in legal), None)
                if illegal is not None:
                    with pytest.raises(IllegalActionError):
                        state.check(seat, illegal)
                action = actions[rng.randrange(len(actions))]
                state.check(seat, action)
                seen_actions.append(action)
                if len(seen_actions) > 50:
                    del seen_actions[:25]
            if deep_check:
                before = state.key()
                copy = state.clone()
                assert copy == state
                copy.apply(seat, action)
                assert state.key() == before, "clone() must be independent of the original"
            events.append(state.event_to_json(seat, action))
            state.apply(seat, action)
        assert len(events) <= bound
        assert state.winners(), "a finished game has at least one winner"
        assert len(state.scores()) == players
        record = _json_roundtrip(make_record(game.id, players, options, events))
        rebuilt = replay(record)
        assert rebuilt == state, "replaying the history must rebuild an equal state"
        verdict = summary(record)
        assert verdict["ok"] and verdict["terminal"] and verdict["winners"] == state.winners()


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_metadata_is_json(game):
    meta = game.metadata()
    assert _json_roundtrip(meta) == meta
    assert meta["id"] in ("mountain-goats", "nanga-parbat", "mountainhome")
