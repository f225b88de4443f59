"""The command-line contracts of ``python -m engine`` and ``cairn-record/1``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import get_game
from engine.fair import SeededRandom, chance_rng, commitment
from engine.record import make_record, summary

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"


def run_engine(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True)


def write(tmp_path: Path, name: str, obj) -> str:
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return str(path)


def mg_record(events, players=2):
    return make_record("mountain-goats", players, {}, events)


OPENING = [{"chance": {"first_player": 0}}, {"chance": {"roll": [2, 3, 4, 5]}}]


def test_replay_prints_one_line_per_file_in_order_and_exit_codes(tmp_path):
    good = write(tmp_path, "good.json", json.loads((GOLDEN / "mountain_goats_3p_seed1.json").read_text()))
    partial = write(tmp_path, "partial.json", mg_record(OPENING + [{"player": 0, "action": {"climb": [5]}}]))
    bad = write(tmp_path, "bad.json", mg_record(OPENING + [{"player": 1, "action": {"climb": [5]}}]))
    out = run_engine("replay", good, partial)
    assert out.returncode == 0
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert lines[0]["ok"] and lines[0]["terminal"] and lines[0]["winners"]
    assert lines[1] == {"ok": True, "terminal": False, "scores": [0, 0], "winners": []}
    out = run_engine("replay", good, bad)
    assert out.returncode == 1
    verdict = json.loads(out.stdout.splitlines()[1])
    assert verdict["ok"] is False and verdict["index"] == 2 and "seat 0 to move" in verdict["error"]
    notjson = write(tmp_path, "broken.json", "{not json")
    out = run_engine("replay", bad, notjson)
    assert out.returncode == 2
    assert len(out.stdout.splitlines()) == 2


@pytest.mark.parametrize(
    "events, index, text",
    [
        (OPENING + [{"player": 0, "action": {"climb": [10, 10]}}], 2, "cannot be reached"),
        (OPENING + [{"player": 1, "action": {"climb": [5]}}], 2, "seat 0 to move"),
        (OPENING + [{"chance": {"roll": [1, 1, 1, 1]}}], 2, "a move by seat 0 is due"),
        ([{"chance": {"first_player": 0}}, {"player": 0, "action": {"climb": []}}], 1, "chance event is due"),
        ([{"chance": {"first_player": 0}}, {"chance": {"roll": [1, 2, 3, 9]}}], 1, "outside 1..6"),
        ([{"chance": {"first_player": 0}}, {"chance": {"roll": [1, 2, 3]}}], 1, "exactly 4"),
        ([{"chance": {"first_player": 2}}], 0, "not a seat"),
    ],
)
def test_replay_names_the_first_event_that_cannot_be_applied(events, index, text):
    verdict = summary(mg_record(events))
    assert verdict["ok"] is False and verdict["index"] == index
    assert text in verdict["error"]


def test_replay_rejects_anything_after_the_end():
    record = json.loads((GOLDEN / "mountain_goats_3p_seed1.json").read_text())
    n = len(record["events"])
    record["events"].append({"chance": {"roll": [1, 2, 3, 4]}})
    verdict = summary(record)
    assert verdict == {"ok": False, "index": n, "error": verdict["error"]}
    assert "after the game has ended" in verdict["error"]


@pytest.mark.parametrize(
    "record, text",
    [
        ({"format": "cairn-record/9", "game": "mountain-goats", "players": 2, "options": {}, "events": []}, "format"),
        ({"format": "cairn-record/1", "game": "chess", "players": 2, "options": {}, "events": []}, "unknown game"),
        ({"format": "cairn-record/1", "game": "mountain-goats", "players": 5, "options": {}, "events": []}, "2 to 4"),
        ({"format": "cairn-record/1", "game": "mountain-goats", "players": 2, "options": {"x": 1}, "events": []}, "no option"),
        ({"format": "cairn-record/1", "game": "mountain-goats", "players": 2, "options": {}, "events": {}}, "list"),
    ],
)
def test_a_bad_envelope_has_no_event_index(record, text):
    verdict = summary(record)
    assert verdict["ok"] is False and verdict["index"] is None and text in verdict["error"]


def test_golden_playthrough_is_reproduced_exactly():
    golden = json.loads((GOLDEN / "mountain_goats_3p_seed1.json").read_text())
    out = run_engine("sample", "mountain-goats", "--players", "3", "--seed", "1")
    assert out.returncode == 0
    assert json.loads(out.stdout) == golden
    verdict = summary(golden)
    assert verdict == {"ok": True, "terminal": True, "scores": [119, 90, 168], "winners": [2]}
    assert len(golden["events"]) == 169


def test_bench_prints_speeds():
    out = run_engine("bench", "mountain-goats", "--players", "4", "--seconds", "0.3")
    result = json.loads(out.stdout)
    assert result["games"] > 0 and result["games_per_s"] > 0 and result["actions_per_s"] > 0


def test_sample_rejects_a_bad_player_count():
    out = run_engine("sample", "mountain-goats", "--players", "7", "--seed", "1")
    assert out.returncode == 2 and "2 to 4 players" in out.stderr


# ------------------------------------------------------------------ fair randomness


def test_seeded_random_is_deterministic_and_label_separated():
    a = [SeededRandom(b"s", "chance:1").randrange(1296) for _ in range(3)]
    assert a == [SeededRandom(b"s", "chance:1").randrange(1296) for _ in range(3)]
    rng1, rng2 = chance_rng(b"seed", 1), chance_rng(b"seed", 2)
    assert [rng1.randrange(10**9) for _ in range(4)] != [rng2.randrange(10**9) for _ in range(4)]


def test_seeded_random_follows_its_published_definition():
    import hashlib
    import hmac

    digest = hmac.new(b"k", b"lbl:0", hashlib.sha256).digest()
    first_word = int.from_bytes(digest[:8], "big")
    assert SeededRandom(b"k", "lbl").randrange(7) == first_word % 7
    assert commitment(b"abc") == hashlib.sha256(b"abc").hexdigest()


def test_seeded_random_is_uniform_enough():
    rng = SeededRandom(b"uniform", "test")
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.randrange(6)] += 1
    assert all(850 < c < 1150 for c in counts)


def test_chance_outcomes_drawn_from_a_seed_are_reproducible_for_verification():
    state = get_game("mountain-goats").new_initial_state(2)
    first = state.sample_chance(chance_rng(b"match-seed", 1))
    assert first == state.sample_chance(chance_rng(b"match-seed", 1))
    state.apply(-1, first)
    roll = state.sample_chance(chance_rng(b"match-seed", 2))
    assert len(roll) == 4 and all(1 <= d <= 6 for d in roll)


def fair_record(game_id: str, players: int, seed: bytes, *, first_seq: int = 4) -> dict:
    """A finished match as Cairn exports it: chance drawn from (seed, seq), with seqs and the revealed seed."""
    import random

    game = get_game(game_id)
    state = game.new_initial_state(players)
    rng = random.Random(7)
    events, seqs = [], []
    seq = first_seq  # the service's own events (created, joined, started) come first
    while not state.is_terminal():
        if state.is_chance_node():
            outcome = state.sample_chance(chance_rng(seed, seq))
            events.append({"chance": state.chance_to_json(outcome)})
            state.apply(-1, outcome)
        else:
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            action = actions[rng.randrange(len(actions))]
            events.append(state.event_to_json(seat, action))
            state.apply(seat, action)
        seqs.append(seq)
        seq += 1
    return make_record(game_id, players, {}, events, seqs=seqs, commitment=commitment(seed), seed=seed.hex())


@pytest.mark.parametrize("game_id", ["mountain-goats", "nanga-parbat"])
def test_audit_checks_the_seed_and_every_chance_outcome(game_id):
    from engine.record import audit

    record = fair_record(game_id, 2, b"a secret seed")
    verdict = audit(record)
    assert verdict["ok"] and verdict["terminal"], verdict
    assert verdict["chance_events"] == sum("chance" in e for e in record["events"]) > 0
    assert verdict["scores"] == summary(record)["scores"]

    forged = json.loads(json.dumps(record))
    index = max(i for i, e in enumerate(forged["events"]) if "chance" in e and "roll" in e["chance"]) if game_id == "mountain-goats" \
        else min(i for i, e in enumerate(forged["events"]) if "chance" in e)
    # Another legal outcome at that point: replay still accepts it, the audit does not.
    state = get_game(game_id).new_initial_state(2)
    for event in forged["events"][:index]:
        state.apply_event(event)
    other = next(state.chance_to_json(o) for o, _p in state.chance_outcomes() if state.chance_to_json(o) != forged["events"][index]["chance"])
    forged["events"][index] = {"chance": other}
    verdict = audit(forged)
    assert verdict["ok"] is False and verdict["index"] == index and "the seed gives" in verdict["error"]

    shifted = dict(record, seqs=[n + 1 for n in record["seqs"]])
    assert audit(shifted)["ok"] is False


@pytest.mark.parametrize(
    "change, text",
    [
        ({"seed": None}, "no 'seed'"),
        ({"seed": "zz"}, "must be hex"),
        ({"commitment": "0" * 64}, "not the record's commitment"),
        ({"seqs": [1, 2]}, "'seqs'"),
        ({"format": "other"}, "'format'"),
    ],
)
def test_audit_refuses_a_record_it_cannot_check_with_no_event_index(change, text):
    from engine.record import audit

    verdict = audit({**fair_record("mountain-goats", 2, b"s"), **change})
    assert verdict["ok"] is False and verdict["index"] is None and text in verdict["error"]


def test_audit_command_line_prints_a_verdict_per_file_with_replays_exit_codes(tmp_path):
    good = write(tmp_path, "good.json", fair_record("mountain-goats", 3, b"seed"))
    unfinished = write(tmp_path, "unfinished.json", {**fair_record("mountain-goats", 2, b"seed"), "seed": None})
    out = run_engine("audit", good)
    assert out.returncode == 0 and json.loads(out.stdout)["ok"] is True
    out = run_engine("audit", good, unfinished)
    assert out.returncode == 1
    assert [json.loads(line)["ok"] for line in out.stdout.splitlines()] == [True, False]
    assert run_engine("audit", write(tmp_path, "bad.json", "{not json")).returncode == 2
