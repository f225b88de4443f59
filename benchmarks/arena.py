"""Bot tournaments and search speed: ``python -m benchmarks.arena``.

A benchmark driver (it reads a clock, runs a process pool and writes files),
so it lives in ``benchmarks/`` and ``ai/`` stays pure.

Tournament::

    python -m benchmarks.arena match --game mountain-goats --a hard --b random \
        --games 200 --budget iterations --scale 0.1 --jobs 2 \
        --jsonl runs/mg_hard_random.jsonl --json out.json --markdown out.md

* Players are level names (``random``, ``easy``, ``medium``, ``hard``) or
  ``mcts:it=800,depth=6,c=0.7,reuse=1`` for explicit settings (``pub=1``:
  ISMCTS with the public tree for the other seats; ``prune=0``: ISMCTS
  without the game's move filter).
* ``--budget iterations`` (default) ignores the levels' seconds and uses
  their iteration caps times ``--scale``: every game is then a pure function
  of ``--seed`` and the game number, so any figure can be reproduced exactly.
  ``--budget seconds`` plays with the levels' wall-clock limits;
  ``--budget cpu`` with the same limits measured in this process's CPU time
  (``time.process_time``, injected as the search's clock), which a busy,
  shared machine does not skew as it skews wall-clock time.
* Seats rotate: in game ``g`` player A sits at seat ``g % players`` and B
  fills the other seats, so each side plays first equally often.
* A win counts 1, a shared first place 1/2.  Win rates carry a 95% Wilson
  score interval.

Speed::

    python -m benchmarks.arena speed --game mountain-goats --positions 20 --iterations 2000

prints MCTS iterations per second, over the same sampled positions, for full
rollouts and for early-stopping rollouts.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from ai.bots import LEVELS, choose_action, level_config
from ai.mcts import MCTS, MCTSConfig
from engine import get_game
from engine.core import CHANCE, TERMINAL, Game, State

Z95 = 1.959963984540054

# Budgets measured by a clock: the levels' seconds on the wall clock, or in this process's CPU time.
TIMED = {"seconds": time.perf_counter, "cpu": time.process_time}


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (successes may be fractional: ties)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


# ---------------------------------------------------------------------- players


class Player:
    """One side of a match: a level or an explicit MCTS configuration."""

    def __init__(self, spec: str, budget: str, scale: float, game_id: str = "mountain-goats") -> None:
        self.spec = spec
        self.level = "hard"
        self.reuse = False
        if spec in LEVELS:
            self.level = spec
            self.config: MCTSConfig | None = None if spec == "random" else level_config(spec, game_id, scale=scale)
        elif spec.startswith("mcts:"):
            fields = dict(item.split("=", 1) for item in spec[5:].split(",") if item)
            config = MCTSConfig(
                iterations=int(fields.get("it", 1000)),
                seconds=float(fields["s"]) if "s" in fields else None,
                exploration=float(fields.get("c", 0.7)),
                margin_weight=float(fields.get("margin", 0.1)),
                rollout_depth=int(fields["depth"]) if "depth" in fields else None,
                reuse_tree=fields.get("reuse", "0") == "1",
                public_tree=fields.get("pub", "0") == "1",
                prune_moves=fields.get("prune", "1") == "1",
            )
            self.reuse = config.reuse_tree
            self.config = config
        else:
            raise SystemExit(f"unknown player {spec!r}: a level ({', '.join(LEVELS)}) or mcts:it=N,...")
        self.timed = budget in TIMED
        if self.config is not None and not self.timed:
            self.config = replace(self.config, seconds=None)
        if self.config is not None and self.timed and self.config.seconds is None:
            raise SystemExit(f"player {spec!r} has no seconds budget for --budget seconds")


def load_game(name: str) -> Game:
    """A registered game by id, or an unregistered one as ``module:Class`` (a game still being built)."""
    if ":" in name:
        from importlib import import_module

        module_name, class_name = name.split(":")
        return getattr(import_module(module_name), class_name)()
    return get_game(name)


def _mix(*parts: Any) -> int:
    return random.Random(":".join(map(str, parts))).getrandbits(63)


def play_game(game_id: str, players: int, specs: list[str], budget: str, scale: float, seed: int, number: int) -> dict[str, Any]:
    """Play game ``number``; ``specs[seat]`` names the player in each seat."""
    game = load_game(game_id)
    game_id = game.id
    sides = [Player(spec, budget, scale, game_id) for spec in specs]
    clock = TIMED.get(budget)
    timer = clock or time.perf_counter
    state = game.new_initial_state(players)
    chance = random.Random(f"chance:{seed}:{number}")
    searchers: dict[int, MCTS] = {}
    think = [0.0] * players
    iters = [0] * players
    moves = [0] * players
    verbs: list[dict[str, int]] = [{} for _ in range(players)]  # decisions per seat by record verb ("do")
    events = 0
    while True:
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            outcome = state.sample_chance(chance)
            _advance(searchers, CHANCE, outcome)
            state.apply(CHANCE, outcome)
            events += 1
            continue
        # One seat at a time, as the service asks its bots: at a sealed,
        # simultaneous decision the later seats see (in their observation)
        # only that the earlier ones have committed, never what.
        seat = state.to_move()[0]
        side = sides[seat]
        move_seed = _mix(seed, number, events, seat)
        started = timer()
        if side.reuse and game.perfect_information and side.config is not None:
            searcher = searchers.get(seat)
            if searcher is None:
                searcher = searchers[seat] = MCTS(game_id, side.config, seed=move_seed, clock=clock)
            view = game.state_from_observation(state.observation(seat), seat, random.Random(move_seed))
            action = searcher.search(view, seat)
            iters[seat] += searcher.iterations_done
        else:
            action, done = _choose(game, state, seat, side, move_seed, clock)
            iters[seat] += done
        think[seat] += timer() - started
        moves[seat] += 1
        state.check(seat, action)
        verb = _verb(state, seat, action)
        verbs[seat][verb] = verbs[seat].get(verb, 0) + 1
        _advance(searchers, seat, action)
        state.apply(seat, action)
        events += 1
    return {
        "game": number,
        "seats": specs,
        "scores": state.scores(),
        "ranking": state.ranking(),
        "events": events,
        "think_seconds": [round(t, 4) for t in think],
        "iterations": iters,
        "moves": moves,
        "verbs": verbs,
    }


def _verb(state: State, seat: int, action: Any) -> str:
    """The record verb of a decision (``"do"`` in record notation), for counting re-commitments and the like."""
    try:
        data = state.action_to_json(seat, action)
    except Exception:  # noqa: BLE001 - a game without record notation for this action
        return "?"
    return str(data.get("do", "?")) if isinstance(data, dict) else "?"


def _advance(searchers: dict[int, MCTS], seat: int, action: Any) -> None:
    for searcher in searchers.values():
        searcher.advance(seat, action)


def _choose(game: Game, state: State, seat: int, side: Player, seed: int, clock: Any) -> tuple[Any, int]:
    observation = state.observation(seat)
    if side.config is None:
        return choose_action(game, observation, seat, level="random", seed=seed), 0
    from ai.bots import make_searcher

    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0], 0
    searcher = make_searcher(game, side.config, seed=seed, clock=clock)
    if isinstance(searcher, MCTS):
        view = game.state_from_observation(observation, seat, random.Random(seed))
        action = searcher.search(view, seat)
    else:
        action = searcher.search(observation, seat)
    return action, searcher.iterations_done


def _play_job(args: tuple) -> dict[str, Any]:
    return play_game(*args)


def run_match(
    game_id: str,
    a: str,
    b: str,
    *,
    games: int,
    players: int = 2,
    budget: str = "iterations",
    scale: float = 1.0,
    seed: int = 0,
    jobs: int = 1,
    jsonl: str | None = None,
) -> dict[str, Any]:
    done: dict[int, dict[str, Any]] = {}
    if jsonl and os.path.exists(jsonl):  # resume: games already played are kept
        with open(jsonl, encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                done[row["game"]] = row
    todo = []
    for g in range(games):
        if g in done:
            continue
        seat_a = g % players
        specs = [a if s == seat_a else b for s in range(players)]
        todo.append((game_id, players, specs, budget, scale, seed, g))
    out = open(jsonl, "a", encoding="utf-8") if jsonl else None
    started = time.perf_counter()
    try:
        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for row in pool.map(_play_job, todo):
                    done[row["game"]] = row
                    if out:
                        out.write(json.dumps(row) + "\n")
                        out.flush()
        else:
            for job in todo:
                row = _play_job(job)
                done[row["game"]] = row
                if out:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
    finally:
        if out:
            out.close()
    rows = [done[g] for g in sorted(done) if g < games]
    return summarize(game_id, a, b, rows, players=players, budget=budget, scale=scale, seed=seed,
                     wall=time.perf_counter() - started)


def summarize(game_id: str, a: str, b: str, rows: list[dict[str, Any]], **info: Any) -> dict[str, Any]:
    """A's wins (a shared first place split) and, for 3-4 players, A's pairwise score.

    Pairwise: in each game A meets every other seat once, scoring 1 for finishing ahead of it, 1/2
    for a tie; ``pair_points / pairs`` is then a 2-player score that ratings can use at any table size.
    """
    points = 0.0
    pair_points = 0.0
    pairs = 0
    for row in rows:
        seat_a = row["seats"].index(a) if a != b else row["game"] % len(row["seats"])
        ranking = row["ranking"]
        if ranking[seat_a] == 0:
            firsts = sum(1 for r in ranking if r == 0)
            points += 1.0 / firsts
        for seat, place in enumerate(ranking):
            if seat != seat_a:
                pairs += 1
                pair_points += 1.0 if ranking[seat_a] < place else 0.5 if ranking[seat_a] == place else 0.0
    n = len(rows)
    low, high = wilson(points, n)
    speed: dict[str, Any] = {}
    for side in (a, b):
        it = secs = 0.0
        for row in rows:
            for seat, spec in enumerate(row["seats"]):
                if spec == side:
                    it += row["iterations"][seat]
                    secs += row["think_seconds"][seat]
        speed[side] = round(it / secs) if secs and it else None
    return {
        "game": game_id,
        "a": a,
        "b": b,
        "games": n,
        "a_points": points,
        "a_win_rate": points / n if n else None,
        "ci95": [round(low, 4), round(high, 4)],
        "pair_points": pair_points,
        "pairs": pairs,
        "iterations_per_second": speed,
        **{k: v for k, v in info.items() if k != "wall"},
        "wall_seconds": round(info.get("wall", 0.0), 1),
    }


def markdown(summary: dict[str, Any]) -> str:
    rate = summary["a_win_rate"]
    low, high = summary["ci95"]
    speed = summary["iterations_per_second"]
    return (
        f"| {summary['game']} | {summary['a']} vs {summary['b']} | {summary['budget']}"
        f" x{summary['scale']} | {summary['games']} | {rate:.1%} | [{low:.1%}, {high:.1%}]"
        f" | {speed.get(summary['a'])} / {speed.get(summary['b'])} |"
    )


MARKDOWN_HEADER = (
    "| game | pairing (A vs B) | budget | games | A's win rate | 95% CI | it/s A / B |\n"
    "|---|---|---|---|---|---|---|"
)


# ---------------------------------------------------------------------- ratings

RATING_ANCHOR = 800  # the published rating of the random level, by definition


def elo_gap(points: float, games: int) -> float:
    """Elo difference implied by a score, shrunk towards 50% by half a game each way.

    ``(points + 0.5) / (games + 1)`` keeps a clean sweep finite.
    """
    p = (points + 0.5) / (games + 1)
    return 400.0 * math.log10(p / (1.0 - p))


def chain_ratings(summaries: list[dict[str, Any]], anchors: dict[str, float] | None = None) -> dict[str, int]:
    """Ratings of levels from match summaries, anchored at ``random`` = RATING_ANCHOR.

    Each summary (A vs B) fixes A = B + gap once B is rated; summaries are
    applied until no more levels can be rated.  The first summary that rates
    a level wins; later ones serve as checks.  ``anchors`` fixes more ratings
    (a player whose rating was published from other runs, e.g. the level a
    ladder plays against).

    With more than two players the gap comes from A's pairwise score (``pair_points`` of
    ``pairs``: finishing ahead of each other seat), since a win of 1/3 is par at a 3-seat table.
    """
    ratings: dict[str, float] = {"random": RATING_ANCHOR, **(anchors or {})}
    changed = True
    while changed:
        changed = False
        for summary in summaries:
            a, b = summary["a"], summary["b"]
            if summary.get("players", 2) > 2:
                gap = elo_gap(summary["pair_points"], summary["pairs"])
            else:
                gap = elo_gap(summary["a_points"], summary["games"])
            if b in ratings and a not in ratings:
                ratings[a] = ratings[b] + gap
                changed = True
            elif a in ratings and b not in ratings:
                ratings[b] = ratings[a] - gap
                changed = True
    return {k: int(round(v)) for k, v in ratings.items()}


# ---------------------------------------------------------------------- speed


def sample_positions(game: Game, players: int, count: int, seed: int) -> list[State]:
    """Decision positions taken from random games (one per game, at a random depth)."""
    rng = random.Random(f"positions:{seed}")
    positions: list[State] = []
    while len(positions) < count:
        state = game.new_initial_state(players)
        trail: list[State] = []
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            if player >= 0 and len(state.legal_actions(player)) > 1:
                trail.append(state.clone())
            for seat in state.to_move():
                actions = state.legal_actions(seat)
                state.apply(seat, actions[rng.randrange(len(actions))])
        if trail:
            positions.append(trail[rng.randrange(len(trail))])
    return positions


def measure_speed(game_id: str, players: int, positions: int, iterations: int, seed: int, depth: int | None) -> dict[str, Any]:
    game = get_game(game_id)
    states = sample_positions(game, players, positions, seed)
    total = 0
    started = time.perf_counter()
    config = MCTSConfig(iterations=iterations, rollout_depth=depth)
    for k, state in enumerate(states):
        if game.perfect_information:
            searcher: Any = MCTS(game_id, config, seed=seed + k)
            searcher.search(state)
        else:  # hidden information: ISMCTS from the observation of the seat to move
            from ai.ismcts import ISMCTS

            seat = state.to_move()[0]
            searcher = ISMCTS(game, config, seed=seed + k)
            searcher.search(state.observation(seat), seat)
        total += searcher.iterations_done
    elapsed = time.perf_counter() - started
    return {
        "game": game_id,
        "players": players,
        "positions": positions,
        "iterations_per_position": iterations,
        "rollout_depth": depth,
        "search": "MCTS" if game.perfect_information else "ISMCTS",
        "iterations_per_second": round(total / elapsed, 1),
    }


# ---------------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.arena", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="a tournament between two players, seats rotated")
    m.add_argument("--game", default="mountain-goats")
    m.add_argument("--a", required=True)
    m.add_argument("--b", required=True)
    m.add_argument("--games", type=int, default=200)
    m.add_argument("--players", type=int, default=2)
    m.add_argument("--budget", choices=("iterations", "seconds", "cpu"), default="iterations")
    m.add_argument("--scale", type=float, default=1.0, help="multiplies the levels' iteration caps")
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--jobs", type=int, default=1)
    m.add_argument("--jsonl", help="append one line per game here (and resume from it)")
    m.add_argument("--json", help="write the summary here")
    m.add_argument("--markdown", help="append a markdown table row here")
    s = sub.add_parser("speed", help="MCTS iterations per second on sampled positions")
    s.add_argument("--game", default="mountain-goats")
    s.add_argument("--players", type=int, default=2)
    s.add_argument("--positions", type=int, default=20)
    s.add_argument("--iterations", type=int, default=2000)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--depth", type=int, default=None, help="early-stopping rollout depth (default: full)")
    u = sub.add_parser("summary", help="summarize the games already in a --jsonl file (a stopped run)")
    u.add_argument("--jsonl", required=True)
    u.add_argument("--a", required=True)
    u.add_argument("--b", required=True)
    u.add_argument("--game", default="mountain-goats")
    u.add_argument("--budget", default="iterations")
    u.add_argument("--scale", type=float, default=1.0)
    u.add_argument("--seed", type=int, default=0)
    u.add_argument("--json")
    u.add_argument("--markdown")
    r = sub.add_parser("ratings", help="level ratings from match summaries (JSON files from match --json)")
    r.add_argument("summaries", nargs="+")
    args = parser.parse_args(argv)
    if args.command == "ratings":
        loaded = []
        for path in args.summaries:
            with open(path, encoding="utf-8") as handle:
                loaded.append(json.load(handle))
        tables = sorted({(s["game"], s.get("players", 2)) for s in loaded})
        print(json.dumps({
            f"{g}/{n}p": chain_ratings([s for s in loaded if s["game"] == g and s.get("players", 2) == n])
            for g, n in tables
        }, indent=2))
        return 0
    if args.command == "summary":
        with open(args.jsonl, encoding="utf-8") as handle:
            rows = sorted((json.loads(line) for line in handle), key=lambda row: row["game"])
        players = len(rows[0]["seats"]) if rows else 2
        summary = summarize(args.game, args.a, args.b, rows, players=players, budget=args.budget, scale=args.scale,
                            seed=args.seed)
        _emit(summary, args.json, args.markdown)
        return 0
    if args.command == "speed":
        print(json.dumps(measure_speed(args.game, args.players, args.positions, args.iterations, args.seed, args.depth)))
        return 0
    summary = run_match(
        args.game, args.a, args.b, games=args.games, players=args.players, budget=args.budget,
        scale=args.scale, seed=args.seed, jobs=args.jobs, jsonl=args.jsonl,
    )
    _emit(summary, args.json, args.markdown)
    return 0


def _emit(summary: dict[str, Any], json_path: str | None, markdown_path: str | None) -> None:
    text = json.dumps(summary, indent=2)
    print(text)
    if json_path:
        with open(json_path, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    if markdown_path:
        new = not os.path.exists(markdown_path)
        with open(markdown_path, "a", encoding="utf-8") as handle:
            if new:
                handle.write(MARKDOWN_HEADER + "\n")
            handle.write(markdown(summary) + "\n")
    print(markdown(summary), file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
