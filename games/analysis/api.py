"""REST endpoints of post-game analysis: ask for it, and read its progress and result (docs/API.md)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..api.serializers import ErrorBodySerializer
from ..selectors import get_match
from . import selectors, services

ERR = {code: OpenApiResponse(ErrorBodySerializer, description=text) for code, text in {
    401: "not logged in (not_authenticated)",
    404: "no such match (match_not_found)",
    409: "the match is still in play (match_in_play); its analysis is already queued or running (analysis_queued)",
    429: "you have MAX_PENDING (3) analyses queued or running already (too_many_analyses)",
}.items()}
READ_ERR = {code: ERR[code] for code in (404, 409)}  # reading needs no log-in: a finished record is public


class AnalysisBodySerializer(serializers.Serializer):
    match = serializers.IntegerField()
    status = serializers.CharField(help_text="'none' (never asked), 'queued', 'running', 'failed' or 'done'")
    version = serializers.IntegerField(help_text="the analysis version (ai.analysis.ANALYSIS_VERSION)")
    done = serializers.IntegerField(help_text="events analysed so far")
    total = serializers.IntegerField(help_text="events to analyse (0 until the task starts)")
    percent = serializers.IntegerField()
    error = serializers.CharField(help_text="why it failed (status 'failed'); ask again to retry")
    seconds = serializers.FloatField(allow_null=True, help_text="CPU seconds the analysis took (when done)")
    analysis = serializers.JSONField(
        allow_null=True,
        help_text="when done: {version, game, players, seed, budget, thresholds, scale, seats: [{seat, moves, forced, "
                  "accuracy, luck, inaccuracy, mistake, blunder}], events: [{index, seq, kind: 'move' | 'chance', "
                  "seat, played, legal, forced, best, best_is_played, values: {seat: [before, after]}, loss, mark, "
                  "accuracy, places} or {index, seq, kind: 'chance', values, luck}]}")


def _body(match_id: int) -> dict:
    match = get_match(match_id)
    return AnalysisBodySerializer({"match": match.pk, **selectors.status(match)}).data


class AnalysisView(APIView):
    @extend_schema(responses={200: AnalysisBodySerializer, **READ_ERR},
                   summary="The analysis of a finished match: its progress while it runs, then every move judged")
    def get(self, request: Request, match_id: int) -> Response:
        match = get_match(match_id)
        services.check_finished(match)
        return Response(_body(match.pk))

    @extend_schema(request=None, responses={200: AnalysisBodySerializer, 202: AnalysisBodySerializer, **ERR},
                   summary="Ask for the analysis of a finished match: queued (202), or the stored one (200)")
    def post(self, request: Request, match_id: int) -> Response:
        outcome, _ = services.request_analysis(match_id=match_id, user=request.user)
        return Response(_body(match_id), status=200 if outcome == "stored" else 202)
