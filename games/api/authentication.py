"""The API's token authentication: DRF's ``TokenAuthentication`` with its one query compiled once.

Every API request with ``Authorization: Token <key>`` reads the token and its
user.  DRF builds that query anew each time; here it is a
:class:`games.reads.PreparedRead` (the same SQL, compiled once per database):
about a fifth of DRF's CPU time (0.11 against 0.50 ms a lookup, docs/PERFORMANCE.md).  The answers are DRF's: an unknown key
or an inactive user is a 401 with DRF's message, and nothing is cached between
requests (a revoked token stops working at once).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from games import db
from games.reads import PreparedRead

# A token key is 40 hexadecimal characters: this one is never issued.
_TOKENS = PreparedRead(lambda key: Token.objects.select_related("user").filter(key=key), sentinel="cairn-no-such-token")


class CairnTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        found = _TOKENS.rows(key, db.alias())
        if not found:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token = found[0]
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token
