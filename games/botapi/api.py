"""The token, bot-account and accept-bots routes under ``/api/account/`` (the streams are in :mod:`.streams`)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..api.serializers import ErrorBodySerializer
from ..api.throttles import AccountThrottle
from . import bots, tokens
from .models import SCOPES, BotAccount

ERR = {code: OpenApiResponse(ErrorBodySerializer, description=text) for code, text in {
    400: "bad input", 401: "not logged in, or an expired or revoked token", 403: "a token lacks the scope",
    404: "no such token", 409: "not possible for this account", 429: "rate limited",
}.items()}


class AccessTokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="the secret's first 10 characters, to tell tokens apart")
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=SCOPES))
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True)
    last_used_at = serializers.DateTimeField(allow_null=True, help_text="to the minute")


class TokenListSerializer(serializers.Serializer):
    tokens = AccessTokenSerializer(many=True)


class NewTokenSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=60)
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=SCOPES))
    expires_in_days = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=tokens.MAX_DAYS)


class CreatedTokenSerializer(serializers.Serializer):
    token = AccessTokenSerializer()
    secret = serializers.CharField(help_text="shown this once: send it as 'Authorization: Bearer <secret>'")


class BotStatusSerializer(serializers.Serializer):
    user = serializers.CharField()
    bot = serializers.BooleanField()
    since = serializers.DateTimeField(allow_null=True)


class BotPreferenceSerializer(serializers.Serializer):
    rated = serializers.BooleanField(help_text="accept bots as opponents in rated games (default false)")
    casual = serializers.BooleanField(help_text="accept bots as opponents in casual games (default true)")


class AccessTokensView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def get_throttles(self) -> list:
        return [AccountThrottle()] if self.request.method == "POST" else []

    @extend_schema(responses={200: TokenListSerializer, 401: ERR[401], 403: ERR[403]})
    def get(self, request: Request) -> Response:
        return Response({"tokens": [tokens.as_json(t) for t in tokens.of_user(request.user)]})

    @extend_schema(request=NewTokenSerializer, responses={201: CreatedTokenSerializer, 400: ERR[400], 401: ERR[401],
                                                          403: ERR[403], 429: ERR[429]})
    def post(self, request: Request) -> Response:
        body = request.data if isinstance(request.data, dict) else {}
        token, secret = tokens.create(request.user, name=body.get("name"), scopes=body.get("scopes"),
                                      expires_in_days=body.get("expires_in_days"))
        return Response({"token": tokens.as_json(token), "secret": secret}, status=status.HTTP_201_CREATED)


class AccessTokenView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: AccessTokenSerializer, 401: ERR[401], 403: ERR[403], 404: ERR[404]})
    def delete(self, request: Request, token_id: int) -> Response:
        return Response(tokens.as_json(tokens.revoke(request.user, token_id)))


def _bot_status(user: User | AnonymousUser) -> dict[str, Any]:
    account = BotAccount.objects.filter(user_id=user.pk).first()  # type: ignore[misc]  # an authenticated view
    return {"user": user.username, "bot": account is not None,
            "since": account.created_at.isoformat() if account is not None else None}


class BotAccountView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def get_throttles(self) -> list:
        return [AccountThrottle()] if self.request.method == "POST" else []

    @extend_schema(responses={200: BotStatusSerializer, 401: ERR[401], 403: ERR[403]})
    def get(self, request: Request) -> Response:
        return Response(_bot_status(request.user))

    @extend_schema(request=None, responses={200: BotStatusSerializer, 401: ERR[401], 403: ERR[403], 409: ERR[409],
                                            429: ERR[429]})
    def post(self, request: Request) -> Response:
        bots.make_bot(request.user)
        return Response(_bot_status(request.user))


class BotPreferenceView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: BotPreferenceSerializer, 401: ERR[401], 403: ERR[403]})
    def get(self, request: Request) -> Response:
        pref = bots.preference(request.user)
        return Response({"rated": pref.rated, "casual": pref.casual})

    @extend_schema(request=BotPreferenceSerializer, responses={200: BotPreferenceSerializer, 400: ERR[400],
                                                               401: ERR[401], 403: ERR[403]})
    def put(self, request: Request) -> Response:
        body = request.data if isinstance(request.data, dict) else {}
        pref = bots.set_preference(request.user, rated=body.get("rated"), casual=body.get("casual"))
        return Response({"rated": pref.rated, "casual": pref.casual})
