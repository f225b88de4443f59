"""``python manage.py verify_match ID [ID ...]``: verify matches; names the first failing seq."""

import json

from django.core.management.base import BaseCommand, CommandError

from games.errors import NotFound
from games.selectors import get_match
from games.verify import verify_match


class Command(BaseCommand):
    help = "Verify matches (hash chain, seed vs commitment, chance outcomes, legality, result); exit 1 on failure."

    def add_arguments(self, parser):  # noqa: ANN001
        parser.add_argument("match_ids", nargs="+", type=int, metavar="ID")
        parser.add_argument("--json", action="store_true", help="print one JSON verdict per match")

    def handle(self, *args, match_ids, json: bool = False, **options):  # noqa: ANN001, A002
        as_json = json
        failed = False
        for match_id in match_ids:
            try:
                match = get_match(match_id)
            except NotFound as exc:
                raise CommandError(exc.message) from None
            verdict = verify_match(match)
            failed = failed or not verdict.ok
            if as_json:
                self.stdout.write(_dumps(verdict.as_json()))
            elif verdict.ok:
                self.stdout.write(f"match {match_id}: OK ({verdict.events} events)")
            else:
                self.stdout.write(
                    f"match {match_id}: FAILED at seq {verdict.failed_seq} ({verdict.check}): {verdict.message}"
                )
        if failed:
            raise CommandError("verification failed", returncode=1)


def _dumps(obj) -> str:  # noqa: ANN001
    return json.dumps(obj, separators=(",", ":"))
