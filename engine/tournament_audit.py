"""The offline audit of a ``cairn-tournament/1`` export (``python -m engine tournament-audit FILE``).

It re-derives, from the export's settings, entry list and the match records it carries:

* every board's result, from its match's record (itself audited by :func:`engine.record.audit`: chain,
  seed, dice, legality, result), and that the record's seats are the board's entrants;
* every pairing the rules determine: Swiss rounds (FIDE Dutch at 2 a table, score groups at 3-4),
  round-robin rounds (Berger tables, or the grouping schedule at 3-4), and for an arena that nobody
  sat at two boards at once, nor at a board of the wrong size, nor after withdrawing;
* every standing: points and tie-breaks, in order.

Any difference is reported by what it is about (round, table, match, entry).  Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from . import tournament as T


def _board(row: dict[str, Any]) -> T.Board:
    places = row.get("places")
    return T.Board(tuple(row["seats"]), tuple(places) if places is not None else None)


def _active(entries: list[dict[str, Any]], round_number: int) -> list[dict[str, Any]]:
    return [e for e in entries if e["joined_round"] <= round_number
            and (e.get("withdrawn_round") is None or e["withdrawn_round"] > round_number)]


def check_record(board: dict[str, Any], record: Any, entries: dict[int, dict[str, Any]]) -> str | None:
    """Why a board disagrees with its match record, or None."""
    from .record import audit

    verdict = audit(record)
    if not verdict["ok"]:
        return f"its record fails the audit: {verdict['error']}"
    if record.get("match") != board["match"]:
        return f"the record is of match {record.get('match')!r}"
    seats = record.get("seats") or []
    if len(seats) != len(board["seats"]):
        return f"the record has {len(seats)} seats, the board {len(board['seats'])}"
    for index, (seat, entry_no) in enumerate(zip(seats, board["seats"])):
        entry = entries.get(entry_no)
        if entry is None:
            return f"seat {index} names entry {entry_no}, which is not in the entry list"
        who = seat.get("bot") if entry.get("bot") else seat.get("user")
        want = entry.get("bot") or entry.get("name")
        if who != want:
            return f"seat {index} of the record is {who!r}, the entry {entry_no} is {want!r}"
    created = next((e for e in record.get("log") or [] if e.get("type") == "created"), None)
    halved = sorted((created or {}).get("payload", {}).get("berserk", []))
    flags = [seat for seat, on in enumerate(board.get("berserk") or []) if on]
    if created is not None and halved != flags:
        return f"the record's berserk seats are {halved}, the export says {flags}"
    result = record.get("result") or {}
    ranking = list(result.get("ranking") or [0] * len(seats))  # a match ended without a result: a draw
    if ranking != list(board.get("places") or []):
        return f"the record's places are {result.get('ranking')!r}, the export says {board.get('places')!r}"
    return None


def recompute_pairing(kind: str, size: int, entries: list[dict[str, Any]], rounds: list[dict[str, Any]],
                      number: int, total: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """The boards (seat order) and byes the rules give for round ``number`` after ``rounds`` before it."""
    active = _active(entries, number)
    before = [([_board(b) for b in r["boards"]], r.get("byes", [])) for r in rounds if r["round"] < number]
    ids = [e["entry"] for e in active]
    if kind == "round_robin":
        everyone = [e["entry"] for e in entries if e["joined_round"] <= 1]
        boards, byes = (T.berger(everyone, number) if size == 2 else T.group_schedule(everyone, size, number))
        gone = set(everyone) - set(ids)
        kept = [tuple(b) for b in boards if not gone.intersection(b)]
        freed = [e for b in boards if gone.intersection(b) for e in b if e not in gone]
        return kept, sorted([e for e in byes if e not in gone] + freed)
    if size == 2:
        seeded = sorted(active, key=lambda e: (-e["rating"], e["entry"]))  # starting rank: rating, then entry
        players = T.dutch_players([{"entry": e["entry"], "rating": e["rating"], "start": rank}
                                   for rank, e in enumerate(seeded, start=1)], before)
        met = T.met_pairs(b for b, _ in before)
        paired, byes = T.swiss_dutch(players, met, number, total)
        return [tuple(board) for board in paired], byes
    lines = T.fold_rounds([e["entry"] for e in entries], before)
    return T.group_by_score(ids, {e: lines[e].points for e in ids}, {e["entry"]: e["rating"] for e in active},
                            size, T.met_pairs(b for b, _ in before), {e: lines[e].byes for e in ids})


def standings(export: dict[str, Any]) -> list[dict[str, Any]]:
    """The standings the export's boards give, as the server computes them."""
    settings = export["tournament"]
    entries = [e["entry"] for e in export["entries"] if e.get("withdrawn_round") != 0]  # 0: left before the start
    if settings["kind"] == "arena":
        boards = [b for r in export["rounds"] for b in r["boards"] if b.get("places") is not None]
        boards.sort(key=lambda b: (b.get("finished_at") or "", b["match"]))
        lines = {e: T.ArenaLine() for e in entries}
        for b in boards:
            for seat, entry in enumerate(b["seats"]):
                lines[entry].add(b["places"], seat, bool((b.get("berserk") or [False] * len(b["seats"]))[seat]))
        return [{"entry": e, "rank": rank, "points": lines[e].points, "games": lines[e].games,
                 "wins": lines[e].wins, "streak": lines[e].streak}
                for rank, e in enumerate(T.arena_order(lines), start=1)]
    rounds = [([_board(b) for b in r["boards"]], r.get("byes", [])) for r in export["rounds"]]
    return T.ranked(T.fold_rounds(entries, rounds), settings["kind"])


def _arena_overlaps(export: dict[str, Any]) -> str | None:
    seen: dict[int, list[tuple[str, str, int]]] = {}
    size = export["tournament"]["table_size"]
    for r in export["rounds"]:
        for b in r["boards"]:
            if len(b["seats"]) != size or len(set(b["seats"])) != size:
                return f"round {r['round']}, match {b['match']}: the table is not {size} different entrants"
            start, end = b.get("started_at") or "", b.get("finished_at") or "\uffff"
            for entry in b["seats"]:
                for s, e, other in seen.get(entry, []):
                    if start < e and s < end:
                        return f"entry {entry} sat at match {other} and match {b['match']} at once"
                seen.setdefault(entry, []).append((start, end, b["match"]))
    return None


def audit_tournament(export: Any) -> dict[str, Any]:
    """The verdict: ``{"ok": True, "rounds", "boards", "records"}`` or ``{"ok": False, "errors": [...]}``."""
    if not isinstance(export, dict) or export.get("format") != T.FORMAT:
        return {"ok": False, "errors": [f"not a {T.FORMAT} export"]}
    errors: list[str] = []
    try:
        settings, entries, rounds = export["tournament"], export["entries"], export["rounds"]
        kind, size = settings["kind"], settings["table_size"]
        if kind not in T.KINDS:
            return {"ok": False, "errors": [f"unknown kind {kind!r}"]}
        by_number = {e["entry"]: e for e in entries}
        records = export.get("records") or {}
        checked = 0
        for r in rounds:
            for b in r["boards"]:
                if b.get("places") is None:
                    continue
                if b.get("match") is None:  # bots alone: no match, a draw
                    if list(b["places"]) != [0] * len(b["seats"]) or any(by_number[e].get("bot") is None
                                                                          for e in b["seats"]):
                        errors.append(f"round {r['round']}, table {b['table']}: a board without a match "
                                      "must be bots alone, drawn")
                    continue
                record = records.get(str(b["match"]))
                if record is None:
                    errors.append(f"round {r['round']}, match {b['match']}: no record in the export")
                    continue
                problem = check_record(b, record, by_number)
                checked += 1
                if problem:
                    errors.append(f"round {r['round']}, match {b['match']}: {problem}")
        if kind == "arena":
            problem = _arena_overlaps(export)
            if problem:
                errors.append(problem)
            for r in rounds:
                for b in r["boards"]:
                    for entry in b["seats"]:
                        gone = by_number[entry].get("withdrawn_round")
                        if gone is not None and r["round"] >= gone:
                            errors.append(f"round {r['round']}: entry {entry} was paired after withdrawing")
        else:
            total = settings["rounds"]
            for r in rounds:
                want_boards, want_byes = recompute_pairing(kind, size, entries, rounds, r["round"], total)
                got_boards = [tuple(b["seats"]) for b in r["boards"]]
                if sorted(got_boards) != sorted(want_boards):
                    errors.append(f"round {r['round']}: the pairings are {sorted(got_boards)}, "
                                  f"the rules give {sorted(want_boards)}")
                if sorted(r.get("byes", [])) != sorted(want_byes):
                    errors.append(f"round {r['round']}: the byes are {sorted(r.get('byes', []))}, "
                                  f"the rules give {sorted(want_byes)}")
        want = standings(export)
        got = export.get("standings") or []
        if [_key(s) for s in got] != [_key(s) for s in want]:
            first = next((i for i, (a, b) in enumerate(zip(got, want)) if _key(a) != _key(b)), min(len(got), len(want)))
            errors.append(f"standings differ from rank {first + 1}: the export has "
                          f"{got[first] if first < len(got) else None}, the records give "
                          f"{want[first] if first < len(want) else None}")
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        errors.append(f"malformed export: {type(exc).__name__}: {exc}")
        checked = 0
    if errors:
        return {"ok": False, "errors": errors}
    return {"ok": True, "rounds": len(export["rounds"]), "records": checked,
            "boards": sum(len(r["boards"]) for r in export["rounds"])}


def _key(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row.get("entry"), row.get("rank"), round(float(row.get("points", 0)), 6),
            round(float(row.get("buchholz", 0)), 6), round(float(row.get("sonneborn_berger", 0)), 6))
