"""REST endpoint of fair play: claim against an opponent who left (docs/API.md, "Leavers")."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..api.serializers import ErrorBodySerializer
from ..api.throttles import ActionThrottle
from ..table import push
from . import leavers

ERR = {code: OpenApiResponse(ErrorBodySerializer, description=text) for code, text in {
    400: "'result' is not 'win' or 'draw' (bad_result)",
    403: "not logged in, or no seat in this match (not_a_player)",
    404: "no such match",
    409: "no claim now: match_finished (a second claim, or the match is over), match_not_started, "
         "claim_not_available (not a 2-player match with a real-time clock, or a bot opponent), "
         "opponent_present, claim_too_early (the message says when)",
    429: "too many requests (counted with moves)",
    503: "presence is unknown just now (presence_unavailable)",
}.items()}


class ClaimSerializer(serializers.Serializer):
    result = serializers.CharField(help_text="'win' or 'draw'")


class ClaimedSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    status = serializers.CharField(help_text="'finished'")
    ending = serializers.CharField(help_text="'claimed_win' or 'claimed_draw'")
    seq = serializers.IntegerField(help_text="the match's last event (the final one)")
    result = serializers.JSONField(help_text="scores, winners, ranking (and forfeits, or drawn)")


class ClaimView(APIView):
    throttle_classes = [ActionThrottle]

    @extend_schema(request=ClaimSerializer, responses={200: ClaimedSerializer, **ERR},
                   summary="Claim the win or a draw: your opponent in a 2-player real-time match has been gone "
                           "for the grace period")
    def post(self, request: Request, match_id: int) -> Response:
        result = request.data.get("result") if isinstance(request.data, dict) else None
        match = leavers.claim(match_id=match_id, user=request.user, result=result)
        push.send(push.match_group(match.pk), "presence")
        match.refresh_from_db()
        last = match.events.order_by("-seq").only("payload").first()
        return Response(ClaimedSerializer({
            "match": match.pk, "status": match.status, "ending": last.payload.get("ending", "") if last else "",
            "seq": match.seq, "result": match.result,
        }).data)
