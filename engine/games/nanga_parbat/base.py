"""What the state's mixins (``notation``, ``view``) may use of the state: for the type checker only.

The mixins derive from :class:`StateBase` while type checking and from ``object`` at run time
(``if TYPE_CHECKING:`` at the top of each), so mypy checks every ``self.field`` and
``self.method()`` in them while :class:`~engine.games.nanga_parbat.state.NangaParbatState`'s
classes and speed stay as they are.  ``state.py`` assigns the fields; the methods below are
implemented there (mypy reports a state that leaves one abstract).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, Any

from ...core import State

if TYPE_CHECKING:
    from .state import NangaParbat


class StateBase(State):
    # No __slots__ here: the type checker then lets the mixins assign the fields declared below
    # (the state's own __slots__ list them for the run time).

    area: bool
    phase: int
    first: int
    seat: int
    guide: int
    cells: list[int]
    ranimals: list[int]
    mcount: list[int]
    hmask: list[int]
    amask: int
    boards: list[list[int]]
    hikers: list[int]
    camps: list[int]
    cubes: list[int]
    chart: list[int]
    score: list[int]
    trapped: bool
    claimed: bool
    turns: int
    _legal: tuple[Any, ...] | None

    def __init__(self, game: NangaParbat, options: dict[str, Any]) -> None: ...

    @abstractmethod
    def _power_types(self, seat: int) -> int: ...

    @abstractmethod
    def derive(self) -> None: ...
