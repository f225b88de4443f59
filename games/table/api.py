"""REST endpoints of chat (documented in docs/API.md, "Chat", and in the OpenAPI schema).

``GET /api/chat/?match=ID&channel=players|spectators`` (or no ``match``: the lobby)
lists the newest messages, oldest first, without the authors the caller muted;
``POST /api/chat/`` ``{"text", "match"?, "channel"?}`` posts one.  The same
service as the pages (games.table.chat): the same channels, limits and mutes.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..api.serializers import ErrorBodySerializer
from ..errors import BadRequest
from . import chat
from .models import ChatMessage

ERR = {code: OpenApiResponse(ErrorBodySerializer, description=text) for code, text in {
    400: "malformed input, too long, or too fast", 403: "not allowed (log in; wrong channel; chat off)",
    404: "no such match",
}.items()}


class ChatPostSerializer(serializers.Serializer):
    text = serializers.CharField(trim_whitespace=False, allow_blank=True, help_text="at most CHAT_MAX_LENGTH characters")
    match = serializers.IntegerField(required=False, allow_null=True, help_text="the match; leave out for the lobby")
    channel = serializers.ChoiceField(choices=["players", "spectators", "lobby"], required=False, allow_null=True,
                                      help_text="default: your own (players if you hold a seat)")


class ChatMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.IntegerField(allow_null=True)
    channel = serializers.CharField()
    author = serializers.CharField()
    text = serializers.CharField()
    created_at = serializers.DateTimeField()


def message_json(message: ChatMessage) -> dict[str, Any]:
    return {"id": message.pk, "match": message.match_id, "channel": message.channel,
            "author": message.author.username, "text": message.text, "created_at": message.created_at.isoformat()}


class ChatView(APIView):
    permission_classes = [permissions.AllowAny]  # the service answers 403 with its reason

    @extend_schema(
        summary="List chat messages",
        parameters=[OpenApiParameter("match", OpenApiTypes.INT, description="the match; leave out for the lobby"),
                    OpenApiParameter("channel", OpenApiTypes.STR, description="players or spectators (a match)")],
        responses={200: ChatMessageSerializer(many=True), **ERR},
    )
    def get(self, request: Request) -> Response:
        match = request.query_params.get("match") or None
        channel = request.query_params.get("channel") or ("players" if match else None)
        if match is None and not request.user.is_authenticated:
            from ..errors import Forbidden

            raise Forbidden("log in to read the lobby chat", code="not_authenticated")
        if match is not None and not str(match).isdigit():
            raise BadRequest(f"match must be a match id, not {match!r}", code="bad_chat")
        rows = chat.history(user=request.user, match_id=match, channel=channel)
        return Response([message_json(m) for m in rows])

    @extend_schema(summary="Post a chat message", request=ChatPostSerializer,
                   responses={201: ChatMessageSerializer, **ERR})
    def post(self, request: Request) -> Response:
        serializer = ChatPostSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        channel = data.get("channel")
        message = chat.post(user=request.user, text=data["text"], match_id=data.get("match"),
                            channel=None if channel == "lobby" else channel)
        return Response(message_json(message), status=status.HTTP_201_CREATED)
