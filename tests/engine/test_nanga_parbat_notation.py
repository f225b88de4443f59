"""Nanga Parbat record notation (§12), chance events, golden playthrough, and
property tests: the engine's legal actions against a brute-force reading of
the rules, the fused playout against the generic one, observations."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    CHANCE,
    ChanceExpectedError,
    IllegalActionError,
    NotationError,
    get_game,
    random_playout,
)
from engine.games.nanga_parbat import DECK, MAX_EVENTS, NangaParbatState
from engine.record import make_record, replay, summary

from .test_nanga_parbat import EXAMPLE_LAYOUT, EXAMPLE_OPENING, dealt, put, set_board

GAME = get_game("nanga-parbat")
GOLDEN = Path(__file__).parent / "golden" / "nanga_parbat_2p_seed1.json"
ROOT = Path(__file__).resolve().parents[2]


def play_random(seed: int, area: bool = False, stop: int | None = None) -> tuple[NangaParbatState, list[dict]]:
    state = GAME.new_initial_state(2, {"area_scoring": area})
    events: list[dict] = []
    random_playout(state, random.Random(seed), events=events, max_events=stop)
    return state, events


# ---------------------------------------------------------------------- notation


def test_every_action_kind_round_trips():
    state = dealt(guide=1)
    set_board(state, 0, ["snow_leopard", "tahr", "musk_deer", "yak", "yak", "yak"])
    put(state, **{"3.1": "h0", "3.2": "h1"})
    samples = [
        {"activate": "snow_leopard", "swap": ["3.1", "3.2"]},
        {"activate": "tahr", "swap": ["3.1", "3.3"]},
        {"activate": "musk_deer", "swap": ["1.1", "6.5"]},
        {"activate": "yak", "guide": 6},
        {"trap": "1.1"},
        {"relocate": 2},
        {"guide": 3},
        {"claim": {"row": 1, "column": 4}, "sections": ["2.4", "4.1", "4.2"]},
        {"claim": {"row": 2, "column": 1}, "animals": [0, 1, 2, 3, 4, 5]},
        {"claim": {"row": 3, "column": 5}, "animals": [3, 4, 5]},
        {"end_turn": True},
    ]
    for data in samples:
        action = state.action_from_json(0, data)
        assert state.action_to_json(0, action) == data


@pytest.mark.parametrize(
    "data, words",
    [
        ({"activate": "snow_leopard", "swap": ["3.2", "3.1"]}, ["section order"]),
        ({"activate": "musk_deer", "swap": ["6.5", "1.1"]}, ["section order"]),
        ({"activate": "tahr", "swap": ["3.1", "3.1"]}, ["twice"]),
        ({"claim": {"row": 1, "column": 4}, "sections": ["4.1", "2.4", "4.2"]}, ["section order"]),
        ({"claim": {"row": 1, "column": 4}, "sections": ["2.4", "2.4", "4.2"]}, ["without repeats"]),
        ({"claim": {"row": 3, "column": 4}, "animals": [2, 1, 0]}, ["ascending order"]),
        ({"claim": {"row": 3, "column": 4}, "animals": [0, 0, 1]}, ["without repeats"]),
        ({"claim": {"row": 3, "column": 4}, "animals": [0, True, 2]}, ["board indices"]),
        ({"claim": {"row": 1, "column": 4}, "animals": [0, 1, 2]}, ["'sections'"]),
        ({"claim": {"row": 2, "column": 4}, "sections": ["2.4", "4.1", "4.2"]}, ["'animals'"]),
        ({"claim": {"row": 4, "column": 1}, "animals": [0]}, ["row must be 1 to 3"]),
        ({"claim": {"row": 2, "column": 6}, "animals": [0]}, ["column must be 1 to 5"]),
        ({"claim": {"row": 2, "column": 1, "x": 1}, "animals": [0]}, ["'claim' must be"]),
        ({"end_turn": False}, ["must be true"]),
        ({"end_turn": 1}, ["must be true"]),
        ({"trap": "7.1"}, ["section"]),
        ({"trap": "1.1", "x": 1}, ["not a Nanga Parbat action"]),
        ({"trap": 11}, ["section"]),
        ({"relocate": "3"}, ["region number"]),
        ({"relocate": True}, ["region number"]),
        ({"guide": 0}, ["region number"]),
        ({"activate": "yak", "swap": ["1.1", "1.2"]}, ["'guide': R"]),
        ({"activate": "tahr", "guide": 3}, ["'swap'"]),
        ({"activate": "bharal", "guide": 3}, ["must name one of"]),
        ({"activate": "red_panda", "swap": ["1.1", "1.2"]}, ["must name one of"]),
        ({"activate": "snow_leopard", "swap": ["1.1"]}, ["exactly two"]),
        (["trap", "1.1"], ["JSON object"]),
        ({}, ["not a Nanga Parbat action"]),
    ],
)
def test_it_rejects_every_other_spelling(data, words):
    state = dealt(guide=1)
    with pytest.raises(NotationError) as info:
        state.action_from_json(0, data)
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert "action" in message


def test_a_notation_error_in_a_record_names_the_event():
    record = make_record("nanga-parbat", 2, {"area_scoring": False}, EXAMPLE_OPENING[:3] + [
        {"player": 0, "action": {"trap": "2.4", "extra": 1}}])  # fmt: skip
    verdict = summary(record)
    assert not verdict["ok"] and verdict["index"] == 3 and "not a Nanga Parbat action" in verdict["error"]


def test_an_illegal_event_in_a_record_is_refused_with_the_reason():
    record = make_record("nanga-parbat", 2, {"area_scoring": False}, EXAMPLE_OPENING[:3] + [
        {"player": 0, "action": {"trap": "3.4"}}])  # fmt: skip
    verdict = summary(record)
    assert not verdict["ok"] and verdict["index"] == 3
    assert '{"trap":"3.4"}' in verdict["error"] and "not in the guide's region 2" in verdict["error"]


def test_the_example_opening_replays_as_a_record():
    record = json.loads(json.dumps(make_record("nanga-parbat", 2, {"area_scoring": False}, EXAMPLE_OPENING)))
    state = replay(record)
    assert state.scores() == [1, 2] and not state.is_terminal()


# ---------------------------------------------------------------------- chance


class RandrangeOnly:
    """A random source with nothing but ``randrange``; it records each call."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self.calls: list[tuple[int, int]] = []

    def randrange(self, n: int) -> int:
        value = self._rng.randrange(n)
        self.calls.append((n, value))
        return value


def test_the_animal_shuffle_is_fisher_yates_over_the_data_order_with_randrange_only():
    state = GAME.new_initial_state(2)
    state.apply(CHANCE, 1)
    rng = RandrangeOnly(7)
    outcome = state.sample_chance(rng)
    assert [n for n, _ in rng.calls] == list(range(36, 1, -1))
    deck = [t for t in range(6) for _ in range(6)]
    assert tuple(deck) == DECK
    for i, (n, j) in zip(range(35, 0, -1), rng.calls):
        assert n == i + 1
        deck[i], deck[j] = deck[j], deck[i]
    assert outcome == tuple(deck)
    state.check(CHANCE, outcome)


def test_the_first_player_is_randrange_2_and_listed_with_equal_odds():
    state = GAME.new_initial_state(2)
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    rng = RandrangeOnly(3)
    assert state.sample_chance(rng) == rng.calls[0][1] and rng.calls[0][0] == 2


def test_the_shuffle_is_not_listed():
    state = GAME.new_initial_state(2)
    state.apply(CHANCE, 0)
    with pytest.raises(NotImplementedError):
        state.chance_outcomes()


def test_it_rejects_a_layout_that_is_not_six_of_each_type():
    state = GAME.new_initial_state(2)
    state.apply_event({"chance": {"first_player": 0}})
    bad = ["yak"] + EXAMPLE_LAYOUT[1:]
    with pytest.raises(IllegalActionError, match="7 yak|5 snow_leopard"):
        state.apply_event({"chance": {"animals": bad}})
    with pytest.raises(NotationError, match="36 type names"):
        state.apply_event({"chance": {"animals": EXAMPLE_LAYOUT[:35]}})
    with pytest.raises(NotationError, match="not an animal type"):
        state.apply_event({"chance": {"animals": ["goat"] + EXAMPLE_LAYOUT[1:]}})


def test_chance_events_come_in_order_and_only_in_setup():
    state = GAME.new_initial_state(2)
    with pytest.raises(IllegalActionError, match="first player is drawn first"):
        state.apply_event({"chance": {"animals": EXAMPLE_LAYOUT}})
    with pytest.raises(ChanceExpectedError):
        state.apply_event({"player": 1, "action": {"guide": 2}})
    state.apply_event({"chance": {"first_player": 1}})
    with pytest.raises(IllegalActionError, match="already been drawn"):
        state.apply_event({"chance": {"first_player": 0}})
    state.apply_event({"chance": {"animals": EXAMPLE_LAYOUT}})
    with pytest.raises(ChanceExpectedError):
        state.apply_event({"chance": {"animals": EXAMPLE_LAYOUT}})


# ---------------------------------------------------------------------- golden playthrough


def test_golden_playthrough_is_reproduced_exactly_by_sample():
    golden = json.loads(GOLDEN.read_text())
    out = subprocess.run(
        [sys.executable, "-m", "engine", "sample", "nanga-parbat", "--players", "2", "--seed", "1"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    assert json.loads(out.stdout) == golden


def test_golden_playthrough_replays_to_its_result():
    golden = json.loads(GOLDEN.read_text())
    assert golden["events"][:3] == [
        {"chance": {"first_player": 0}},
        golden["events"][1],
        {"player": 1, "action": {"guide": 4}},
    ]
    state = replay(golden)
    assert state.is_terminal() and state.scores() == [32, 16] and state.winners() == [0]
    _, events = play_random(1)
    assert events == golden["events"]
    out = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(GOLDEN)], capture_output=True, text=True, cwd=ROOT
    )
    assert out.returncode == 0
    assert json.loads(out.stdout) == {"ok": True, "terminal": True, "scores": [32, 16], "winners": [0]}


def test_bench_runs():
    out = subprocess.run(
        [sys.executable, "-m", "engine", "bench", "nanga-parbat", "--players", "2", "--seconds", "0.2"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    result = json.loads(out.stdout)
    assert result["game"] == "nanga-parbat" and result["games"] >= 1


# ---------------------------------------------------------------------- brute force


INSIDE = {1: {2, 3}, 2: {1, 3, 4, 5}, 3: {1, 2, 5, 6}, 4: {2, 5}, 5: {2, 3, 4, 6}, 6: {3, 5}}
DOTTED = [("1.4", "2.1"), ("1.6", "3.1"), ("2.4", "4.1"), ("2.6", "3.4"), ("2.6", "5.1"),
          ("3.4", "5.1"), ("3.6", "6.1"), ("4.6", "5.4"), ("5.6", "6.4")]  # fmt: skip
NAMES = [f"{r}.{s}" for r in range(1, 7) for s in range(1, 7)]


def _adjacent(a: str, b: str) -> bool:
    if a[0] == b[0]:
        return int(b[2]) in INSIDE[int(a[2])]
    return (a, b) in DOTTED or (b, a) in DOTTED


def _connected(names: tuple[str, ...]) -> bool:
    seen, todo = {names[0]}, [names[0]]
    while todo:
        x = todo.pop()
        for y in names:
            if y not in seen and _adjacent(x, y):
                seen.add(y)
                todo.append(y)
    return len(seen) == len(names)


def brute_force_legal(obs: dict) -> list[dict]:
    """The legal actions read straight off the rules text, from an observation."""
    s = obs["active"]
    cells = {e["section"]: e for e in obs["sections"]}
    animals = [n for n in NAMES if "animal" in cells[n]]
    hikers = [n for n in NAMES if "hiker" in cells[n]]
    guide = obs["guide"]
    board = obs["animal_boards"][s]
    out: list[dict] = []
    if not obs["trapped"]:
        here = [n for n in animals if n[0] == str(guide)]
        out += [{"trap": n} for n in here]
        if not here:
            out += [{"relocate": r} for r in range(1, 7) if any(n[0] == str(r) for n in animals)]
    ready = {e["type"] for e in board if not e["activated"]}
    if "snow_leopard" in ready:
        out += [{"activate": "snow_leopard", "swap": [a, b]} for a, b in itertools.combinations(hikers, 2)
                if _adjacent(a, b) and cells[a]["hiker"] != cells[b]["hiker"]]  # fmt: skip
    if "tahr" in ready:
        out += [{"activate": "tahr", "swap": [h, a]} for h in hikers for a in animals if _adjacent(h, a)]
    if "musk_deer" in ready:
        out += [{"activate": "musk_deer", "swap": [a, b]} for a, b in itertools.combinations(animals, 2)
                if cells[a]["animal"] != cells[b]["animal"]]  # fmt: skip
    if "yak" in ready:
        out += [{"activate": "yak", "guide": r} for r in range(1, 7) if r != guide]
    if obs["trapped"] and not obs["claimed"] and obs["cubes_in_stock"][s] > 0:
        own = [n for n in hikers if cells[n]["hiker"] == s]
        for square in obs["chart"]:
            if square["owner"] is not None:
                continue
            n, key = square["requirement"], {"row": square["row"], "column": square["column"]}
            if square["row"] == 1:
                if obs["camps_in_stock"][s] >= n:
                    out += [{"claim": key, "sections": list(c)} for c in itertools.combinations(own, n) if _connected(c)]
                continue
            for idx in itertools.combinations(range(len(board)), n):
                plain = [board[i]["type"] for i in idx if board[i]["type"] != "bharal"]
                ok = len(set(plain)) == len(plain) if square["row"] == 2 else len(set(plain)) <= 1
                if ok:
                    out.append({"claim": key, "animals": list(idx)})
    if obs["trapped"]:
        out.append({"end_turn": True})
    return out


def _canon(actions: list[dict]) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), area=st.booleans())
def test_legal_actions_match_a_brute_force_reading_of_the_rules(seed, area):
    state = GAME.new_initial_state(2, {"area_scoring": area})
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        actions = state.legal_actions()
        assert list(actions) == sorted(set(actions)), "legal actions are sorted and unique"
        if state.phase == 3:
            engine_json = [state.action_to_json(state.seat, a) for a in actions]
            assert _canon(engine_json) == _canon(brute_force_legal(state.observation(state.seat)))
        state.apply(state.seat, actions[rng.randrange(len(actions))])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), area=st.booleans())
def test_invariants_hold_through_random_games(seed, area):
    state = GAME.new_initial_state(2, {"area_scoring": area})
    rng = random.Random(seed)
    events = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            actions = state.legal_actions()
            state.apply(state.seat, actions[rng.randrange(len(actions))])
        events += 1
        if state.phase >= 2:
            cells = state.cells
            animals = sum(1 for c in cells if c < 6)
            hikers = [sum(1 for c in cells if c == 6 + s) for s in (0, 1)]
            camps = [sum(1 for c in cells if c == 8 + s) for s in (0, 1)]
            for s in (0, 1):
                assert hikers[s] + camps[s] + state.hikers[s] == 15 - 0  # camps replace hikers one for one
                assert camps[s] == 12 - state.camps[s]
                assert sum(1 for owner in state.chart if owner == s) == 5 - state.cubes[s]
            traded = 30 - state.hikers[0] - state.hikers[1] - len(state.boards[0]) - len(state.boards[1])
            assert animals + len(state.boards[0]) + len(state.boards[1]) + traded == 36
            derived = state.clone()
            derived.derive()
            assert (state.ranimals, state.mcount, state.hmask, state.amask) == (
                derived.ranimals, derived.mcount, derived.hmask, derived.amask)  # fmt: skip
            a, b = state.score
            assert a != b or a == 0, "scores are equal only at 0-0 (6.8)"
    assert events <= MAX_EVENTS == GAME.max_events(2)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), area=st.booleans())
def test_the_fused_playout_plays_exactly_the_generic_playout(seed, area):
    a = GAME.new_initial_state(2, {"area_scoring": area})
    b = a.clone()
    assert a.random_playout(random.Random(seed)) == random_playout(b, random.Random(seed))
    assert a.key() == b.key()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**9), stop=st.integers(0, 120))
def test_observation_rebuilds_the_full_state(seed, stop):
    state, _ = play_random(seed, area=seed % 2 == 0, stop=stop)
    for viewer in (None, 0, 1):
        obs = json.loads(json.dumps(state.observation(viewer)))
        rebuilt = GAME.state_from_observation(obs, 0 if viewer is None else viewer, random.Random(0))
        assert rebuilt.key() == state.key()
        assert rebuilt.legal_actions() == state.legal_actions()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**9), stop=st.integers(3, 120))
def test_the_checked_path_refuses_what_legal_actions_leaves_out(seed, stop):
    state, _ = play_random(seed, stop=stop)
    if state.is_terminal():
        return
    legal = set(state.legal_actions())
    seat = state.seat
    candidates = {(1, i) for i in range(36)} | {(2, r) for r in range(6)} | {(6, r) for r in range(6)}
    candidates |= {(k, a, b) for k in (3, 5) for a in range(36) for b in range(a + 1, 36)}
    candidates |= {(4, a, b) for a in range(36) for b in range(36) if a != b}
    candidates |= {(7, r, c, p) for r in (1, 2) for c in range(5) for p in [(0, 1, 2), (0, 1, 2, 3)]}
    candidates.add((10,))
    for action in candidates:
        if action in legal:
            state.check(seat, action)
        else:
            with pytest.raises(IllegalActionError) as info:
                state.check(seat, action)
            assert "is illegal: " in str(info.value)
            assert "not among the legal actions" not in str(info.value), str(info.value)


def test_clone_is_independent():
    state, _ = play_random(5, stop=40)
    copy = state.clone()
    before = state.key()
    while not copy.is_terminal():
        copy.apply(copy.seat, copy.legal_actions()[0])
    assert state.key() == before and copy.key() != before


@settings(max_examples=200, deadline=None)
@given(members=st.sets(st.integers(0, 35), max_size=16), largest=st.integers(3, 6))
def test_camp_groups_are_exactly_the_connected_sets(members, largest):
    from engine.games.nanga_parbat import camp_groups

    mask = sum(1 << i for i in members)
    found = camp_groups(mask, largest)
    names = sorted(members)
    for size in range(3, largest + 1):
        expected = tuple(c for c in itertools.combinations(names, size) if _connected(tuple(NAMES[i] for i in c)))
        assert found.get(size, ()) == expected
    assert not set(found) - set(range(3, largest + 1))


@settings(max_examples=200, deadline=None)
@given(types=st.lists(st.integers(0, 5), max_size=12), size=st.sampled_from([3, 4, 5, 6]), different=st.booleans())
def test_trade_sets_are_exactly_the_paying_sets(types, size, different):
    from engine.games.nanga_parbat import trade_pays, trade_sets

    expected = tuple(
        c for c in itertools.combinations(range(len(types)), size) if trade_pays([types[i] for i in c], different)
    )
    assert trade_sets(tuple(types), size, different) == expected


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9), area=st.booleans())
def test_the_engine_plays_the_same_games_as_the_straightforward_baseline(seed, area):
    """benchmarks/engine_nanga_parbat.py's baseline is an independent, plain reading of the
    rules that draws from the generator in the same order; the games must be identical."""
    from benchmarks.engine_nanga_parbat import SECTIONS, naive_play

    naive = naive_play(random.Random(seed), area)
    state = GAME.new_initial_state(2, {"area_scoring": area})
    assert state.random_playout(random.Random(seed)) == naive["events"]
    assert state.scores() == naive["score"]
    obs = state.observation(None)
    pieces = {e["section"]: e for e in obs["sections"]}
    for name in SECTIONS:
        kind, value = naive["cells"][name]
        assert pieces[name].get(kind) == value
    assert [[e["type"] for e in board] for board in obs["animal_boards"]] == [
        [t for t, _ in board] for board in naive["boards"]
    ]
