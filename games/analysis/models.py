"""A stored analysis (append-only, one per match and analysis version) and the request that computes it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class MatchAnalysis(models.Model):
    """The analysis of a finished match by one version of ``ai.analysis``: written once, never changed."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="analyses")
    version = models.PositiveSmallIntegerField(help_text="ai.analysis.ANALYSIS_VERSION that computed it")
    result = models.JSONField(help_text="ai.analysis.analyse_record's output, each event with its match seq")
    seconds = models.FloatField(help_text="CPU seconds the worker spent on it")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "version"], name="analysis_once_per_match_version")]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("a stored analysis is never changed (append-only)")
        super().save(*args, **kwargs)


class AnalysisRequest(models.Model):
    """Who asked for the analysis of a match, and how far its computation has got."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="analysis_requests")
    version = models.PositiveSmallIntegerField()
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                     related_name="analysis_requests")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED, db_index=True)
    done = models.PositiveIntegerField(default=0, help_text="events analysed so far")
    total = models.PositiveIntegerField(default=0, help_text="events to analyse")
    # The entries of the first ``done`` events, saved every few events: a redelivered task resumes from here.
    partial = models.JSONField(default=list, blank=True)
    error = models.CharField(max_length=400, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "version"], name="analysis_request_once")]
