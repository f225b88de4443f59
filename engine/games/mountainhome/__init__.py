"""Mountainhome (rules: shared/rules/mountainhome.md, edition cairn-1).

Registered as ``mountainhome`` in engine/registry.py; see docs/games/mountainhome.md.
"""

from .state import Mountainhome, MountainhomeState, MissingRuleError

__all__ = ["Mountainhome", "MountainhomeState", "MissingRuleError"]
