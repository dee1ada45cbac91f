"""HFG roads on the table (digest 4.1 and 7.2; ``002_a94228d927715433.txt`` L168-173,
L243-246).

Model. A ``road`` is a terrain strip (an axis-aligned rectangle, like every feature) running
along its longer side, with a ``quality``: ``"good"`` (metalled) or ``"bad"`` (L169). A road
net is drawn as several strips meeting at junctions. An element is *on* a road when its
front-edge midpoint lies on the strip; it moves *along* it facing along the strip with its
front-edge midpoint on the centre line (a single element or the head of a column: "All
elements count as moving along a road if the head of the column does", L240).

Rules as built: a move "entirely along road" has the road/good-going allowance whatever
the ground beside it (L243-246), and mist and rain do not slow it (their limits are
off-road, L229-231); a march along roads pays surcharge (c) by the road's quality (L227,
:func:`rules.hfg.command.free_marches`); a march in difficult going must be by road
(L232). Bridges, railways and the "leaving a BUA astride a road must be by road" rule are
not built.
"""

from __future__ import annotations

from rules.engine import State
from rules.hfg.geometry import EPS, Point, Rect

QUALITIES = ("good", "bad")
DIRECTIONS = {"n": 0, "e": 90, "s": 180, "w": 270}
"""The directions along a road strip, as headings."""


def runs_east_west(t: dict) -> bool:
    """Whether a strip runs along x (it is wider than deep)."""
    return bool(t["w"] >= t["h"])


def directions(road: dict) -> tuple[str, str]:
    """The two ways along ``road``: ``("e", "w")`` or ``("n", "s")``."""
    return ("e", "w") if runs_east_west(road) else ("n", "s")


def holds(road: dict, p: Point) -> bool:
    """Whether ``p`` lies on the strip (within 1p of it)."""
    return bool(road["x"] - EPS <= p[0] <= road["x"] + road["w"] + EPS
                and road["y"] - EPS <= p[1] <= road["y"] + road["h"] + EPS)


def roads_at(st: State, p: Point) -> list[dict]:
    """The road strips holding ``p``, in the setup's order."""
    return [t for t in st["terrain"] if t["kind"] == "road" and holds(t, p)]


def along(road: dict, r: Rect, way: str, paces: float) -> Rect:
    """``r`` turned to face ``way`` along ``road`` with its front-edge midpoint moved onto
    the centre line, then ``paces`` further along it."""
    heading = DIRECTIONS[way]
    if runs_east_west(road):
        x, y = r.x + (paces if way == "e" else -paces), road["y"] + road["h"] / 2
    else:
        x, y = road["x"] + road["w"] / 2, r.y + (paces if way == "n" else -paces)
    return Rect(x, y, heading, r.width, r.depth)


def route(st: State, before: Rect, after: Rect) -> str | None:
    """``"good_road"`` or ``"bad_road"`` when the straight move from ``before`` to
    ``after`` runs entirely along one road strip (both front midpoints and both centres on
    it, facing along it), else None."""
    for t in roads_at(st, (before.x, before.y)):
        aligned = round(after.heading) % 360 in (
            (90, 270) if runs_east_west(t) else (0, 180))
        if aligned and round(before.heading) == round(after.heading) and holds(
                t, (after.x, after.y)) and holds(t, before.center()) and holds(
                t, after.center()):
            return f"{t.get('quality', 'good')}_road"
    return None
