"""Reads of post-game analyses: the stored result and the progress of the request, for one match."""

from __future__ import annotations

from typing import Any

from ai import analysis as core
from games.models import Match

from .models import AnalysisRequest, MatchAnalysis


def stored(match: Match, version: int = core.ANALYSIS_VERSION) -> MatchAnalysis | None:
    return MatchAnalysis.objects.filter(match=match, version=version).first()


def status(match: Match, version: int = core.ANALYSIS_VERSION) -> dict[str, Any]:
    """``{"status", "done", "total", "percent", "error", "analysis"}``; status is ``none``, ``queued``,
    ``running``, ``failed`` or ``done`` (then ``analysis`` is the stored result)."""
    analysis = stored(match, version)
    if analysis is not None:
        total = len(analysis.result.get("events", []))
        return {"status": "done", "version": version, "done": total, "total": total, "percent": 100, "error": "",
                "seconds": analysis.seconds, "analysis": analysis.result}
    request = AnalysisRequest.objects.filter(match=match, version=version).first()
    if request is None:
        return {"status": "none", "version": version, "done": 0, "total": 0, "percent": 0, "error": "",
                "seconds": None, "analysis": None}
    state = request.status if request.status != AnalysisRequest.Status.DONE else "running"
    percent = int(100 * request.done / request.total) if request.total else 0
    return {"status": state, "version": version, "done": request.done, "total": request.total, "percent": percent,
            "error": request.error, "seconds": None, "analysis": None}
