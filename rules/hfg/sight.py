"""HFG sight over hill crests and concealed troops (digest 4.2, 8.4 and 3.3;
``002_a94228d927715433.txt`` L163-167, L183-187, L194-195, L275-277).

"Troops beyond an intervening BUA, wood or the crest of a difficult hill, or more than 400p
behind the crest of a gentle hill, are visible only to Aeronauts. Troops more than 100p
inside a wood edge are not visible from outside and cannot themselves see out." (L185-186)
"Gentle Hills whose minimum width is less than 1,000p and all Difficult Hills slope up to a
central crest line. Other Gentle Hills slope up to a flat plateau starting 500p from the
edge." (L164-165) "Those foot classed as Bayonets or Minie can shoot over a Gentle Hill's
crest if within 200 paces to their front" (L166-167; L276 adds BL and Repeaters, and any
hill's crest).

Model. A hill is a terrain rectangle: its crest is the centre line along its longer side,
or, for a gentle hill 1,000p or more across every way, the edge of the plateau 500p in from
its edge (the near edge of the plateau, seen from the viewer, is the crest). Sight runs from
the viewer's front-edge midpoint to the centre of the target; where it crosses a crest more
than 50p from the viewer (a viewer on the crest sees down both slopes), a target beyond a
difficult hill's crest is hidden, and one more than 400p beyond a gentle hill's (from the
crossing to the nearest point of the target). BUA, woods and difficult hills blocking the
line itself are the engine's own test (``rules.hfg.engine._sight_blocked``).

Not built: Aeronauts seeing for the army, terrain features hidden beyond crests (the map
shows all terrain), smokeless powder (1892>) hiding foot beyond 400p, artillery firing
over a gentle crest at +2 to the target and Rifled Artillery (1900>) firing over crests.

Concealed positions (L194-195): an element may start ``concealed`` (the setup flag) if it
stands in a town, wood or on a difficult hill, or out of the sight of every enemy element
(behind a town, wood or hill). It is off the enemy's map, not a target and not known until
it is revealed: when it moves, shoots or fights, or when an enemy element sees it
(:func:`reveal`).
"""

from __future__ import annotations

from rules.engine import EventLog, State
from rules.hfg.geometry import EPS, Point, Rect, dist, inside, segment_gap

PLATEAU_WIDTH = 1000
"""A gentle hill this wide or wider every way has a plateau, not a crest line (L165)."""
PLATEAU_INSET = 500
GENTLE_DEAD_GROUND = 400
ON_CREST = 50
"""A viewer this close to a crest stands on it and sees down both slopes."""
OVER_CREST = 200
"""Bayonets, Minie, BL and Repeaters shoot over a crest this close to their front (L276)."""
OVER_CREST_TYPES = ("BAY", "MIN", "BL", "REP")
WOOD_DEPTH = 100


def _box(t: dict) -> tuple[Point, Point, Point, Point]:
    x, y, w, h = t["x"], t["y"], t["w"], t["h"]
    return (x, y), (x + w, y), (x + w, y + h), (x, y + h)


def _intersection(p: Point, q: Point, a: Point, b: Point) -> Point | None:
    """Where the segment p-q meets the segment a-b, if it does."""
    d = (q[0] - p[0]) * (b[1] - a[1]) - (q[1] - p[1]) * (b[0] - a[0])
    if d == 0:
        return None
    t = ((a[0] - p[0]) * (b[1] - a[1]) - (a[1] - p[1]) * (b[0] - a[0])) / d
    u = ((a[0] - p[0]) * (q[1] - p[1]) - (a[1] - p[1]) * (q[0] - p[0])) / d
    if 0 <= t <= 1 and 0 <= u <= 1:
        return p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])
    return None


def crest_crossing(hill: dict, p: Point, q: Point) -> Point | None:
    """Where sight from ``p`` to ``q`` first crosses ``hill``'s crest (module docstring),
    or None."""
    x, y, w, h = hill["x"], hill["y"], hill["w"], hill["h"]
    if hill["kind"] == "hill" and min(w, h) >= PLATEAU_WIDTH:
        if inside(p, _plateau(hill)):
            return None
        poly = _plateau(hill)
        hits = [c for i in range(4) if (c := _intersection(p, q, poly[i], poly[(i + 1) % 4]))]
        return min(hits, key=lambda c: dist(p, c)) if hits else None
    if w >= h:
        a, b = (x, y + h / 2), (x + w, y + h / 2)
    else:
        a, b = (x + w / 2, y), (x + w / 2, y + h)
    return _intersection(p, q, a, b)


def _plateau(hill: dict) -> tuple[Point, Point, Point, Point]:
    i = PLATEAU_INSET
    return _box({"x": hill["x"] + i, "y": hill["y"] + i, "w": hill["w"] - 2 * i,
                 "h": hill["h"] - 2 * i})


def crest_hides(terrain: list[dict], viewer: Rect, target: Rect, *,
                shooter_type: str | None = None) -> bool:
    """Whether a hill's crest hides ``target`` from ``viewer`` (L185-186); a shooter of
    :data:`OVER_CREST_TYPES` shoots over a crest within 200p of its front (L276)."""
    p, q = (viewer.x, viewer.y), target.center()
    for t in terrain:
        if t["kind"] not in ("hill", "difficult_hill"):
            continue
        c = crest_crossing(t, p, q)
        if c is None or dist(p, c) <= ON_CREST:
            continue
        if shooter_type in OVER_CREST_TYPES and dist(p, c) <= OVER_CREST:
            continue
        beyond = segment_gap(c, c, target.corners())
        if t["kind"] == "difficult_hill" or beyond > GENTLE_DEAD_GROUND:
            return True
    return False


def deep_in_wood(terrain: list[dict], r: Rect) -> bool:
    """Whether ``r``'s centre is more than 100p inside a wood's edge (L186)."""
    cx, cy = r.center()
    return any(t["kind"] == "wood" and t["x"] + WOOD_DEPTH < cx < t["x"] + t["w"] - WOOD_DEPTH
               and t["y"] + WOOD_DEPTH < cy < t["y"] + t["h"] - WOOD_DEPTH for t in terrain)


def hidden(st: State, viewer: dict, target: dict, *, shooting: bool = False) -> bool:
    """Whether ``target`` is out of ``viewer``'s sight by the rules of this module:
    concealed, more than 100p inside a wood (either of them, unless both are in the same
    wood), or behind a crest."""
    from rules.hfg import engine as eng

    if target.get("concealed"):
        return True
    vr, tr = eng._rect(viewer), eng._rect(target)
    terrain = st["terrain"]
    wood_v, wood_t = eng._in(st, viewer, "wood"), eng._in(st, target, "wood")
    if (wood_v is None or wood_v is not wood_t) and (
            deep_in_wood(terrain, vr) or deep_in_wood(terrain, tr)):
        return True
    return crest_hides(terrain, vr, tr, shooter_type=viewer["type"] if shooting else None)


def sees(st: State, viewer: dict, target: dict) -> bool:
    """Whether ``viewer`` sees ``target`` (not counting concealment): within the weather's
    visibility, no town, wood or difficult hill on the line, no crest hiding it."""
    from rules.hfg import engine as eng

    vis = eng._weather(st).visibility
    if vis is not None and segment_gap(*eng._rect(viewer).front(),
                                       eng._rect(target).corners()) > vis + EPS:
        return False
    if eng._sight_blocked(st, viewer, target):
        return False
    return not hidden(st, viewer, {**target, "concealed": False})


def check_setup(st: State) -> str | None:
    """Why a concealed element may not be concealed where it stands, or None: it must be in
    a town, wood or on a difficult hill, or out of every enemy element's sight (L195)."""
    from rules.hfg import engine as eng

    for e in st["elements"].values():
        if not e.get("concealed"):
            continue
        if any(eng._in(st, e, k) for k in ("bua", "wood", "difficult_hill")):
            continue
        if any(sees(st, o, e) for o in eng._live(st, eng._enemy(st, e["side"]))
               if not o.get("concealed")):
            return (f"element {e['id']}: a concealed position is in or behind a town, wood or "
                    "hill, out of the enemy's sight")
    return None


def reveal(st: State, log: EventLog, *, acting: tuple[dict, ...] = ()) -> None:
    """Place on the table every concealed element that has moved this bound, is ``acting``
    (it shoots or fights) or that an enemy element on the table now sees (L195)."""
    from rules.hfg import engine as eng

    for e in eng._live(st):
        if not e.get("concealed"):
            continue
        seen = e["moved"] or any(a is e for a in acting) or any(
            sees(st, o, e) for o in eng._live(st, eng._enemy(st, e["side"]))
            if not o.get("concealed"))
        if seen:
            del e["concealed"]
            log("revealed", f"{eng._name(st, e)} is revealed.", {"element": e["id"]})


def hide(view: dict, hidden_sides: list[str]) -> None:
    """Take the concealed elements of ``hidden_sides`` out of ``view`` (a copy of the state):
    from the table and from the setup."""
    gone = {eid for eid, e in view["elements"].items()
            if e.get("concealed") and e["side"] in hidden_sides}
    for eid in gone:
        del view["elements"][eid]
    view["order"] = [i for i in view["order"] if i not in gone]
    view["setup"]["elements"] = [e for e in view["setup"]["elements"] if e["id"] not in gone]
