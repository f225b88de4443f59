"""Cairn's bots: pure Python, handed only what their seat may see."""

from .bots import LEVELS, choose_move

__all__ = ["LEVELS", "choose_move"]
