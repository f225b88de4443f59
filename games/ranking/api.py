"""REST endpoints of ranked play (thin: parse, call one service or selector, answer).

Documented in docs/API.md ("Ranked play") and in the OpenAPI schema at /api/schema/.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView

from .. import selectors as match_selectors
from .. import services as match_services
from ..api.responses import MatchSerializer
from ..api.serializers import ErrorBodySerializer
from ..fairplay import pairing
from . import challenges, matchmaking, selectors
from . import services as ranked_services
from .models import QueueEntry
from .responses import ChallengeSerializer as ChallengeResponseSerializer
from .responses import (
    ChallengesSerializer,
    HistorySerializer,
    LaddersSerializer,
    LeaderboardSerializer,
    ProfileSerializer,
    QueueEntrySerializer,
    QueuesSerializer,
    RankedSerializer,
)

ERR = {code: OpenApiResponse(ErrorBodySerializer, description=text) for code, text in {
    400: "malformed input", 403: "not allowed (log in; not your seat or challenge)", 404: "no such thing",
    409: "conflict (already queued, match over, challenge no longer pending)",
}.items()}

TIME_CONTROL_HELP = "'5+10' (minutes + seconds per move), '3d' (days per move), or the object form"


class QueueJoinSerializer(serializers.Serializer):
    game = serializers.CharField()
    players = serializers.IntegerField()
    time_control = serializers.JSONField(required=False, help_text=TIME_CONTROL_HELP)
    rated = serializers.BooleanField(required=False, default=True)
    min_completion = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=100,
        help_text="pair me only with people whose completion rate is at least this many percent (1 to 100); "
                  "people with no finished match yet have no rate and do not qualify; left out or null: anybody")


class ChallengeSerializer(serializers.Serializer):
    opponent = serializers.CharField(help_text="the username to challenge")
    game = serializers.CharField()
    options = serializers.DictField(required=False, default=dict)
    rated = serializers.BooleanField(required=False, default=False)
    time_control = serializers.JSONField(required=False, help_text=TIME_CONTROL_HELP)


def _valid(serializer_class: type[BaseSerializer[Any]], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    data: dict[str, Any] = serializer.validated_data
    return data


def entry_json(entry: QueueEntry | None) -> dict | None:
    if entry is None:
        return None
    return {
        "id": entry.pk, "game": entry.game_id, "players": entry.players, "time_control": entry.tc_key,
        "rated": entry.rated, "status": entry.status, "joined_at": entry.joined_at.isoformat(),
        "match": entry.match_id, "min_completion": pairing.minimum_of(entry),
    }


class QueueView(APIView):
    @extend_schema(responses={200: QueuesSerializer}, summary="Open queues, how many wait, and your entry")
    def get(self, request: Request) -> Response:
        user = request.user
        last = matchmaking.last_match(user) if user.is_authenticated else None
        return Response({
            "queues": matchmaking.open_queues(),
            "mine": entry_json(matchmaking.waiting_entry(user)),
            "last_match": last.match_id if last else None,
        })

    @extend_schema(request=QueueJoinSerializer, responses={201: QueueEntrySerializer, **ERR},
                   summary="Join the queue of a game, player count, time control, rated or casual")
    def post(self, request: Request) -> Response:
        data = _valid(QueueJoinSerializer, request)
        entry = matchmaking.join(user=request.user, game_id=data["game"], players=data["players"],
                                 time_control=data.get("time_control"), rated=data["rated"],
                                 min_completion=data.get("min_completion"))
        entry.refresh_from_db()  # paired at once if somebody suitable was waiting
        return Response(entry_json(entry), status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: QueueEntrySerializer, 404: ERR[404]}, summary="Leave the queue")
    def delete(self, request: Request) -> Response:
        return Response(entry_json(matchmaking.cancel(user=request.user)))


class ChallengesView(APIView):
    @extend_schema(responses={200: ChallengesSerializer}, summary="Your pending challenges, sent and received")
    def get(self, request: Request) -> Response:
        mine = challenges.of_user(request.user)
        return Response({k: [challenges.as_json(c) for c in v] for k, v in mine.items()})

    @extend_schema(request=ChallengeSerializer, responses={201: ChallengeResponseSerializer, **ERR},
                   summary="Challenge a user by name to a 2-player match with chosen options")
    def post(self, request: Request) -> Response:
        data = _valid(ChallengeSerializer, request)
        challenge = challenges.create(
            user=request.user, opponent=data["opponent"], game_id=data["game"], options=data.get("options"),
            rated=data["rated"], time_control=data.get("time_control"),
        )
        return Response(challenges.as_json(challenge), status=status.HTTP_201_CREATED)


class ChallengeAcceptView(APIView):
    @extend_schema(request=None, responses={200: ChallengeResponseSerializer, **ERR}, summary="Accept: the match starts")
    def post(self, request: Request, challenge_id: int) -> Response:
        return Response(challenges.as_json(challenges.accept(challenge_id=challenge_id, user=request.user)))


class ChallengeDeclineView(APIView):
    @extend_schema(request=None, responses={200: ChallengeResponseSerializer, **ERR},
                   summary="Decline (the challenged player) or cancel (the challenger)")
    def post(self, request: Request, challenge_id: int) -> Response:
        return Response(challenges.as_json(challenges.decline(challenge_id=challenge_id, user=request.user)))


class ResignView(APIView):
    @extend_schema(request=None, responses={200: MatchSerializer, **ERR},
                   summary="Resign (2 players: the opponent wins; 3-4: a bot takes your seat, you rank last)")
    def post(self, request: Request, match_id: int) -> Response:
        match_services.resign(match_id=match_id, user=request.user)
        match = match_selectors.get_match(match_id)
        return Response(match_selectors.match_view(match, request.user))


class AbortView(APIView):
    @extend_schema(request=None, responses={200: MatchSerializer, **ERR},
                   summary="Abort before every player has moved once (no result, no rating change)")
    def post(self, request: Request, match_id: int) -> Response:
        match_services.abort(match_id=match_id, user=request.user)
        match = match_selectors.get_match(match_id)
        return Response(match_selectors.match_view(match, request.user))


class RankedMatchView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: RankedSerializer, 404: ERR[404]},
                   summary="Rated or casual, time control, live clocks, seat ratings and rating changes")
    def get(self, request: Request, match_id: int) -> Response:
        match = match_selectors.get_match(match_id)
        return Response(ranked_services.ranked_view(match, user=request.user))


class LaddersView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: LaddersSerializer}, summary="Every game's ladder (top five) and the bots")
    def get(self, request: Request) -> Response:
        return Response({"ladders": selectors.ladders(), "bots": selectors.bots()})


class LeaderboardView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: LeaderboardSerializer, 404: ERR[404]},
                   summary="One game's leaderboard: non-provisional players, rank, rating, deviation, games")
    def get(self, request: Request, game_id: str) -> Response:
        return Response(selectors.leaderboard(game_id))


class ProfileView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: ProfileSerializer, 404: ERR[404]},
                   summary="A user's ratings per game and rating history")
    def get(self, request: Request, username: str) -> Response:
        from ..fairplay import reliability

        user = selectors.user_or_404(username)
        body = selectors.profile(user)
        body["completion"] = reliability.completion(user)
        if request.user.is_authenticated and request.user.pk == user.pk:  # a wait is shown to its person only
            wait = reliability.current_wait(user)
            body["rated_wait"] = wait.as_json() if wait else None
        return Response(body)


class HistoryView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str, description="a game id"),
            OpenApiParameter("rated", str, enum=["true", "false"]),
            OpenApiParameter("result", str, enum=list(selectors.RESULTS)),
        ],
        responses={200: HistorySerializer, 400: ERR[400], 404: ERR[404]},
        summary="A user's matches, newest first, with filters",
    )
    def get(self, request: Request, username: str) -> Response:
        user = selectors.user_or_404(username)
        q = request.query_params
        return Response({"user": user.username, "matches": selectors.match_history(
            user, game=q.get("game") or None, rated=q.get("rated") or None, result=q.get("result") or None,
            viewer=request.user)})


