"""Mountainhome (rules: shared/rules/mountainhome.md, edition cairn-1).

Registered as ``mountainhome`` in engine/registry.py; see docs/games/mountainhome.md.

Modules by job: ``constants`` (named numbers), ``cards``/``tables``/``layout`` (card data),
``state`` (the fields and the task loop), then the rules as mixins of the state: ``turn``,
``piles``, ``payment``, ``bidding``, ``moves``, ``apply``, ``chance``, ``scoring``; the record
codec in ``notation`` and what each seat sees in ``view``.
"""

from .constants import MissingRuleError
from .state import Mountainhome, MountainhomeState

__all__ = ["Mountainhome", "MountainhomeState", "MissingRuleError"]
