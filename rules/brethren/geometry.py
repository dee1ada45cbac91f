"""The table: a continuous plane measured in inches, with S and L lengths and headings
(Brethren B1, A1, A7; ``rules/brethren.md`` §11).

Coordinates: ``x`` to the east, ``y`` to the north, in inches. A heading is in degrees
clockwise from north (0 = N, 90 = E); the eight compass points of the wind are indexes
0-7 (``COMPASS``). S is the short side of a game card (2.5 in), L its long side (3.5 in)
(B1, [BASE - not in source]).

Footprints. A ship is a capsule: the segment from her stern to her bow swept by half her
beam (a rectangle of length x beam with rounded ends), sized by her number of masts (A1's
table). Islands and terrain pieces are circles. The *bow* is the part of the hull from the
tip to the foremost mast (BR-7); masts stand evenly spaced on the centre line. Two shapes
*touch* when they are at most ``EPSILON`` apart (A1). The capsule instead of A1's rectangle
keeps every contact a distance between segments and points, which is exact and fast.
"""

from __future__ import annotations

from math import atan2, cos, degrees, hypot, radians, sin

S = 2.5
"""The short distance, in inches (B1)."""
L = 3.5
"""The long distance, in inches (B1)."""
EPSILON = 0.05
"""Two shapes this close (inches) touch (A1)."""
LENGTHS = {"S": S, "L": L, "L-S": L - S}
"""A movement leg's length by its name; ``"L-S"`` is an L leg shortened by −S (A4)."""

COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""The eight compass points, 45° apart, clockwise from north (the wind's directions)."""

FOOTPRINT = {1: (1.5, 0.6), 2: (2.0, 0.7), 3: (2.5, 0.8), 4: (3.0, 0.9), 5: (3.5, 1.0)}
"""Masts -> (length, beam) in inches (A1)."""

BLIND_ARC = 22.5
"""Degrees either side of the bow and the stern where no gun bears (A7)."""

Point = tuple[float, float]
"""A point of the table, ``(x, y)`` in inches."""
Capsule = tuple[Point, Point, float]
"""A segment swept by a radius: ``(end, end, radius)`` (a ship's hull, her bow)."""


def unit(heading: float) -> tuple[float, float]:
    """The unit vector of ``heading`` (degrees clockwise from north)."""
    r = radians(heading)
    return sin(r), cos(r)


def heading_to(x0: float, y0: float, x1: float, y1: float) -> float:
    """The heading (0-360) from the first point toward the second."""
    return degrees(atan2(x1 - x0, y1 - y0)) % 360


def angle_between(a: float, b: float) -> float:
    """The smaller angle between two headings, 0-180."""
    d = abs(a - b) % 360
    return 360 - d if d > 180 else d


def relative_bearing(heading: float, bearing: float) -> float:
    """``bearing`` seen from a ship on ``heading``: -180..180, negative to port."""
    return (bearing - heading + 180) % 360 - 180


def footprint(masts: int) -> tuple[float, float]:
    """(length, beam) of a ship of ``masts`` original masts (A1); more than five as five."""
    return FOOTPRINT[max(1, min(5, masts))]


def hull(ship: dict) -> Capsule:
    """The ship's capsule: ``(stern point, bow point, radius)``; the points are the ends of
    her centre line less her half beam, so the capsule is her length overall."""
    length, beam = footprint(ship["masts_original"])
    r = beam / 2
    ux, uy = unit(ship["heading"])
    half = max(length / 2 - r, 0.0)
    x, y = ship["x"], ship["y"]
    return (x - ux * half, y - uy * half), (x + ux * half, y + uy * half), r


def mast_points(ship: dict) -> list[Point]:
    """Where each mast stands, bow first, evenly spaced on the centre line (A1)."""
    n = ship["masts_original"]
    length, _ = footprint(n)
    ux, uy = unit(ship["heading"])
    out = []
    for i in range(n):
        off = length / 2 - length * (i + 1) / (n + 1)
        out.append((ship["x"] + ux * off, ship["y"] + uy * off))
    return out


def bow_segment(ship: dict) -> Capsule:
    """The bow: from the tip to the foremost mast (BR-7), as a capsule."""
    length, beam = footprint(ship["masts_original"])
    ux, uy = unit(ship["heading"])
    tip = length / 2 - beam / 2
    fore = mast_points(ship)[0]
    return fore, (ship["x"] + ux * tip, ship["y"] + uy * tip), beam / 2


def _seg_point(a: Point, b: Point, p: Point) -> float:
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    return hypot(ax + t * dx - px, ay + t * dy - py)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def seg_seg(a: Point, b: Point, c: Point, d: Point) -> float:
    """The distance between segments ab and cd (0 if they cross)."""
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 and d2 and d3 and d4:
        return 0.0
    return min(_seg_point(a, b, c), _seg_point(a, b, d), _seg_point(c, d, a),
               _seg_point(c, d, b))


def gap_capsule_circle(capsule: Capsule, cx: float, cy: float, r: float) -> float:
    """How far a capsule ``(a, b, radius)`` is from a circle (negative: they overlap)."""
    a, b, cr = capsule
    return _seg_point(a, b, (cx, cy)) - cr - r


def gap_capsules(c1: Capsule, c2: Capsule) -> float:
    """How far two capsules are apart (negative: they overlap)."""
    return seg_seg(c1[0], c1[1], c2[0], c2[1]) - c1[2] - c2[2]


def ship_gap(s1: dict, s2: dict) -> float:
    """The distance between two ships' hulls, in inches."""
    return gap_capsules(hull(s1), hull(s2))


def point_to_ship(p: Point, ship: dict) -> float:
    """The distance from a point (a mast) to any part of a ship (B3: range to any part)."""
    a, b, r = hull(ship)
    return max(0.0, _seg_point(a, b, p) - r)


def nearest_point_on_ship(p: Point, ship: dict) -> Point:
    """The point of ``ship``'s centre line nearest ``p`` (the aim of a line of fire)."""
    a, b, _ = hull(ship)
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return a[0] + t * dx, a[1] + t * dy


def segment_hits_circle(a: Point, b: Point, cx: float, cy: float, r: float) -> bool:
    """Whether the segment ab passes within ``r`` of the centre (a line of fire through an
    island, fog bank or wreck)."""
    return _seg_point(a, b, (cx, cy)) < r


def segment_hits_ship(a: Point, b: Point, ship: dict) -> bool:
    """Whether the segment ab passes through a ship's hull."""
    s, t, r = hull(ship)
    return seg_seg(a, b, s, t) < r


def side_of(ship: dict, x: float, y: float) -> str | None:
    """``"port"`` or ``"starboard"`` where a point lies from ``ship``, or ``None`` in the
    blind arcs ahead and astern (A7)."""
    rel = relative_bearing(ship["heading"], heading_to(ship["x"], ship["y"], x, y))
    if abs(rel) < BLIND_ARC or abs(rel) > 180 - BLIND_ARC:
        return None
    return "port" if rel < 0 else "starboard"
