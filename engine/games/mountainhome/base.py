"""What the state's mixins may use of the state: for the type checker only.

:class:`~engine.games.mountainhome.state.MountainhomeState` is its fields (state.py) plus the
rules in mixins by job (turn.py, piles.py, ...), which call one another through ``self``.
While type checking, every mixin derives from :class:`StateBase`, which declares those fields
and the methods the mixins call across modules; at run time the mixins derive from ``object``
(``if TYPE_CHECKING:`` at the top of each), so the state's classes and speed are unchanged.

mypy checks each mixin's method against its declaration here (a changed signature must be
changed here too) and reports a state that leaves a declared method unimplemented.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, Any

from ...core import State

if TYPE_CHECKING:
    from .bidding import Bid
    from .layout import Layout
    from .state import Mountainhome

TaskEntry = tuple[Any, ...]  # a task on the stack: (Task kind, its arguments...)
Block = tuple[Any, int]  # public knowledge of a run of a hidden pile: (candidates | None, count)


class StateBase(State):
    # No __slots__ here: the type checker then lets the mixins assign the fields declared below
    # (MountainhomeState's own __slots__ list them for the run time).

    game: Mountainhome
    n: int
    layout: Layout
    kind: list[int]
    names: list[str]
    kind_numbers: list[int]
    created: dict[int, int]
    prompt: int
    prompt_seat: int
    prompt_data: tuple[Any, ...]
    stack: list[TaskEntry]
    legend: list[int]
    draw: list[list[int]]
    hand: list[list[int]]
    disc: list[list[int]]
    town: list[list[int]]
    prog: dict[int, int]
    tapped: dict[int, bool]
    stored: dict[int, list[int]]
    xp: list[int]
    shop: list[int]
    slots: list[int]
    trash: list[int]
    area: list[int]
    counters: dict[int, list[int]]
    fortress: list[int]
    cav: list[int]
    cav_owner: list[int]
    aside: list[int]
    aside_owner: list[int]
    selected: dict[int, tuple[int, ...]]
    round: int
    turn: int
    active: int
    found: int
    tokens: list[int]
    apool: list[int]
    bought: bool
    lair_used: bool
    offers: list[int]
    traded: bool
    doubled: list[int]
    piling: int
    tie_mode: bool
    tie_left: int
    over: bool
    bid: Bid | None
    bid_stack: list[Bid]
    nact: int
    xblocks: list[Block]
    sblocks: list[Block]
    dblocks: list[list[Block]]
    hknown: list[list[int]]
    private: list[dict[str, Any]]

    # ---- the methods the mixins call across modules, by the module that implements them

    # state.py
    @abstractmethod
    def _advance(self) -> None: ...

    @abstractmethod
    def _chance(self, data: tuple[Any, ...]) -> None: ...

    @abstractmethod
    def _hand_left(self, seat: int, card: int) -> None: ...

    @abstractmethod
    def _prompt(self, prompt: int, seat: int = -1, data: tuple[Any, ...] = ()) -> None: ...

    @abstractmethod
    def card_value(self, inst: int) -> int: ...

    @abstractmethod
    def finished(self, b: int) -> bool: ...

    @abstractmethod
    def hall_dwarves(self, seat: int) -> list[int]: ...

    @abstractmethod
    def in_area(self, kind: int) -> bool: ...

    @abstractmethod
    def new_instance(self, kind: int) -> int: ...

    @abstractmethod
    def next_step_cost(self, b: int) -> tuple[int, int, int, int]: ...

    @abstractmethod
    def own_building(self, seat: int, kind: int) -> int: ...

    @abstractmethod
    def owns_project(self, seat: int) -> bool: ...

    @abstractmethod
    def take_from_hand_or_store(self, seat: int, card: int) -> None: ...

    @abstractmethod
    def turn_order(self, first: int) -> list[int]: ...

    @abstractmethod
    def unfinished(self, seat: int) -> list[int]: ...

    @abstractmethod
    def upright(self, b: int) -> bool: ...

    @abstractmethod
    def warehouse_cards(self, seat: int) -> list[int]: ...

    # turn.py
    @abstractmethod
    def _add_counter(self, event: int, seat: int, resolve: bool = True) -> None: ...

    @abstractmethod
    def _cancel_dwarf_use(self) -> None: ...

    @abstractmethod
    def _cavern_roll(self, card: int, value: int) -> None: ...

    @abstractmethod
    def _complete_step(self, b: int) -> None: ...

    @abstractmethod
    def _declare_dwarf_use(self, seat: int, action: tuple[Any, ...], dwarf: int, from_dwelling: int = -1) -> None: ...

    @abstractmethod
    def _end(self) -> None: ...

    @abstractmethod
    def _goblin_options(self, seat: int) -> list[tuple[Any, ...]]: ...

    @abstractmethod
    def _lagertha_holder(self, seat: int) -> bool: ...

    @abstractmethod
    def _pay(self, pay: tuple[int, int, int]) -> None: ...

    @abstractmethod
    def _remove_reaction_card(self, seat: int, inst: int) -> None: ...

    @abstractmethod
    def _set_aside(self, card: int, owner: int) -> None: ...

    @abstractmethod
    def _single_leader(self) -> bool: ...

    @abstractmethod
    def _threaten(self, victim: int, code: int, task: tuple[Any, ...], source: int = -1, cancel: tuple[Any, ...] | None = None) -> None: ...

    @abstractmethod
    def _unaside(self, card: int) -> int: ...

    # piles.py
    @abstractmethod
    def _draw_pop(self, seat: int, to_hand: bool = True) -> int: ...

    @abstractmethod
    def _draw_push_known(self, seat: int, card: int) -> None: ...

    @abstractmethod
    def _refill(self, slot: int) -> None: ...

    @abstractmethod
    def _x_bottom(self, card: int) -> None: ...

    @abstractmethod
    def _x_merge(self, extra: tuple[Any, ...] = (), count: int = 0) -> None: ...

    @abstractmethod
    def _x_merge_top(self, m: int) -> None: ...

    @abstractmethod
    def _x_pop(self) -> int: ...

    @abstractmethod
    def _x_remove(self, card: int) -> bool: ...

    @abstractmethod
    def _x_top(self, card: int) -> None: ...

    # payment.py
    @abstractmethod
    def _pay_sources(self, seat: int, sources: tuple[Any, ...]) -> None: ...

    @abstractmethod
    def payment_options(self, seat: int, res: int, cost: int) -> list[tuple[Any, ...]]: ...

    @abstractmethod
    def payment_problem(self, seat: int, res: int, cost: int, sources: tuple[Any, ...]) -> str: ...

    # bidding.py
    @abstractmethod
    def _apply_onbid(self, seat: int, a: tuple[Any, ...]) -> None: ...

    @abstractmethod
    def _mishap_deal(self, order: tuple[Any, ...]) -> None: ...

    @abstractmethod
    def _onbid_actions(self, seat: int) -> list[tuple[Any, ...]]: ...

    @abstractmethod
    def _panda_plays(self, seat: int, card: int) -> list[tuple[Any, ...]]: ...

    @abstractmethod
    def _pool_of(self, card: int) -> int: ...

    @abstractmethod
    def _reveal_trash(self) -> None: ...

    @abstractmethod
    def _trash_targets(self) -> list[int]: ...

    @abstractmethod
    def eligible(self, seat: int) -> list[int]: ...

    @abstractmethod
    def panda_problem(self, seat: int, card: int, moves: Any) -> str: ...

    @abstractmethod
    def start_bid(self, kind: int, prize: int, starter: int) -> None: ...

    # moves.py
    @abstractmethod
    def dwarves_available(self, seat: int) -> list[int]: ...

    # chance.py
    @abstractmethod
    def _pile_name(self, pile: int) -> str: ...
