"""Schemathesis fuzzes every operation of the API's OpenAPI schema against a live server: 0 server errors.

Run on each database (PostgreSQL and SQLite): the server thread routes its
queries to the test's backend.  Examples are bounded (positive and negative
cases per operation) so that the run stays short; a long run (15,027
cases) once found 32 responses of 5xx, since fixed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.generation.modes import GenerationMode

from games import services

pytestmark = [pytest.mark.django_db(databases="__all__", transaction=True), pytest.mark.timeout(600)]

EXAMPLES = 3  # per operation and generation mode (both backends: about fifty seconds)


@pytest.fixture
def server(backend) -> Iterator[str]:
    """A live server (Django's threaded WSGI server) whose requests all use ``backend``."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler

    from games import db

    handler = WSGIHandler()

    def app(environ: dict, start_response: Any) -> Any:
        with db.using(backend):
            return handler(environ, start_response)

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadedWSGIServer(("127.0.0.1", 0), QuietHandler, allow_reuse_address=False)
    httpd.daemon_threads = True
    httpd.set_app(app)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        from django.db import connections

        connections.close_all()


def test_schemathesis_finds_no_server_error(backend, server, alice, bob):
    from rest_framework.authtoken.models import Token

    # Something to find: a waiting match, an active one, and a token for writes.
    services.create_match(user=alice, game_id="mountainhome", seats=[{"human": True}, {"human": True}])
    active = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}])
    services.join_match(match_id=active.pk, user=bob)
    token = Token.objects.create(user=alice).key
    raw = requests.get(f"{server}/api/schema/?format=json", timeout=30).json()
    schema = schemathesis.openapi.from_dict(raw)
    session = requests.Session()
    server_errors: list[str] = []
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1
        if operation.path.startswith("/api/stream/"):
            continue  # a stream stays open (hours): its refusals are tested in tests/botapi
        strategy = st.one_of(
            operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE)
        )

        @settings(max_examples=2 * EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(case=strategy, authenticated=st.booleans())
        def fuzz(case: Any, authenticated: bool) -> None:
            headers = {"Authorization": f"Token {token}"} if authenticated else {}
            response = case.call(base_url=server, session=session, headers=headers, timeout=30)
            if response.status_code >= 500:
                server_errors.append(f"{case.method} {case.formatted_path} -> {response.status_code}: "
                                     f"{response.text[:200]}")

        fuzz()
    assert operations >= 20
    assert server_errors == []
