"""The sea of British vs Pirates: hexes, sea tiles, arcs, line of sight and the side a shot
strikes (``british_vs_pirates.md`` §3, §6.1, §6.2, A1-A3, A14, A17).

**The hex coordinate model.** Hexes are *pointy-topped* and named by **axial coordinates**
``(q, r)`` (the third cube coordinate is ``s = -q - r``). A hex's centre on the plane, in
units of the hex's circumradius, with y pointing **up** (north)::

    x = √3 · (q + r/2)        y = -1.5 · r

A hex has six hexsides, and a ship in it faces one of them. **Direction** ``d`` (0-5) is the
hexside at bearing ``60·d`` degrees counter-clockwise from east: 0 east, 1 north-east, 2
north-west, 3 west, 4 south-west, 5 south-east; the neighbour across it is ``(q, r) +
STEPS[d]``. A ship's **heading** is the direction its bow points; a pivot turns it by one
direction (``+1`` counter-clockwise, to port; ``-1`` clockwise, to starboard). The wind is
stored as the direction it **blows toward** (A9).

**Sea tiles.** A sea tile is a hexagon of hexes of radius :data:`TILE_RADIUS` (19 hexes)
around its centre hex, the engine's reading of the printed tiles, whose drawings the source
lacks [L43-L48]. Tiles that touch sit with their centres at one of :data:`TILE_OFFSETS`
apart, so any layout of the book's 3, 5 or 9 tiles is a list of tile centres. A tile may
list land hexes (A17: the source has none digitised, so the shipped tiles are all sea).
**Half-hexes** (A14) are the cells just outside the map along a tile's outer edge: only a
ship set up there, or a merchant reaching its goal, may be in one.
"""

from __future__ import annotations

from functools import lru_cache
from math import atan2, degrees, floor, sqrt

Hex = tuple[int, int]

STEPS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The neighbour across hexside ``d`` is ``(q + STEPS[d][0], r + STEPS[d][1])``."""
DIRECTION_NAMES = ("east", "north-east", "north-west", "west", "south-west", "south-east")
TILE_RADIUS = 2
TILE_OFFSETS: tuple[Hex, ...] = ((5, -2), (3, -5), (-2, -3), (-5, 2), (-3, 5), (2, 3))
"""Centre-to-centre steps between two touching tiles of radius 2 (2R+1 hexes apart)."""
SIDES = ("bow", "starboard", "stern", "port")
EPS = 1e-6


def distance(a: Hex, b: Hex) -> int:
    """Hexes between ``a`` and ``b`` (0 for the same hex): the book's "spaces" [L115]."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def step(h: Hex, d: int) -> Hex:
    """The neighbour of ``h`` across hexside ``d`` (0-5)."""
    dq, dr = STEPS[d % 6]
    return (h[0] + dq, h[1] + dr)


def centre(h: Hex) -> tuple[float, float]:
    """The centre of ``h`` on the plane (x east, y north; unit: the hex's circumradius)."""
    return (sqrt(3) * (h[0] + h[1] / 2), -1.5 * h[1])


def bearing(a: Hex, b: Hex) -> float:
    """The direction from the centre of ``a`` to the centre of ``b``, in degrees
    counter-clockwise from east, in [0, 360)."""
    (xa, ya), (xb, yb) = centre(a), centre(b)
    return degrees(atan2(yb - ya, xb - xa)) % 360


def _signed(angle: float) -> float:
    """``angle`` in (-180, 180]."""
    a = (angle + 180) % 360 - 180
    return 180.0 if a == -180 else a


def relative_bearing(frm: Hex, heading: int, to: Hex) -> float:
    """Where ``to`` lies seen from a ship in ``frm`` with bow toward ``heading``: degrees in
    (-180, 180], 0 dead ahead, **positive to starboard** (clockwise), negative to port."""
    return _signed(60 * heading - bearing(frm, to))


def in_arc(frm: Hex, heading: int, to: Hex, arc: str, reading: str = "strict") -> bool:
    """Whether ``to`` is in the firing arc ``arc`` (``"port"`` or ``"starboard"``) of a ship
    in ``frm`` heading ``heading`` (A1): starboard 30° < θ < 150°, port -150° < θ < -30°
    (``reading="strict"``, the default); ``"inclusive"`` takes the boundaries as well,
    ``"narrow"`` is 60°-120° (inclusive). ``ValueError`` for an unknown arc or reading."""
    if arc not in ("port", "starboard"):
        raise ValueError(f"no firing arc {arc!r}")
    theta = relative_bearing(frm, heading, to)
    theta = theta if arc == "starboard" else -theta
    if reading == "strict":
        return 30 + EPS < theta < 150 - EPS
    if reading == "inclusive":
        return 30 - EPS <= theta <= 150 + EPS
    if reading == "narrow":
        return 60 - EPS <= theta <= 120 + EPS
    raise ValueError(f"no arc reading {reading!r}")


def _cube_round(x: float, z: float) -> Hex:
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return (int(rx), int(rz))


def line(a: Hex, b: Hex, nudge: float = 0.0) -> list[Hex]:
    """The hexes a straight line from the centre of ``a`` to the centre of ``b`` passes
    through, ``a`` and ``b`` included, with the line moved by ``nudge`` (a small ±ε, so
    that a line along hexsides falls on one side or the other: A2)."""
    n = distance(a, b)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        q = a[0] + (b[0] - a[0]) * t + nudge
        r = a[1] + (b[1] - a[1]) * t + nudge
        out.append(_cube_round(q, r))
    return out


def line_clear(a: Hex, b: Hex, blocked: set[Hex]) -> bool:
    """Line of sight from the centre of ``a`` to the centre of ``b`` [L117-L119]: clear
    unless a hex strictly between holds a ship or land (``blocked``). A line grazing hex
    corners is nudged by +ε and -ε and is blocked only if both nudged lines are (A2)."""
    for nudge in (EPS, -EPS):
        if not any(h in blocked for h in line(a, b, nudge)[1:-1]):
            return True
    return False


def exposed_sides(target: Hex, heading: int, attacker: Hex, screened: set[Hex]) -> list[str]:
    """The sides of a ship in ``target`` with bow toward ``heading`` that a shot from
    ``attacker`` may strike (§6.2, A2): the hexside the line of fire enters by (both adjoining
    ones if it enters exactly through a corner, Example B), bow for the hexside the bow faces,
    stern opposite, the two on either flank starboard and port. A side is dropped if the hex
    beyond its hexside is in ``screened`` (another ship, or land: Example C). Sides in the
    order bow, starboard, stern, port."""
    rho = _signed(bearing(target, attacker) - 60 * heading)  # counter-clockwise from the bow
    k = rho / 60
    lo = floor(k)
    if abs(k - lo - 0.5) < EPS:  # exactly through a corner
        faces = [lo % 6, (lo + 1) % 6]
    else:
        faces = [round(k) % 6]
    sides = []
    for face in faces:
        if step(target, heading + face) in screened:
            continue
        side = _FACE_SIDE[face]
        if side not in sides:
            sides.append(side)
    return [s for s in SIDES if s in sides]


_FACE_SIDE = {0: "bow", 1: "port", 2: "port", 3: "stern", 4: "starboard", 5: "starboard"}
"""A hexside counted counter-clockwise from the bow's: the two to port of the bow are the
port side, the two to starboard the starboard side (A2)."""


def downwind_of(upwind: Hex, ship: Hex, wind: int, cone: int = 30) -> bool:
    """Whether a ship in ``ship`` is downwind of one in ``upwind`` (A3): the bearing from
    ``upwind`` to ``ship`` lies within ±``cone`` degrees (inclusive) of the direction the
    wind blows toward (``wind``, 0-5). The same hex is not downwind."""
    if upwind == ship:
        return False
    return abs(_signed(bearing(upwind, ship) - 60 * wind)) <= cone + EPS


def tile_cells(q: int, r: int) -> list[Hex]:
    """The hexes of a sea tile centred on ``(q, r)``."""
    n = TILE_RADIUS
    return [(q + dq, r + dr) for dq in range(-n, n + 1)
            for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1)]


@lru_cache(maxsize=64)
def _board(tiles: tuple[tuple[int, int], ...]) -> tuple[frozenset[Hex], tuple[frozenset[Hex], ...]]:
    cells: set[Hex] = set()
    for q, r in tiles:
        cells.update(tile_cells(q, r))
    halves = []
    mid = (sum(q for q, _ in tiles) / len(tiles), sum(r for _, r in tiles) / len(tiles))
    for q, r in tiles:
        far = _dist_f((q, r), mid)
        half = {step(c, d) for c in tile_cells(q, r) for d in range(6)} - cells
        halves.append(frozenset(h for h in half if _dist_f(h, mid) > far))
    return frozenset(cells), tuple(halves)


def _dist_f(h: tuple[float, float], mid: tuple[float, float]) -> float:
    dq, dr = h[0] - mid[0], h[1] - mid[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) / 2


def board_cells(tiles: list[dict]) -> frozenset[Hex]:
    """Every sea or land hex of the tiles ``[{"q", "r", ...}]``."""
    return _board(tuple((t["q"], t["r"]) for t in tiles))[0]


def land_cells(tiles: list[dict]) -> frozenset[Hex]:
    """The land hexes of the tiles: each tile's ``"land"``, offsets ``[dq, dr]`` from its
    centre (A17; none on the shipped tiles)."""
    return _land(tuple((t["q"], t["r"], tuple(map(tuple, t.get("land", ())))) for t in tiles))


@lru_cache(maxsize=64)
def _land(tiles: tuple) -> frozenset[Hex]:
    return frozenset((q + dq, r + dr) for q, r, land in tiles for dq, dr in land)


def half_hexes(tiles: list[dict], index: int) -> frozenset[Hex]:
    """The half-hexes along the outer edge of tile ``tiles[index]`` (A14): cells just off the
    map beside the tile, farther from the middle of the layout than the tile's centre."""
    return _board(tuple((t["q"], t["r"]) for t in tiles))[1][index]


def tiles_overlap(tiles: list[dict]) -> bool:
    """Whether two tiles of the layout share a hex."""
    seen: set[Hex] = set()
    for t in tiles:
        cells = set(tile_cells(t["q"], t["r"]))
        if cells & seen:
            return True
        seen |= cells
    return False


def tiles_connected(tiles: list[dict]) -> bool:
    """Whether the tiles form one sea (each touches another, through shared hexsides)."""
    if not tiles:
        return False
    cells = board_cells(tiles)
    start = (tiles[0]["q"], tiles[0]["r"])
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for d in range(6):
            n = step(h, d)
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells
