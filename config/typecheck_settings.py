"""The settings mypy's Django plugin (django-stubs) loads to learn the installed apps and models.

They are config.settings, which refuse to load without a SECRET_KEY when DEBUG is off: a type check
needs no secret, so it is given a throwaway one when the environment has none.  Nor does it connect
to Redis: without a REDIS_URL the settings would start a bundled Redis (config.bundled_redis) that
mypy, which leaves by ``os._exit`` and so never runs the stop registered with ``atexit``, would
leave running.
"""

import os

os.environ.setdefault("SECRET_KEY", "type-checking-only-never-served")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")  # never connected to

from config.settings import *  # noqa: F403 - every setting, as the running service has them
