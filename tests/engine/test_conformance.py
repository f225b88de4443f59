"""One conformance test over every registered game (OpenSpiel-style).

Random games, seeded, checking at every step that:
legal actions are unique; the checked path rejects illegal actions and the
wrong seat; clone() is independent of the original; observations are JSON and
determinization (``state_from_observation`` and ``determinizer``) agrees with
them; every action and chance outcome round-trips through the record notation,
and an action has only the game's ``action_fields``; the game ends within its
stated bound; and replaying the recorded history rebuilds an equal state.

Each optional feature a game declares (``Game.features``) is checked against its
contract (engine/core.py): the declaration names exactly the methods the state
overrides; a redacting game shows each seat its own actions as they are and
redacts alike what a viewer cannot tell apart, and does redact something; an
action view shows an observer its own actions and looks alike for events the
observer cannot tell apart; an info digest is the same for every state that
agrees with the observer's observation.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import (
    ACTION_VIEW,
    CHANCE,
    FEATURES,
    INFO_DIGEST,
    REDACTION,
    SIMULTANEOUS,
    IllegalActionError,
    NotationError,
    State,
    WrongSeatError,
    all_games,
)
from engine.record import make_record, replay, summary

CASES = [(game, players) for game in all_games() for players in game.player_counts()]
GAMES_PER_CASE = 6
# The state method behind each optional feature.
FEATURE_METHODS = {REDACTION: "redact_event", ACTION_VIEW: "action_view", INFO_DIGEST: "info_digest"}
ALTERNATIVES = 4  # other events tried from a position, to compare what a viewer sees of them


def _ids(case):
    game, players = case
    return f"{game.id}-{players}p"


def _json_roundtrip(obj):
    return json.loads(json.dumps(obj))


def _canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _alternatives(state, seat, action, rng):
    """``action`` and a few other events ``seat`` (or chance) could apply instead."""
    if seat == CHANCE:
        others = [state.sample_chance(random.Random(rng.randrange(1 << 30))) for _ in range(ALTERNATIVES)]
    else:
        legal = list(state.legal_actions(seat))
        others = [legal[rng.randrange(len(legal))] for _ in range(ALTERNATIVES)]
    return list(dict.fromkeys([action, *others]))


def _check_determinizer(game, state, seat):
    """``determinizer`` deals what ``state_from_observation`` deals, agrees with the observation, and
    deals an independent state on every call."""
    obs = state.observation(seat)
    deal = game.determinizer(obs, seat)
    expected = game.state_from_observation(obs, seat, random.Random(seat))
    one = deal(random.Random(seat))
    assert one == expected and one.observation(seat) == obs
    if not one.is_terminal():  # change the dealt state: the next deal is unaffected
        mover = CHANCE if one.is_chance_node() else one.to_move()[0]
        one.apply(mover, one.sample_chance(random.Random(seat)) if mover == CHANCE else one.legal_actions(mover)[0])
    assert deal(random.Random(seat)) == expected


def _check_features(game, state, seat, action, players, rng):
    """The contracts of the optional features ``game`` declares, for ``seat`` about to apply ``action``.

    Returns how many viewers see the event redacted.  "Cannot tell apart": two events that lead to
    different states with the same observation for the viewer (events that lead to the same state
    hide nothing: a public roll that changes nothing may be shown as it is).  Such events must look
    alike to the viewer, in its listing (``redact_event``) and to its search (``action_view`` with
    the ``info_digest`` after the event).
    """
    features = game.features
    event = state.event_to_json(seat, action)
    redacted = 0
    afters = []
    for other in _alternatives(state, seat, action, rng):
        after = state.clone()
        after.apply(seat, other)
        afters.append((other, state.event_to_json(seat, other), after, after.key()))
    for viewer in [None, *range(players)]:
        if REDACTION in features:
            shown = state.redact_event(event, viewer)
            assert _json_roundtrip(shown) == shown
            if viewer == seat:
                assert shown == event, "a seat sees its own action as it is"
            if "player" in shown:
                assert shown["player"] == event.get("player"), "a redacted entry keeps its seat"
            if "chance" in shown:
                assert "chance" in event
            redacted += shown != event
        if ACTION_VIEW in features and viewer is not None:
            view = state.action_view(viewer, seat, action)
            hash(view)
            if viewer == seat:
                assert view == action, "an observer sees its own action as it is"
            if INFO_DIGEST in features:
                digest = state.info_digest(viewer)
                det = game.determinizer(state.observation(viewer), viewer)(random.Random(viewer))
                assert state.clone().info_digest(viewer) == digest == det.info_digest(viewer), (
                    "an info digest depends only on what the observer may know"
                )
        if viewer == seat:
            continue
        looks: dict[str, tuple] = {}
        for other, other_event, after, key in afters:
            look = (
                _canonical(state.redact_event(other_event, viewer)) if REDACTION in features else None,
                state.action_view(viewer, seat, other) if ACTION_VIEW in features and viewer is not None else None,
                after.info_digest(viewer) if INFO_DIGEST in features and viewer is not None else None,
            )
            known = _canonical(after.observation(viewer))
            first_key, first_look = looks.setdefault(known, (key, look))
            assert first_key == key or first_look == look, (
                f"{game.id}: viewer {viewer} cannot tell these events apart, but they look different: "
                f"{first_look} and {look}"
            )
    return redacted


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_conformance(case):
    game, players = case
    options = game.normalize_options({})
    redacted = 0
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
                if len(events) % 21 == 0:  # each seat in turn
                    _check_determinizer(game, state, len(events) // 21 % players)
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
                    assert set(encoded) <= game.action_fields, f"{encoded} has a field outside action_fields"
                    assert state.action_from_json(seat, encoded) == action
                if deep_check:  # a field outside action_fields is refused by the game too
                    with pytest.raises(NotationError):
                        state.action_from_json(seat, {**state.action_to_json(seat, actions[0]), "unknown_field": 1})
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
            if game.features and len(events) % 28 == 0:
                redacted += _check_features(game, state, seat, action, players, random.Random(len(events)))
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
    if REDACTION in game.features:
        assert redacted, f"{game.id} declares redaction but redacted nothing in {GAMES_PER_CASE} games"


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_declared_features_are_the_overridden_methods(game):
    """``Game.features`` names exactly the optional methods the state overrides (callers trust it)."""
    state_class = type(game.new_initial_state(game.min_players))
    assert game.features <= FEATURES
    for feature, method in FEATURE_METHODS.items():
        overridden = getattr(state_class, method) is not getattr(State, method)
        assert overridden == (feature in game.features), f"{game.id}: {method} and the declared features disagree"
    assert INFO_DIGEST not in game.features or ACTION_VIEW in game.features
    assert isinstance(game.action_fields, frozenset) and game.action_fields
    assert all(isinstance(name, str) for name in game.action_fields)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_metadata_is_json(game):
    meta = game.metadata()
    assert _json_roundtrip(meta) == meta
    assert meta["id"] in ("mountain-goats", "nanga-parbat", "mountainhome")
