"""The mountain's SVG geometry (rules §3): the regions form a pyramid of pyramids.

Built once at import from the engine's public facts
(:mod:`engine.games.nanga_parbat.facts`), never from a list of its own.
"""

from __future__ import annotations

from typing import Any

from engine.games.nanga_parbat import facts

DX = 62  # between neighbouring sections of a row
DY = 64  # between rows (room for each section's name under it)
R = 24  # a section's radius
MARGIN_X = 40
MARGIN_TOP = 44
WIDTH = 2 * MARGIN_X + 8 * DX
HEIGHT = MARGIN_TOP + 8 * DY + R + 34
CENTRE = WIDTH / 2


def _pyramid_spot(index: int) -> tuple[int, int]:
    """Row and column of the ``index``-th place of a 1-2-3 pyramid."""
    row = 0 if index == 0 else 1 if index < 3 else 2
    return row, index - (0 if row == 0 else 1 if row == 1 else 3)


def _section_xy() -> dict[str, tuple[float, float]]:
    """Centre of every section: region r sits at row rr, column rc of the big pyramid."""
    xy: dict[str, tuple[float, float]] = {}
    for r_index, region in enumerate(facts.REGIONS):
        rr, rc = _pyramid_spot(r_index)
        top_x = CENTRE + (rc - rr / 2) * 3 * DX
        for s_index, name in enumerate(facts.SECTIONS[region]):
            sr, sc = _pyramid_spot(s_index)
            xy[name] = (round(top_x + (sc - sr / 2) * DX, 1), round(MARGIN_TOP + (3 * rr + sr) * DY, 1))
    return xy


XY = _section_xy()


def _region_shape(region: int) -> dict[str, Any]:
    """The region's outline: the hull of circles around its three corner sections."""
    names = facts.SECTIONS[region]
    corners = [XY[names[0]], XY[names[3]], XY[names[5]]]  # top, bottom left, bottom right
    d = R + 5
    cx = sum(x for x, _ in corners) / 3
    cy = sum(y for _, y in corners) / 3
    offsets = []  # per edge k (corner k to k+1): the outward normal times d
    for k in range(3):
        (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 3]
        nx, ny = y2 - y1, x1 - x2
        length = (nx * nx + ny * ny) ** 0.5
        nx, ny = nx / length * d, ny / length * d
        if (x1 + nx - cx) ** 2 + (y1 + ny - cy) ** 2 < (x1 - cx) ** 2 + (y1 - cy) ** 2:
            nx, ny = -nx, -ny
        offsets.append((nx, ny))
    parts = []
    for k in range(3):
        (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 3]
        nx, ny = offsets[k]
        nnx, nny = offsets[(k + 1) % 3]
        parts.append(f"{'M' if k == 0 else 'L'}{x1 + nx:.1f},{y1 + ny:.1f} L{x2 + nx:.1f},{y2 + ny:.1f}")
        parts.append(f"A{d},{d} 0 0 0 {x2 + nnx:.1f},{y2 + nny:.1f}")
    top_x, top_y = corners[0]
    return {"path": " ".join(parts) + " Z", "label_x": round(top_x - 44, 1), "label_y": round(top_y - 10, 1)}


REGION_SHAPES = {region: _region_shape(region) for region in facts.REGIONS}
PATHS = [
    {"a": a, "b": b, "x1": XY[a][0], "y1": XY[a][1], "x2": XY[b][0], "y2": XY[b][1]} for a, b in facts.DOTTED_PATHS
]
