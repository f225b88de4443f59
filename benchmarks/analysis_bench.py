"""Post-game analysis: its cost per game, the bots' mistake rates, and bot moves beside running analyses.

A benchmark driver (it reads clocks, starts processes and writes files), so it lives here and ``ai/``
stays pure.  Games are played by the bots at their iteration caps without a clock (``--play-scale``
times the caps), so every game is a pure function of ``--seed`` and its number; analyses use
``ai.analysis``'s budgets (``--budget-scale`` times them).

Cost (CPU seconds per game, one core; the budget in ``ai.analysis.BUDGETS`` is chosen from this)::

    python -m benchmarks.analysis_bench cost --game mountain-goats --games 5 --players 2

Mistake rates per level (docs/AI.md, "Post-game analysis")::

    python -m benchmarks.analysis_bench marks --game mountain-goats --pairs easy-random,hard-easy \
        --games 6 --budget-scale 0.5 --jsonl runs/marks_mg.jsonl

Bot moves with analyses running beside them (niced, as scripts/run and the systemd unit run them)::

    python -m benchmarks.analysis_bench latency --game mountain-goats --level easy --moves 40 --analyses 2

prints the bot's wall-clock time and search iterations per move, alone and with ``--analyses``
processes analysing games at ``nice 10`` on the same machine.  On a busy, shared machine every figure
is provisional: run it on a quiet one.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import replace
from typing import Any

from ai import analysis as core
from ai.bots import choose_action, level_config
from engine import get_game
from engine.core import CHANCE, TERMINAL


def play(game_id: str, levels: list[str], seed: int, play_scale: float) -> list[dict[str, Any]]:
    """A bot game's record; ``levels[seat]`` plays each seat at ``play_scale`` times its iteration cap."""
    game = get_game(game_id)
    state = game.new_initial_state(len(levels))
    chance = random.Random(f"analysis-bench:{seed}")
    events: list[dict[str, Any]] = []
    while state.current_player() != TERMINAL:
        player = state.current_player()
        if player == CHANCE:
            outcome = state.sample_chance(chance)
            events.append(state.event_to_json(CHANCE, outcome))
            state.apply(CHANCE, outcome)
            continue
        seat = state.to_move()[0]
        level = levels[seat]
        config = None
        if level != "random":
            config = level_config(level, game_id, scale=play_scale)
            config = replace(config, seconds=None)
        action = choose_action(game, state.observation(seat), seat, level=level, seed=seed * 100_003 + len(events),
                               config=config)
        events.append(state.event_to_json(seat, action))
        state.apply(seat, action)
    return events


def scaled(game_id: str, factor: float, players: int = 2) -> core.Budget:
    b = core.budget_for(game_id, players)
    return core.Budget(*(max(1, int(round(v * factor))) for v in (b.decision, b.played, b.luck)))


def cost(args: argparse.Namespace) -> dict[str, Any]:
    budget = scaled(args.game, args.budget_scale, args.players)
    rows = []
    for number in range(args.games):
        events = play(args.game, [args.level] * args.players, args.seed + number, args.play_scale)
        began = time.process_time()
        result = core.analyse_record(args.game, args.players, None, events, seed=number, budget=budget)
        seconds = time.process_time() - began
        moves = sum(1 for e in result["events"] if e["kind"] == "move")
        rows.append({"game": number, "events": len(events), "moves": moves, "cpu_seconds": round(seconds, 2)})
        print(json.dumps(rows[-1]), flush=True)
    times = [r["cpu_seconds"] for r in rows]
    summary = {"game": args.game, "players": args.players, "games": len(rows), "budget": budget.__dict__,
               "median_cpu_seconds": round(statistics.median(times), 2), "max_cpu_seconds": max(times),
               "median_events": statistics.median(r["events"] for r in rows)}
    print(json.dumps(summary))
    return summary


def marks(args: argparse.Namespace) -> dict[str, Any]:
    budget = scaled(args.game, args.budget_scale)
    per_level: dict[str, dict[str, float]] = {}
    out = open(args.jsonl, "a") if args.jsonl else None
    number = 0
    for pair in args.pairs.split(","):
        a, b = pair.split("-")
        for g in range(args.games):
            levels = [a, b] if g % 2 == 0 else [b, a]
            events = play(args.game, levels, args.seed + number, args.play_scale)
            result = core.analyse_record(args.game, 2, None, events, seed=number, budget=budget)
            for seat in result["seats"]:
                row = per_level.setdefault(levels[seat["seat"]], {"games": 0, "judged": 0, "forced": 0, "inaccuracy": 0,
                                                                   "mistake": 0, "blunder": 0, "accuracy_sum": 0.0})
                judged = seat["moves"] - seat["forced"]
                row["games"] += 1
                row["judged"] += judged
                row["forced"] += seat["forced"]
                for mark in core.MARKS:
                    row[mark] += seat[mark]
                row["accuracy_sum"] += (seat["accuracy"] or 0.0) * judged
            line = {"game": number, "pair": pair, "levels": levels, "events": len(events),
                    "seats": result["seats"]}
            if out:
                out.write(json.dumps(line) + "\n")
                out.flush()
            print(json.dumps(line), flush=True)
            number += 1
    table = {}
    for level, row in per_level.items():
        judged = max(1, int(row["judged"]))
        table[level] = {"games": int(row["games"]), "judged_moves": int(row["judged"]),
                        **{f"{mark}_per_100": round(100 * row[mark] / judged, 1) for mark in core.MARKS},
                        "accuracy": round(row["accuracy_sum"] / judged, 1)}
    summary = {"game": args.game, "budget": budget.__dict__, "play_scale": args.play_scale, "levels": table}
    print(json.dumps(summary))
    return summary


def _analyse_forever(game_id: str, seed: int) -> None:
    os.nice(10)
    events = play(game_id, ["easy", "easy"], seed, 0.25)
    while True:
        core.analyse_record(game_id, 2, None, events, seed=seed)


def _bot_moves(game_id: str, level: str, moves: int, seed: int) -> list[tuple[float, int]]:
    """``moves`` bot moves with the level's wall-clock limit: (seconds, iterations) of each."""
    from ai.bots import make_searcher

    game = get_game(game_id)
    rng = random.Random(seed)
    out = []
    state = game.new_initial_state(2)
    while len(out) < moves:
        if state.current_player() == TERMINAL:
            state = game.new_initial_state(2)
        player = state.current_player()
        if player == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            state.apply(seat, legal[0])
            continue
        searcher = make_searcher(game, level_config(level, game_id), seed=len(out), clock=time.perf_counter)
        began = time.perf_counter()
        if game.perfect_information:
            view = game.state_from_observation(state.observation(seat), seat, random.Random(len(out)))
            action = searcher.search(view, seat)
        else:
            action = searcher.search(state.observation(seat), seat)
        out.append((time.perf_counter() - began, searcher.iterations_done))
        state.apply(seat, action)
    return out


def latency(args: argparse.Namespace) -> dict[str, Any]:
    results = {}
    for analyses in (0, args.analyses):
        workers = [multiprocessing.Process(target=_analyse_forever, args=(args.game, i), daemon=True)
                   for i in range(analyses)]
        for w in workers:
            w.start()
        time.sleep(1.0 if analyses else 0)
        try:
            moves = _bot_moves(args.game, args.level, args.moves, args.seed)
        finally:
            for w in workers:
                w.terminate()
                w.join()
        seconds = sorted(m[0] for m in moves)
        its = [m[1] for m in moves]
        results[f"with_{analyses}_analyses"] = {
            "moves": len(moves), "median_seconds": round(statistics.median(seconds), 3),
            "p95_seconds": round(seconds[int(0.95 * (len(seconds) - 1))], 3),
            "median_iterations": statistics.median(its)}
        print(json.dumps({f"with_{analyses}_analyses": results[f"with_{analyses}_analyses"]}), flush=True)
    summary = {"game": args.game, "level": args.level, "cores": os.cpu_count(), **results}
    print(json.dumps(summary))
    return summary


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.analysis_bench", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("cost", "marks", "latency"):
        p = sub.add_parser(name)
        p.add_argument("--game", default="mountain-goats")
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--play-scale", type=float, default=0.25, help="times the levels' iteration caps")
        p.add_argument("--budget-scale", type=float, default=1.0, help="times ai.analysis's budget")
        p.add_argument("--json", help="write the summary here")
        if name == "cost":
            p.add_argument("--games", type=int, default=3)
            p.add_argument("--players", type=int, default=2)
            p.add_argument("--level", default="easy")
        elif name == "marks":
            p.add_argument("--games", type=int, default=4, help="per pair")
            p.add_argument("--pairs", default="easy-random,hard-easy")
            p.add_argument("--jsonl", help="append each game's line here")
        else:
            p.add_argument("--level", default="easy")
            p.add_argument("--moves", type=int, default=30)
            p.add_argument("--analyses", type=int, default=2)
    args = parser.parse_args(argv)
    summary = {"cost": cost, "marks": marks, "latency": latency}[args.command](args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
