"""Mountainhome (rules: shared/rules/mountainhome.md, edition cairn-1).

Registered as ``mountainhome`` in engine/registry.py; see docs/games/mountainhome.md.

Modules by job: ``constants`` (named numbers), ``cards``/``tables``/``layout`` (card data),
``base`` (the state's fields, declared once), ``state`` (the game, the state and its task loop),
then the rules as mixins of the state: ``turn`` (the game's course, events, scores), ``dwarves``
(dwarf uses and reactions), ``piles`` (piles, drawing and chance), ``payment``, ``bidding``,
``moves`` (legal actions), ``apply``; the record codec in ``notation`` and what each seat sees
in ``view``.  ``facts`` is the public API for
readers outside the engine (the page): card facts, shop prices, the pending choice.
"""

from . import facts
from .constants import MissingRuleError
from .state import Mountainhome, MountainhomeState

__all__ = ["Mountainhome", "MountainhomeState", "MissingRuleError", "facts"]
