"""``python manage.py rebuild_ladders [--game ID]``: rebuild every ladder from the match events."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.ranking.ratings import rebuild_ladders


class Command(BaseCommand):
    help = (
        "Delete the rating ladders and rebuild them from the rated matches' final events, in ladder order; "
        "report (and exit 1 on) any recorded rating event that the rebuild does not reproduce."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", help="only this game's ladder")

    def handle(self, *args: Any, game: str | None = None, **options: Any) -> None:
        report = rebuild_ladders(game_id=game)
        self.stdout.write(json.dumps(report, indent=2, sort_keys=True))
        if report["mismatches"]:
            raise CommandError(f"{len(report['mismatches'])} rating event(s) differ from the rebuild")
