"""The replay page's analysis: the panel (ask, progress, accuracy), the evaluation graph and the log's marks.

The graph is an SVG drawn here, on the server: one line per seat (its expectation, 0-100), a move's
effect drawn as a slope over its event and a chance event's as a vertical step; each event is a link
that steps the replay there.  Everything shown comes from the stored analysis (games.analysis), which
judged each move from its player's information only, so it shows nothing a viewer of the finished
record could not see.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from ai import analysis as core
from games.analysis import selectors
from games.models import Match

from .. import presenters

MARK_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
LUCK_SHOWN = 5  # points: a chance event's luck under this is within the search's noise, so the log says nothing
WIDTH, HEIGHT, PAD = 600, 180, 8


def _describe(game_id: str, seat: int, action: Any, players: list[Any]) -> str:
    describer = presenters.event_describer(game_id)
    text = describer({"player": seat, "action": action}, players) if describer else None
    return text or str(action)


def graph(result: dict[str, Any], seq: int | None, path: str) -> dict[str, Any]:
    """The SVG's parts: a path per seat, the marked points and a link band per event (numbers only)."""
    entries = result["events"]
    count = max(1, len(entries))
    span = WIDTH - 2 * PAD

    def x(i: int) -> float:
        return round(PAD + span * i / count, 1)

    def y(value: float) -> float:
        return round(PAD + (HEIGHT - 2 * PAD) * (1.0 - value), 1)

    lines = []
    for seat, points in enumerate(core.series(result)):
        d = [f"M{x(0)},{y(0.5)}"]
        for (index, before, after), entry in zip(points, entries):
            d.append(f"H{x(index)}V{y(before)}")
            if entry["kind"] == "move" and entry.get("seat") == seat:
                d.append(f"L{x(index + 1)},{y(after)}")
            else:
                d.append(f"V{y(after)}H{x(index + 1)}")
        lines.append({"seat": seat, "d": "".join(d)})
    marks = []
    bands = []
    current_x = None
    for entry in entries:
        i = entry["index"]
        seq_i = entry.get("seq")
        bands.append({"x": x(i), "w": round(span / count, 2), "seq": seq_i,
                      "label": f"event {seq_i}"})
        if seq is not None and seq_i == seq:
            current_x = x(i + 1)
        if entry["kind"] == "move" and entry.get("mark"):
            after = entry["values"][str(entry["seat"])][1]
            marks.append({"x": x(i + 1), "y": y(after), "mark": entry["mark"], "seq": seq_i, "seat": entry["seat"],
                          "sign": MARK_SIGNS[entry["mark"]]})
    return {"width": WIDTH, "height": HEIGHT, "lines": lines, "marks": marks, "bands": bands, "path": path,
            "current_x": current_x, "mid": y(0.5)}


def context(match: Match, user: Any, seq: int | None, players: list[Any], path: str) -> dict[str, Any]:
    """The analysis's part of the replay page for ``user`` at event ``seq``."""
    finished = match.status == Match.Status.FINISHED
    if not finished:
        return {"available": False, "match_id": match.pk}
    status = selectors.status(match)
    out: dict[str, Any] = {"available": True, "match_id": match.pk, "status": status,
                           "can_ask": bool(getattr(user, "is_authenticated", False)), "last_seq": match.seq}
    result = status.get("analysis")
    if result:
        names = {p.seat: p for p in players}
        by_seq: dict[int, dict[str, Any]] = {}
        for entry in result["events"]:
            item = dict(entry)
            if entry["kind"] == "move" and not entry.get("forced") and not entry.get("best_is_played"):
                item["best_text"] = _describe(match.game_id, entry["seat"], entry["best"], players)
            if entry["kind"] == "move" and entry.get("values"):
                before, after = entry["values"][str(entry["seat"])]
                item["before_pct"], item["after_pct"] = round(100 * before), round(100 * after)
            if entry["kind"] == "chance":
                item["luck_text"] = ", ".join(
                    f"{names[int(s)].name if int(s) in names else 'seat ' + str(int(s) + 1)} {v:+.0f}"
                    for s, v in entry["luck"].items() if abs(v) >= LUCK_SHOWN)
            item["sign"] = MARK_SIGNS.get(entry.get("mark") or "", "")
            by_seq[entry["seq"]] = item
        out["by_seq"] = by_seq
        out["current"] = by_seq.get(seq) if seq is not None else None
        out["seats"] = [dict(s, player=names.get(s["seat"])) for s in result["seats"]]
        out["graph"] = graph(result, seq, path)
        out["result"] = result
    return out


def render_panel(match: Match, user: Any, *, oob: bool = False, error: str = "") -> str:
    """The panel alone: a websocket push, or the answer to the ask button.  Once the analysis is
    stored, the panel reloads the replay (the graph, the log's marks and the accuracy come with it)."""
    data = context(match, user, None, [], f"/matches/{match.pk}/replay/")
    return render_to_string("frontend/analysis/panel.html",
                            {"analysis": data, "oob": oob, "error": error, "standalone": True})
