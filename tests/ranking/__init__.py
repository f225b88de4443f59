"""Ranked play (games/ranking/, frontend's ranking pages), tested layer by layer.

* ``domain/``: the rating maths and the pairing rule as plain functions, with no database
  (pytest-django refuses a database to a test not marked ``django_db``);
* ``service/``: games.ranking's services on PostgreSQL and Redis: challenges, matchmaking,
  endings and ratings through the match-finished hook, the ladder rebuild, the timeout worker;
* ``api/``: the REST API, through DRF's test client;
* ``pages/``: the htmx pages and the per-user websocket;
* ``browser/``: end to end, two players in headless Chromium.

The clock fold the core owns is tested in tests/service/test_clocks.py.  Shared fixtures are in
conftest.py, helpers that play matches through the services in helpers.py.
"""
