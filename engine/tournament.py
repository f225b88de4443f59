"""Tournaments as pure functions: scoring, pairings, standings and the audit of ``cairn-tournament/1``.

The server (``games.tournaments``) and ``python -m engine tournament-audit`` share this module, so a
tournament's pairings and standings can be re-derived offline from its export.  The rules are in
docs/TOURNAMENTS.md.

* Entrants are named by their entry number (1, 2, ...), the order of the entry list.
* A board's result is the match's ``ranking``: each seat's place, 0 for first, ties sharing a place.
* Swiss, 2 players a table: FIDE Dutch (C.04.3) by the kept library ``caissify-pairings``
  (cross-checked by its authors against bbpPairings); tables of 3-4: score groups (:func:`group_by_score`).
* Round robin, 2 a table: FIDE Berger tables (``caissify-pairings``); tables of 3-4:
  :func:`group_schedule`, every round the grouping that repeats the fewest pairs.
* Arena: a freed player is paired with the waiting player nearest in score (:func:`arena_pairs`);
  lichess scoring (:class:`ArenaLine`).

No I/O, no clock, no random state: everything here is a function of its arguments.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

FORMAT = "cairn-tournament/1"
KINDS = ("arena", "swiss", "round_robin")
BYE_POINTS = 1.0  # a Swiss or round-robin bye scores a win (FIDE's pairing-allocated bye)
BERSERK_BONUS = 1  # an arena win with a berserk clock scores one more point


# ---------------------------------------------------------------------- scoring


def beaten_and_tied(places: Sequence[int], seat: int) -> tuple[int, int]:
    """How many opponents finished behind ``seat``, and how many shared its place."""
    mine = places[seat]
    behind = sum(1 for other, place in enumerate(places) if other != seat and place > mine)
    tied = sum(1 for other, place in enumerate(places) if other != seat and place == mine)
    return behind, tied


def game_points(places: Sequence[int], seat: int) -> float:
    """Swiss and round-robin points of one game, 0 to 1: 1 a win, 0.5 a draw; at a table of n,
    (opponents behind + half the opponents tied) / (n - 1)."""
    behind, tied = beaten_and_tied(places, seat)
    return (behind + tied / 2) / max(1, len(places) - 1)


def pairwise(places: Sequence[int], seat: int, other: int) -> float:
    """1, 0.5 or 0: how ``seat`` did against ``other`` at the same table."""
    return 1.0 if places[seat] < places[other] else 0.5 if places[seat] == places[other] else 0.0


def arena_base(places: Sequence[int], seat: int) -> int:
    """Arena points before streak and berserk: 2 per opponent behind, 1 per opponent tied (2 players:
    win 2, draw 1, loss 0; 4 players: 6, 4, 2, 0 by place)."""
    behind, tied = beaten_and_tied(places, seat)
    return 2 * behind + tied


def is_win(places: Sequence[int], seat: int) -> bool:
    """Sole first place."""
    return places[seat] == 0 and sum(1 for place in places if place == 0) == 1


@dataclass
class ArenaLine:
    """One entrant's arena standing, folded game by game (never recomputed from scratch)."""

    points: int = 0
    games: int = 0
    wins: int = 0
    streak: int = 0  # consecutive wins
    sheet: list[int] = field(default_factory=list)  # the points of each game, in order

    @property
    def on_fire(self) -> bool:
        return self.streak >= 2

    def add(self, places: Sequence[int], seat: int, berserk: bool = False) -> int:
        """Fold one finished game; the points it scored (lichess: two wins in a row start a streak in
        which every game scores double, until a game is not won; a berserk win scores one more)."""
        won = is_win(places, seat)
        points = arena_base(places, seat)
        if self.on_fire:
            points *= 2
        if won and berserk:
            points += BERSERK_BONUS
        self.streak = self.streak + 1 if won else 0
        self.points += points
        self.games += 1
        self.wins += int(won)
        self.sheet.append(points)
        return points


def arena_order(lines: Mapping[int, ArenaLine]) -> list[int]:
    """Entry numbers by arena rank: points, then wins, then fewer games (a higher rate), then entry."""
    return sorted(lines, key=lambda e: (-lines[e].points, -lines[e].wins, lines[e].games, e))


# ---------------------------------------------------------------------- Swiss and round-robin standings


@dataclass(frozen=True)
class Board:
    """A table of one round: entry numbers in seat order, and the places once it has finished."""

    seats: tuple[int, ...]
    places: tuple[int, ...] | None = None


@dataclass
class Line:
    points: float = 0.0
    games: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)  # one per opponent met, repeats kept
    results: list[tuple[int, float, float]] = field(default_factory=list)  # (opponent, pairwise, weight)


def fold_rounds(entries: Iterable[int], rounds: Sequence[tuple[Sequence[Board], Sequence[int]]]) -> dict[int, Line]:
    """Points, opponents and pairwise results from every finished board and bye of the rounds."""
    lines = {entry: Line() for entry in entries}
    for boards, byes in rounds:
        for entry in byes:
            lines[entry].points += BYE_POINTS
            lines[entry].byes += 1
        for board in boards:
            if board.places is None:
                continue
            weight = 1.0 / max(1, len(board.seats) - 1)
            for seat, entry in enumerate(board.seats):
                line = lines[entry]
                line.points += game_points(board.places, seat)
                line.games += 1
                for other_seat, other in enumerate(board.seats):
                    if other_seat != seat:
                        line.opponents.append(other)
                        line.results.append((other, pairwise(board.places, seat, other_seat), weight))
    return lines


def tiebreaks(lines: Mapping[int, Line]) -> dict[int, dict[str, float]]:
    """Buchholz (the sum of the opponents' points, each opponent as often as met, weighted by
    1/(n-1) at a table of n) and Sonneborn-Berger (the sum of each opponent's points times the
    pairwise result against them, weighted alike)."""
    out = {}
    for entry, line in lines.items():
        buchholz = sum(lines[o].points * w for o, _, w in line.results)
        sonneborn = sum(lines[o].points * r * w for o, r, w in line.results)
        out[entry] = {"buchholz": round(buchholz, 6), "sonneborn_berger": round(sonneborn, 6)}
    return out


def ranked(lines: Mapping[int, Line], kind: str) -> list[dict[str, Any]]:
    """The standings: points, then (Swiss) Buchholz then Sonneborn-Berger, (round robin)
    Sonneborn-Berger then Buchholz, then entry number."""
    tb = tiebreaks(lines)
    first, second = ("buchholz", "sonneborn_berger") if kind == "swiss" else ("sonneborn_berger", "buchholz")
    order = sorted(lines, key=lambda e: (-round(lines[e].points, 6), -tb[e][first], -tb[e][second], e))
    return [
        {"entry": e, "rank": rank, "points": round(lines[e].points, 6), "games": lines[e].games,
         "byes": lines[e].byes, **tb[e]}
        for rank, e in enumerate(order, start=1)
    ]


# ---------------------------------------------------------------------- pairings


def met_pairs(rounds: Iterable[Sequence[Board]]) -> set[tuple[int, int]]:
    pairs = set()
    for boards in rounds:
        for board in boards:
            for a, b in itertools.combinations(board.seats, 2):
                pairs.add((min(a, b), max(a, b)))
    return pairs


def swiss_dutch(players: Sequence[dict[str, Any]], previous: set[tuple[int, int]], round_number: int,
                total_rounds: int) -> tuple[list[tuple[int, int]], list[int]]:
    """FIDE Dutch by ``caissify_pairings``: ``players`` as its contract names them (id, score, rating,
    starting_number, color_hist, float_history, bye_count).  Boards as (first seat, second seat)."""
    from caissify_pairings import generate_pairings  # type: ignore[import-untyped]  # it ships no types

    rows = generate_pairings(system="dutch", players=list(players), previous_pairings=set(previous),
                             round_number=round_number, total_rounds=total_rounds,
                             bye_value=BYE_POINTS, max_byes_per_player=1)
    boards = [(row["white_id"], row["black_id"]) for row in rows if row.get("black_id") is not None]
    byes = [row["white_id"] for row in rows if row.get("black_id") is None]
    return boards, sorted(byes)


def dutch_players(entries: Sequence[dict[str, Any]], rounds: Sequence[tuple[Sequence[Board], Sequence[int]]]
                  ) -> list[dict[str, Any]]:
    """The Dutch engine's input for the next round, derived from the rounds so far: scores, colours
    (seat 0 plays "white"), floats (README of caissify-pairings, "How to derive float_history") and byes.
    ``entries``: the active entrants, ``{"entry", "rating", "start"}`` (start: the starting number)."""
    score = {e["entry"]: 0.0 for e in entries}
    colours: dict[int, list[str]] = {e["entry"]: [] for e in entries}
    floats: dict[int, list[str]] = {e["entry"]: [] for e in entries}
    byes = {e["entry"]: 0 for e in entries}
    for boards, round_byes in rounds:
        before = dict(score)
        played: set[int] = set()
        for board in boards:
            if len(board.seats) != 2:
                continue
            a, b = board.seats
            played.update((a, b))
            for me, other, colour in ((a, b, "white"), (b, a, "black")):
                if me not in score:
                    continue
                colours[me].append(colour)
                sa, sb = before.get(me, 0.0), before.get(other, 0.0)
                floats[me].append("down" if sa > sb else "up" if sa < sb else "none")
            if board.places is not None:
                for seat, me in enumerate(board.seats):
                    if me in score:
                        score[me] += game_points(board.places, seat)
        for entry in round_byes:
            if entry in score:
                score[entry] += BYE_POINTS
                byes[entry] += 1
        for entry in score:
            if entry not in played:
                colours[entry].append("none")
                floats[entry].append("none")
    return [
        {"id": e["entry"], "name": str(e["entry"]), "score": score[e["entry"]], "rating": int(e["rating"]),
         "starting_number": e["start"], "color_hist": colours[e["entry"]], "float_history": floats[e["entry"]],
         "bye_count": byes[e["entry"]]}
        for e in entries
    ]


def group_by_score(entries: Sequence[int], scores: Mapping[int, float], ratings: Mapping[int, float],
                   size: int, met: set[tuple[int, int]], byes_had: Mapping[int, int]
                   ) -> tuple[list[tuple[int, ...]], list[int]]:
    """Swiss for tables of 3-4: the leftover players (those with the fewest byes, lowest in the order)
    sit out with a bye; the rest, ordered by score then rating then entry, are cut into tables of
    ``size`` from the top; then, top table first, a player who has met a tablemate is swapped with the
    nearest player further down whose swap lowers the table's repeats."""
    order = sorted(entries, key=lambda e: (-scores.get(e, 0.0), -ratings.get(e, 0.0), e))
    spare = len(order) % size
    byes: list[int] = []
    if spare:
        bottom_up = sorted(reversed(order), key=lambda e: byes_had.get(e, 0))  # stable: lowest first
        byes = sorted(bottom_up[:spare])
        order = [e for e in order if e not in byes]

    def repeats(group: Sequence[int]) -> int:
        return sum(1 for a, b in itertools.combinations(group, 2) if (min(a, b), max(a, b)) in met)

    tables = [order[i:i + size] for i in range(0, len(order), size)]
    for t, table in enumerate(tables):
        for seat in range(size):
            if not repeats(table):
                break
            for lower in tables[t + 1:]:
                improved = False
                for j, candidate in enumerate(lower):
                    trial = table[:seat] + [candidate] + table[seat + 1:]
                    trial_lower = lower[:j] + [table[seat]] + lower[j + 1:]
                    if repeats(trial) + repeats(trial_lower) < repeats(table) + repeats(lower):
                        lower[j], table[seat] = table[seat], candidate
                        improved = True
                        break
                if improved:
                    break
    return [tuple(table) for table in tables], byes


def berger(entries: Sequence[int], round_number: int) -> tuple[list[tuple[int, int]], list[int]]:
    """FIDE Berger tables (Handbook C.05) by ``caissify_pairings``; ``entries`` in pairing-number order."""
    from caissify_pairings import generate_pairings

    players = [{"id": e, "name": str(e), "score": 0.0, "rating": 0, "starting_number": i + 1,
                "color_hist": [], "float_history": [], "bye_count": 0} for i, e in enumerate(entries)]
    rows = generate_pairings(system="round_robin", players=players, previous_pairings=set(),
                             round_number=round_number, total_rounds=berger_rounds(len(entries), 2))
    boards = [(row["white_id"], row["black_id"]) for row in rows if row.get("black_id") is not None]
    return boards, sorted(row["white_id"] for row in rows if row.get("black_id") is None)


def berger_rounds(count: int, size: int) -> int:
    """Rounds of a round robin: Berger's n-1 (n even) or n (odd); at tables of ``size`` > 2, enough
    rounds for every pair to meet once if the groupings allow: ceil((count - 1) / (size - 1))."""
    if size == 2:
        return count - 1 if count % 2 == 0 else count
    return max(1, -(-(count - 1) // (size - 1)))


def group_schedule(entries: Sequence[int], size: int, round_number: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """Round robin at tables of 3-4: round by round, the grouping of the entrants into tables of
    ``size`` (the spare ones, by fewest byes then entry, sit out) of the lowest cost, the sum over the
    pairs at each table of m² + (1 if m else 0), m being how often the pair has met: new pairs first,
    and repeats spread evenly.  The search tries each table's options cheapest first (then in
    lexicographic order) and is bounded; its first complete grouping is the greedy one."""
    met: dict[tuple[int, int], int] = {}
    byes_had = dict.fromkeys(entries, 0)
    result: tuple[list[tuple[int, ...]], list[int]] = ([], [])
    for _ in range(round_number):
        spare = len(entries) % size
        sitting = sorted(entries, key=lambda e: (byes_had[e], e))[:spare] if spare else []
        sitting = sorted(sitting)
        playing = [e for e in entries if e not in sitting]
        best = _best_grouping(playing, size, met)
        for table in best:
            for a, b in itertools.combinations(table, 2):
                met[(min(a, b), max(a, b))] = met.get((min(a, b), max(a, b)), 0) + 1
        for e in sitting:
            byes_had[e] += 1
        result = (best, sitting)
    return result


def _best_grouping(players: Sequence[int], size: int, met: Mapping[tuple[int, int], int]) -> list[tuple[int, ...]]:
    def cost(table: Sequence[int]) -> int:
        return sum(met.get((min(a, b), max(a, b)), 0) ** 2 + (1 if met.get((min(a, b), max(a, b))) else 0)
                   for a, b in itertools.combinations(table, 2))

    best: list[tuple[int, ...]] = []
    best_cost = None
    remaining = list(players)

    def search(rest: list[int], tables: list[tuple[int, ...]], total: int, budget: list[int]) -> None:
        nonlocal best, best_cost
        if budget[0] <= 0 or (best_cost is not None and total >= best_cost):
            return
        if not rest:
            best, best_cost = list(tables), total
            return
        budget[0] -= 1
        head, tail = rest[0], rest[1:]
        options = sorted(itertools.combinations(tail, size - 1), key=lambda c: (cost((head, *c)), c))
        for others in options:
            table = (head, *others)
            search([e for e in tail if e not in others], tables + [table], total + cost(table), budget)

    search(remaining, [], 0, [20_000])  # bounded: the first complete grouping is always found first
    return best


def arena_pairs(waiting: Sequence[int], points: Mapping[int, float], size: int,
                last_opponents: Mapping[int, set[int]], bots: frozenset[int] | set[int] = frozenset()
                ) -> list[tuple[int, ...]]:
    """Arena: the waiting entrants (in the order they became free) sorted by points, cut into tables of
    ``size`` from the top; a table whose players met in each other's last game is avoided by swapping
    with the next table's player when there is one.  A table of ``bots`` alone takes a person from the
    nearest table that keeps one; one that cannot is left out (bots wait for people).  Leftovers wait
    for the next pass."""
    order = sorted(waiting, key=lambda e: (-points.get(e, 0), e))
    count = len(order) - len(order) % size
    order = order[:count]
    tables = [order[i:i + size] for i in range(0, count, size)]
    for t in range(len(tables) - 1):
        table, nxt = tables[t], tables[t + 1]
        if any(b in last_opponents.get(a, set()) for a, b in itertools.combinations(table, 2)):
            table[-1], nxt[0] = nxt[0], table[-1]
    for t, table in enumerate(tables):
        if not all(e in bots for e in table):
            continue
        donors = sorted((d for d in range(len(tables)) if sum(e not in bots for e in tables[d]) >= 2),
                        key=lambda d: (abs(d - t), d))
        if donors:
            donor = tables[donors[0]]
            person = next(i for i, e in enumerate(donor) if e not in bots)
            table[-1], donor[person] = donor[person], table[-1]
    return [tuple(table) for table in tables if not all(e in bots for e in table)]
