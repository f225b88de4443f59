"""REST views of receipts and the public log of heads: parse, call one function, answer."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.receipt import RECEIPTS_FORMAT

from .. import selectors
from ..api.serializers import ErrorBodySerializer
from ..api.throttles import CairnThrottle, CreateMatchThrottle
from ..errors import BadRequest, excerpt
from ..ids import MAX_ID
from . import log, offers
from .keys import public_keys
from .receipts import head_receipt
from .serializers import (
    CheckpointsSerializer,
    ConsistencySerializer,
    InclusionSerializer,
    KeysSerializer,
    ReceiptsSerializer,
)

NOT_FOUND = OpenApiResponse(ErrorBodySerializer, description="no such match, or not in the log")
BAD = OpenApiResponse(ErrorBodySerializer, description="a malformed parameter")
LIMITED = OpenApiResponse(ErrorBodySerializer, description="rate limited: see Retry-After")


class TransparencyThrottle(CairnThrottle):
    """Proofs hash the log's leaves: counted per address."""

    scope = "transparency"


def _required(request: Request, name: str) -> int:
    """:func:`_whole` of a required parameter (400 when it is missing)."""
    value = _whole(request, name)
    assert value is not None  # _whole refuses a missing required parameter
    return value


def _whole(request: Request, name: str, *, required: bool = True) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        if required:
            raise BadRequest(f"'{name}' is required", code=f"bad_{name}")
        return None
    try:
        value = int(raw)
        if not 0 <= value <= MAX_ID:
            raise ValueError
    except ValueError:
        raise BadRequest(f"'{name}' must be a non-negative whole number, not {excerpt(raw)}", code=f"bad_{name}") from None
    return value


class OfferSerializer(serializers.Serializer):
    commitment = serializers.CharField(help_text="SHA-256 of the seed the match will use, hex")
    expires_in = serializers.IntegerField(help_text="seconds the offer lasts")


class SeedOfferView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [CreateMatchThrottle]

    @extend_schema(request=None, responses={201: OfferSerializer, 429: LIMITED})
    def post(self, request: Request) -> Response:
        return Response(offers.offer(request.user), status=201)


class KeysView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: KeysSerializer})
    def get(self, request: Request) -> Response:
        return Response({"keys": public_keys()})


class MatchReceiptsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: ReceiptsSerializer, 404: NOT_FOUND})
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.get_match(match_id)
        aggregate = selectors.delayed_aggregate(match, request.user) or selectors.load_aggregate(match)
        receipt = head_receipt(match, aggregate)
        return Response({"format": RECEIPTS_FORMAT, "match": match.pk, "receipts": [receipt] if receipt else [],
                         "keys": public_keys()})


class CheckpointsView(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [TransparencyThrottle]

    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="only checkpoints of more leaves than this")],
        responses={200: CheckpointsSerializer, 400: BAD, 429: LIMITED},
    )
    def get(self, request: Request) -> Response:
        after = _whole(request, "after", required=False) or 0
        return Response({"checkpoints": log.checkpoints(after), "keys": public_keys()})


class ProofView(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [TransparencyThrottle]

    @extend_schema(
        parameters=[
            OpenApiParameter("match", int, required=True, description="the match whose newest logged head to prove"),
            OpenApiParameter("size", int, description="the checkpoint (its size); the newest if left out"),
        ],
        responses={200: InclusionSerializer, 400: BAD, 404: NOT_FOUND, 429: LIMITED},
    )
    def get(self, request: Request) -> Response:
        match = _required(request, "match")
        return Response(log.inclusion(match, _whole(request, "size", required=False)))


class ConsistencyView(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [TransparencyThrottle]

    @extend_schema(
        parameters=[
            OpenApiParameter("from", int, required=True, description="the older checkpoint's size"),
            OpenApiParameter("to", int, required=True, description="the newer checkpoint's size"),
        ],
        responses={200: ConsistencySerializer, 400: BAD, 404: NOT_FOUND, 429: LIMITED},
    )
    def get(self, request: Request) -> Response:
        return Response(log.consistency(_required(request, "from"), _required(request, "to")))
