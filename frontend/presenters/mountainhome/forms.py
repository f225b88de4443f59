"""The Mountainhome move form of its own: the sealed-bid builder (ticked cards and uses -> ``commit_bid``)."""

from __future__ import annotations

import json
from typing import Any

from .. import FormError


def action_from_form(data: Any, match: dict[str, Any]) -> dict[str, Any]:
    """The bid builder: ticked ``bid_card`` and ``bid_use`` fields -> ``commit_bid`` (the engine checks it)."""
    if data.get("mh_form") != "commit":
        raise FormError("No move was sent.")
    uses = []
    for raw in data.getlist("bid_use"):
        try:
            uses.append(json.loads(raw))
        except ValueError:
            raise FormError(f"The use {raw!r} could not be read.") from None
    return {"do": "commit_bid", "cards": list(data.getlist("bid_card")), "uses": uses}
