"""``python manage.py moderators [--add NAME ...] [--remove NAME ...]``: the "moderator" group.

Creates (or brings up to date) the group with only the moderation permissions,
then adds or removes the named users (who also get ``is_staff``, for the admin's
read-only lists).  Lists the group's members.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.accounts.staff import ensure_moderator_group


class Command(BaseCommand):
    help = "Create the 'moderator' group (moderation permissions only) and add or remove its members."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--add", nargs="*", default=[], metavar="USERNAME")
        parser.add_argument("--remove", nargs="*", default=[], metavar="USERNAME")

    def handle(self, *args: Any, add: Sequence[str] = (), remove: Sequence[str] = (), **options: Any) -> None:
        group = ensure_moderator_group()
        User = get_user_model()
        for name in [*add, *remove]:
            if not User.objects.filter(username=name).exists():
                raise CommandError(f"there is no user {name!r}")
        for name in add:
            user = User.objects.get(username=name)
            user.groups.add(group)
            if not user.is_staff:
                user.is_staff = True
                user.save(update_fields=["is_staff"])
        for name in remove:
            User.objects.get(username=name).groups.remove(group)
        members = ", ".join(sorted(group.user_set.values_list("username", flat=True))) or "nobody"
        perms = ", ".join(sorted(f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()))
        self.stdout.write(f"group {group.name!r}: permissions {perms}; members: {members}")
