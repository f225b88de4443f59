"""Mountainhome against the shared conformance test, golden playthroughs, the CLI and record replay.

The fixture and the CLI wrapper make sure the registry holds the game for the duration of each
test (monkeypatch / setdefault), so these tests also run on a checkout where the registry line
is missing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import registry
from engine.core import random_event, random_playout
from engine.record import make_record, replay, summary

from .test_conformance import test_conformance as shared_conformance

GOLDEN = Path(__file__).parent / "golden"
TARGET = "engine.games.mountainhome:Mountainhome"


@pytest.fixture
def game(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(registry._GAMES, "mountainhome", TARGET)
    monkeypatch.setattr(registry, "_cache", {})
    return registry.get_game("mountainhome")


CLI = (
    f"import sys, engine.registry as r; r._GAMES.setdefault('mountainhome', {TARGET!r}); "
    "from engine.cli import main; sys.exit(main(sys.argv[1:]))"
)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_shared_conformance_test_passes(game, players: int) -> None:
    shared_conformance((game, players))


@pytest.mark.parametrize(
    "options",
    [{"shop_profile": "tiered"}, {"legendaries": "random", "labourer_vp": 1}],
    ids=["tiered", "random-legendaries"],
)
@pytest.mark.parametrize("players", [2, 4])
def test_random_games_end_and_replay_with_other_options(game, players: int, options: dict) -> None:
    for seed in range(3):
        state = game.new_initial_state(players, options)
        events: list = []
        random_playout(state, random.Random(seed), events=events)
        assert state.is_terminal() and state.winners()
        record = json.loads(json.dumps(make_record(game.id, players, game.normalize_options(options), events)))
        assert replay(record) == state


def _sample(game, players: int, seed: int) -> dict:
    """What ``python -m engine sample mountainhome --players N --seed K`` prints."""
    options = game.normalize_options({})
    state = game.new_initial_state(players, options)
    events: list = []
    random_playout(state, random.Random(seed), events=events)
    return make_record(game.id, players, options, events)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_golden_playthrough_is_reproduced_exactly(game, players: int) -> None:
    path = GOLDEN / f"mountainhome_{players}p_seed1.json"
    golden = json.loads(path.read_text())
    assert json.loads(json.dumps(_sample(game, players, 1))) == golden
    verdict = summary(golden)
    assert verdict["ok"] and verdict["terminal"]
    state = replay(golden)
    assert verdict["scores"] == state.scores() and verdict["winners"] == state.winners()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_cli_samples_replays_and_benches_mountainhome(players: int) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    sample = subprocess.run(
        [sys.executable, "-c", CLI, "sample", "mountainhome", "--players", str(players), "--seed", "1"],
        capture_output=True, text=True, check=True, cwd=root,
    )  # fmt: skip
    assert json.loads(sample.stdout) == json.loads((GOLDEN / f"mountainhome_{players}p_seed1.json").read_text())
    replayed = subprocess.run(
        [sys.executable, "-c", CLI, "replay", str(GOLDEN / f"mountainhome_{players}p_seed1.json")],
        capture_output=True, text=True, cwd=root,
    )  # fmt: skip
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["ok"]
    bench = subprocess.run(
        [sys.executable, "-c", CLI, "bench", "mountainhome", "--players", str(players), "--seconds", "0.2"],
        capture_output=True, text=True, check=True, cwd=root,
    )  # fmt: skip
    assert json.loads(bench.stdout)["games"] >= 1


def test_an_invalid_envelope_is_rejected_before_any_event_mh_81(game) -> None:
    from engine.core import InvalidRecordError

    for bad in [
        {"format": "cairn-record/1", "game": "mountainhome", "players": 5, "options": {}, "events": []},
        {"format": "cairn-record/1", "game": "mountainhome", "players": 2, "options": {"shop_profile": "x"}, "events": []},
        {"format": "cairn-record/1", "game": "mountainhome", "players": 2, "options": {}, "events": {}},
        {"format": "cairn-record/9", "game": "mountainhome", "players": 2, "options": {}, "events": []},  # /1 to /3 are known
    ]:
        with pytest.raises(InvalidRecordError) as info:
            replay(bad)
        assert info.value.index is None


def test_a_bad_event_is_named_by_its_index(game) -> None:
    record = _sample(game, 2, 3)
    record["events"] = record["events"][:40] + [{"player": 1, "action": {"do": "end_action_step"}}]
    verdict = summary(record)
    assert not verdict["ok"] and verdict["index"] == 40


@pytest.mark.parametrize("players", [2, 3])
def test_the_random_bot_plays_whole_games_from_observations_only(game, players: int) -> None:
    """ai.choose_move sees only observations; it must answer every Mountainhome decision type."""
    from ai.bots import choose_move

    for seed in range(2):
        state = game.new_initial_state(players, {"legendaries": "random"} if seed else {})
        rng = random.Random(seed)
        prompts = set()
        moves = 0
        while not state.is_terminal():
            if state.current_player() == -1:
                state.apply(-1, state.sample_chance(rng))
                continue
            seat = state.to_move()[0]
            obs = json.loads(json.dumps(state.observation(seat)))
            prompts.add(obs["prompt"])
            action = choose_move("mountainhome", obs, seat, seed=moves)
            state.apply_event({"player": seat, "action": action})
            moves += 1
        assert state.winners()
        assert {"action_step", "bid_commit"} <= prompts


def test_malformed_events_raise_typed_errors_only(game) -> None:
    """Mutated record entries are refused with engine errors (never TypeError/KeyError)."""
    import copy

    from engine.core import EngineError

    rng = random.Random(4)
    junk = [None, 0, -1, 7, "x", "shinies-2#1", "hoard#9", [], {}, ["tobias#1"], True, "any", {"rocks": 1},
            [{"card": "x"}], 2.5, [["a"]], {"tap": []}, [{"tap": "mine#1", "n": "x"}], [{"pool": {"rocks": -1}}]]
    for players in (2, 3, 4):
        state = game.new_initial_state(players)
        for _ in range(150):
            if state.is_terminal():
                break
            event = random_event(state, rng)
            for _ in range(4):
                bad = copy.deepcopy(event)
                body = bad.get("action", bad.get("chance"))
                body[rng.choice(list(body) + ["extra"])] = rng.choice(junk)
                try:
                    state.clone().apply_event(bad)
                except EngineError:
                    pass
            state.apply_event(event)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_fused_playout_plays_exactly_the_generic_game(game, players: int) -> None:
    for seed in range(4):
        options = {"shop_profile": "tiered"} if seed % 2 else {}
        generic = game.new_initial_state(players, options)
        fused = game.new_initial_state(players, options)
        n_generic = random_playout(generic, random.Random(seed))
        n_fused = fused.random_playout(random.Random(seed))
        assert n_fused == n_generic and fused == generic
