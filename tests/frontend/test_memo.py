"""``memo(...)`` (frontend/templatetags/memo.py, a global of frontend/jinja.py): one render per distinct data, and
only that data."""

from __future__ import annotations

import random

import pytest
from django.template import engines
from django.template.loader import render_to_string
from markupsafe import Markup

from engine import get_game
from frontend.presenters import mountain_goats as mg
from frontend.templatetags import memo

from .test_presenters import mg_match, players

MOUNTAIN = "frontend/boards/mountain-goats/mountain.html"
JINJA = engines["jinja2"]
TAG = JINJA.from_string('{{ memo("' + MOUNTAIN + '", m=m, column_width=column_width, goat_radius=goat_radius) }}')


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
    plain = JINJA.get_template(MOUNTAIN)  # the template itself, with these values only
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

    html = memo.render(MOUNTAIN, {"m": {"number": 5, "slots": [], "stack_discs": [], "opaque": Opaque()},
                                  "column_width": 1, "goat_radius": 1})
    assert "mg-m-5" in html
    assert memo.renders.stats == {"hits": 0, "misses": 0, "uncached": 1}
    assert memo.key_of(MOUNTAIN, {"m": Opaque()}) is None
    assert memo.key_of(MOUNTAIN, {"m": Markup("<b>safe</b>")}) is None  # a str subclass is not plain data


def test_keys_are_equal_only_for_equal_data():
    key = memo.key_of
    assert key(MOUNTAIN, {"m": {1: "x"}}) != key(MOUNTAIN, {"m": {"1": "x"}})  # canonical JSON made these one
    assert key(MOUNTAIN, {"m": [1, 2]}) != key(MOUNTAIN, {"m": (1, 2)})
    assert key(MOUNTAIN, {"m": 1}) != key(MOUNTAIN, {"m": True}) != key(MOUNTAIN, {"m": 1.0})
    assert key(MOUNTAIN, {"m": {"a": [1, "b"]}}) == key(MOUNTAIN, {"m": {"a": [1, "b"]}})
    assert key(MOUNTAIN, {"m": 1}) != key("frontend/partials/event_log.html", {"m": 1})


def test_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(memo.renders, "size", 3)
    for radius in range(10):
        memo.render(MOUNTAIN, {"m": {"number": 5, "slots": [], "stack_discs": []}, "column_width": 1, "goat_radius": radius})
    assert len(memo.renders.html) == 3


def test_the_whole_board_is_the_same_with_a_cold_or_a_warm_cache():
    for board in _boards(seed=11, steps=12)[-8:]:
        context = {"board": board, "match": {"id": 1, "seq": 1, "status": "active"}, "move_url": "/matches/1/move/"}
        memo.renders.clear()
        cold = render_to_string("frontend/boards/mountain-goats.html", context, using="jinja2")
        warm = render_to_string("frontend/boards/mountain-goats.html", context, using="jinja2")
        assert cold == warm and memo.renders.stats["hits"] == len(board["mountains"])


# Mountainhome's cards (mh_card, frontend/templatetags/mountainhome.py)

CARD = "frontend/boards/mountainhome/card.html"
PLAIN_CARD = JINJA.from_string('{% include "' + CARD + '" %}')
CARD_TAG = JINJA.from_string("{{ mh_card(c, mini=mini) }}")


def _cards(value) -> list[dict]:
    """Every card dict in a presented Mountainhome board (dicts with an ``id`` and a ``kind``)."""
    found = []
    if isinstance(value, dict):
        if "kind" in value and "css" in value and "id" in value:
            found.append(value)
        for v in value.values():
            found += _cards(v)
    elif isinstance(value, list):
        for v in value:
            found += _cards(v)
    return found


def _mh_positions(players_: int, seed: int, steps: int):
    from frontend.presenters import get_presenter

    from .test_mountainhome_page import MH, match_dict, players_for

    rng = random.Random(seed)
    game = get_game(MH)
    state = game.new_initial_state(players_, game.normalize_options({}))
    seq = 0
    while not state.is_terminal() and seq < steps:
        if state.is_chance_node():
            state.apply(-1, state.sample_chance(rng))
            continue
        seq += 1
        for viewer in (None, *range(players_)):
            match = match_dict(state, viewer, seq)
            board = get_presenter(MH).present(match, players_for(players_, viewer, tuple(match["to_move"])))
            yield seq, viewer, match, board
        seat = state.to_move()[0]
        acts = state.legal_actions(seat)
        state.apply(seat, acts[rng.randrange(len(acts))])


@pytest.mark.parametrize("players_", [2, 3])
def test_a_mountainhome_card_is_the_plain_include_s_for_every_card_and_viewer(players_):
    acting = count = 0
    for _seq, _viewer, match, board in _mh_positions(players_, seed=players_, steps=70):
        for c in _cards(board):
            for mini in (False, True):
                # the page's context holds much more than the card: none of it may matter but the seq and URL
                context = {"c": c, "mini": mini, "match": match, "move_url": "/matches/7/move/", "board": board}
                assert CARD_TAG.render(context) == PLAIN_CARD.render(context)
                count += 1
                acting += bool(c.get("menu") or c.get("single"))
    stats = memo.renders.stats
    assert acting and count > 500
    assert stats["hits"] > stats["misses"]  # most cards are as they were, for most viewers


def test_a_card_that_can_act_names_the_current_seq_and_one_that_cannot_is_reused_across_moves():
    def acts(c: dict) -> bool:
        return bool(c.get("menu") or c.get("single"))

    def cacheable(c: dict) -> bool:
        return memo.key_of(CARD, {"c": c}) is not None

    _, viewer, match, board = next(
        (s, v, m, b) for s, v, m, b in _mh_positions(2, seed=4, steps=60)
        if any(acts(c) for c in _cards(b)) and any(not acts(c) and cacheable(c) for c in _cards(b))
    )
    idle = [c for c in _cards(board) if not acts(c) and cacheable(c)]
    acting = [c for c in _cards(board) if acts(c)]
    memo.renders.clear()

    def move(seq: int) -> dict:
        before = dict(memo.renders.stats)
        for c in idle + acting:
            html = CARD_TAG.render({"c": c, "mini": False, "match": {**match, "seq": seq}, "move_url": "/m/"})
            if acts(c):
                assert f'name="expected_seq" value="{seq}"' in html
        return {k: memo.renders.stats[k] - before[k] for k in before}

    move(41)
    second = move(42)
    assert second["hits"] >= len(idle)  # every idle card of the next move comes from the cache
    assert second["misses"] <= len(acting)  # only the cards with forms are rendered again
    assert second["misses"] >= 1


# Nanga Parbat's board: regions, sections, paths, the chart and the scoring path through memo

def _np_boards(seed: int, steps: int):
    from frontend.presenters import nanga_parbat as np

    from .test_last_move import match_for
    from .test_last_move import players as np_players

    rng = random.Random(seed)
    state = get_game("nanga-parbat").new_initial_state(2)
    events = [{"seq": 1, "type": "created", "payload": {}}]
    while not state.is_terminal() and len(events) < steps:
        if state.is_chance_node():
            outcome = state.sample_chance(rng)
            state.apply(-1, outcome)
            continue
        for seat in (None, 0, 1):
            match = match_for(state, seat, events, "nanga-parbat")
            yield seat, match, np.present(match, np_players(2, seat))
        seat = state.to_move()[0]
        action = rng.choice(state.legal_actions(seat))
        events.append({"seq": len(events) + 1, "type": "action", "payload": {"player": seat, "action": state.action_to_json(seat, action)}})
        state.apply(seat, action)


def test_the_nanga_parbat_board_is_the_same_with_a_cold_or_a_warm_cache_for_every_viewer():
    count = 0
    for _seat, match, board in _np_boards(seed=2, steps=40):
        context = {"board": board, "match": match, "move_url": "/matches/1/move/"}
        memo.renders.clear()
        cold = render_to_string("frontend/boards/nanga-parbat.html", context, using="jinja2")
        warm = render_to_string("frontend/boards/nanga-parbat.html", context, using="jinja2")
        assert cold == warm
        assert memo.renders.stats["uncached"] == 0  # every memo'd part is plain data
        for c in board["cells"]:
            assert f'data-section="{c["section"]}"' in cold
        for space in board["track"]:
            for marker in space["markers"]:
                assert f'title="{marker["name"]}: {space["value"]}"' in cold
        count += 1
    assert count > 30


def test_the_nanga_parbat_scoring_path_is_the_same_data_for_every_viewer():
    seen = 0
    for seat, _match, board in _np_boards(seed=3, steps=30):
        if seat is None:
            spectator_track = board["track"]
        else:
            assert board["track"] == spectator_track  # one render serves both seats and every spectator
            seen += 1
    assert seen


@pytest.mark.django_db
def test_the_event_log_renders_once_per_distinct_log_for_every_viewer_of_a_position(alice, bob):
    from frontend import live
    from games import selectors, services

    from .helpers import mover, two_player_match

    match = two_player_match(alice, bob)
    for _ in range(3):
        user = mover(match, alice, bob)
        services.submit_action(match_id=match.pk, user=user, action={"climb": []},
                               expected_seq=selectors.match_view(match, user)["seq"])
    match.refresh_from_db()
    memo.renders.clear()
    pages = [live.render_match_fragment(match, user) for user in (alice, bob, None)]
    logs = [key for key in memo.renders.html if key[0] == "frontend/partials/event_log.html"]
    assert len(logs) == 1  # one log for both seats and the spectator (a perfect-information game)
    line = memo.renders.html[logs[0]]
    assert all(line in page for page in pages) and 'class="events"' in line
