"""REST endpoint of fair play: claim against an opponent who left (docs/API.md, "Leavers")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import TakebackOffer

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


TAKEBACK_ERR = {code: OpenApiResponse(ErrorBodySerializer, description=text) for code, text in {
    400: "malformed input",
    403: "not logged in, or no seat in this match (not_a_player); answering your own offer (own_takeback_offer)",
    404: "no such match, or no offer to answer (no_takeback_offer)",
    409: "no takeback now: takeback_not_allowed (rated, hidden information, 3-4 people), takeback_across_chance, "
         "takeback_across_player, nothing_to_take_back, takeback_pending, takeback_lapsed, match_finished",
    429: "too many requests (counted with moves)",
}.items()}


class TakebackSerializer(serializers.Serializer):
    status = serializers.CharField(help_text="'taken_back' (against bots: done), 'pending' (offered to a person), "
                                             "'accepted' or 'declined'")
    match = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="the match's seq now")
    offer = serializers.JSONField(allow_null=True, help_text="the offer to a person: id, seat, by, seq, status")


def _takeback_body(match_id: int, status_: str, offer: TakebackOffer | None = None) -> dict[str, Any]:
    from ..models import Match
    from . import takebacks

    match = Match.objects.get(pk=match_id)
    return TakebackSerializer({"status": status_, "match": match.pk, "seq": match.seq,
                               "offer": takebacks.as_json(offer) if offer is not None else None}).data


class TakebackView(APIView):
    throttle_classes = [ActionThrottle]

    @extend_schema(request=None, responses={200: TakebackSerializer, 201: TakebackSerializer, **TAKEBACK_ERR},
                   summary="Take back your last action: at once against bots (200), or offered to your opponent (201)")
    def post(self, request: Request, match_id: int) -> Response:
        from ..selectors import get_match
        from . import takebacks

        match = get_match(match_id)
        people = [s for s in match.seats.all() if s.user_id and not s.is_bot
                  and not (request.user.is_authenticated and s.user_id == request.user.pk)]
        if people:
            offered = takebacks.offer(match_id=match_id, user=request.user)
            push.send(push.match_group(match.pk), "presence")
            return Response(_takeback_body(match.pk, "pending", offered), status=201)
        takebacks.take_back(match_id=match_id, user=request.user)
        return Response(_takeback_body(match.pk, "taken_back"))


class TakebackAnswerView(APIView):
    throttle_classes = [ActionThrottle]
    accept = True

    @extend_schema(request=None, responses={200: TakebackSerializer, **TAKEBACK_ERR},
                   summary="Answer your opponent's takeback offer")
    def post(self, request: Request, match_id: int) -> Response:
        from . import takebacks

        answered = takebacks.answer(match_id=match_id, user=request.user, accept=self.accept)
        push.send(push.match_group(answered.match_id), "presence")
        return Response(_takeback_body(answered.match_id, answered.status, answered))


class TakebackAcceptView(TakebackAnswerView):
    accept = True


class TakebackDeclineView(TakebackAnswerView):
    accept = False
