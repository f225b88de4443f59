"""REST endpoints of accounts and moderation (docs/API.md, "Accounts" and "Moderation"; the OpenAPI schema).

The same services as the pages (games.accounts); errors in the API's shape;
the reset requests, verification mails and account changes are rate-limited.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView

from games.requesters import logged_in

from ..api.serializers import ErrorBodySerializer, StrictCharField, TokenSerializer
from ..api.throttles import AccountThrottle, PasswordResetThrottle, VerifyEmailThrottle
from ..errors import BadRequest
from ..table.api import ChatMessageSerializer
from . import emails, export, lifecycle, moderation, passwords, sanctions

ERR = {code: OpenApiResponse(ErrorBodySerializer, description=text) for code, text in {
    400: "malformed input, wrong password, bad or expired link", 401: "not logged in",
    403: "not allowed (not a moderator)", 404: "no such user or message", 429: "rate limited: see Retry-After",
}.items()}


def _valid(serializer_class: type[BaseSerializer[Any]], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    data: dict[str, Any] = serializer.validated_data
    return data


class SanctionSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["mute", "suspend", "ban"])
    reason = serializers.CharField()
    since = serializers.DateTimeField()
    until = serializers.DateTimeField(allow_null=True)


class WarningSerializer(serializers.Serializer):
    reason = serializers.CharField()
    at = serializers.DateTimeField()


class AccountSerializer(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.CharField(allow_null=True)
    email_verified = serializers.BooleanField()
    sanctions = SanctionSerializer(many=True, help_text="mutes and suspensions in force, with reason and end")
    warnings = WarningSerializer(many=True)


class EmailSerializer(serializers.Serializer):
    email = StrictCharField(max_length=254, allow_blank=True, help_text="empty removes the address")


class TokenBodySerializer(serializers.Serializer):
    token = StrictCharField(max_length=1000)


class ResetConfirmSerializer(serializers.Serializer):
    uid = StrictCharField(max_length=64, help_text="from the reset link: /password/reset/<uid>/<token>/")
    token = StrictCharField(max_length=128)
    new_password = StrictCharField(max_length=128, trim_whitespace=False)


class PasswordChangeSerializer(serializers.Serializer):
    old_password = StrictCharField(max_length=128, trim_whitespace=False)
    new_password = StrictCharField(max_length=128, trim_whitespace=False)


class PasswordSerializer(serializers.Serializer):
    password = StrictCharField(max_length=128, trim_whitespace=False)


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


def account_json(user: User) -> dict[str, Any]:
    return {
        "username": user.username, "email": user.email or None, "email_verified": emails.is_verified(user),
        "sanctions": [s.as_json() for s in sanctions.in_force(user)],
        "warnings": [{"reason": w.reason, "at": w.created_at.isoformat()} for w in sanctions.warnings(user)],
    }


class AccountView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="Your account: address, verification, sanctions in force", responses={200: AccountSerializer, **ERR})
    def get(self, request: Request) -> Response:
        return Response(account_json(logged_in(request.user)))


class EmailView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [VerifyEmailThrottle]

    @extend_schema(summary="Set (or remove) your email address; a new one is mailed a verification link",
                   request=EmailSerializer, responses={200: AccountSerializer, **ERR})
    def post(self, request: Request) -> Response:
        emails.set_address(request.user, _valid(EmailSerializer, request)["email"])
        return Response(account_json(logged_in(request.user)))


class ResendView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [VerifyEmailThrottle]

    @extend_schema(summary="Mail a new verification link to your address", request=None,
                   responses={202: DetailSerializer, **ERR})
    def post(self, request: Request) -> Response:
        if emails.is_verified(request.user):
            raise BadRequest(f"{logged_in(request.user).email} is verified already", code="already_verified")
        emails.send_verification(request.user)
        return Response({"detail": f"a verification link is on its way to {logged_in(request.user).email}"},
                        status=status.HTTP_202_ACCEPTED)


class VerifyView(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [PasswordResetThrottle]

    @extend_schema(summary="Verify an address with the token of its link (/settings/account/email/verify/<token>/)",
                   request=TokenBodySerializer, responses={200: AccountSerializer, **ERR})
    def post(self, request: Request) -> Response:
        user = emails.verify(_valid(TokenBodySerializer, request)["token"])
        return Response(account_json(user))


class ResetView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_classes = [PasswordResetThrottle]

    @extend_schema(summary="Mail a password reset link (the same answer whether or not an account has the address)",
                   request=EmailSerializer, responses={202: DetailSerializer, **ERR})
    def post(self, request: Request) -> Response:
        passwords.request_reset(_valid(EmailSerializer, request)["email"], request._request)
        return Response({"detail": "if an account has this verified address, a reset link is on its way"},
                        status=status.HTTP_202_ACCEPTED)


class ResetConfirmView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_classes = [PasswordResetThrottle]

    @extend_schema(summary="Set a new password with a reset link's uid and token (once, before it expires)",
                   request=ResetConfirmSerializer, responses={200: DetailSerializer, **ERR})
    def post(self, request: Request) -> Response:
        data = _valid(ResetConfirmSerializer, request)
        passwords.confirm_reset(data["uid"], data["token"], data["new_password"])
        return Response({"detail": "the password is changed; log in with it"})


class PasswordChangeView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [AccountThrottle]

    @extend_schema(summary="Change your password; your old API tokens end and a new one is returned",
                   request=PasswordChangeSerializer, responses={200: TokenSerializer, **ERR})
    def post(self, request: Request) -> Response:
        data = _valid(PasswordChangeSerializer, request)
        token = passwords.change(request.user, data["old_password"], data["new_password"])
        return Response({"token": token.key})


EXPORT = inline_serializer("AccountExport", {
    "format": serializers.CharField(), "exported_at": serializers.DateTimeField(), "profile": serializers.DictField(),
    "settings": serializers.DictField(), "ratings": serializers.ListField(child=serializers.DictField()),
    "rating_history": serializers.DictField(), "matches": serializers.ListField(child=serializers.DictField()),
    "chat_messages": serializers.ListField(child=serializers.DictField()),
    "chat_reports_made": serializers.ListField(child=serializers.DictField()),
    "moderation": serializers.ListField(child=serializers.DictField()),
})


class ExportView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [AccountThrottle]

    @extend_schema(summary="Everything Cairn holds about you, as one JSON document",
                   responses={200: OpenApiResponse(EXPORT, description="cairn-account-export/1"), **ERR})
    def get(self, request: Request) -> Response:
        return Response(export.export(request.user))


class DeleteView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [AccountThrottle]

    @extend_schema(summary="Delete your account (confirm with your password); see docs/ACCOUNTS.md",
                   request=PasswordSerializer, responses={200: DetailSerializer, **ERR})
    def post(self, request: Request) -> Response:
        lifecycle.delete_account(request.user, _valid(PasswordSerializer, request)["password"])
        return Response({"detail": "the account is deleted"})


# ---------------------------------------------------------------------- moderation


class ChatLineSerializer(ChatMessageSerializer):
    hidden = serializers.BooleanField()


class ActionOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    moderator = serializers.CharField()
    subject = serializers.CharField()
    message = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField()
    until = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class ReporterSerializer(serializers.Serializer):
    user = serializers.CharField()
    at = serializers.DateTimeField()


class ReportSerializer(serializers.Serializer):
    message = ChatLineSerializer()
    reported = serializers.CharField()
    reporters = ReporterSerializer(many=True)
    last_report = serializers.DateTimeField(allow_null=True)
    context = ChatLineSerializer(many=True, help_text="the messages around it, hidden ones included")  # type: ignore[assignment]  # a declared field
    actions = ActionOutSerializer(many=True)


class ActionInSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=sanctions.Kind.values)
    reason = StrictCharField(max_length=1000, allow_blank=True, help_text="why: kept, and shown to the person")
    user = StrictCharField(max_length=150, required=False, help_text="the person (or give a message of theirs)")
    message = serializers.IntegerField(required=False, min_value=1, help_text="a chat message (hide, dismiss)")
    minutes = serializers.IntegerField(required=False, help_text="the length of a mute or suspension")


class ReportsView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    LIMIT = 100

    @extend_schema(summary="Reported chat messages, newest report first (moderators)",
                   parameters=[OpenApiParameter("status", str, enum=list(moderation.STATUSES)),
                               OpenApiParameter("channel", str, enum=["players", "spectators", "lobby"]),
                               OpenApiParameter("reported", str), OpenApiParameter("reporter", str)],
                   responses={200: ReportSerializer(many=True), **ERR})
    def get(self, request: Request) -> Response:
        moderation.require_moderator(request.user)
        q = request.query_params
        rows = moderation.reported_messages(status=q.get("status") or "open", channel=q.get("channel") or None,
                                            reported=q.get("reported") or None, reporter=q.get("reporter") or None)
        return Response([moderation.report_json(m) for m in rows[: self.LIMIT]])


class ActionsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="The moderation log, newest first (moderators)",
                   parameters=[OpenApiParameter("user", str, description="only actions about this user")],
                   responses={200: ActionOutSerializer(many=True), **ERR})
    def get(self, request: Request) -> Response:
        moderation.require_moderator(request.user)
        rows = moderation.actions(username=request.query_params.get("user") or None)
        return Response([moderation.action_json(a) for a in rows])

    @extend_schema(summary="Take a moderation action: hide, warn, mute, suspend, ban, lift, dismiss (moderators)",
                   request=ActionInSerializer, responses={201: ActionOutSerializer, **ERR})
    def post(self, request: Request) -> Response:
        moderation.require_moderator(request.user)
        data = _valid(ActionInSerializer, request)
        action = moderation.act(moderator=request.user, kind=data["kind"], reason=data["reason"],
                                username=data.get("user"), message_id=data.get("message"), minutes=data.get("minutes"))
        return Response(moderation.action_json(action), status=status.HTTP_201_CREATED)
