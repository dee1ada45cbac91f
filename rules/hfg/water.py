"""HFG water crossings in play (digest 4.1 and 7.5; ``002_a94228d927715433.txt`` L155-160,
L168-170, L247-252): streams and rivers on the table, the fords where roads cross them, and
the search for a ford.

Model. A ``stream`` or ``river`` is a terrain rectangle like any other (the engine's
features are axis-aligned rectangles); it runs along its longer side (east-west when ``w >=
h``), and its width is the shorter side. A ford is a *lane* across it, one element (400p)
wide, measured along the river's length: every ``road`` strip crossing the water makes one,
centred on the road ("A road that intersects a river, stream or gully is assumed to cross it
at a ford if no bridge is provided", L169-170), and every successful search adds one to the
state's ``fords`` (``[{"river": id, "lo": paces, "hi": paces}]``); a failed search is kept in
``searched`` (``[{"river": id, "x", "y"}]``) because "No ford exists within 1,200p, even if
searched for again" (L251).

The rules as built:

- A River "cannot be crossed where there is no such ford or bridge" (L252): a land element
  may not stand on a river, nor move across one, unless all of it is within a ford lane
  (:func:`in_river`, :func:`barred`). Flotilla navigating a river (L160) is not built: ships
  stay on the Waterway.
- A Stream "can be crossed off-road anywhere, but the initial move must end when the rear
  base edge of a single element ... is half way across. Subsequent moves are normal"
  (L252-253): a move that starts clear of a stream may not take the element's rear edge
  past the stream's centre line (:func:`barred`); on a road (a road ford) the move is
  normal. A group crosses water only as a 1-wide column (L238-239); columns are not built,
  so a line may not enter water at all.
- Ford search (L249-251; :func:`search`): "move an element up to the river edge using up 2
  extra PIPs, and dice", +1 for a BUA within 400p on the near side or within 400p plus the
  river's width on the far side, the setting ``hfg_ford_both_banks`` (+4 as printed) if
  both, -1 for an enemy Skirmisher element within 400p; 5 or more marks a 1-element ford and
  moves the searcher until its front edge touches the far bank.
"""

from __future__ import annotations

from typing import Any

from rules.engine import State
from rules.hfg.geometry import EPS, Point, Rect, overlaps, segment_gap
from rules.hfg.movement import MARCH_CLEARANCE, ford_search
from rules.hfg.roads import runs_east_west
from rules.random import RandomSource

WATER_KINDS = ("stream", "river")
FORD_WIDTH = 400
"""A ford is one element base width wide (L251)."""
NEAR = 400
"""The reach of the ford search's modifiers (L250)."""


def box(t: dict) -> tuple[Point, Point, Point, Point]:
    """A terrain rectangle's corners, anticlockwise from its south-west corner."""
    x, y, w, h = t["x"], t["y"], t["w"], t["h"]
    return (x, y), (x + w, y), (x + w, y + h), (x, y + h)


def _along(t: dict, p: Point) -> float:
    """``p``'s coordinate along the feature ``t``'s length."""
    return p[0] if runs_east_west(t) else p[1]


def _across(t: dict, p: Point) -> float:
    return p[1] if runs_east_west(t) else p[0]


def lanes(st: State, river: dict) -> list[tuple[float, float]]:
    """The ford lanes across ``river`` as (low, high) along its length: one, 400p wide,
    centred on every road crossing it, and every ford found by a search."""
    out = []
    for t in st["terrain"]:
        if t["kind"] == "road" and runs_east_west(t) != runs_east_west(river) and \
                overlaps(box(t), box(river), margin=0):
            mid = t["x"] + t["w"] / 2 if runs_east_west(river) else t["y"] + t["h"] / 2
            out.append((mid - FORD_WIDTH / 2, mid + FORD_WIDTH / 2))
    out += [(f["lo"], f["hi"]) for f in st.get("fords", ()) if f["river"] == river["id"]]
    return out


def _in_lane(poly: tuple[Point, ...], river: dict, ford_lanes: list[tuple[float, float]]
             ) -> bool:
    along = [_along(river, p) for p in poly]
    return any(lo - EPS <= min(along) and max(along) <= hi + EPS for lo, hi in ford_lanes)


def _waters(st: State) -> list[dict]:
    return [t for t in st["terrain"] if t["kind"] in WATER_KINDS]


def _land(e: dict) -> bool:
    from rules.hfg.data import troop_type

    return troop_type(e["type"]).category != "naval"


def in_river(st: State, e: dict, r: Rect) -> bool:
    """Whether the land element ``e`` standing at ``r`` would be on a river outside every
    ford (L252): it may not stand there."""
    if not _land(e):
        return False
    poly = r.corners()
    return any(t["kind"] == "river" and overlaps(poly, box(t)) and
               not _in_lane(poly, t, lanes(st, t)) for t in _waters(st))


def hull(before: Rect, after: Rect) -> tuple[Point, ...]:
    """The ground a straight move from ``before`` to ``after`` sweeps: the convex hull of
    the two footprints (anticlockwise)."""
    pts = sorted(set(before.corners() + after.corners()))

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    upper: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return tuple(lower[:-1] + upper[:-1])


def _rear_mid(r: Rect) -> Point:
    fx, fy = r.forward()
    return r.x - fx * r.depth, r.y - fy * r.depth


def barred(st: State, e: dict, before: Rect, after: Rect, *, group: bool = False,
           on_road: bool = False) -> bool:
    """Whether the move of ``e`` from ``before`` to ``after`` breaks the water rules (module
    docstring): across a river outside a ford; past the half-way point of a stream it
    started clear of, off-road; a group (``group``) into any water it is not already in.
    ``on_road``: the move is along a road (a road ford: a stream crossing is normal)."""
    waters = _waters(st)
    if not waters or not _land(e):
        return False
    swept = hull(before, after)
    for t in waters:
        b = box(t)
        if not overlaps(swept, b):
            continue
        if t["kind"] == "river":
            if not _in_lane(swept, t, lanes(st, t)):
                return True
            continue
        if on_road or overlaps(before.corners(), b):
            continue
        if group:
            return True
        mid = _across(t, (t["x"] + t["w"] / 2, t["y"] + t["h"] / 2))
        start, end = _across(t, _rear_mid(before)) - mid, _across(t, _rear_mid(after)) - mid
        if start * end < 0 and abs(end) > EPS:
            return True
    return False


def _facing_across(river: dict, r: Rect) -> bool:
    h = round(r.heading) % 360
    return h in ((0, 180) if runs_east_west(river) else (90, 270))


def bank_gap(river: dict, r: Rect) -> float | None:
    """How far ``r`` (facing straight across ``river``) stands short of its near bank,
    with the river straight ahead of its whole front edge; None if it does not."""
    if not _facing_across(river, r):
        return None
    lo, hi = sorted(_along(river, p) for p in r.front())
    edge_lo, edge_hi = sorted((_along(river, box(river)[0]), _along(river, box(river)[2])))
    if lo < edge_lo - EPS or hi > edge_hi + EPS:
        return None
    fx, fy = r.forward()
    ahead = fy if runs_east_west(river) else fx
    near = (river["y"] if ahead > 0 else river["y"] + river["h"]) if runs_east_west(river) \
        else (river["x"] if ahead > 0 else river["x"] + river["w"])
    gap = (near - _across(river, (r.x, r.y))) * (1 if ahead > 0 else -1)
    return gap if gap >= -EPS else None


def width(river: dict) -> int:
    """A river's width across: its rectangle's shorter side."""
    return int(min(river["w"], river["h"]))


def may_search(st: State, e: dict, river: dict, r: Rect) -> bool:
    """Whether ``e`` at the bank (``r``, front edge on the near bank) may search there: no
    ford already there, no failed search within 1,200p (L251)."""
    if river["kind"] != "river":
        return False
    if _in_lane(r.front(), river, lanes(st, river)):
        return False
    return not any(s["river"] == river["id"] and
                   (s["x"] - r.x) ** 2 + (s["y"] - r.y) ** 2 < MARCH_CLEARANCE ** 2
                   for s in st.get("searched", ()))


def search(st: State, e: dict, river: dict, r: Rect, source: RandomSource,
           *, enemy: list[dict], rect_of: Any) -> tuple[dict, Rect | None]:
    """Dice for a ford with ``e`` standing at ``r`` on the near bank (L249-251; vector M6):
    the towns near and far, enemy Skirmishers within 400p of ``r`` (``enemy``: the enemy's
    elements on the table, ``rect_of`` their footprints). Records the ford or the failed
    search in ``st`` and returns the roll (:func:`rules.hfg.movement.ford_search`) with the
    far-bank footprint the searcher moves to (None when no ford is found)."""
    side = 1 if _across(river, r.forward()) > 0 else -1
    mid = _across(river, (river["x"] + river["w"] / 2, river["y"] + river["h"] / 2))
    near = far = False
    for t in st["terrain"]:
        if t["kind"] != "bua":
            continue
        gap = min(segment_gap(a, c, box(t)) for a, c in zip(r.corners(), r.corners()[1:]
                                                             + r.corners()[:1]))
        beyond = (_across(river, (t["x"] + t["w"] / 2, t["y"] + t["h"] / 2)) - mid) * side > 0
        if beyond and gap <= NEAR + width(river):
            far = True
        elif not beyond and gap <= NEAR:
            near = True
    skirmishers = any(o["type"] == "SK" and min(
        segment_gap(a, c, rect_of(o).corners()) for a, c in zip(
            r.corners(), r.corners()[1:] + r.corners()[:1])) <= NEAR for o in enemy)
    roll = ford_search(source, town_near=near, town_far=far,
                       enemy_skirmishers_near=skirmishers,
                       both_bonus=int(st["settings"].get("hfg_ford_both_banks", 4)))
    roll.update(town_near=near, town_far=far, skirmishers=skirmishers)
    if not roll["found"]:
        st.setdefault("searched", []).append({"river": river["id"], "x": r.x, "y": r.y})
        return roll, None
    centre = _along(river, (r.x, r.y))
    st.setdefault("fords", []).append({"river": river["id"], "lo": centre - FORD_WIDTH / 2,
                                       "hi": centre + FORD_WIDTH / 2})
    return roll, r.moved(width(river))


def ford_ahead(st: State, e: dict, start: Rect, ahead: int) -> tuple[int, dict] | None:
    """Where the land element ``e`` routing ``ahead`` paces straight forward from ``start``
    stops for a ford (L318-319: "Routers that reach a bridge or ford stop at the nearside"):
    the paces it goes (whole, its front edge then on the near bank) and the stream or river,
    for the nearest water it does not already stand in whose crossing on its way overlaps a
    ford lane (:func:`lanes`); None if it reaches no ford. Water it reaches away from a ford
    is not this function's: a stream is crossed, a river is ground it cannot cross."""
    if not _land(e):
        return None
    best: tuple[int, dict] | None = None
    for t in _waters(st):
        b = box(t)
        if overlaps(start.corners(), b) or not overlaps(hull(start, start.moved(ahead)), b):
            continue
        near, far = 0, ahead  # clear of the water at near, in it at far
        while far - near > 1:
            mid = (near + far) // 2
            if overlaps(hull(start, start.moved(mid)), b, margin=0):
                far = mid
            else:
                near = mid
        along = [_along(t, p) for p in start.moved(far).corners()]
        low, high = min(along), max(along)
        if not any(min(high, hi) - max(low, lo) > EPS for lo, hi in lanes(st, t)):
            continue
        if best is None or near < best[0]:
            best = (near, t)
    return best
