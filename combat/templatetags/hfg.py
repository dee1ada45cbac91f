"""The battlefield of a Horse, Foot and Guns battle (engine ``hfg``), drawn as SVG from the
engine's view (``rules.hfg.engine.HfgEngine.view``): the table in paces with y to the north
(SVG's y runs down, so it is flipped here), terrain and field works (redoubts,
entrenchments, strong points; outlined in dashes) as rectangles, each element on the table
as its footprint in its side's colour with its front edge drawn thick (its facing), its
type and grade as a label, and its state (routing, disabled) in its title and outline."""

from __future__ import annotations

from django import template

from rules.hfg import works
from rules.hfg.data import troop_type
from rules.hfg.geometry import Rect

register = template.Library()

SIDE_COLOURS = ("#b22222", "#1f4e9c")
TERRAIN_FILL = {"bua": "#b08d6e", "wood": "#5d8a4f", "difficult_hill": "#9a7b4f",
                "hill": "#c9b27c", "slow": "#d8d0a0", "marsh": "#8fb3a0", "waterway": "#9cc3de",
                "redoubt": "#7a5c3a", "entrenchment": "#6b4f2f", "linear_feature": "#8a7048",
                "strong_point": "#6e6e6e"}
GRADES = {"E": "Elite", "I": "Inferior", "HVY": "Heavy", "HOR": "Horse", "A": "Active",
          "L": "Lethargic"}
STATES = {"ok": "", "routing": "routing"}


def _f(x: float) -> str:
    return f"{x:.0f}"


def element_label(e: dict) -> str:
    """An element in words: grade, type, state ("Elite Bayonets, routing")."""
    words = " ".join(w for w in (GRADES.get(e["grade"] or "", ""),
                                  troop_type(e["type"]).name) if w)
    extra = [s for s in (STATES.get(e["state"], e["state"]),
                         "disabled" if e.get("disabled") else "") if s]
    return words + (f", {', '.join(extra)}" if extra else "")


@register.inclusion_tag("combat/engines/_hfg_board.html")
def hfg_board(view: dict) -> dict:
    """The board's drawing data from ``view`` (an ``hfg`` view)."""
    w, d = view["table"]["w"], view["table"]["d"]
    colours = {s: SIDE_COLOURS[i % 2] for i, s in enumerate(view["side_ids"])}
    terrain = [{"id": t["id"], "kind": t["kind"], "name": t["name"],
                "x": _f(t["x"]), "y": _f(d - t["y"] - t["h"]), "w": _f(t["w"]), "h": _f(t["h"]),
                "fill": TERRAIN_FILL[t["kind"]],
                "afire": t["id"] in view.get("afire", []),
                "works": t["kind"] in works.KINDS} for t in view["terrain"]]
    elements = []
    for eid in view["order"]:
        e = view["elements"][eid]
        if e["state"] not in ("ok", "routing"):
            continue
        r = Rect(e["x"], e["y"], e["heading"], e["width"], e["depth"])
        pts = [(x, d - y) for x, y in r.corners()]
        cx, cy = r.center()
        elements.append({
            "id": eid, "side": e["side"], "colour": colours[e["side"]],
            "points": " ".join(f"{_f(x)},{_f(y)}" for x, y in pts),
            "front": {"x1": _f(pts[0][0]), "y1": _f(pts[0][1]), "x2": _f(pts[1][0]),
                      "y2": _f(pts[1][1])},
            "cx": _f(cx), "cy": _f(d - cy), "code": e["type"] + (
                f"/{e['grade']}" if e["grade"] else ""),
            "label": element_label(e), "routing": e["state"] == "routing",
            "heading": e["heading"]})
    return {"w": _f(w), "h": _f(d), "terrain": terrain, "elements": elements,
            "sides": [{"id": s, "name": view["sides"][s]["name"], "colour": colours[s]}
                      for s in view["side_ids"]]}


@register.filter
def hfg_element(e: dict) -> str:
    return element_label(e)

