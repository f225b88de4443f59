"""Receipts and transparency API routes (included from games/api/urls.py)."""

from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, path

from games.api import converters  # registers the "id" converter

from . import api


def both(route: str, view: Callable[..., Any], name: str) -> list[URLPattern]:
    other = route[:-1] if route.endswith("/") else route + "/"
    return [path(route, view, name=name), path(other, view)]


urlpatterns = [
    *both("matches/commitment", api.SeedOfferView.as_view(), "api-seed-offer"),
    *both("receipts/keys", api.KeysView.as_view(), "api-receipt-keys"),
    *both("matches/<id:match_id>/receipts", api.MatchReceiptsView.as_view(), "api-match-receipts"),
    *both("transparency/checkpoints", api.CheckpointsView.as_view(), "api-checkpoints"),
    *both("transparency/proof", api.ProofView.as_view(), "api-transparency-proof"),
    *both("transparency/consistency", api.ConsistencyView.as_view(), "api-transparency-consistency"),
]
