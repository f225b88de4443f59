"""Post-game analysis: who may ask, the queue, the computation and the one stored result.

* :func:`request_analysis` checks the match (finished), the person (logged in, at most
  ``MAX_PENDING`` analyses of theirs queued or running) and the match's request (not already queued),
  then queues :func:`games.analysis.tasks.analyse_match` after commit.  A stored analysis is served,
  never recomputed.
* :func:`run_analysis` (the task) folds the match's record through :func:`ai.analysis.analyse_record`:
  each decision judged from its seat's observation only.  Progress and the entries so far are saved
  every few events, so a redelivered task (a worker killed mid-way: ``acks_late`` and
  ``reject_on_worker_lost``) resumes from there; the result is written once, in one transaction,
  keyed by (match, ``ANALYSIS_VERSION``), and nothing half-done is ever stored as a result.
"""

from __future__ import annotations

import hashlib
import logging
import time
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from ai import analysis as core
from games import db
from games.errors import Conflict, DomainError, Forbidden
from games.models import Match
from games.requesters import RawId, Requester
from games.selectors import get_match, record

from .models import AnalysisRequest, MatchAnalysis

logger = logging.getLogger(__name__)

MAX_PENDING = 3  # analyses one person may have queued or running at a time
PUSHES = 40  # progress pushes (and checkpoints) per analysis, at most
STALE = timedelta(minutes=10)  # a queued or running request not heard of for this long is queued again


ANALYSE_TASK = "games.analysis.tasks.analyse_match"


class TooManyAnalyses(DomainError):
    status = 429
    code = "too_many_analyses"


def analysis_seed(match: Match, version: int = core.ANALYSIS_VERSION) -> int:
    """The analysis's seed: derived from the match (its id and the hash of its last event) and the version."""
    material = f"cairn analysis\0{match.pk}\0{match.last_hash}\0{version}".encode()
    return int.from_bytes(hashlib.sha256(material).digest()[:8], "big")


def check_finished(match: Match) -> None:
    if match.status != Match.Status.FINISHED:
        raise Conflict(f"match {match.pk} is still in play: it can be analysed once it has ended",
                       code="match_in_play")


def request_analysis(*, match_id: RawId, user: Requester) -> tuple[str, AnalysisRequest | MatchAnalysis]:
    """Queue the analysis of a finished match: ``("stored", analysis)`` or ``("queued", request)``."""
    if user is None or not user.is_authenticated:
        raise Forbidden("log in to ask for an analysis", code="login_required")
    match = get_match(match_id)
    check_finished(match)
    version = core.ANALYSIS_VERSION
    stored = MatchAnalysis.objects.filter(match=match, version=version).first()
    if stored is not None:
        return "stored", stored
    try:
        with transaction.atomic(using=db.alias()):
            existing = AnalysisRequest.objects.select_for_update().filter(match=match, version=version).first()
            if existing is not None and existing.status in (AnalysisRequest.Status.QUEUED,
                                                            AnalysisRequest.Status.RUNNING):
                raise Conflict(f"the analysis of match {match.pk} is already queued ({existing.done} of "
                               f"{existing.total or '?'} events done)", code="analysis_queued")
            pending = AnalysisRequest.objects.filter(
                requested_by=user, status__in=[AnalysisRequest.Status.QUEUED, AnalysisRequest.Status.RUNNING]).count()
            if pending >= MAX_PENDING:
                raise TooManyAnalyses(f"you have {pending} analyses queued already (at most {MAX_PENDING} at a time): "
                                      "ask again when one has finished")
            if existing is None:
                existing = AnalysisRequest.objects.create(match=match, version=version, requested_by=user)
            else:  # a failed one: asked again
                existing.status, existing.requested_by, existing.error = AnalysisRequest.Status.QUEUED, user, ""
                existing.done, existing.partial = 0, []
                existing.save()
            transaction.on_commit(lambda: _queue(match.pk, version), using=db.alias())
    except IntegrityError:  # two first requests at once: the other one won
        raise Conflict(f"the analysis of match {match.pk} is already queued", code="analysis_queued") from None
    _push(match.pk)
    return "queued", existing


def _queue(match_id: int, version: int) -> None:
    """Send the task by name (no import of the task module: no import circle); settings route it to the
    analysis queue."""
    from celery import current_app

    current_app.send_task(ANALYSE_TASK, (match_id, version))


def _push(match_id: int) -> None:
    from games.table import push

    push.on_commit(push.match_group(match_id), "analysis")


def run_analysis(*, match_id: int, version: int) -> str:
    """Compute and store the analysis of ``match_id`` (the Celery task's body; safe to run again)."""
    request = AnalysisRequest.objects.filter(match_id=match_id, version=version).first()
    if request is None:
        return "no_request"
    if MatchAnalysis.objects.filter(match_id=match_id, version=version).exists():
        AnalysisRequest.objects.filter(pk=request.pk).update(status=AnalysisRequest.Status.DONE)
        return "stored"
    if version != core.ANALYSIS_VERSION:
        _fail(request, f"this server computes analysis version {core.ANALYSIS_VERSION}, not {version}")
        return "failed"
    match = get_match(match_id)
    rec = record(match, None)  # the match has ended: its whole record is public
    events, seqs = rec["events"], rec["seqs"]
    total = len(events)
    start = request.done if request.partial and len(request.partial) == request.done else 0
    done_before = list(request.partial)[:start]
    AnalysisRequest.objects.filter(pk=request.pk).update(status=AnalysisRequest.Status.RUNNING, total=total,
                                                         updated_at=timezone.now())
    _push(match_id)
    every = max(1, total // PUSHES)
    began = time.process_time()

    def progress(done: int, total: int, entries: list[dict[str, Any]]) -> None:
        if done % every and done != total:
            return
        AnalysisRequest.objects.filter(pk=request.pk).update(done=done, partial=entries, updated_at=timezone.now())
        _push(match_id)

    try:
        result = core.analyse_record(match.game_id, match.players, match.options, events, seed=analysis_seed(match, version),
                                     progress=progress, start=start, done=done_before)
    except Exception as exc:  # a bug in a game's engine or search: reported, not retried forever
        logger.exception("analysis of match %s failed", match_id)
        _fail(request, f"the analysis failed: {exc}")
        return "failed"
    for entry in result["events"]:
        entry["seq"] = seqs[entry["index"]]
    result["match"] = match.pk
    seconds = time.process_time() - began
    with transaction.atomic(using=db.alias()):
        _, created = MatchAnalysis.objects.get_or_create(match_id=match_id, version=version,
                                                         defaults={"result": result, "seconds": round(seconds, 2)})
        AnalysisRequest.objects.filter(pk=request.pk).update(status=AnalysisRequest.Status.DONE, done=total,
                                                             partial=[], updated_at=timezone.now())
        _push(match_id)
    logger.info("analysis of match %s: %s events in %.1f s", match_id, total, seconds)
    return "done" if created else "stored"


def _fail(request: AnalysisRequest, message: str) -> None:
    AnalysisRequest.objects.filter(pk=request.pk).update(status=AnalysisRequest.Status.FAILED, error=message[:400],
                                                         partial=[], updated_at=timezone.now())
    _push(request.match_id)


def requeue_stale() -> int:
    """Queue again the analyses nobody has worked on for ``STALE`` (their task was lost); run by beat."""
    cutoff = timezone.now() - STALE
    stale = list(AnalysisRequest.objects.filter(
        status__in=[AnalysisRequest.Status.QUEUED, AnalysisRequest.Status.RUNNING], updated_at__lt=cutoff))
    for request in stale:
        AnalysisRequest.objects.filter(pk=request.pk).update(updated_at=timezone.now())
        _queue(request.match_id, request.version)
    return len(stale)
