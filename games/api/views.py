"""REST views: parse, call one service or selector, answer.  No game logic here."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView

import ai
from engine import all_games

from .. import db, selectors, services
from ..audit.receipts import head_receipt
from ..botapi import bots
from ..clocks import CASUAL_TIME_CONTROL
from ..errors import BadRequest, Conflict, excerpt
from ..ids import MAX_ID
from ..models import Match
from .responses import (
    EventsSerializer,
    GamesSerializer,
    MatchListSerializer,
    MatchSerializer,
    RecordSerializer,
    VerifySerializer,
)
from .serializers import (
    ActionSerializer,
    CreateMatchSerializer,
    CredentialsSerializer,
    ErrorBodySerializer,
    JoinSerializer,
    SeqSerializer,
    TokenSerializer,
)
from .throttles import (
    AccountLoginThrottle,
    ActionThrottle,
    CreateMatchThrottle,
    LoginThrottle,
    RegisterThrottle,
)

ERRORS = {
    400: OpenApiResponse(ErrorBodySerializer, description="malformed or illegal input"),
    403: OpenApiResponse(ErrorBodySerializer, description="not your seat or not your turn"),
    404: OpenApiResponse(ErrorBodySerializer, description="no such match"),
    409: OpenApiResponse(ErrorBodySerializer, description="stale expected_seq, seat taken, match over"),
    413: OpenApiResponse(ErrorBodySerializer, description="the body is over the API's limit (64 KB)"),
    429: OpenApiResponse(ErrorBodySerializer, description="rate limited: see Retry-After"),
}


def _valid(serializer_class: type[BaseSerializer[Any]], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    data: dict[str, Any] = serializer.validated_data
    return data


class RegisterView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_classes = [RegisterThrottle]

    @extend_schema(request=CredentialsSerializer,
                   responses={201: TokenSerializer, 400: ERRORS[400], 409: ERRORS[409], 429: ERRORS[429]})
    def post(self, request: Request) -> Response:
        data = _valid(CredentialsSerializer, request)
        User = get_user_model()
        candidate = User(username=data["username"])
        try:
            User.username_validator(data["username"])
            validate_password(data["password"], user=candidate)
        except DjangoValidationError as exc:
            raise BadRequest("; ".join(exc.messages), code="invalid_credentials") from None
        if User.objects.filter(username__iexact=data["username"]).exists():
            raise Conflict(f"the username {excerpt(data['username'])} is taken", code="username_taken")
        try:
            with transaction.atomic(using=db.alias()):
                user = User.objects.create_user(username=data["username"], password=data["password"])
                token = Token.objects.create(user=user)
        except IntegrityError:
            raise Conflict(f"the username {excerpt(data['username'])} is taken", code="username_taken") from None
        return Response({"token": token.key}, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_classes = [LoginThrottle, AccountLoginThrottle]

    @extend_schema(request=CredentialsSerializer, responses={200: TokenSerializer, 400: ERRORS[400], 429: ERRORS[429]})
    def post(self, request: Request) -> Response:
        data = _valid(CredentialsSerializer, request)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None:
            raise BadRequest("wrong username or password", code="invalid_credentials")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class GamesView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: GamesSerializer})
    def get(self, request: Request) -> Response:
        games = [game.metadata() for game in all_games()]
        bots = [{"level": level, **info} for level, info in ai.LEVELS.items()]
        return Response({"games": games, "bot_levels": bots})


class MatchListView(APIView):
    def get_throttles(self) -> list:
        return [CreateMatchThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="matches_list",
        parameters=[
            OpenApiParameter("status", str, enum=["waiting", "active", "finished"],
                             description="waiting = the lobby (matches with an open seat)"),
            OpenApiParameter("mine", bool, description="only matches you hold a seat in"),
        ],
        responses={200: MatchListSerializer, 400: ERRORS[400]},
    )
    def get(self, request: Request) -> Response:
        status_filter = request.query_params.get("status") or None
        if status_filter and status_filter not in Match.Status.values:
            raise BadRequest(
                f"status must be one of {', '.join(Match.Status.values)}, not {excerpt(status_filter)}", code="bad_status"
            )
        if request.query_params.get("mine") in {"1", "true", "yes"}:
            qs = selectors.user_matches(request.user)
            if status_filter:
                qs = qs.filter(status=status_filter)
        elif status_filter == Match.Status.WAITING:
            qs = selectors.lobby(request.user)
        else:
            qs = selectors.matches(status_filter)
        return Response({"matches": [selectors.match_summary(m, request.user) for m in qs[:100]]})

    @extend_schema(request=CreateMatchSerializer, responses={201: MatchSerializer, 400: ERRORS[400], 429: ERRORS[429]})
    def post(self, request: Request) -> Response:
        data = _valid(CreateMatchSerializer, request)
        bots.check_daily_cap(request.user)
        match = services.create_match(
            user=request.user, game_id=data["game"], seats=request.data.get("seats"), options=data.get("options"),
            rated=request.data.get("rated", False),
            # Every match has a time control; one not named gets a day per move.
            time_control=request.data.get("time_control") or CASUAL_TIME_CONTROL,
            contribution=request.data.get("contribution"),
            commitment=request.data.get("commitment"),
        )
        match = selectors.get_match(match.pk)
        return Response(selectors.match_view(match, request.user), status=status.HTTP_201_CREATED)


class MatchDetailView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "at", int,
                description="replay: the match as it stood after event `at` (1 to the match's seq), as the "
                "requester's seat saw it then; `legal_actions` is empty",
            )
        ],
        responses={200: MatchSerializer, 400: ERRORS[400], 404: ERRORS[404]},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.get_match(match_id)
        delayed = selectors.delayed_aggregate(match, request.user)  # a spectator of a match shown behind
        raw = request.query_params.get("at")
        if raw is not None:
            try:
                at = int(raw)
            except ValueError:
                raise BadRequest(f"'at' must be an event's seq (a whole number), not {excerpt(raw)}", code="bad_at") from None
            last = delayed.seq if delayed is not None else match.seq
            if not 1 <= at <= last:
                raise BadRequest(f"'at' must be between 1 and {last}, the match's last seq; got {at}", code="bad_at")
            return Response(selectors.match_view_at(match, request.user, at))
        services.nudge_if_stalled(match)
        return Response(selectors.match_view(match, request.user, aggregate=delayed))


class JoinView(APIView):
    @extend_schema(request=JoinSerializer,
                   responses={200: MatchSerializer, 400: ERRORS[400], 404: ERRORS[404], 409: ERRORS[409]})
    def post(self, request: Request, match_id: int) -> Response:
        body = request.data if isinstance(request.data, dict) else {}
        bots.check_may_join(selectors.get_match(match_id), request.user)  # a bot: the seated people accept bots
        match = services.join_match(match_id=match_id, user=request.user, contribution=body.get("contribution"))
        match = selectors.get_match(match.pk)
        return Response(selectors.match_view(match, request.user))


class ActionsView(APIView):
    throttle_classes = [ActionThrottle]

    @extend_schema(request=ActionSerializer, responses={201: SeqSerializer, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        if not isinstance(request.data, dict) or "action" not in request.data:
            selectors.get_match(match_id)  # 404 before validating the body
            raise BadRequest("the body must be {\"action\": {...}, \"expected_seq\": n}", code="malformed_action")
        expected = request.data.get("expected_seq")
        seq = services.submit_action(
            match_id=match_id, user=request.user, action=request.data["action"], expected_seq=expected,
            lag_ms=request.data.get("lag_ms"),
        )
        return Response({"seq": seq}, status=status.HTTP_201_CREATED)


class EventsView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="only events with a greater seq")],
        responses={200: EventsSerializer, 400: ERRORS[400], 404: ERRORS[404]},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.get_match(match_id)
        raw = request.query_params.get("after", "0")
        try:
            after = int(raw)
            if not 0 <= after <= MAX_ID:
                raise ValueError
        except ValueError:
            raise BadRequest(f"'after' must be a non-negative integer, not {excerpt(raw)}", code="bad_after") from None
        # a spectator of a match shown behind gets that position; the events, seq and receipt agree
        aggregate = selectors.delayed_aggregate(match, request.user) or selectors.load_aggregate(match)
        events = selectors.visible_events(match, request.user, after, aggregate=aggregate)
        return Response({"match": match.pk, "seq": aggregate.seq, "chain_version": match.chain_version,
                         "events": events, "receipt": head_receipt(match, aggregate)})


class RecordView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "download", OpenApiTypes.BOOL, required=False,
                description="1: the same body, sent as a file (Content-Disposition: attachment; cairn-match-<id>.json)",
            )
        ],
        responses={200: RecordSerializer, 400: ERRORS[400], 404: ERRORS[404]},
    )
    def get(self, request: Request, match_id: int) -> Response:
        download = request.query_params.get("download", "0")
        if download not in {"0", "1", "true", "false"}:
            raise BadRequest(f"download must be 1 or 0, not {excerpt(download)}", code="invalid_download")
        match = selectors.get_match(match_id)
        response = Response(selectors.record(match, request.user))
        if download in {"1", "true"}:
            response["Content-Disposition"] = f'attachment; filename="cairn-match-{match.pk}.json"'
        return response


class VerifyView(APIView):
    @extend_schema(responses={200: VerifySerializer, 404: ERRORS[404]})
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.get_match(match_id)
        return Response(selectors.verdict_for(match, request.user).as_json())
