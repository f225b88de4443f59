"""The engine's command line.  Other tools depend on these contracts.

* ``python -m engine replay FILE [FILE ...]``: one JSON line per file, in order;
  exit 0 if every record is valid, 1 if any is invalid, 2 if a file cannot be
  read as JSON.
* ``python -m engine audit FILE [FILE ...]``: like ``replay``, for a finished
  match's export (``seed``, ``commitment``, ``seqs``): also checks SHA-256(seed)
  against the commitment and every chance outcome against the seed; the same
  exit codes, and ``chance_events`` (how many were checked) in a valid verdict.
* ``python -m engine audit FILE --receipts RECEIPTS [--keys KEYS]``: also checks
  every receipt (:mod:`engine.receipt`) of the record's match: correctly signed
  by a known key (the record's ``receipt_keys``, the receipts file's ``keys``
  or ``--keys``, a ``GET /api/receipts/keys`` body), and the record's chain
  passing through each receipted head; a failure names the receipt.
* ``python -m engine witness URL [--state FILE]``: fetch the log's checkpoints
  from ``URL`` (a Cairn server), check each new one's signature and its
  consistency with the last one kept in ``FILE`` (default
  ``cairn-witness.json``), keep them; exit 0 if all were consistent, 1 if the
  log rewrote its past (the refused checkpoint is named and not kept), 2 if
  the server cannot be reached.  ``--record FILE``: then also audit that
  finished match's record and check that its chain passes through the head
  the newest kept checkpoint logged for it (an inclusion proof).
* ``python -m engine tournament-audit FILE``: re-derive a ``cairn-tournament/1`` export's
  pairings and standings from its settings, entries and match records (docs/TOURNAMENTS.md);
  one JSON verdict, exit 0 if it agrees, 1 with the differences named, 2 if unreadable.
* ``python -m engine bench GAME --players N --seconds S``: random games for S
  seconds; JSON with ``games_per_s`` and ``actions_per_s``.
* ``python -m engine sample GAME --players N --seed K``: one complete random
  game as a ``cairn-record/1``.

This module is the only place in ``engine/`` that does I/O or reads a clock.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from .core import random_playout
from .record import audit, make_record, summary
from .registry import game_ids, get_game


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


def _print_verdicts(files: Sequence[str], check: Callable[[Any], dict[str, Any]]) -> int:
    """One JSON verdict per file, in order; exit 0 if all valid, 1 if any invalid, 2 if one is unreadable."""
    status = 0
    for path in files:
        try:
            with open(path, encoding="utf-8") as handle:
                record = json.load(handle)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            print(_dumps({"ok": False, "index": None, "error": f"cannot read {path} as JSON: {exc}"}))
            status = 2
            continue
        verdict = check(record)
        print(_dumps(verdict))
        if not verdict["ok"] and status == 0:
            status = 1
    sys.stdout.flush()
    return status


def cmd_replay(args: argparse.Namespace) -> int:
    return _print_verdicts(args.files, summary)


def _read_json(path: str) -> Any:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def cmd_audit(args: argparse.Namespace) -> int:
    if args.receipts is None and args.keys is None:
        return _print_verdicts(args.files, audit)
    from .receipt import ReceiptError, parse_keys, parse_receipts

    try:
        receipts, keys = parse_receipts(_read_json(args.receipts)) if args.receipts else ([], {})
        if args.keys:
            keys.update(parse_keys(_read_json(args.keys)))
    except (OSError, UnicodeDecodeError, ValueError) as exc:  # ReceiptError is a ValueError
        kind = "receipts or keys" if not isinstance(exc, ReceiptError) else "receipts"
        print(_dumps({"ok": False, "index": None, "error": f"cannot read the {kind}: {exc}"}))
        return 2
    return _print_verdicts(args.files, lambda record: audit(record, receipts, keys))


def cmd_tournament_audit(args: argparse.Namespace) -> int:
    from .tournament_audit import audit_tournament

    try:
        export = _read_json(args.file)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        print(_dumps({"ok": False, "errors": [f"cannot read {args.file} as JSON: {exc}"]}))
        return 2
    verdict = audit_tournament(export)
    print(_dumps(verdict))
    return 0 if verdict["ok"] else 1


def _fetch_json(url: str) -> Any:
    import urllib.request

    request = urllib.request.Request(url, headers={"Accept": "application/json", "User-Agent": "cairn-witness/1"})
    with urllib.request.urlopen(request, timeout=30) as response:  # the URL is the user's
        return json.loads(response.read().decode("utf-8"))


def cmd_witness(args: argparse.Namespace) -> int:
    from .receipt import parse_keys
    from .witness import STATE_FORMAT, WitnessError, accept

    base = args.url.rstrip("/")
    try:
        kept_state = _read_json(args.state)
    except FileNotFoundError:
        kept_state = {"format": STATE_FORMAT, "log": base, "checkpoints": []}
    except (OSError, ValueError) as exc:
        print(_dumps({"ok": False, "error": f"cannot read the witness's state {args.state}: {exc}"}))
        return 2
    kept = kept_state["checkpoints"][-1] if kept_state.get("checkpoints") else None
    after = kept["size"] if kept else 0
    try:
        body = _fetch_json(f"{base}/api/transparency/checkpoints?after={after}")
        keys = parse_keys(body["keys"])
        accepted = 0
        for checkpoint in body["checkpoints"]:
            proof: list[str] = []
            if kept is not None:
                answer = _fetch_json(
                    f"{base}/api/transparency/consistency?from={kept['size']}&to={checkpoint['size']}")
                proof = answer["proof"]
            try:
                accept(kept, checkpoint, proof, keys)
            except WitnessError as exc:
                print(_dumps({"ok": False, "error": str(exc), "kept": kept, "refused": checkpoint,
                              "accepted": accepted}))
                return 1
            kept_state["checkpoints"].append(checkpoint)
            kept = checkpoint
            accepted += 1
            with open(args.state, "w", encoding="utf-8") as handle:
                json.dump(kept_state, handle, indent=1)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(_dumps({"ok": False, "error": f"cannot follow the log at {base}: {exc}"}))
        return 2
    verdict: dict[str, Any] = {"ok": True, "accepted": accepted, "size": kept["size"] if kept else 0,
                               "root": kept["root"] if kept else None}
    if args.record:
        try:
            found = _record_in_log(base, kept, args.record)
        except (OSError, ValueError, KeyError, TypeError) as exc:  # unreadable file, no such match in the log
            found = {"ok": False, "error": f"cannot check the record against the log: {exc}"}
        verdict.update(found)
        if not found["ok"]:
            print(_dumps(verdict))
            return 1
    print(_dumps(verdict))
    return 0


def _record_in_log(base: str, kept: Any, path: str) -> dict[str, Any]:
    """Audit a record and check it passes through its match's head in the kept checkpoint."""
    from .witness import WitnessError, check_inclusion

    record = _read_json(path)
    verdict = audit(record)
    if not verdict["ok"]:
        return {"ok": False, "error": f"the record fails its audit: {verdict['error']}"}
    if kept is None:
        return {"ok": False, "error": "the witness holds no checkpoint yet"}
    answer = _fetch_json(f"{base}/api/transparency/proof?match={record['match']}&size={kept['size']}")
    leaf = answer["leaf"]
    try:
        check_inclusion(kept, leaf, answer["proof"])
    except WitnessError as exc:
        return {"ok": False, "error": str(exc)}
    hashes = {item["seq"]: item.get("hash") for item in record["log"]}
    if hashes.get(leaf["seq"]) != leaf["hash"]:
        return {"ok": False, "error": f"the record contradicts the log: the checkpoint of size {kept['size']} holds "
                                      f"match {leaf['match']} at seq {leaf['seq']} with hash {leaf['hash']}, the record "
                                      f"has {hashes.get(leaf['seq'])}"}
    return {"ok": True, "record": {"match": leaf["match"], "seq": leaf["seq"], "hash": leaf["hash"]}}


def _options(args: argparse.Namespace) -> dict[str, Any]:
    if not args.options:
        return {}
    options = json.loads(args.options)
    if not isinstance(options, dict):
        raise SystemExit("--options must be a JSON object")
    return options


def cmd_bench(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    options = game.normalize_options(_options(args))
    players = game.check_players(args.players)
    rng = random.Random(args.seed)
    games = events = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    deadline = start + args.seconds
    while True:
        state = game.new_initial_state(players, options)
        events += state.random_playout(rng)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    cpu = max(time.process_time() - cpu_start, 1e-9)
    print(
        _dumps(
            {
                "game": game.id,
                "players": players,
                "seconds": round(elapsed, 3),
                "games": games,
                "actions": events,
                "games_per_s": round(games / elapsed, 1),
                "actions_per_s": round(events / elapsed, 1),
                "actions_per_game": round(events / games, 1),
                # On a shared machine the wall clock counts time spent waiting for
                # a core; CPU time counts only this process's own work.
                "cpu_seconds": round(cpu, 3),
                "games_per_cpu_s": round(games / cpu, 1),
            }
        )
    )
    return 0


def cmd_sample(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    options = game.normalize_options(_options(args))
    players = game.check_players(args.players)
    state = game.new_initial_state(players, options)
    events: list[dict[str, Any]] = []
    random_playout(state, random.Random(args.seed), events=events)
    print(json.dumps(make_record(game.id, players, options, events)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Cairn rules engine")
    sub = parser.add_subparsers(dest="command", required=True)

    replay = sub.add_parser("replay", help="replay and verify cairn-record/1 files")
    replay.add_argument("files", nargs="+", metavar="FILE")
    replay.set_defaults(func=cmd_replay)

    audit_ = sub.add_parser(
        "audit", help="replay a finished match's export and check its dice and shuffles against the revealed seed"
    )
    audit_.add_argument("files", nargs="+", metavar="FILE")
    audit_.add_argument("--receipts", metavar="FILE", help="receipts kept during play: check each against the record")
    audit_.add_argument("--keys", metavar="FILE", help="the server's public receipt keys (GET /api/receipts/keys)")
    audit_.set_defaults(func=cmd_audit)

    witness = sub.add_parser("witness", help="follow a Cairn server's log of heads and check it never rewrites its past")
    witness.add_argument("url", help="the server, e.g. https://cairn.example")
    witness.add_argument("--state", default="cairn-witness.json", help="where the kept checkpoints live")
    witness.add_argument("--record", metavar="FILE", help="also check this finished match's record against the log")
    witness.set_defaults(func=cmd_witness)

    tour = sub.add_parser("tournament-audit",
                          help="re-derive a cairn-tournament/1 export's pairings and standings from its match records")
    tour.add_argument("file", metavar="FILE")
    tour.set_defaults(func=cmd_tournament_audit)

    bench = sub.add_parser("bench", help="random games per second")
    bench.add_argument("game", choices=game_ids())
    bench.add_argument("--players", type=int, required=True)
    bench.add_argument("--seconds", type=float, required=True)
    bench.add_argument("--seed", type=int, default=0)
    bench.add_argument("--options", default="", help="match options as a JSON object")
    bench.set_defaults(func=cmd_bench)

    sample = sub.add_parser("sample", help="print one complete random game as a record")
    sample.add_argument("game", choices=game_ids())
    sample.add_argument("--players", type=int, required=True)
    sample.add_argument("--seed", type=int, required=True)
    sample.add_argument("--options", default="", help="match options as a JSON object")
    sample.set_defaults(func=cmd_sample)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except Exception as exc:  # argument errors from the game (player count, options)
        if args.command == "replay":
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 2
