"""The climb builder's form: dice put in groups (and extra 1s set) turned into record notation (rules §11)."""

from __future__ import annotations

from typing import Any

from .. import FormError

GROUP_NAMES = ("A", "B", "C", "D")


def _faces(data: Any, roll: list[int]) -> list[int]:
    faces = list(roll)
    adjustable = sum(1 for f in roll if f == 1) >= 2
    for i, face in enumerate(roll):
        raw = data.get(f"face-{i}")
        if raw in (None, ""):
            continue
        try:
            value = int(raw)
        except ValueError:
            raise FormError(f"Die {i + 1}: {raw!r} is not a face from 1 to 6.") from None
        if value != face and not (adjustable and face == 1):
            raise FormError(f"Die {i + 1} was rolled as {face}; only extra 1s may be set.")
        if not 1 <= value <= 6:
            raise FormError(f"Die {i + 1}: {value} is not a face from 1 to 6.")
        faces[i] = value
    return faces


def action_from_form(data: Any, match: dict[str, Any]) -> dict[str, Any]:
    """Build ``{"climb", "faces", "groups"}`` from the builder's fields.

    Fields: ``face-<i>`` for a die rolled as 1 when two or more 1s were rolled
    (any face 1 to 6; other dice keep their roll), and ``group-<i>`` naming the
    group (A to D) of die ``i``, or empty for an unused die.  Every non-empty
    group must total 5 to 10 (a mountain); the engine checks the rest (the
    ones rule, and that the groups give the climb).
    """
    roll = match["view"].get("roll")
    if not roll:
        raise FormError("There are no dice to group: it is not a climbing turn.")
    faces = _faces(data, roll)
    groups: dict[str, list[int]] = {}
    for i in range(len(roll)):
        name = (data.get(f"group-{i}") or "").strip().upper()
        if not name:
            continue
        if name not in GROUP_NAMES:
            raise FormError(f"Die {i + 1}: {name!r} is not a group (A to D).")
        groups.setdefault(name, []).append(i)
    ordered = [groups[name] for name in GROUP_NAMES if name in groups]
    for name in GROUP_NAMES:
        if name in groups:
            total = sum(faces[i] for i in groups[name])
            if not 5 <= total <= 10:
                dice = ", ".join(str(i + 1) for i in groups[name])
                raise FormError(
                    f"Group {name} (dice {dice}) totals {total}, which names no mountain: "
                    "a group must total 5 to 10. Leave those dice unused or regroup them."
                )
    climb = sorted(sum(faces[i] for i in group) for group in ordered)
    return {"climb": climb, "faces": faces, "groups": ordered}
