"""Claim enumeration (§9): camp groups, trade sets and connectivity, memoised by bit sets.
"""

from __future__ import annotations

from .tables import ADJ, ADJ_MASK, BHARAL

# ---------------------------------------------------------------------- claim enumeration

_MEMO_LIMIT = 20_000  # entries per memo; cleared when full (bounded memory in long-lived bot workers)
_camp_memo: dict[tuple[int, int], dict[int, tuple[tuple[int, ...], ...]]] = {}


def bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _components(mask: int) -> list[int]:
    """The connected components (bit sets) of the sections in ``mask``."""
    comps = []
    while mask:
        comp = frontier = mask & -mask
        while frontier:
            reach = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                reach |= ADJ_MASK[low.bit_length() - 1]
            frontier = reach & mask & ~comp
            comp |= frontier
        comps.append(comp)
        mask &= ~comp
    return comps


_NO_GROUPS: dict[int, tuple[tuple[int, ...], ...]] = {}


def camp_groups(hikers: int, largest: int) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Connected sets of 3 .. ``largest`` sections inside the bit set ``hikers``, by size.

    Each value is sorted in section order.  Only components of at least 3
    hikers are searched; inside one, every connected set is grown outward
    from its lowest section ``v`` one adjacent hiker at a time (Wernicke's
    ESU: a new section joins the extension only if it is above ``v`` and not
    already next to the set), so each set is produced exactly once.  Camps,
    animals and opponent hikers are not in ``hikers``, so they never bridge a
    gap (NP-4).  Non-empty results are memoised by ``(hikers, largest)``.
    """
    # Any connected set of 3 has a middle section with 2 neighbours in the set:
    # without such a hiker there is nothing to search (the common case, not memoised).
    rest = hikers
    while rest:
        low = rest & -rest
        rest ^= low
        near = ADJ_MASK[low.bit_length() - 1] & hikers
        if near & (near - 1):
            break
    else:
        return _NO_GROUPS
    key = (hikers, largest)
    found = _camp_memo.get(key)
    if found is not None:
        return found
    by_size: dict[int, list[tuple[int, ...]]] = {}
    for comp in _components(hikers):
        if bin(comp).count("1") < 3:
            continue
        for v in bits(comp):
            above = comp & ~((2 << v) - 1)
            stack = [(1 << v, ADJ_MASK[v] | 1 << v, ADJ_MASK[v] & above, 1)]
            while stack:
                group, closed, ext, size = stack.pop()
                if size >= 3:
                    by_size.setdefault(size, []).append(bits(group))
                if size == largest:
                    continue
                while ext:
                    low = ext & -ext
                    ext ^= low
                    w = low.bit_length() - 1
                    stack.append(
                        (group | low, closed | ADJ_MASK[w], ext | (ADJ_MASK[w] & above & ~closed), size + 1)
                    )
    found = {size: tuple(sorted(groups)) for size, groups in by_size.items()} if by_size else _NO_GROUPS
    if len(_camp_memo) >= _MEMO_LIMIT:
        _camp_memo.clear()
    _camp_memo[key] = found
    return found


def trade_sets(types: tuple[int, ...], size: int, different: bool) -> tuple[tuple[int, ...], ...]:
    """Every ascending index set of ``size`` board animals that pays for a trade.

    ``different``: the non-bharal animals are of pairwise different types
    (row ``trade_different_types``); otherwise they all share one type
    (``trade_same_type``).  Bharals are wild (6.6, NP-11).  Lexicographic order.
    A depth-first search that drops a branch as soon as a type repeats (or
    differs), so it visits only the sets that pay and their prefixes.
    """
    m = len(types)
    wild = types.count(BHARAL)
    plain = [t for t in types if t != BHARAL]
    if different:
        feasible = wild + len(set(plain)) >= size
    else:
        feasible = wild + max((plain.count(t) for t in set(plain)), default=0) >= size
    result: list[tuple[int, ...]] = []
    if feasible and m >= size:
        chosen: list[int] = []

        def walk(start: int, mark: int) -> None:
            # mark: the set of types used (different) or 1 + the shared type (same; 0 = none yet)
            need = size - len(chosen)
            if need == 0:
                result.append(tuple(chosen))
                return
            for i in range(start, m - need + 1):
                t = types[i]
                if t == BHARAL:
                    nxt = mark
                elif different:
                    if mark >> t & 1:
                        continue
                    nxt = mark | 1 << t
                else:
                    if mark and mark != t + 1:
                        continue
                    nxt = t + 1
                chosen.append(i)
                walk(i + 1, nxt)
                chosen.pop()

        walk(0, 0)
    return tuple(result)


_trade_tables: dict[tuple[int, ...], dict[tuple[bool, int], tuple[tuple[int, ...], ...]]] = {}


def trade_table(types: tuple[int, ...]) -> dict[tuple[bool, int], tuple[tuple[int, ...], ...]]:
    """The memo of ``trade_sets`` for one board, keyed ``(different, need)``; filled on demand."""
    table = _trade_tables.get(types)
    if table is None:
        if len(_trade_tables) >= _MEMO_LIMIT:
            _trade_tables.clear()
        table = _trade_tables[types] = {}
    return table


def trade_pays(types: list[int], different: bool) -> bool:
    """Whether these animal types can represent N different types / one type (6.7)."""
    plain = [t for t in types if t != BHARAL]
    if different:
        return len(set(plain)) == len(plain)
    return len(set(plain)) <= 1


def is_connected(sections: tuple[int, ...]) -> bool:
    """Whether these sections are connected using only themselves (NP-4)."""
    inside = set(sections)
    seen = {sections[0]}
    todo = [sections[0]]
    while todo:
        for j in ADJ[todo.pop()]:
            if j in inside and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(inside)


