"""``{% memo %}`` (frontend/templatetags/memo.py): one render per distinct data, and only that data (issue 12)."""

from __future__ import annotations

import random

import pytest
from django.template import engines
from django.template.loader import render_to_string

from engine import get_game
from frontend.presenters import mountain_goats as mg
from frontend.templatetags import memo

from .test_presenters import mg_match, players

MOUNTAIN = "frontend/boards/mountain-goats/mountain.html"
TAG = engines["django"].from_string(
    '{% load memo %}{% memo "' + MOUNTAIN + '" m=m column_width=column_width goat_radius=goat_radius %}'
)


@pytest.fixture(autouse=True)
def _fresh():
    memo.renders.clear()
    yield
    memo.renders.clear()


def _boards(seed: int, steps: int) -> list[dict]:
    """Mountain Goats boards along a random 3-player game, as seats 0-2 and a spectator see them."""
    rng = random.Random(seed)
    state = get_game("mountain-goats").new_initial_state(3)
    boards = []
    for _ in range(steps):
        if state.is_terminal():
            break
        for seat in (None, 0, 1, 2):
            boards.append(mg.present(mg_match(state, seat), players(3, you=seat)))
        if state.is_chance_node():
            state.apply(-1, state.sample_chance(rng))
        else:
            actions = state.legal_actions()
            state.apply(state.to_move()[0], rng.choice(actions))
    return boards


def test_the_html_is_the_plain_include_s_for_every_mountain_of_a_game():
    plain = engines["django"].from_string(
        '{% include "' + MOUNTAIN + '" with m=m column_width=column_width goat_radius=goat_radius only %}'
    )
    count = 0
    for board in _boards(seed=3, steps=40):
        for m in board["mountains"]:
            values = {"m": m, "column_width": board["column_width"], "goat_radius": board["goat_radius"]}
            assert TAG.render(values) == plain.render(values)
            count += 1
    stats = memo.renders.stats
    assert stats["hits"] + stats["misses"] == count and stats["uncached"] == 0
    assert stats["hits"] > count / 2  # most mountains are as they were, for most viewers


def test_equal_data_renders_once_and_the_outer_context_never_reaches_it():
    board = _boards(seed=5, steps=3)[-1]
    m = board["mountains"][0]
    first = TAG.render({"m": m, "column_width": 100, "goat_radius": 9, "secret": "hand: 3 gold"})
    again = TAG.render({"m": dict(m), "column_width": 100, "goat_radius": 9, "board": {"goat_radius": 99}})
    assert first == again and memo.renders.stats == {"hits": 1, "misses": 1, "uncached": 0}
    assert "hand: 3 gold" not in first
    # the values it is given, not the page's: another radius is another render
    other = TAG.render({"m": m, "column_width": 100, "goat_radius": 10})
    assert other != first and 'r="10"' in other and memo.renders.stats["misses"] == 2


def test_what_is_not_plain_data_renders_uncached():
    class Opaque:
        number = 5

    html = memo.memo(MOUNTAIN, m={"number": 5, "slots": [], "stack_discs": [], "opaque": Opaque()},
                     column_width=1, goat_radius=1)
    assert "mg-m-5" in html
    assert memo.renders.stats == {"hits": 0, "misses": 0, "uncached": 1}
    assert memo.key_of(MOUNTAIN, {"m": Opaque()}) is None


def test_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(memo.renders, "size", 3)
    for radius in range(10):
        memo.memo(MOUNTAIN, m={"number": 5, "slots": [], "stack_discs": []}, column_width=1, goat_radius=radius)
    assert len(memo.renders.html) == 3


def test_the_whole_board_is_the_same_with_a_cold_or_a_warm_cache():
    for board in _boards(seed=11, steps=12)[-8:]:
        context = {"board": board, "match": {"id": 1, "seq": 1, "status": "active"}, "move_url": "/matches/1/move/"}
        memo.renders.clear()
        cold = render_to_string("frontend/boards/mountain-goats.html", context)
        warm = render_to_string("frontend/boards/mountain-goats.html", context)
        assert cold == warm and memo.renders.stats["hits"] == len(board["mountains"])
