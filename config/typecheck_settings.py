"""The settings mypy's Django plugin (django-stubs) loads to learn the installed apps and models.

They are config.settings, which refuse to load without a SECRET_KEY when DEBUG is off: a type check
needs no secret, so it is given a throwaway one when the environment has none.
"""

import os

os.environ.setdefault("SECRET_KEY", "type-checking-only-never-served")

from config.settings import *  # noqa: F403 - every setting, as the running service has them
