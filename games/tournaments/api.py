"""REST endpoints of tournaments and seasons (thin: parse, call one service or selector, answer).

Documented in docs/TOURNAMENTS.md and docs/API.md, and in the OpenAPI schema at /api/schema/.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView

from ..api.serializers import ErrorBodySerializer
from ..errors import BadRequest, NotFound
from . import seasons, selectors, services
from .models import Entry, Season

ERR = {code: OpenApiResponse(ErrorBodySerializer, description=text) for code, text in {
    400: "malformed input or settings the game does not allow", 403: "not allowed (log in; rating, completion, bots)",
    404: "no such tournament or entry", 409: "conflict (full, started, finished, joined already)",
}.items()}


class CreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    game = serializers.CharField()
    kind = serializers.ChoiceField(choices=["arena", "swiss", "round_robin"])
    players_per_table = serializers.IntegerField(required=False, default=2)
    time_control = serializers.JSONField(required=False, help_text="'3+2' (minutes + seconds), '3d', or the object form")
    starts_at = serializers.CharField(required=False, help_text="ISO 8601 with a time zone; default now")
    duration_seconds = serializers.IntegerField(required=False, help_text="arena only: 30 to 86400")
    rounds = serializers.IntegerField(required=False, help_text="Swiss only: 1 to 20")
    rated = serializers.BooleanField(required=False, default=False)
    min_rating = serializers.FloatField(required=False)
    min_completion = serializers.FloatField(required=False, help_text="0 to 1")
    bots_allowed = serializers.BooleanField(required=False, default=False)
    max_entrants = serializers.IntegerField(required=False)


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    kind = serializers.CharField()
    players_per_table = serializers.IntegerField()
    time_control = serializers.CharField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True)
    duration_seconds = serializers.IntegerField(allow_null=True)
    rounds = serializers.IntegerField(allow_null=True)
    current_round = serializers.IntegerField()
    rated = serializers.BooleanField()
    min_rating = serializers.FloatField(allow_null=True)
    min_completion = serializers.FloatField(allow_null=True)
    bots_allowed = serializers.BooleanField()
    max_entrants = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    entrants = serializers.IntegerField()
    created_by = serializers.CharField()


class EntrySerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.BooleanField()
    joined_round = serializers.IntegerField()
    withdrawn_round = serializers.IntegerField(allow_null=True)
    paused = serializers.BooleanField()
    berserk_next = serializers.BooleanField()


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.BooleanField()
    label = serializers.CharField(help_text="the name, with '(bot)' for a bot")  # type: ignore[assignment]  # a declared field
    points = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    streak = serializers.IntegerField()
    on_fire = serializers.BooleanField()
    byes = serializers.IntegerField()
    buchholz = serializers.FloatField()
    sonneborn_berger = serializers.FloatField()
    paused = serializers.BooleanField()
    withdrawn = serializers.BooleanField()
    playing = serializers.BooleanField()


class BoardSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    match = serializers.IntegerField(allow_null=True)
    seats = serializers.ListField(child=serializers.IntegerField())
    names = serializers.ListField(child=serializers.CharField())
    places = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    finished = serializers.BooleanField()
    outcome = serializers.CharField(help_text="won by NAME, drawn, shared first, or playing")


class StandingsSerializer(serializers.Serializer):
    tournament = TournamentSerializer()
    standings = StandingSerializer(many=True)
    boards = BoardSerializer(many=True)


class ExportSerializer(serializers.Serializer):
    format = serializers.CharField(help_text="cairn-tournament/1")
    tournament = serializers.DictField()
    entries = serializers.ListField(child=serializers.DictField())
    rounds = serializers.ListField(child=serializers.DictField())
    standings = serializers.ListField(child=serializers.DictField())
    records = serializers.DictField(required=False, help_text="match id -> its cairn-record")


class BotEntrySerializer(serializers.Serializer):
    level = serializers.CharField()


class PauseSerializer(serializers.Serializer):
    paused = serializers.BooleanField()


class SeasonSerializer(serializers.Serializer):
    game = serializers.CharField()
    number = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    archived = serializers.BooleanField()
    leaderboard = serializers.ListField(child=serializers.DictField())
    games = serializers.ListField(child=serializers.DictField(), help_text="the latest games counted in it")


def entry_json(entry: Entry) -> dict[str, Any]:
    return {"entry": entry.number, "name": entry.name, "bot": entry.is_bot, "joined_round": entry.joined_round,
            "withdrawn_round": entry.withdrawn_round, "paused": entry.paused, "berserk_next": entry.berserk_next}


def _valid(serializer_class: type[BaseSerializer[Any]], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    data: dict[str, Any] = serializer.validated_data
    return data


class TournamentsView(APIView):
    @extend_schema(parameters=[OpenApiParameter("status", str, description="scheduled, running or finished")],
                   responses={200: TournamentSerializer(many=True)}, summary="Tournaments, upcoming and running first")
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status") or None
        if wanted not in (None, "scheduled", "running", "finished"):
            raise BadRequest(f"'status' must be scheduled, running or finished, not {wanted[:40]!r}", code="bad_status")
        return Response([selectors.summary(t) for t in selectors.listing(wanted)[:100]])

    @extend_schema(request=CreateSerializer, responses={201: TournamentSerializer, **ERR},
                   summary="Create a tournament (arena, Swiss or round robin)")
    def post(self, request: Request) -> Response:
        data = request.data if isinstance(request.data, dict) else None
        if data is None:
            raise BadRequest("the body must be a JSON object", code="bad_body")
        tournament = services.create(user=request.user, data=dict(data))
        return Response(selectors.summary(tournament), status=status.HTTP_201_CREATED)


class StandingsView(APIView):
    @extend_schema(responses={200: StandingsSerializer, 404: ERR[404]}, summary="A tournament, its standings and boards")
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = selectors.get(tournament_id)
        return Response({"tournament": selectors.summary(tournament), "standings": selectors.standings(tournament),
                         "boards": selectors.boards(tournament)})


class JoinView(APIView):
    @extend_schema(request=None, responses={201: EntrySerializer, **ERR}, summary="Join a tournament")
    def post(self, request: Request, tournament_id: int) -> Response:
        return Response(entry_json(services.join(tournament_id=tournament_id, user=request.user)),
                        status=status.HTTP_201_CREATED)


class WithdrawView(APIView):
    @extend_schema(request=None, responses={200: EntrySerializer, **ERR}, summary="Withdraw from a tournament")
    def post(self, request: Request, tournament_id: int) -> Response:
        return Response(entry_json(services.withdraw(tournament_id=tournament_id, user=request.user)))


class PauseView(APIView):
    @extend_schema(request=PauseSerializer, responses={200: EntrySerializer, **ERR},
                   summary="Arena: pause (no new boards) or come back")
    def post(self, request: Request, tournament_id: int) -> Response:
        data = _valid(PauseSerializer, request)
        return Response(entry_json(services.pause(tournament_id=tournament_id, user=request.user,
                                                  paused=data["paused"])))


class BerserkSerializer(serializers.Serializer):
    berserk = serializers.BooleanField()


class BerserkView(APIView):
    @extend_schema(request=BerserkSerializer, responses={200: EntrySerializer, **ERR},
                   summary="Arena: start your next game with half the clock (a won game scores one more point)")
    def post(self, request: Request, tournament_id: int) -> Response:
        data = _valid(BerserkSerializer, request)
        return Response(entry_json(services.berserk(tournament_id=tournament_id, user=request.user,
                                                    on=data["berserk"])))


class BotEntryView(APIView):
    @extend_schema(request=BotEntrySerializer, responses={201: EntrySerializer, **ERR},
                   summary="The creator enters a house bot (labelled as a bot)")
    def post(self, request: Request, tournament_id: int) -> Response:
        data = _valid(BotEntrySerializer, request)
        entry = services.add_bot(tournament_id=tournament_id, user=request.user, level=data["level"])
        return Response(entry_json(entry), status=status.HTTP_201_CREATED)


class ExportView(APIView):
    @extend_schema(parameters=[OpenApiParameter("records", bool, description="include every match record (default true)")],
                   responses={200: ExportSerializer, 404: ERR[404]},
                   summary="The cairn-tournament/1 export, for python -m engine tournament-audit")
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = selectors.get(tournament_id)
        records = request.query_params.get("records", "true").lower() not in ("0", "false", "no")
        return Response(selectors.export(tournament, records=records))


class SeasonView(APIView):
    @extend_schema(parameters=[OpenApiParameter("number", int, description="a past season; default the current one")],
                   responses={200: SeasonSerializer, **ERR}, summary="A game's season leaderboard")
    def get(self, request: Request, game_id: str) -> Response:
        from engine import get_game

        try:
            get_game(game_id)
        except KeyError:
            raise NotFound(f"unknown game {game_id[:40]!r}", code="unknown_game") from None
        number = request.query_params.get("number")
        if number is None:
            season = seasons.current(game_id)
        else:
            if not number.isdigit():
                raise BadRequest(f"'number' must be a season number, not {number[:20]!r}", code="bad_number")
            numbered = Season.objects.filter(game_id=game_id, number=int(number)).first()
            if numbered is None:
                raise NotFound(f"{game_id} has no season {number}", code="no_season")
            season = numbered
        return Response({"game": season.game_id, "number": season.number, "starts_at": season.starts_at,
                         "ends_at": season.ends_at, "archived": season.archived,
                         "leaderboard": seasons.leaderboard(season), "games": seasons.games(season)})
