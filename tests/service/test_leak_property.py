"""A leak property per game, over random play (hypothesis, bounded examples).

Two matches that differ only in what a viewer may not see give that viewer
the same events, record log and observation, apart from values uniformly
random to them (``prev_hash``, ``body_hash``, ``hash`` and the nonces of
events they may see: outputs of SHA-256 and HMAC-SHA256 under a secret seed).
And a sealed payload's ``body_hash`` does not confirm a guess, even the
right one, from anything public.

* Every game: the same events under two different secret seeds.
* Mountainhome: also the same play up to a sealed commitment, which differs.

The REST detail, ``?at=n``, the events API, the record and the websocket
fragments are all built from these projections and observations
(games/projection.py); tests/service/test_sealed.py checks them through the
API on real matches.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import chain, get_game
from games import projection, store

from .helpers import replayed_redaction

UNIFORM = {"prev_hash", "body_hash", "hash", "nonce"}
HEX64 = re.compile(r"^[0-9a-f]{64}$")
START = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)
PROPERTY = settings(max_examples=6, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@dataclass
class FakeMatch:
    seed: str
    pk: int = 7
    chain_version: int = 2


@dataclass
class Row:
    match_id: int
    seq: int
    type: str
    payload: Any
    actor: str
    timestamp: datetime
    prev_hash: str = ""
    hash: str = ""


@dataclass
class Log:
    match: FakeMatch
    rows: list[Row] = field(default_factory=list)

    def add(self, type_: str, payload: Any, actor: str) -> None:
        seq = len(self.rows) + 1
        prev = self.rows[-1].hash if self.rows else chain.GENESIS_HASH
        row = Row(self.match.pk, seq, type_, payload, actor, START + timedelta(seconds=seq), prev)
        row.hash = store.event_hash(self.match, prev, store.row_body(row))
        self.rows.append(row)


def random_entries(game_id: str, players: int, rng: random.Random, limit: int) -> list[tuple[str, Any, str]]:
    state = get_game(game_id).new_initial_state(players, {})
    entries: list[tuple[str, Any, str]] = []
    while not state.is_terminal() and len(entries) < limit:
        if state.is_chance_node():
            entry = {"chance": state.chance_to_json(state.sample_chance(rng))}
            entries.append(("chance", entry, "system"))
        else:
            seat = sorted(state.to_move())[0]
            actions = state.legal_actions(seat)
            entry = {"player": seat, "action": state.action_to_json(seat, actions[rng.randrange(len(actions))])}
            entries.append(("action", entry, f"user:{seat + 1}"))
        state.apply_event(entry)
    return entries


def build(seed: bytes, players: int, entries: list[tuple[str, Any, str]]) -> Log:
    log = Log(FakeMatch(seed=seed.hex()))
    log.add("created", {"players": players, "commitment": "c" * 64}, "user:1")
    log.add("started", {"players": players}, "system")
    for type_, payload, actor in entries:
        log.add(type_, payload, actor)
    return log


def seen(game_id: str, players: int, log: Log, viewer: int | None) -> list[dict[str, Any]]:
    redaction = replayed_redaction(game_id, players, get_game(game_id).normalize_options({}), log.rows) \
        if projection.has_redaction(game_id) else None
    return projection.project_events(game_id, log.rows, viewer, match=log.match, redaction=redaction)


def without_uniform(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    def strip(item: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in item.items() if k not in UNIFORM}
        if "skipped" in out:
            out["skipped"] = [strip(link) for link in out["skipped"]]
        return out

    return [strip(item) for item in events]


def assert_only_uniform_values_differ(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> None:
    assert without_uniform(a) == without_uniform(b)
    for item in a + b:
        for key in UNIFORM & set(item):
            assert HEX64.match(item[key]), (key, item[key])
        assert ("nonce" in item) != bool(item.get("redacted")), "a nonce comes exactly with a payload shown as stored"


def replayed_observation(game_id: str, players: int, log: Log, viewer: int | None) -> Any:
    state = get_game(game_id).new_initial_state(players, {})
    for row in log.rows:
        if row.type in ("chance", "action"):
            state.apply_event(row.payload)
    return state.observation(viewer)


@pytest.mark.parametrize("game_id,players", [("mountain-goats", 3), ("nanga-parbat", 2), ("mountainhome", 2)])
@PROPERTY
@given(play=st.integers(0, 2**32), limit=st.integers(5, 80))
def test_a_viewer_gets_nothing_from_the_secret_seed_but_uniform_values(game_id, players, play, limit):
    entries = random_entries(game_id, players, random.Random(play), limit)
    one = build(random.Random(play).randbytes(32), players, entries)
    two = build(random.Random(play + 1).randbytes(32), players, entries)
    for viewer in (None, *range(players)):
        assert_only_uniform_values_differ(seen(game_id, players, one, viewer), seen(game_id, players, two, viewer))


@PROPERTY
@given(play=st.integers(0, 2**32))
def test_two_mountainhome_matches_differing_only_in_a_sealed_commitment_look_the_same_to_the_others(play):
    rng = random.Random(play)
    game = get_game("mountainhome")
    state = game.new_initial_state(2, {})
    entries: list[tuple[str, Any, str]] = []
    alternative = None
    for _ in range(4000):  # random play until seat 1 can commit to a bid in more than one way
        if state.is_terminal():
            break
        if state.is_chance_node():
            entry = {"chance": state.chance_to_json(state.sample_chance(rng))}
            entries.append(("chance", entry, "system"))
            state.apply_event(entry)
            continue
        seat = sorted(state.to_move())[0]
        options = [state.action_to_json(seat, a) for a in state.legal_actions(seat)]
        commits = [a for a in options if a["do"] == "commit_bid" and a.get("cards")]
        if seat == 1 and len(commits) >= 2:
            first, second = rng.sample(commits, 2)
            entries_a = entries + [("action", {"player": 1, "action": first}, "user:2")]
            alternative = entries + [("action", {"player": 1, "action": second}, "user:2")]
            break
        action = options[rng.randrange(len(options))]
        entry = {"player": seat, "action": action}
        entries.append(("action", entry, f"user:{seat + 1}"))
        state.apply_event(entry)
    assert alternative is not None, "no sealed commitment with a choice came up"
    seed = rng.randbytes(32)
    one, two = build(seed, 2, entries_a), build(seed, 2, alternative)
    for viewer in (None, 0):  # everyone but seat 1
        a, b = seen("mountainhome", 2, one, viewer), seen("mountainhome", 2, two, viewer)
        assert_only_uniform_values_differ(a, b)
        assert replayed_observation("mountainhome", 2, one, viewer) == replayed_observation("mountainhome", 2, two, viewer)
        # the attacker's test: the right guess, hashed with everything public, does not meet body_hash
        sealed = a[-1]
        assert sealed["redacted"] and "nonce" not in sealed
        truth = one.rows[-1].payload
        body = chain.body(7, sealed["seq"], "action", truth, sealed["actor"], sealed["timestamp"])
        nonces = [bytes.fromhex(e["nonce"]) for e in a if "nonce" in e]
        guesses = {chain.body_hash(n, body) for n in nonces} | {chain.hash_v1(sealed["prev_hash"], body)}
        assert sealed["body_hash"] not in guesses and sealed["hash"] not in guesses
    # seat 1 itself sees its own commitment, with the nonce that checks it
    mine = seen("mountainhome", 2, one, 1)[-1]
    body = chain.body(7, mine["seq"], "action", mine["payload"], mine["actor"], mine["timestamp"])
    assert mine["body_hash"] == chain.body_hash(bytes.fromhex(mine["nonce"]), body)
