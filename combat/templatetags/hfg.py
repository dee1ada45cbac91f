"""The battlefield of a Horse, Foot and Guns battle (engine ``hfg``), drawn as SVG from the
engine's view (``rules.hfg.engine.HfgEngine.view``): the table in paces with y to the north
(SVG's y runs down, so it is flipped here), terrain as rectangles (the area features first,
then streams and rivers, the fords across them, and roads on top; field works, redoubts,
entrenchments and strong points, outlined in dashes), each element on the table as its
footprint in its side's colour with its front edge drawn thick (its facing), its type and
grade as a label (sized to fit inside the element, so that labels never overlap; read on a
phone with the board zoomed, the legend naming the codes), and its
state (routing, disabled) in its title and outline; a legend under the map of the terrain
kinds, element types and grades drawn; a delayed
command of the viewer's side not yet on the table is named below the map (the other side's
are not in the view at all)."""

from __future__ import annotations

from math import cos, radians, sin

from django import template

from rules.hfg import works
from rules.hfg.arrivals import called
from rules.hfg.data import troop_type
from rules.hfg.geometry import Rect
from rules.hfg.roads import runs_east_west
from rules.hfg.water import lanes

register = template.Library()

SIDE_COLOURS = ("#b22222", "#1f4e9c")
TERRAIN_FILL = {"bua": "#b08d6e", "wood": "#5d8a4f", "difficult_hill": "#9a7b4f",
                "hill": "#c9b27c", "slow": "#d8d0a0", "marsh": "#8fb3a0", "waterway": "#9cc3de",
                "redoubt": "#7a5c3a", "entrenchment": "#6b4f2f", "linear_feature": "#8a7048",
                "strong_point": "#6e6e6e",
                "stream": "#6fa8dc", "river": "#3d85c6", "road": "#8a7350", "ford": "#cfe2f3"}
TERRAIN_WORDS = {"bua": "Built-up area", "wood": "Wood", "difficult_hill": "Steep hill",
                 "hill": "Hill", "slow": "Slow going", "marsh": "Marsh", "waterway": "Waterway",
                 "redoubt": "Redoubt", "entrenchment": "Entrenchment",
                 "linear_feature": "Wall, hedge or fence", "strong_point": "Strong point",
                 "stream": "Stream", "river": "River (crossed only at a ford)", "road": "Road",
                 "ford": "Ford"}
"""The legend's words for each kind of terrain drawn."""
LAYER = {"stream": 1, "river": 1, "road": 3}
"""Drawing order: area features (0), water (1), fords (2), roads (3)."""
GRADES = {"E": "Elite", "I": "Inferior", "HVY": "Heavy", "HOR": "Horse", "A": "Active",
          "L": "Lethargic"}
LABEL_EM = 0.68
"""The width of one bold capital of a label, in ems (a little more than most)."""
STATES = {"ok": "", "routing": "routing", "waiting": "not yet arrived",
          "off_table": "driven off the field", "destroyed": "destroyed"}


def _f(x: float) -> str:
    return f"{x:.0f}"


def element_words(e: dict) -> str:
    """An element's grade and type in words ("Elite Bayonets"), as the orders name it."""
    return " ".join(w for w in (GRADES.get(e["grade"] or "", ""), troop_type(e["type"]).name)
                    if w)


def element_label(e: dict) -> str:
    """An element in words: grade, type, state ("Elite Bayonets, routing")."""
    words = element_words(e)
    extra = [s for s in (STATES.get(e["state"], e["state"]),
                         "disabled" if e.get("disabled") else "",
                         "concealed" if e.get("concealed") else "") if s]
    return words + (f", {', '.join(extra)}" if extra else "")


def label_size(r: Rect, code: str) -> float:
    """The font size (paces) of an element's label ``code`` ("BAY E"): as large as fits
    inside the element's footprint ``r`` as drawn (upright, whatever its facing), so that no
    two labels overlap however close the elements stand, and never above 170p."""
    s, c = abs(sin(radians(r.heading))), abs(cos(radians(r.heading)))
    across = r.width * c + r.depth * s
    tall = r.width * s + r.depth * c
    return min(170.0, 0.8 * tall, 0.9 * across / (LABEL_EM * len(code)))


@register.inclusion_tag("combat/engines/_hfg_board.html")
def hfg_board(view: dict) -> dict:
    """The board's drawing data from ``view`` (an ``hfg`` view)."""
    w, d = view["table"]["w"], view["table"]["d"]
    colours = {s: SIDE_COLOURS[i % 2] for i, s in enumerate(view["side_ids"])}
    shapes = [(LAYER.get(t["kind"], 0), t) for t in view["terrain"]]
    for river in view["terrain"]:
        if river["kind"] in ("stream", "river"):
            for lo, hi in lanes(view, river):
                ew = runs_east_west(river)
                shapes.append((2, {
                    "id": f"{river['id']}-ford-{lo:.0f}", "kind": "ford",
                    "name": f"a ford across {river['name']}",
                    "x": lo if ew else river["x"], "y": river["y"] if ew else lo,
                    "w": hi - lo if ew else river["w"], "h": river["h"] if ew else hi - lo}))
    terrain = [{"id": t["id"], "kind": t["kind"], "name": t["name"] + (
                    " (a bad road)" if t.get("quality") == "bad" else ""),
                "x": _f(t["x"]), "y": _f(d - t["y"] - t["h"]), "w": _f(t["w"]), "h": _f(t["h"]),
                "fill": TERRAIN_FILL[t["kind"]], "bad_road": t.get("quality") == "bad",
                "afire": t["id"] in view.get("afire", []),
                "works": t["kind"] in works.KINDS}
               for _, t in sorted(shapes, key=lambda s: s[0])]
    roads = {t["id"]: t["name"] for t in view["terrain"] if t["kind"] == "road"}
    waiting = [{"command": called(view, cid), "road": roads.get(a["road"], a["road"]),
                "due": a["status"] == "due"}
               for cid, a in view.get("arrivals", {}).items() if a["status"] in ("waiting", "due")]
    elements = []
    for eid in view["order"]:
        e = view["elements"][eid]
        if e["state"] not in ("ok", "routing"):
            continue
        r = Rect(e["x"], e["y"], e["heading"], e["width"], e["depth"])
        pts = [(x, d - y) for x, y in r.corners()]
        cx, cy = r.center()
        code = e["type"] + (f" {e['grade']}" if e["grade"] else "")
        elements.append({
            "id": eid, "side": e["side"], "colour": colours[e["side"]],
            "points": " ".join(f"{_f(x)},{_f(y)}" for x, y in pts),
            "front": {"x1": _f(pts[0][0]), "y1": _f(pts[0][1]), "x2": _f(pts[1][0]),
                      "y2": _f(pts[1][1])},
            "cx": _f(cx), "cy": _f(d - cy), "type": e["type"], "grade": e["grade"] or "",
            "code": code, "font": _f(label_size(r, code)),
            "label": element_label(e), "name": f"{element_words(e)} ({eid})",
            "routing": e["state"] == "routing",
            "heading": e["heading"]})
    kinds = list(dict.fromkeys(t["kind"] for t in terrain))
    types = list(dict.fromkeys(e["type"] for e in elements))
    grades = list(dict.fromkeys(e["grade"] for e in elements if e["grade"]))
    legend = {"terrain": [{"kind": k, "fill": TERRAIN_FILL[k], "words": TERRAIN_WORDS[k],
                           "works": k in works.KINDS} for k in kinds],
              "types": [{"code": c, "words": troop_type(c).name} for c in types],
              "grades": [{"code": g, "words": GRADES.get(g, g)} for g in grades]}
    return {"w": _f(w), "h": _f(d), "terrain": terrain, "elements": elements,
            "waiting": waiting, "legend": legend,
            "sides": [{"id": s, "name": view["sides"][s]["name"], "colour": colours[s]}
                      for s in view["side_ids"]]}


@register.filter
def hfg_element(e: dict) -> str:
    return element_label(e)


@register.filter
def hfg_pips(view: dict) -> str:
    """The phasing side's PIPs left, each command by its name ("Beauregard's command 4")."""
    return ", ".join(f"{called(view, c)} {n}" for c, n in view["pips"].items())


@register.filter
def hfg_bounds(max_bounds: int) -> int:
    """The bound after which time runs out: each side has ``max_bounds`` of its own, and the
    bounds are counted for both sides together (``view.bound``)."""
    return 2 * max_bounds
