"""The HFG table as the engine measures it (digest A27 as corrected by errata F18 and F19).

Model. The table is a plane in paces, x east from the south-west corner along the 12,000p
long edge, y north along the 6,000p short edge (A16). An element is an oriented rectangle:
its front-edge midpoint ``(x, y)``, its ``heading`` in whole degrees (0 faces north, +y; 90
east; clockwise; any heading, F19.2), its frontage ``width`` (400p for land elements, 100p
for naval, the bow being the front edge, A19) and its ``depth`` (digest 2.2). Stored
positions are whole paces; predicates compare with a tolerance of :data:`EPS` (1p), so
"touching" survives rounding.

Rules as stated (F18, F19): a move's distance is the larger displacement of the two front
corners (L243-244, :func:`move_distance`); frontal contact is front edges touching corner to
corner with opposite facings (L277-278); flank contact is a front edge flush against a flank
edge with a front corner on the enemy's front corner; rear contact a front edge flush and
centred on the rear edge; overlap is flank edges in contact over a positive length, or
front edges in line sharing a corner (L280). The ordinary shooting arc is the 800p-wide
corridor straight ahead; the diagonal arc (naval, town and strong-point garrisons,
redoubts) is bounded by the base diagonals extended (L269-270, F18.3). Ranges are the
least distance from the shooting edge to the target (L272).
"""

from __future__ import annotations

from functools import lru_cache
from math import atan2, cos, degrees, hypot, radians, sin
from typing import NamedTuple

EPS = 1.0
"""Touching tolerance in paces."""

Point = tuple[float, float]


class Rect(NamedTuple):
    """An element's footprint: front-edge midpoint ``(x, y)``, ``heading`` (degrees clockwise
    from north), ``width`` and ``depth`` in paces. A named tuple (immutable, compared and
    hashed as its five numbers, in C: the engine's caches are keyed by footprints)."""

    x: float
    y: float
    heading: float
    width: float = 400
    depth: float = 200

    def forward(self) -> Point:
        """The unit vector the element faces."""
        return _sin_cos(self.heading)

    def right(self) -> Point:
        """The unit vector to the element's right."""
        s, c = _sin_cos(self.heading)
        return c, -s

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Front-left, front-right, rear-right, rear-left."""
        return _corners(self)

    def front(self) -> tuple[Point, Point]:
        fl, fr, _, _ = self.corners()
        return fl, fr

    def center(self) -> Point:
        fx, fy = self.forward()
        return self.x - fx * self.depth / 2, self.y - fy * self.depth / 2

    def moved(self, ahead: float, *, aside: float = 0.0, turn: float = 0.0) -> Rect:
        """This rectangle moved ``ahead`` paces along its facing and ``aside`` to its right,
        then turned ``turn`` degrees about its new front-edge midpoint."""
        fx, fy = self.forward()
        rx, ry = self.right()
        return Rect(self.x + fx * ahead + rx * aside, self.y + fy * ahead + ry * aside,
                    (self.heading + turn) % 360, self.width, self.depth)

    def local(self, p: Point) -> Point:
        """``p`` in this element's frame: (paces to the right of the front midpoint, paces
        ahead of the front edge)."""
        dx, dy = p[0] - self.x, p[1] - self.y
        fx, fy = self.forward()
        rx, ry = self.right()
        return dx * rx + dy * ry, dx * fx + dy * fy


@lru_cache(maxsize=4096)
def _sin_cos(heading: float) -> Point:
    h = radians(heading)
    return sin(h), cos(h)


@lru_cache(maxsize=65536)
def _corners(r: Rect) -> tuple[Point, Point, Point, Point]:
    """``r``'s corners, computed once per footprint (the engine asks for the same ones many
    times a bound)."""
    fx, fy = _sin_cos(r.heading)
    rx, ry = fy, -fx
    hw = r.width / 2
    fl = (r.x - rx * hw, r.y - ry * hw)
    fr = (r.x + rx * hw, r.y + ry * hw)
    return fl, fr, (fr[0] - fx * r.depth, fr[1] - fy * r.depth), (
        fl[0] - fx * r.depth, fl[1] - fy * r.depth)


def dist(a: Point, b: Point) -> float:
    return hypot(a[0] - b[0], a[1] - b[1])


def move_distance(before: Rect, after: Rect) -> float:
    """The distance a move counts: the larger straight displacement of the two front corners
    (L243-244; F19.1)."""
    (al, ar), (bl, br) = before.front(), after.front()
    return max(dist(al, bl), dist(ar, br))


def _seg_point(p: Point, a: Point, b: Point) -> float:
    ax, ay = b[0] - a[0], b[1] - a[1]
    n = ax * ax + ay * ay
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / n))
    return dist(p, (a[0] + ax * t, a[1] + ay * t))


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _crosses(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether the segments a-b and c-d cross properly (touching is left to distances)."""
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    return ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4))


def inside(p: Point, poly: tuple[Point, ...]) -> bool:
    """Whether ``p`` lies inside (or on) the convex polygon ``poly``."""
    signs = [_cross(poly[i], poly[(i + 1) % len(poly)], p) for i in range(len(poly))]
    return all(s >= -1e-9 for s in signs) or all(s <= 1e-9 for s in signs)


@lru_cache(maxsize=65536)
def segment_gap(a: Point, b: Point, poly: tuple[Point, ...]) -> float:
    """The least distance between the segment a-b and the convex polygon ``poly``."""
    if inside(a, poly) or inside(b, poly):
        return 0.0
    n = len(poly)
    best = float("inf")
    for i in range(n):
        c, d = poly[i], poly[(i + 1) % n]
        if _crosses(a, b, c, d):
            return 0.0
        best = min(best, _seg_point(a, c, d), _seg_point(b, c, d), _seg_point(c, a, b),
                   _seg_point(d, a, b))
    return 0.0 if best <= 1e-9 else best


@lru_cache(maxsize=65536)
def overlaps(p: tuple[Point, ...], q: tuple[Point, ...], margin: float = EPS) -> bool:
    """Whether two convex polygons overlap by more than ``margin`` (separating axes; edges
    merely touching do not overlap)."""
    for poly in (p, q):
        for i in range(len(poly)):
            a, b = poly[i], poly[(i + 1) % len(poly)]
            ax, ay = b[1] - a[1], a[0] - b[0]
            n = hypot(ax, ay) or 1.0
            pp = [(v[0] * ax + v[1] * ay) / n for v in p]
            qq = [(v[0] * ax + v[1] * ay) / n for v in q]
            if max(pp) <= min(qq) + margin or max(qq) <= min(pp) + margin:
                return False
    return True


def edge_gap(shooter: Rect, target: Rect, edge: tuple[Point, Point] | None = None) -> float:
    """Range: the least distance from the shooting ``edge`` (the front edge by default) to
    the target's footprint (L272)."""
    a, b = edge or shooter.front()
    return segment_gap(a, b, target.corners())


@lru_cache(maxsize=65536)
def in_corridor(shooter: Rect, target: Rect, *, spread: float = 200) -> bool:
    """Whether any part of ``target`` lies straight ahead of the front edge, within
    ``spread`` paces beyond either front corner (the ordinary arc, L270-272): the target,
    clipped to the ground ahead, meets the corridor."""
    pts = [shooter.local(c) for c in target.corners()]
    clipped: list[Point] = []
    for i, p in enumerate(pts):
        q = pts[(i + 1) % len(pts)]
        if p[1] >= 0:
            clipped.append(p)
        if (p[1] >= 0) != (q[1] >= 0):
            t = p[1] / (p[1] - q[1])
            clipped.append((p[0] + (q[0] - p[0]) * t, 0.0))
    if not clipped:
        return False
    half = shooter.width / 2 + spread
    return min(u for u, _ in clipped) <= half and max(u for u, _ in clipped) >= -half


@lru_cache(maxsize=65536)
def in_diagonal_arc(shooter: Rect, target: Rect, *, any_edge: bool = True) -> bool:
    """Whether any part of ``target`` lies beyond a shooting edge between the base diagonals
    extended (L269-270, F18.3): the wedge the two diagonals open beyond that edge. Naval
    (but Flotilla), town and strong-point garrisons shoot from ``any_edge`` (the four wedges
    cover every direction); an element in a redoubt only from its front edge (F3)."""
    c = shooter.center()
    corners = shooter.corners()
    for i in range(4 if any_edge else 1):
        a, b = corners[i], corners[(i + 1) % 4]
        for p in target.corners() + (target.center(),):
            if _cross(c, a, p) * _cross(c, a, b) >= 0 and _cross(c, b, p) * _cross(c, b, a) >= 0:
                if _cross(a, b, p) * _cross(a, b, c) <= 0:
                    return True
    return False


def arc_spread(width: float, depth: float) -> float:
    """The angle in degrees between the extended diagonals beyond an edge ``width`` long on
    a base ``depth`` deep: 2 atan(width / depth) (F18.3)."""
    return degrees(2 * atan2(width, depth))


def _same(p: Point, q: Point) -> bool:
    return dist(p, q) <= EPS


def facing_diff(a: Rect, b: Rect) -> float:
    """The angle between the two facings, 0-180 degrees."""
    d = abs((a.heading - b.heading) % 360)
    return min(d, 360 - d)


@lru_cache(maxsize=65536)
def contact(a: Rect, b: Rect) -> str | None:
    """How ``a``'s front edge touches ``b`` (F18.1): ``"front"`` (front corners on front
    corners, facing each other), ``"flank"`` (flush on a flank edge with a front corner on
    ``b``'s front corner), ``"rear"`` (flush and centred on the rear edge) or None."""
    al, ar = a.front()
    bl, br = b.front()
    if facing_diff(a, b) >= 180 - 1 and _same(al, br) and _same(ar, bl):
        return "front"
    fl, fr, rr, rl = b.corners()
    if abs(facing_diff(a, b) - 90) <= 1:
        # a's front edge on b's left edge (fl-rl) or right edge (fr-rr)
        for edge, corner in (((fl, rl), fl), ((fr, rr), fr)):
            on = all(_seg_point(p, *edge) <= EPS or _line(p, edge) <= EPS for p in (al, ar))
            if on and (_same(al, corner) or _same(ar, corner)):
                return "flank"
    if facing_diff(a, b) <= 1:
        mid = ((rl[0] + rr[0]) / 2, (rl[1] + rr[1]) / 2)
        if _same((a.x, a.y), mid):
            return "rear"
    return None


def _line(p: Point, edge: tuple[Point, Point]) -> float:
    """Distance from ``p`` to the infinite line through ``edge``."""
    (ax, ay), (bx, by) = edge
    n = hypot(bx - ax, by - ay) or 1.0
    return abs((bx - ax) * (ay - p[1]) - (ax - p[0]) * (by - ay)) / n


@lru_cache(maxsize=65536)
def side_by_side(a: Rect, b: Rect) -> bool:
    """Whether ``a`` and ``b`` stand in line: same facing, front edges on one line, flank
    edges touching over a positive length (a line or an overlap, L236, L280)."""
    if facing_diff(a, b) > 1:
        return False
    u, v = a.local((b.x, b.y))
    return abs(v) <= EPS and abs(abs(u) - (a.width + b.width) / 2) <= EPS


def facing_point(r: Rect, p: Point) -> float:
    """The heading from ``r``'s front midpoint towards ``p``, whole degrees."""
    return round(degrees(atan2(p[0] - r.x, p[1] - r.y))) % 360


def opposite(target: Rect, width: float = 400, depth: float = 200) -> Rect:
    """The footprint of an element in frontal contact with ``target``'s front, centred on it
    (conforming, L261)."""
    return Rect(target.x, target.y, (target.heading + 180) % 360, width, depth)


def flank_position(target: Rect, side: str, width: float = 400, depth: float = 200) -> Rect:
    """The footprint of an element contacting ``target``'s ``"left"`` or ``"right"`` flank
    with a front corner on ``target``'s front corner (F18.1)."""
    fl, fr, _, _ = target.corners()
    fx, fy = target.forward()
    corner = fl if side == "left" else fr
    mid = (corner[0] - fx * width / 2, corner[1] - fy * width / 2)
    heading = (target.heading + (90 if side == "left" else -90)) % 360
    return Rect(mid[0], mid[1], heading, width, depth)


def rotate(p: Point, about: Point, deg: float) -> Point:
    """``p`` turned ``deg`` degrees clockwise about ``about``."""
    a = radians(-deg)
    dx, dy = p[0] - about[0], p[1] - about[1]
    return about[0] + dx * cos(a) - dy * sin(a), about[1] + dx * sin(a) + dy * cos(a)
