"""Who asks a service for something, as the services' signatures name it.

A request's user is a person logged in or not (``request.user``), or None outside a request (a
task, a command); a service that needs a person checks ``is_authenticated`` and refuses with 403.
Ids come as a URL or a request body gives them and are checked by :func:`games.ids.valid_id` (or
refused) before they reach the database.
"""

from __future__ import annotations

from typing import TypeAlias, cast

from django.contrib.auth.models import AnonymousUser, User

Requester: TypeAlias = User | AnonymousUser | None
RawId: TypeAlias = int | str


def logged_in(user: User | AnonymousUser) -> User:
    """``request.user`` in a view that only a logged-in person reaches (``login_required``, DRF's
    ``IsAuthenticated``): their account."""
    return cast(User, user)

