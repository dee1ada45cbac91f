"""Movement under oars and sail, and facing (``rules/viking.md`` §2, §5; V-L56-L163).

Geometry: the table in inches, x along a player's baseline, y away from the south baseline;
a heading in degrees clockwise from +y (0 north, 90 east). A vessel is an oriented rectangle
of ``length`` by ``beam`` about its midpoint (A2), which is where distance is measured
(V-L129).
"""

from __future__ import annotations

from math import asin, atan, atan2, cos, degrees, hypot, radians, sin
from typing import Any

from rules.viking.data import (
    CENTER_BAND,
    DIW,
    FACING,
    FORWARD_PER_FACING_INCH,
    FULL,
    LEVEL_WORDS,
    PACED,
    SAIL_MAX,
    SPEED,
    ZERO,
)

SLICES = 20
"""Time slices of a simultaneous move (A2): finer than the book's halves and quarters."""

FACING_MODELS = ("asin", "atan", "arc")


class MoveError(ValueError):
    """A speed, distance or facing the rules do not allow; the message says why."""


def crew_state(crew: int, full: int, minimum: int) -> str:
    """``"normal"`` at or above full crew, ``"minimum"`` from the minimum up to full (all
    movement halved, facing too), ``"below"`` under the minimum (DIW speeds only)
    (V-L73-L75, A7)."""
    if crew >= full:
        return "normal"
    return "minimum" if crew >= minimum else "below"


def check_level(current: int, requested: int, *, first_turn: bool = False,
                backward_now: bool = False, backward: bool = False) -> None:
    """Refuse a speed level the rules do not allow this turn (``MoveError`` with the reason).

    Any level on turn 1 (V-L77); after that one step up or down a turn (V-L63). Backing
    starts from DIW, is at most PACED and accelerates one level a turn (V-L73, V-L91): a
    vessel going forward must reach DIW before it backs, and one backing must reach DIW
    before it goes forward. ``current``/``requested`` are levels (0-3); ``backward_now`` is
    the way the vessel moves now, ``backward`` the way asked for.
    """
    if backward and requested > PACED:
        raise MoveError("backing tops out at paced speed")
    if first_turn:
        return
    if backward != backward_now and current != DIW and requested != DIW:
        raise MoveError("a vessel must come to dead in the water before it changes "
                        "direction")
    if backward != backward_now and current != DIW:
        return
    if abs(requested - current) > 1:
        reach = min(FULL, current + 1) if requested > current else max(DIW, current - 1)
        raise MoveError(f"the speed changes one level a turn: from {LEVEL_WORDS[current]} "
                        f"the most it can reach is {LEVEL_WORDS[reach]}")


def speed_range(cls: str, level: int, *, backward: bool = False, crew: str = "normal",
                doubled: bool = False) -> tuple[float, float]:
    """(least, most) inches a vessel of ``cls`` moves this turn at ``level`` (table 2.1):
    half backing (V-L73), half at minimum crew, DIW speeds below it (V-L73-L75); when the
    sides are 24 inches apart (V-L38: the move *may* be doubled) from the least to twice
    the most, the whole span, of which only the plain and the doubled range may be moved
    (:func:`bands`). A single value is moved exactly (A1)."""
    lo, hi = SPEED[cls][DIW if crew == "below" else level]
    factor = (0.5 if backward else 1.0) * (0.5 if crew == "minimum" else 1.0)
    return lo * factor, hi * factor * (2.0 if doubled else 1.0)


def bands(cls: str, level: int, *, backward: bool = False, crew: str = "normal",
          doubled: bool = False) -> tuple[tuple[float, float], ...]:
    """The (least, most) inch ranges a vessel may move this turn at ``level``: the plain
    range of :func:`speed_range` and, when the sides are 24 inches apart, that range doubled
    (V-L38). Nothing between them: a vessel moves only the stated distances (V-L63, L79),
    so a doubled Karfi at full speed moves 4 or 8 inches, not 6."""
    lo, hi = speed_range(cls, level, backward=backward, crew=crew)
    return ((lo, hi), (2 * lo, 2 * hi)) if doubled and hi > 0 else ((lo, hi),)


def facing_table(cls: str, level: int, *, crew: str = "normal", doubled: bool = False
                 ) -> float:
    """Table 2.2's facing inches for ``cls`` at ``level``, halved at minimum crew, DIW's
    below it, doubled with a doubled move (§5.5, §5.6)."""
    value = FACING[cls][DIW if crew == "below" else level]
    return value * (0.5 if crew == "minimum" else 1.0) * (2.0 if doubled else 1.0)


def max_facing(cls: str, level: int, distance: float, *, lenient: bool = False,
               crew: str = "normal", doubled: bool = False) -> float:
    """The most facing inches a vessel may use this turn moving ``distance`` inches: the
    table (2.2) bounded by the forward movement that pays for it (2.3), none needed at DIW
    (V-L117-L133). A4 decided: ``strict`` (the default) is min(table, distance / ratio);
    ``lenient`` lets the rest of the table be spent in place once the forward distance is
    used up, so it is the table's value."""
    table = facing_table(cls, level, crew=crew, doubled=doubled)
    ratio = FORWARD_PER_FACING_INCH[DIW if crew == "below" else level]
    if lenient or ratio == 0:
        return table
    return min(table, abs(distance) / ratio)


def paid_facing(level: int, distance: float, facing: float, *, crew: str = "normal") -> float:
    """Of ``facing`` inches, those paid for by forward movement (turned while moving); the
    rest is turned in place after it (lenient facing, A4)."""
    ratio = FORWARD_PER_FACING_INCH[DIW if crew == "below" else level]
    return facing if ratio == 0 else min(facing, abs(distance) / ratio)


def facing_degrees(inches: float, hull_length: float, model: str = "asin") -> float:
    """Degrees turned by ``inches`` of facing: the vessel turns about its midpoint until the
    bow reaches each inch mark of a ruler laid across it (V-L129-L131). ``asin`` (errata
    VK-2, the default: the bow moves one inch sideways, the arc a little more than an inch,
    as the text says), ``atan`` (the digest's A3) or ``arc`` (the bow's arc is one inch)."""
    half = hull_length / 2
    if model == "asin":
        step = degrees(asin(min(1.0, 1 / half)))
    elif model == "atan":
        step = degrees(atan(1 / half))
    elif model == "arc":
        step = degrees(1 / half)
    else:
        raise MoveError(f"unknown facing model {model!r}")
    return inches * step


def angle_between(a: float, b: float) -> float:
    """The smaller angle between two headings, 0-180 degrees."""
    d = abs((a - b) % 360.0)
    return 360.0 - d if d > 180 else d


def turn_toward(heading: float, target: float) -> float:
    """Signed degrees from ``heading`` to ``target`` (negative: to the left), -180..180."""
    d = (target - heading) % 360.0
    return d - 360.0 if d > 180 else d


def bearing(x: float, y: float, tx: float, ty: float) -> float:
    """The heading from (x, y) to (tx, ty)."""
    return degrees(atan2(tx - x, ty - y)) % 360.0


def sail_max(cls: str, wind: int, heading: float, wind_from: float) -> int | None:
    """The fastest level under sail (table 2.4, V-L141-L157): within 45 degrees of the
    wind's source the first column, else the second (A10); ``None`` in no wind (V-L139)."""
    if wind == ZERO:
        return None
    upwind, free = SAIL_MAX[wind][cls]
    return upwind if angle_between(heading, wind_from) <= 45.0 else free


# --- sectors (§3.2, A5) ------------------------------------------------------------------


def sector_gap(order: str, x: float, baseline: str, width: float) -> float:
    """Inches from the midpoint's ``x`` to the region of ``order`` for a player on the
    ``"south"`` or ``"north"`` baseline (0 inside it; left and right from his own point of
    view, V-L23-L29); ``FLAGSHIP`` has no region."""
    mid = width / 2
    if order == "CENTER":
        return max(0.0, abs(x - mid) - CENTER_BAND)
    if order in ("LEFT", "RIGHT"):
        west = (order == "LEFT") == (baseline == "south")
        return max(0.0, x - mid) if west else max(0.0, mid - x)
    return 0.0


# --- hulls and the simultaneous move (A2) ----------------------------------------------


def corners(x: float, y: float, heading: float, length: float, beam: float
            ) -> list[tuple[float, float]]:
    """The hull's four corners (bow right, bow left, stern left, stern right)."""
    h = radians(heading)
    fx, fy = sin(h), cos(h)
    rx, ry = cos(h), -sin(h)
    hl, hb = length / 2, beam / 2
    return [(x + fx * hl + rx * hb, y + fy * hl + ry * hb),
            (x + fx * hl - rx * hb, y + fy * hl - ry * hb),
            (x - fx * hl - rx * hb, y - fy * hl - ry * hb),
            (x - fx * hl + rx * hb, y - fy * hl + ry * hb)]


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two hulls (``x``, ``y``, ``heading``, ``length``, ``beam``) overlap
    (separating axes)."""
    if hypot(a["x"] - b["x"], a["y"] - b["y"]) > (a["length"] + b["length"]) / 2:
        return False
    ca = corners(a["x"], a["y"], a["heading"], a["length"], a["beam"])
    cb = corners(b["x"], b["y"], b["heading"], b["length"], b["beam"])
    for hull in (ca, cb):
        for i in range(2):
            ex, ey = hull[i + 1][0] - hull[i][0], hull[i + 1][1] - hull[i][1]
            nx, ny = -ey, ex
            pa = [px * nx + py * ny for px, py in ca]
            pb = [px * nx + py * ny for px, py in cb]
            if max(pa) < min(pb) or max(pb) < min(pa):
                return False
    return True


def contact_point(v: dict[str, Any], other: dict[str, Any]) -> str:
    """Where on ``v``'s hull ``other`` touches it: ``bow``, ``side`` or ``stern``, by the
    bearing of the other's midpoint from ``v``'s heading."""
    off = angle_between(bearing(v["x"], v["y"], other["x"], other["y"]), v["heading"])
    return "bow" if off <= 35.0 else "stern" if off >= 145.0 else "side"


def glide(m: dict[str, Any], width: float, depth: float) -> tuple[float, float, float]:
    """Where a lone vessel's move ``m`` (as :func:`simulate` takes it) ends, (x, y, heading):
    the same slices and arithmetic as :func:`simulate` without another hull to meet."""
    x, y, heading = m["x"], m["y"], m["heading"]
    step = m["distance"] / SLICES
    turn = m["turn"] / SLICES
    for k in range(1, SLICES + 1):
        heading = (heading + turn) % 360.0
        if k == SLICES:
            heading = (heading + m["turn_in_place"]) % 360.0
        h = radians(heading)
        nx, ny = x + sin(h) * step, y + cos(h) * step
        if not (0 <= nx <= width and 0 <= ny <= depth):
            break
        x, y = nx, ny
    return x, y, heading


def simulate(moves: list[dict[str, Any]], enemies: set[frozenset[str]],
             width: float, depth: float) -> tuple[dict[str, dict[str, float]], list[dict]]:
    """Carry out simultaneous moves in :data:`SLICES` equal slices (A2).

    ``moves``: one dict a vessel, ``id``, ``x``, ``y``, ``heading``, ``length``, ``beam``,
    ``distance`` (inches, negative backing), ``turn`` (degrees turned while moving, negative
    to the left), ``turn_in_place`` (degrees turned after the forward move, lenient facing)
    and ``level`` (the declared speed, for the impact). ``enemies``: the pairs of ids that
    stop each other on contact (hulls already touching at the start are not a new contact).
    Returns the end ``{id: {x, y, heading}}`` and the contacts, each ``{a, b, a_level,
    b_level, a_point, b_point, angle, slice}``: the first overlap of two enemy hulls stops
    both just before it (V-L47, V-L63, V-L135: the declared speeds still count). A vessel
    that would leave the table stops at its edge (the table's end is land to it).
    """
    pos = {m["id"]: {"x": m["x"], "y": m["y"], "heading": m["heading"],
                     "length": m["length"], "beam": m["beam"]} for m in moves}
    stopped: set[str] = set()
    touching = {p for p in enemies if all(i in pos for i in p)
                and overlap(*(pos[i] for i in sorted(p)))}
    contacts: list[dict] = []
    by_id = {m["id"]: m for m in moves}
    for k in range(1, SLICES + 1):
        before = {i: dict(p) for i, p in pos.items()}
        for m in moves:
            if m["id"] in stopped:
                continue
            p = pos[m["id"]]
            p["heading"] = (p["heading"] + m["turn"] / SLICES) % 360.0
            if k == SLICES:
                p["heading"] = (p["heading"] + m["turn_in_place"]) % 360.0
            step = m["distance"] / SLICES
            h = radians(p["heading"])
            nx, ny = p["x"] + sin(h) * step, p["y"] + cos(h) * step
            if not (0 <= nx <= width and 0 <= ny <= depth):
                stopped.add(m["id"])
                continue
            p["x"], p["y"] = nx, ny
        for pair in sorted(enemies, key=sorted):
            a, b = sorted(pair)
            if a not in pos or b not in pos or pair in touching:
                continue
            if a in stopped and b in stopped:
                continue
            if overlap(pos[a], pos[b]):
                pos[a], pos[b] = before[a], before[b]
                stopped.update((a, b))
                touching.add(pair)
                contacts.append({
                    "a": a, "b": b, "a_level": by_id[a]["level"], "b_level": by_id[b]["level"],
                    "a_point": contact_point(pos[a], pos[b]),
                    "b_point": contact_point(pos[b], pos[a]),
                    "angle": round(angle_between(pos[a]["heading"], pos[b]["heading"]), 1),
                    "slice": k})
    return ({i: {"x": p["x"], "y": p["y"], "heading": p["heading"]} for i, p in pos.items()},
            contacts)
