"""Seed offers: the server commits to a match's seed before the creator's contribution is known.

Without an offer the server draws the seed in the very request that brings the creator's contribution,
so it could try seeds against it.  With one, the page (or an API client) first asks for a commitment
(``POST /api/matches/commitment``), then makes its contribution and creates the match with that
commitment: the seed was fixed before the contribution existed.  An offer is the asking user's, lasts
``OFFER_SECONDS`` and is used once.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.fair import commitment as seed_commitment

from .. import db
from ..errors import BadRequest, excerpt
from .models import SeedOffer

OFFER_SECONDS = 600


def offer(user: Any) -> dict[str, Any]:
    """Draw a seed for ``user``'s next match and answer only its commitment."""
    SeedOffer.objects.filter(created_at__lt=timezone.now() - timedelta(seconds=OFFER_SECONDS)).delete()
    seed = secrets.token_bytes(32)
    made = SeedOffer.objects.create(commitment=seed_commitment(seed), seed=seed.hex(), user=user)
    return {"commitment": made.commitment, "expires_in": OFFER_SECONDS}


def take(user: Any, commitment: Any) -> bytes:
    """The seed behind an offered ``commitment`` (once), or 400 naming why it cannot be used."""
    if not isinstance(commitment, str) or len(commitment) != 64:
        raise BadRequest(f"'commitment' must be 64 hex digits from POST /api/matches/commitment, not {excerpt(commitment)}",
                         code="bad_commitment")
    with transaction.atomic(using=db.alias()):
        found = SeedOffer.objects.select_for_update().filter(commitment=commitment.lower(), user=user).first()
        if found is None:
            raise BadRequest("'commitment' was not offered to you, or was used already", code="bad_commitment")
        found.delete()
    if found.created_at < timezone.now() - timedelta(seconds=OFFER_SECONDS):
        raise BadRequest(f"'commitment' expired: an offer lasts {OFFER_SECONDS} s", code="bad_commitment")
    return bytes.fromhex(found.seed)
