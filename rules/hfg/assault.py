"""HFG assaults on the edges of a town or strong point (digest 9.1, 9.3, 11.4, A21; errata
F18.1; HFG seed ``002_a94228d927715433.txt`` L174-177, L277-282, L305-306).

The rules: close combat occurs "when ... an element ... touches an enemy-held BUA or SP"
(L278); a BUA's defender is +2 until set afire and "assaults on each edge are separate and
simultaneous" (L175-176); "each element in close combat with one of its edges fights it
separately and simultaneously" (L282); foot or dismounted losing while "attacking a BUA or
SP" are repulsed 400p (L305-306). A21: one roll per edge; the garrison suffers the worst
result, each attacker its own.

Model: a town (``bua``) or strong point (``strong_point``) is an axis-aligned box ``(x, y,
w, h)`` in paces, held by the one element whose centre is inside it. An assaulting element
stands outside it with its front edge on one of the box's edges (``north``, ``east``,
``south``, ``west``), centred, facing in (:func:`post`, :func:`edge_of`). Standing choices
(the rules leave them to the owner): a winning attacker stays at the edge (it neither
pursues nor presses into the town), and a garrison that wins holds the town.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.engine import IllegalAction
from rules.hfg.combat import NONE, Outcome
from rules.hfg.geometry import EPS, Rect

EDGES = ("north", "east", "south", "west")
HEADINGS = {"north": 180, "east": 270, "south": 0, "west": 90}
"""An assaulting element's facing at each edge: into the box."""
SEVERITY = {"destroyed": 6, "routed": 5, "spent": 4, "repulsed": 3, "recoil": 2, "halt": 1}
"""The outcomes that befall a loser, worst first by value; every other outcome (none, and a
winner's pursuit, charge or press forward) counts 0."""

Box = tuple[float, float, float, float]


def _midpoint(box: Box, edge: str) -> tuple[float, float]:
    x, y, w, h = box
    if edge not in EDGES:
        raise IllegalAction(f"an edge is one of {', '.join(EDGES)}, not {edge!r}")
    return {"north": (x + w / 2, y + h), "east": (x + w, y + h / 2),
            "south": (x + w / 2, y), "west": (x, y + h / 2)}[edge]


def post(box: Box, edge: str, width: float = 400, depth: float = 200) -> Rect:
    """The footprint of an element ``width`` x ``depth`` paces assaulting ``box`` on
    ``edge``: its front-edge midpoint on the edge's midpoint, facing into the box.
    IllegalAction for an unknown edge."""
    mx, my = _midpoint(box, edge)
    return Rect(mx, my, HEADINGS[edge], width, depth)


def edge_of(box: Box, r: Rect) -> str | None:
    """The edge of ``box`` that ``r`` assaults: its front-edge midpoint on that edge (within
    the edge's length, to :data:`~rules.hfg.geometry.EPS`) and its facing into the box;
    None if it assaults none."""
    x, y, w, h = box
    for edge in EDGES:
        if abs(((r.heading - HEADINGS[edge] + 180) % 360) - 180) > 1:
            continue
        mx, my = _midpoint(box, edge)
        along = abs(r.x - mx) if edge in ("north", "south") else abs(r.y - my)
        across = abs(r.y - my) if edge in ("north", "south") else abs(r.x - mx)
        half = (w if edge in ("north", "south") else h) / 2
        if across <= EPS and along <= half + EPS:
            return edge
    return None


def nearest_edge(box: Box, p: tuple[float, float]) -> str:
    """The edge of ``box`` that faces the point ``p`` (outside it): the one whose midpoint
    is nearest, the first of :data:`EDGES` on a tie."""
    return min(EDGES, key=lambda e: (_midpoint(box, e)[0] - p[0]) ** 2
               + (_midpoint(box, e)[1] - p[1]) ** 2)


def worst(outcomes: Iterable[Outcome]) -> Outcome:
    """The garrison's result of its edge combats: the worst loser's outcome among
    ``outcomes`` by :data:`SEVERITY` (the first of equals), or none if it lost none."""
    out = NONE
    for o in outcomes:
        if SEVERITY.get(o.kind, 0) > SEVERITY.get(out.kind, 0):
            out = o
    return out
