"""The Nanga Parbat board and points chart as one data table (rules §11).

``DATA_JSON`` is the rules file's Data section, verbatim.  The rules module
(:mod:`engine.games.nanga_parbat`) reads the regions, sections, adjacency, the
chart's rows, column requirements and point values, the piece counts and the
area-scoring table from here and from nowhere else, so a corrected edition of
the board (the dotted paths and chart values are a reconstruction, rules §3 and
NP-1/NP-2) is a change to this file only.

Layout of the table:

* ``animal_types``: the six type names; a type's position is its code.
* ``activated_types``: the types that have a power (snow leopard, tahr, musk
  deer, yak), in the order the engine lists their activations.
* ``board.regions``: region number -> its sections ``"R.S"``; the regions in
  key order and their sections in list order give the *section order*.
* ``board.adjacency``: section -> every adjacent section (symmetric); it
  already contains the ``board.dotted_paths``, which are kept for drawing.
* ``points_chart.rows``: row number -> what a claim there does
  (``build_camps``, ``trade_different_types``, ``trade_same_type``).
* ``points_chart.column_requirements``: N for columns 1..5.
* ``points_chart.vp[row][column - 1]``: the square's points.
* ``area_scoring_points``: pieces in a region -> points (the variant).
"""

from __future__ import annotations

import json
from typing import Any

DATA_JSON = r"""
{
  "game": "nanga-parbat",
  "players": 2,
  "animal_types": ["snow_leopard", "tahr", "musk_deer", "yak", "bharal", "red_panda"],
  "activated_types": ["snow_leopard", "tahr", "musk_deer", "yak"],
  "animals_per_type": 6,
  "hikers_per_player": 15,
  "camps_per_player": 12,
  "chart_cubes_per_player": 5,
  "area_scoring_points": {"4": 1, "5": 2, "6": 3},
  "board": {
    "name": "Cairn board, edition 1",
    "status": "a reconstruction; the published board's exact dotted paths and chart values could not be confirmed; kept as data so they can be replaced",
    "regions": {
      "1": ["1.1", "1.2", "1.3", "1.4", "1.5", "1.6"],
      "2": ["2.1", "2.2", "2.3", "2.4", "2.5", "2.6"],
      "3": ["3.1", "3.2", "3.3", "3.4", "3.5", "3.6"],
      "4": ["4.1", "4.2", "4.3", "4.4", "4.5", "4.6"],
      "5": ["5.1", "5.2", "5.3", "5.4", "5.5", "5.6"],
      "6": ["6.1", "6.2", "6.3", "6.4", "6.5", "6.6"]
    },
    "dotted_paths": [["1.4", "2.1"], ["1.6", "3.1"], ["2.4", "4.1"], ["2.6", "3.4"], ["2.6", "5.1"],
                     ["3.4", "5.1"], ["3.6", "6.1"], ["4.6", "5.4"], ["5.6", "6.4"]],
    "adjacency": {
      "1.1": ["1.2", "1.3"], "1.2": ["1.1", "1.3", "1.4", "1.5"], "1.3": ["1.1", "1.2", "1.5", "1.6"],
      "1.4": ["1.2", "1.5", "2.1"], "1.5": ["1.2", "1.3", "1.4", "1.6"], "1.6": ["1.3", "1.5", "3.1"],
      "2.1": ["1.4", "2.2", "2.3"], "2.2": ["2.1", "2.3", "2.4", "2.5"], "2.3": ["2.1", "2.2", "2.5", "2.6"],
      "2.4": ["2.2", "2.5", "4.1"], "2.5": ["2.2", "2.3", "2.4", "2.6"], "2.6": ["2.3", "2.5", "3.4", "5.1"],
      "3.1": ["1.6", "3.2", "3.3"], "3.2": ["3.1", "3.3", "3.4", "3.5"], "3.3": ["3.1", "3.2", "3.5", "3.6"],
      "3.4": ["2.6", "3.2", "3.5", "5.1"], "3.5": ["3.2", "3.3", "3.4", "3.6"], "3.6": ["3.3", "3.5", "6.1"],
      "4.1": ["2.4", "4.2", "4.3"], "4.2": ["4.1", "4.3", "4.4", "4.5"], "4.3": ["4.1", "4.2", "4.5", "4.6"],
      "4.4": ["4.2", "4.5"], "4.5": ["4.2", "4.3", "4.4", "4.6"], "4.6": ["4.3", "4.5", "5.4"],
      "5.1": ["2.6", "3.4", "5.2", "5.3"], "5.2": ["5.1", "5.3", "5.4", "5.5"], "5.3": ["5.1", "5.2", "5.5", "5.6"],
      "5.4": ["4.6", "5.2", "5.5"], "5.5": ["5.2", "5.3", "5.4", "5.6"], "5.6": ["5.3", "5.5", "6.4"],
      "6.1": ["3.6", "6.2", "6.3"], "6.2": ["6.1", "6.3", "6.4", "6.5"], "6.3": ["6.1", "6.2", "6.5", "6.6"],
      "6.4": ["5.6", "6.2", "6.5"], "6.5": ["6.2", "6.3", "6.4", "6.6"], "6.6": ["6.3", "6.5"]
    }
  },
  "points_chart": {
    "name": "Cairn board, edition 1",
    "status": "a reconstruction; the published board's exact dotted paths and chart values could not be confirmed; kept as data so they can be replaced",
    "rows": {"1": "build_camps", "2": "trade_different_types", "3": "trade_same_type"},
    "column_requirements": [6, 5, 4, 3, 3],
    "vp": {"1": [15, 12, 9, 6, 3], "2": [14, 11, 8, 5, 2], "3": [13, 10, 7, 4, 1]}
  }
}
"""

DATA: dict[str, Any] = json.loads(DATA_JSON)
