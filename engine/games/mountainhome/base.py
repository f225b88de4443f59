"""The state's fields, declared once, and what the state's mixins may use of the state.

:class:`~engine.games.mountainhome.state.MountainhomeState` is the fields declared here (its
``__slots__`` are made from them) plus the rules in mixins by job (turn.py, piles.py, ...),
which call one another through ``self``.
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
    """The state's fields, declared once: ``MountainhomeState`` makes its ``__slots__``, ``clone``
    and ``key`` from these annotations (state.py), in this order.  A field's annotation says how it
    is copied: ints, bools, strings and tuples are shared, lists and dicts copied one level deep
    (two for lists of lists and dicts of lists), a :class:`Bid` by its own ``clone``.

    Cards are instances (ints, indexes into ``kind`` and ``names``); piles keep their top at the
    end of the list.
    """

    # No __slots__ here: the type checker then lets the mixins assign the fields declared below
    # (MountainhomeState's own __slots__ are made from them for the run time).

    game: Mountainhome  # (State's own slot, narrowed here; like ``players`` and ``options``)
    # ---- the cards of this match (§23.2): fixed at setup, extended by new Hoards and Hangovers
    layout: Layout
    kind: list[int]  # instance -> card kind (index into tables)
    names: list[str]  # instance -> its id, "shinies-2#3"
    kind_numbers: list[int]  # instance -> k of its "id#k"
    created: dict[int, int]  # kind -> instances of it so far
    # ---- who decides next, and the work still to do
    prompt: int  # the pending prompt's kind (constants.Prompt)
    prompt_seat: int
    prompt_data: tuple[Any, ...]
    stack: list[TaskEntry]  # tasks still to run, the next one last
    # ---- each seat's cards (lists indexed by seat)
    legendaries: list[int]  # the legendary kind each seat picked (-1 before the pick)
    draw: list[list[int]]
    hand: list[list[int]]
    discard: list[list[int]]
    town: list[list[int]]  # buildings placed, in placing order
    # ---- buildings (keyed by instance)
    steps_done: dict[int, int]  # construction steps completed
    tapped: dict[int, bool]
    stored: dict[int, list[int]]  # the cards inside a building
    # ---- shared zones
    exploration: list[int]  # the exploration pile
    shop_deck: list[int]
    shop_slots: list[int]  # the three face-up slots (-1: empty)
    trash: list[int]
    shared_area: list[int]  # recurring events and Unique Locations in play
    counters: dict[int, list[int]]  # recurring event -> the seat that added each counter
    fortress_dwarves: list[int]
    cavern_dwarves: list[int]  # in placing order
    cavern_owners: list[int]  # the owner of each Cavern dwarf
    aside_cards: list[int]  # cards set aside while they are used (§6.1) or resolve
    aside_owners: list[int]  # the owner of each set-aside card
    selected: dict[int, tuple[int, ...]]  # setup pool index -> the instances drawn from it (hidden)
    # ---- the turn
    round: int
    turn: int
    active: int  # the active seat
    dwarves_found: int
    vp_tokens: list[int]  # per seat, from resolved recurring events
    action_pool: list[int]  # rocks, shinies, booze
    bought: bool  # once-per-turn flags ...
    lair_used: bool
    offers_to: list[int]  # seats offered a Marketplace trade this turn
    traded: bool
    doubled_kinds: list[int]  # building kinds whose taps are doubled until the end of the turn
    pilings_pending: int  # played Strategic Pilings still to convert a Rocks card
    vp_tie_play: bool  # extra play after a VP tie (§18.3)
    vp_tie_turns_left: int
    over: bool
    # ---- bids: the running one, and the ones it interrupted
    bid: Bid | None
    bid_stack: list[Bid]
    actions_applied: int  # player actions applied so far (stamps validator-checked actions)
    # ---- public knowledge of the hidden piles (view.py): runs (candidates | None, count), bottom first
    exploration_blocks: list[Block]
    shop_blocks: list[Block]
    draw_blocks: list[list[Block]]
    hand_known: list[list[int]]  # cards publicly known to be in each hand
    private_knowledge: list[dict[str, Any]]  # per seat: "xtop", the exploration pile's top cards
    # as its Baldur look left them; "top", the cards it put on its draw pile (Reorganisation)

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
    def _cavern_roll(self, card: int, value: int) -> None: ...

    @abstractmethod
    def _complete_step(self, b: int) -> None: ...

    @abstractmethod
    def _end(self) -> None: ...

    @abstractmethod
    def _goblin_options(self, seat: int) -> list[tuple[Any, ...]]: ...

    @abstractmethod
    def _pay(self, pay: tuple[int, int, int]) -> None: ...

    @abstractmethod
    def _single_leader(self) -> bool: ...

    # dwarves.py
    @abstractmethod
    def _cancel_dwarf_use(self) -> None: ...

    @abstractmethod
    def _declare_dwarf_use(self, seat: int, action: tuple[Any, ...], dwarf: int, from_dwelling: int = -1) -> None: ...

    @abstractmethod
    def _lagertha_holder(self, seat: int) -> bool: ...

    @abstractmethod
    def _remove_reaction_card(self, seat: int, inst: int) -> None: ...

    @abstractmethod
    def _set_aside(self, card: int, owner: int) -> None: ...

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

    # piles.py (chance)
    @abstractmethod
    def _pile_name(self, pile: int) -> str: ...
