"""``manage.py load_players N``: N pairs of players for ``benchmarks/service_live_load.py``.

Registering thousands of players through the API would trip its rate limits
(registration, tokens), which must stay on; so the load generator's players
are made here, straight in the database the server uses, and printed as JSON:
for each player a username, an API token and a session key (the websocket
screens log in with the session cookie).  The players get unusable passwords,
so nobody can log in as them, and their names start with ``--prefix``
(``load-`` by default).  Running it again reuses the same players and gives
them fresh sessions.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = "Create N pairs of load-test players (token + session each) and print them as JSON."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("pairs", type=int, help="how many pairs of players (one pair per live match)")
        parser.add_argument("--prefix", default="load-", help="username prefix (default: load-)")
        parser.add_argument("--out", help="write the JSON here instead of standard output")

    def handle(self, *args: Any, pairs: int, prefix: str, out: str | None, **options: Any) -> None:
        if pairs < 1 or pairs > 100_000:
            raise CommandError(f"pairs must be between 1 and 100000, not {pairs}")
        if not prefix or len(prefix) > 20:
            raise CommandError("the prefix must be 1 to 20 characters")
        User = get_user_model()
        backend = "django.contrib.auth.backends.ModelBackend"
        players: list[dict[str, str | None]] = []
        with transaction.atomic():
            existing = {u.username: u for u in User.objects.filter(username__startswith=prefix)}
            for index in range(2 * pairs):
                name = f"{prefix}{index}"
                user = existing.get(name)
                if user is None:
                    user = User(username=name)
                    user.set_unusable_password()
                    user.save()
                token, _ = Token.objects.get_or_create(user=user)
                session = SessionStore()
                session[SESSION_KEY] = str(user.pk)
                session[BACKEND_SESSION_KEY] = backend
                session[HASH_SESSION_KEY] = user.get_session_auth_hash()
                session.create()
                players.append({"username": name, "token": token.key, "session": session.session_key})
        text = json.dumps({"players": players}, indent=1)
        if out:
            with open(out, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
            self.stderr.write(f"{len(players)} players written to {out}")
        else:
            sys.stdout.write(text + "\n")
