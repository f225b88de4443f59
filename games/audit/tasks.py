"""The Celery beat task that appends a signed checkpoint to the public log of heads."""

from __future__ import annotations

from celery import shared_task

from . import log


@shared_task(name="games.audit.tasks.append_checkpoint")
def append_checkpoint() -> int | None:
    """Log every moved head and sign the tree; the new checkpoint's size, or None if nothing moved."""
    checkpoint = log.append_checkpoint()
    return checkpoint["size"] if checkpoint else None
