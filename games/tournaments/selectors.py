"""Reads of tournaments: lists, standings, boards, and the ``cairn-tournament/1`` export.

``export_entries`` and ``export_rounds`` are the export's own shapes, and the server pairs from them
(engine.tournament_audit.recompute_pairing), so the audit re-derives exactly what the server did.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from engine import tournament as T
from engine.tournament_audit import standings as derive_standings

from .. import clocks
from ..errors import NotFound, excerpt
from ..models import Match
from .models import Board, Entry, Round, Tournament
from .rules import ends_at


def get(tournament_id: Any) -> Tournament:
    found = Tournament.objects.filter(pk=tournament_id).first() if type(tournament_id) is int else None
    if found is None:
        raise NotFound(f"no tournament {excerpt(tournament_id)}", code="no_tournament")
    return found


def listing(status: str | None = None) -> QuerySet[Tournament]:
    rows = Tournament.objects.all()
    if status:
        rows = rows.filter(status=status)
    return rows.order_by("status", "-starts_at", "-id")


def summary(tournament: Tournament) -> dict[str, Any]:
    end = ends_at(tournament)
    return {
        "id": tournament.pk, "name": tournament.name, "game": tournament.game_id, "kind": tournament.kind,
        "players_per_table": tournament.table_size, "time_control": clocks.time_control_key(tournament.time_control),
        "starts_at": tournament.starts_at.isoformat(), "ends_at": end.isoformat() if end else None,
        "duration_seconds": tournament.duration_seconds, "rounds": tournament.rounds,
        "current_round": tournament.current_round, "rated": tournament.rated, "min_rating": tournament.min_rating,
        "min_completion": tournament.min_completion, "bots_allowed": tournament.bots_allowed,
        "max_entrants": tournament.max_entrants, "status": tournament.status, "version": tournament.version,
        "entrants": Entry.objects.filter(tournament=tournament, withdrawn_round__isnull=True).count(),
        "created_by": tournament.created_by.username,
    }


def export_entries(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {"entry": e.number, "name": e.name, "bot": e.bot_level or None, "bot_account": e.is_bot_account,
         "rating": round(e.rating, 3), "joined_round": e.joined_round, "withdrawn_round": e.withdrawn_round}
        for e in Entry.objects.filter(tournament=tournament).order_by("number")
    ]


def export_rounds(tournament: Tournament) -> list[dict[str, Any]]:
    rounds: dict[int, dict[str, Any]] = {}
    for r in Round.objects.filter(tournament=tournament).order_by("number"):
        rounds[r.pk] = {"round": r.number, "boards": [], "byes": list(r.byes)}
    for b in Board.objects.filter(tournament=tournament).order_by("round__number", "table"):
        rounds[b.round_id]["boards"].append({
            "table": b.table, "seats": list(b.seats), "match": b.match_id, "places": b.places,
            "berserk": list(b.berserk), "started_at": b.started_at.isoformat(),
            "finished_at": b.finished_at.isoformat() if b.finished_at else None,
        })
    return list(rounds.values())


def compute_standings(tournament: Tournament) -> list[dict[str, Any]]:
    """The standings derived from every board (the audit's computation): once per closed round, and for
    the export.  The live standings are :func:`standings`, read from the folded entry lines."""
    return derive_standings({"tournament": {"kind": tournament.kind}, "entries": export_entries(tournament),
                             "rounds": export_rounds(tournament)})


def standings(tournament: Tournament, limit: int = 500) -> list[dict[str, Any]]:
    """The live standings: the entry lines as folded at each result (one indexed query)."""
    order = ["-points", "-wins", "games", "number"] if tournament.kind == Tournament.Kind.ARENA else \
        (["-points", "-buchholz", "-sonneborn_berger", "number"] if tournament.kind == Tournament.Kind.SWISS
         else ["-points", "-sonneborn_berger", "-buchholz", "number"])
    rows = Entry.objects.filter(tournament=tournament).exclude(withdrawn_round=0).order_by(*order)[:limit]
    return [
        {"rank": rank, "entry": e.number, "name": e.name, "bot": e.is_bot, "label": e.label,
         "points": e.points if tournament.kind != Tournament.Kind.ARENA else int(e.points),
         "games": e.games, "wins": e.wins, "streak": e.streak, "on_fire": e.streak >= 2, "byes": e.byes,
         "buchholz": e.buchholz, "sonneborn_berger": e.sonneborn_berger, "paused": e.paused,
         "withdrawn": e.withdrawn_round is not None, "playing": e.board_id is not None}
        for rank, e in enumerate(rows, start=1)
    ]


def boards(tournament: Tournament, limit: int = 300) -> list[dict[str, Any]]:
    names = dict(Entry.objects.filter(tournament=tournament).values_list("number", "name"))
    rows = Board.objects.filter(tournament=tournament).select_related("round").order_by("-round__number", "table")[:limit]
    return [{"round": b.round.number, "table": b.table, "match": b.match_id, "seats": list(b.seats),
             "names": [names.get(n, "?") for n in b.seats], "places": b.places,
             "finished": b.finished_at is not None, "outcome": _outcome(b, names)} for b in rows]


def _outcome(board: Board, names: dict[int, str]) -> str:
    """'won by X', 'X and Y shared first', 'drawn' or 'playing'."""
    if board.places is None:
        return "playing"
    first = [names.get(n, "?") for n, place in zip(board.seats, board.places) if place == 0]
    if len(first) == len(board.seats):
        return "drawn"
    return f"won by {first[0]}" if len(first) == 1 else f"{' and '.join(first)} shared first"


def entry_of(tournament: Tournament, user: Any) -> Entry | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Entry.objects.filter(tournament=tournament, user=user).first()


def export(tournament: Tournament, *, records: bool = True) -> dict[str, Any]:
    """``cairn-tournament/1``: the settings, the entry list, every round's pairings with each board's
    match id and places, the standings, and (``records``) every finished match's record."""
    from .. import selectors as match_selectors

    rounds = export_rounds(tournament)
    body: dict[str, Any] = {
        "format": T.FORMAT,
        "tournament": {**{k: v for k, v in summary(tournament).items() if k not in ("version", "entrants")},
                       "table_size": tournament.table_size, "time_control": tournament.time_control},
        "entries": export_entries(tournament),
        "rounds": rounds,
        "standings": compute_standings(tournament),
    }
    if records:
        ids = [b["match"] for r in rounds for b in r["boards"] if b["match"] and b["places"] is not None]
        body["records"] = {str(m.pk): match_selectors.record(m, None)
                           for m in Match.objects.filter(pk__in=ids, status=Match.Status.FINISHED)}
    return body
