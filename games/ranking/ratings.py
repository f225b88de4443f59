"""Rating maths (the kept libraries, not hand-written formulas) and the ladder projection.

One ladder per game, on one scale: a rating with a deviation (and a Glicko-2
volatility).  docs/RANKING.md says why.

* 2-player matches: Glicko-2 (``glicko2`` package), τ = 0.75, start 1500 / 500 /
  0.06 as Lichess publishes; each match is one rating period for its two players.
* 3-4 player matches: OpenSkill Plackett-Luce (``openskill`` package) on the
  finishing places (shared places are ties).  OpenSkill's default prior
  (μ 25, σ 25/3) is exactly 1500 / 500 divided by 60, so μ = rating / 60 and
  σ = deviation / 60 map the same number onto both systems.
* Inactivity: before a player's next rated match, each whole idle rating
  period (Lichess: 0.21436 periods a day, about 4.67 days) grows the deviation
  as Glicko-2's step 6 does (``Player.did_not_compete``), capped at 500.
* A rating is provisional while its deviation is at least 110.

:func:`rate_match` is pure: the same inputs give the same floats, which is
what lets :func:`rebuild_ladders` reproduce the ladders exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import glicko2
from django.db import transaction
from django.db.models import Max

from .. import db
from ..models import Event, Match, Seat
from .models import PROVISIONAL_DEVIATION, LadderHead, Rating, RatingChange

START_RATING = 1500.0
START_DEVIATION = 500.0
START_VOLATILITY = 0.06
MAX_DEVIATION = 500.0
MIN_DEVIATION = 45.0  # Lichess's floor: a rating never becomes certain beyond this
TAU = 0.75
PERIOD = timedelta(days=1 / 0.21436)  # Lichess's rating-period length
OPENSKILL_SCALE = 60.0  # display points per OpenSkill unit: 25 / (25/3) <-> 1500 / 500
MAX_IDLE_PERIODS = 1000

GLICKO2 = "glicko2"
OPENSKILL = "openskill-pl"


@dataclass(frozen=True)
class Skill:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_DEVIATION


def _player(skill: Skill, tau: float = TAU) -> glicko2.Player:
    player = glicko2.Player(rating=skill.rating, rd=skill.deviation, vol=skill.volatility)
    player._tau = tau  # the package's system constant is a class attribute (0.5); ours is per player
    return player


def glicko2_period(skill: Skill, opponents: list[tuple[float, float]], scores: list[float], *, tau: float = TAU) -> Skill:
    """One Glicko-2 rating period against ``opponents`` ((rating, deviation) each) with ``scores``."""
    player = _player(skill, tau)
    player.update_player([r for r, _ in opponents], [d for _, d in opponents], scores)
    return Skill(player.rating, player.rd, player.vol)


def idle_periods(last_played: datetime | None, at: datetime) -> int:
    if last_played is None or at <= last_played:
        return 0
    return min(MAX_IDLE_PERIODS, int((at - last_played) / PERIOD))


def after_inactivity(skill: Skill, periods: int) -> Skill:
    """Glicko-2 step 6 once per idle rating period: the deviation grows back toward 500."""
    if periods <= 0:
        return skill
    player = _player(skill)
    for _ in range(periods):
        player.did_not_compete()
        if player.rd >= MAX_DEVIATION:
            break
    return Skill(skill.rating, min(MAX_DEVIATION, player.rd), skill.volatility)


def _clamp(deviation: float) -> float:
    return max(MIN_DEVIATION, min(MAX_DEVIATION, deviation))


def glicko2_duel(a: Skill, b: Skill, score_a: float) -> tuple[Skill, Skill]:
    """One 2-player game (score 1, ½ or 0 for ``a``) as a rating period for both."""
    new_a = glicko2_period(a, [(b.rating, b.deviation)], [score_a])
    new_b = glicko2_period(b, [(a.rating, a.deviation)], [1.0 - score_a])
    return (
        Skill(new_a.rating, _clamp(new_a.deviation), new_a.volatility),
        Skill(new_b.rating, _clamp(new_b.deviation), new_b.volatility),
    )


def openskill_places(skills: list[Skill], places: list[int]) -> list[Skill]:
    """A 3-4 player finishing order through OpenSkill's Plackett-Luce model (equal places tie)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=s.rating / OPENSKILL_SCALE, sigma=s.deviation / OPENSKILL_SCALE)] for s in skills]
    rated = model.rate(teams, ranks=[float(p) for p in places])
    return [
        Skill(team[0].mu * OPENSKILL_SCALE, _clamp(team[0].sigma * OPENSKILL_SCALE), skill.volatility)
        for team, skill in zip(rated, skills)
    ]


def rate_match(skills: list[Skill], places: list[int]) -> tuple[str, list[Skill]]:
    """New skills from the places (0 = first) of one rated match; the system used."""
    if len(skills) == 2:
        if places[0] == places[1]:
            score = 0.5
        else:
            score = 1.0 if places[0] < places[1] else 0.0
        return GLICKO2, list(glicko2_duel(skills[0], skills[1], score))
    return OPENSKILL, openskill_places(skills, places)


# ---------------------------------------------------------------------- display


def shown(value: float) -> int:
    """The one rounding rule for a rating on any page: to the nearest whole number, halves up.

    (Pages used to disagree: Python's ``round`` rounds halves to even, and a
    value rounded to 0.1 first and then to a whole number by ``floatformat``
    could land one higher: 1258.46 showed as 1258 in one place and 1259 in another.)
    """
    return math.floor(value + 0.5)


def display(rating: float | None, deviation: float | None) -> dict[str, Any]:
    """How a rating is shown everywhere: ``1523 ± 87``, or ``1500? ± 500`` while provisional."""
    if rating is None:
        rating, deviation = START_RATING, START_DEVIATION
    if deviation is None:
        deviation = START_DEVIATION
    provisional = deviation >= PROVISIONAL_DEVIATION
    text = f"{shown(rating)}{'?' if provisional else ''}"
    return {
        "rating": round(rating, 2),
        "deviation": round(deviation, 2),
        "provisional": provisional,
        "text": text,
        "full": f"{text} ± {shown(deviation)}",
    }


def bot_display(level: str, game_id: str | None = None) -> dict[str, Any]:
    """A bot level's fixed, published rating (from the bots' arena results); never changed by games.

    ``ai.LEVELS[level]["rating"]`` is a number or, per game, ``{game_id: rating}``.
    With ``game_id`` the rating for that game; without, every published one.
    """
    import ai
    from engine import get_game

    info = ai.LEVELS.get(level, {})
    raw = info.get("rating")
    if isinstance(raw, dict):
        published = {g: r for g, r in raw.items() if isinstance(r, (int, float))}
    elif isinstance(raw, (int, float)):
        published = {"*": raw}
    else:
        published = {}
    label = info.get("label", level)
    rating = published.get(game_id, published.get("*")) if game_id else None
    if game_id:
        text = f"{shown(rating)}" if rating is not None else "unrated"
        full = f"{label} bot · {text}" if rating is not None else f"{label} bot · no published rating"
    else:
        def name(g: str) -> str:
            try:
                return get_game(g).name
            except KeyError:
                return g

        parts = [f"{name(g)} {shown(r)}" if g != "*" else f"{shown(r)}" for g, r in sorted(published.items())]
        text = ", ".join(parts) or "unrated"
        full = f"{label} bot · " + (text if parts else "no published rating")
    return {"bot": level, "label": label, "rating": rating, "ratings": published, "text": text, "full": full}


def skill_of(rating: Rating | None) -> Skill:
    if rating is None:
        return Skill()
    return Skill(rating.rating, rating.deviation, rating.volatility)


# ---------------------------------------------------------------------- from a match's events


@dataclass(frozen=True)
class RatedResult:
    match_id: int
    game_id: str
    users: list[int]  # by seat
    places: list[int]
    at: datetime


MIN_MOVES = 2  # a rated match in which some seat made fewer of its own moves changes no rating


def too_short(match_id: int, players: int) -> bool:
    """Did some seat make fewer than :data:`MIN_MOVES` moves of its own (a bot's in its place not counted)?

    Read from the match's events, so the ladder rebuild decides the same way."""
    from collections import Counter

    from ..models import Event

    made = Counter(
        Event.objects.filter(match_id=match_id, type="action", actor__startswith="user:")
        .values_list("payload__player", flat=True)
    )
    return any(made[seat] < MIN_MOVES for seat in range(players))


def rated_result(match: Match, finished: Any, seats: Iterable[Seat]) -> RatedResult | None:
    """The input to the ladder from a match's final event, or None when it changes no rating."""
    if not match.rated or finished is None or finished.type != "finished":
        return None
    payload = finished.payload
    if payload.get("ending") == "aborted" or not payload.get("result"):
        return None
    seat_users = [seat.user_id for seat in sorted(seats, key=lambda s: s.index)]
    users = [user for user in seat_users if user is not None]
    if len(users) != len(seat_users) or len(set(users)) != len(users):  # every seat a different human account
        return None
    if too_short(match.pk, len(users)):
        return None
    return RatedResult(match.pk, match.game_id, users, list(payload["result"]["ranking"]), finished.timestamp)


def _changes(result: RatedResult, current: Mapping[int, Rating | None], ladder_seq: int) -> list[RatingChange]:
    before = []
    for user in result.users:
        rating = current.get(user)
        skill = skill_of(rating)
        periods = idle_periods(rating.last_played_at if rating else None, result.at)
        before.append((skill, after_inactivity(skill, periods)))
    system, after = rate_match([pre for _, pre in before], result.places)
    return [
        RatingChange(
            game_id=result.game_id, ladder_seq=ladder_seq, match_id=result.match_id, user_id=user, seat=seat,
            place=result.places[seat], players=len(result.users), system=system,
            rating_before=old.rating, deviation_before=old.deviation, volatility_before=old.volatility,
            rating_after=new.rating, deviation_after=new.deviation, volatility_after=new.volatility,
            at=result.at,
        )
        for seat, (user, (old, _), new) in enumerate(zip(result.users, before, after))
    ]


def _project(rating: Rating | None, change: RatingChange) -> Rating:
    if rating is None:
        rating = Rating(user_id=change.user_id, game_id=change.game_id, games=0)
    rating.rating = change.rating_after
    rating.deviation = change.deviation_after
    rating.volatility = change.volatility_after
    rating.games += 1
    rating.last_played_at = change.at
    rating.ladder_seq = change.ladder_seq
    return rating


def apply_result(result: RatedResult) -> list[RatingChange]:
    """Record the rating events of one finished rated match and update the ladder (inside a transaction).

    The game's :class:`LadderHead` row is locked first, so results of one game
    are applied one at a time, in ``ladder_seq`` order, by any process.
    """
    if RatingChange.objects.filter(match_id=result.match_id).exists():
        return []
    LadderHead.objects.get_or_create(game_id=result.game_id)
    head = LadderHead.objects.select_for_update().get(game_id=result.game_id)
    head.seq += 1
    head.save(update_fields=["seq"])
    current = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(game_id=result.game_id, user_id__in=result.users)
    }
    changes = _changes(result, current, head.seq)
    RatingChange.objects.bulk_create(changes)
    for change in changes:
        _project(current.get(change.user_id), change).save()
    return changes


# ---------------------------------------------------------------------- the rebuild


def _finished_events(match_ids: list[int]) -> dict[int, Event]:
    return {e.match_id: e for e in Event.objects.filter(match_id__in=match_ids, type="finished")}


def rebuild_ladders(*, game_id: str | None = None) -> dict[str, Any]:
    """Delete the ladders and rebuild them from the match events, in ladder order.

    The order is each game's ``ladder_seq`` (the order in which the server
    applied the results); the numbers come only from each match's final event
    and seats.  Every recorded rating event is compared with the recomputed one
    (``mismatches``); a rated finished match without rating events is applied
    after the others, in the order of its final event (``added``).
    """
    report: dict[str, Any] = {"games": {}, "mismatches": [], "added": []}
    with transaction.atomic(using=db.alias()):
        games = [game_id] if game_id else sorted(
            set(Match.objects.filter(rated=True, status=Match.Status.FINISHED).values_list("game_id", flat=True))
            | set(RatingChange.objects.values_list("game_id", flat=True).distinct())
        )
        for game in games:
            report["games"][game] = _rebuild_game(game, report)
    return report


def _rebuild_game(game_id: str, report: dict[str, Any]) -> dict[str, Any]:
    LadderHead.objects.get_or_create(game_id=game_id)
    head = LadderHead.objects.select_for_update().get(game_id=game_id)
    recorded: dict[int, list[RatingChange]] = {}
    order: list[tuple[int, int]] = []
    for change in RatingChange.objects.filter(game_id=game_id).order_by("ladder_seq", "seat"):
        if change.match_id not in recorded:
            recorded[change.match_id] = []
            order.append((change.ladder_seq, change.match_id))
        recorded[change.match_id].append(change)
    finished_rated = list(
        Match.objects.filter(game_id=game_id, rated=True, status=Match.Status.FINISHED).values_list("pk", flat=True)
    )
    events = _finished_events(finished_rated)
    missing = sorted(
        (m for m in finished_rated if m not in recorded and m in events),
        key=lambda m: (events[m].timestamp, m),
    )
    seats_by_match: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(match_id__in=[m for _, m in order] + missing).order_by("index"):
        seats_by_match.setdefault(seat.match_id, []).append(seat)
    matches = Match.objects.in_bulk([m for _, m in order] + missing)

    Rating.objects.filter(game_id=game_id).delete()
    ladder: dict[int, Rating] = {}
    next_seq = (RatingChange.objects.filter(game_id=game_id).aggregate(top=Max("ladder_seq"))["top"] or 0)
    applied = 0
    for ladder_seq, match_id in order + [(None, m) for m in missing]:
        result = rated_result(matches[match_id], events.get(match_id), seats_by_match.get(match_id, []))
        if result is None:  # aborted, or no longer a rated result
            if match_id in recorded:
                report["mismatches"].append({"match": match_id, "problem": "recorded, but its events give no rated result"})
            continue
        if ladder_seq is None:
            next_seq += 1
            ladder_seq = next_seq
        changes = _changes(result, ladder, ladder_seq)
        if match_id in recorded:
            stored = {(c.user_id, c.seat): c for c in recorded[match_id]}
            for change in changes:
                old = stored.get((change.user_id, change.seat))
                if old is None or _numbers(old) != _numbers(change):
                    report["mismatches"].append({"match": match_id, "user": change.user_id})
        else:
            RatingChange.objects.bulk_create(changes)
            report["added"].append(match_id)
        for change in changes:
            ladder[change.user_id] = _project(ladder.get(change.user_id), change)
        applied += 1
    Rating.objects.bulk_create(list(ladder.values()))
    head.seq = max(head.seq, next_seq)
    head.save(update_fields=["seq"])
    return {"matches": applied, "players": len(ladder)}


def _numbers(change: RatingChange) -> tuple[float, ...]:
    return (
        change.rating_before, change.deviation_before, change.volatility_before,
        change.rating_after, change.deviation_after, change.volatility_after, change.place,
    )

