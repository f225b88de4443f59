"""``python manage.py verify_match ID [ID ...]`` or ``--all``: verify matches; names the first failing seq.

``--all`` verifies every match in id order (a restored backup, for one), with a progress line on
standard error, and ends with a count of the matches verified and of those that failed.
"""

import json
import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper

from games.errors import NotFound
from games.models import Match
from games.selectors import get_match
from games.verify import verify_match


class Command(BaseCommand):
    help = "Verify matches (hash chain, seed vs commitment, chance outcomes, legality, result); exit 1 on failure."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="*", type=int, metavar="ID")
        parser.add_argument("--all", action="store_true", dest="every", help="verify every match, in id order")
        parser.add_argument("--json", action="store_true", help="print one JSON verdict per match")
        parser.add_argument("--no-progress", action="store_true", help="(with --all) no progress line")

    def handle(self, *args: Any, match_ids: list[int], every: bool = False, json: bool = False,
               no_progress: bool = False, **options: Any) -> None:
        if every and match_ids:
            raise CommandError("give match ids or --all, not both")
        if not every and not match_ids:
            raise CommandError("give one or more match ids, or --all")
        as_json = json
        progress = _Progress(self.stderr, enabled=every and not no_progress)
        ids = list(Match.objects.order_by("pk").values_list("pk", flat=True)) if every else match_ids
        failed = 0
        for done, match_id in enumerate(ids, start=1):
            try:
                match = get_match(match_id)
            except NotFound as exc:
                raise CommandError(exc.message) from None
            verdict = verify_match(match)
            failed += not verdict.ok
            if as_json:
                self.stdout.write(_dumps(verdict.as_json()))
            elif not verdict.ok:
                self.stdout.write(
                    f"match {match_id}: FAILED at seq {verdict.failed_seq} ({verdict.check}): {verdict.message}"
                )
            elif not every:
                self.stdout.write(f"match {match_id}: OK ({verdict.events} events)")
            progress.update(done, len(ids), failed)
        progress.finish()
        if every and not as_json:
            self.stdout.write(f"verified {len(ids)} match(es): {len(ids) - failed} OK, {failed} failed")
        if failed:
            raise CommandError("verification failed", returncode=1)


class _Progress:
    """``verifying 120/4000 (3%), 0 failed``: redrawn in place on a terminal, a line every 10 s elsewhere."""

    def __init__(self, stream: OutputWrapper, *, enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled
        self.tty = enabled and getattr(sys.stderr, "isatty", lambda: False)()
        self.last = 0.0

    def update(self, done: int, total: int, failed: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done != total and now - self.last < (0.2 if self.tty else 10.0):
            return
        self.last = now
        line = f"verifying {done}/{total} ({100 * done // max(total, 1)}%), {failed} failed"
        self.stream.write(f"\r{line}" if self.tty else line, ending="" if self.tty else "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty:
            self.stream.write("", ending="\n")


def _dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))
