"""Mountainhome's state fields are declared once (base.StateBase); the slots, clone and key follow them."""

from __future__ import annotations

import random

from engine.core import State
from engine.games.mountainhome.base import StateBase
from engine.games.mountainhome.state import FIELDS, NOT_IN_KEY, MountainhomeState
from engine.registry import get_game

from .test_mountainhome_support import play_random


def test_the_slots_are_the_declared_fields() -> None:
    declared = [name for name in StateBase.__annotations__ if name not in State.__slots__]
    assert list(MountainhomeState.__slots__) == declared == list(FIELDS)


def test_clone_copies_every_declared_field() -> None:
    named = set(MountainhomeState.clone.__code__.co_names)
    assert set(FIELDS) | {"game", "players", "options"} <= named


def test_key_reads_every_declared_field_but_the_derived_ones() -> None:
    named = set(MountainhomeState.key.__code__.co_names)
    assert (set(FIELDS) - NOT_IN_KEY) | {"players", "options"} <= named
    assert not NOT_IN_KEY & named


def test_a_clone_is_equal_and_shares_no_mutable_field() -> None:
    state = get_game("mountainhome").new_initial_state(3)
    play_random(state, random.Random(7), max_events=600)
    copy = state.clone()
    assert copy.key() == state.key()
    for name in FIELDS:
        value = getattr(state, name)
        if isinstance(value, (list, dict)) and name != "layout":
            assert getattr(copy, name) is not value, name


def test_a_bid_declares_its_fields_once_too() -> None:
    from engine.games.mountainhome.bidding import Bid

    declared = list(Bid.__annotations__)
    assert list(Bid.__slots__) == declared
    assert set(declared) <= set(Bid.clone.__code__.co_names)
    assert set(declared) <= set(Bid.key.__code__.co_names)
