"""Small input serializers (they also document the OpenAPI schema)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """Text only: DRF's CharField turns a JSON number into text (``12`` became the username "12")."""

    default_error_messages = {"not_text": "must be a JSON string, not {kind}"}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("not_text", kind=type(data).__name__ if data is not None else "null")
        return super().to_internal_value(data)


class CredentialsSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, write_only=True, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class CreateMatchSerializer(serializers.Serializer):
    game = serializers.CharField(help_text="a game id from /api/games/")
    seats = serializers.ListField(
        child=serializers.DictField(), help_text='[{"human": true} | {"bot": "<level>"}], one per seat'
    )
    options = serializers.DictField(required=False, default=dict)
    # ranked play
    rated = serializers.BooleanField(required=False, default=False, help_text="rated needs every seat human")
    time_control = serializers.JSONField(required=False, help_text="'5+10', '3d' or an object; omitted: '1d' (a day per move)")
    contribution = serializers.JSONField(
        required=False, help_text="your share of the dice: 32 random bytes as 64 hex digits, not all zeros; "
        "omitted: the server makes one and the match's events say so (docs/AUDIT.md)")
    commitment = serializers.CharField(
        required=False, help_text="a seed commitment from POST /api/matches/commitment: the match uses that seed, "
        "fixed before your contribution was made (docs/AUDIT.md)")


class JoinSerializer(serializers.Serializer):
    contribution = serializers.JSONField(
        required=False, help_text="your share of the dice: 32 random bytes as 64 hex digits, not all zeros; "
        "omitted: the server makes one and the match's events say so (docs/AUDIT.md)")


class ActionSerializer(serializers.Serializer):
    action = serializers.JSONField(help_text="the action in the game's record notation")
    expected_seq = serializers.IntegerField(min_value=0, help_text="the match's seq you saw")
    lag_ms = serializers.IntegerField(required=False, min_value=0, max_value=10_000,
                                      help_text="your network lag on your last move (ms): part of it is credited "
                                                "back on a real-time clock")


class SeqSerializer(serializers.Serializer):
    seq = serializers.IntegerField()


class ErrorBodySerializer(serializers.Serializer):
    error = serializers.DictField(help_text='{"code": str, "message": str}')
