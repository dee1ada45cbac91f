"""HFG pre-battle procedure (digest 4; L145-217): who attacks, who chooses the base edge,
the exploitable linear feature, and the deployment zones (the engine's own y measured from
each side's base edge, table 12,000 x 6,000 paces by default).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import MAX_REROLLS, d6
from rules.random import RandomSource

TABLE_W, TABLE_D = 12000, 6000
SIDE_BAND = 1200
EDGE_BONUS = 2
ELF_ROLL = 5


def attacker(source: RandomSource, sides: list[tuple[str, int]]) -> str:
    """The side that attacks: each C-in-C rolls 1d6 plus his army's Ag, in the order given
    (the lower id first, digest 15), ties rolled again; the higher total attacks (L145-147;
    vector P1). ``sides`` as (id, Ag)."""
    for _ in range(MAX_REROLLS):
        totals = [(d6(source, f"attacker {sid}") + ag, sid) for sid, ag in sides]
        best = max(t for t, _ in totals)
        top = [sid for t, sid in totals if t == best]
        if len(top) == 1:
            return top[0]
    return sides[0][0]


def edge_chooser(source: RandomSource, attacker_id: str, defender_id: str) -> str:
    """Who chooses the base edge: 1d6 each, the attacker's first and +2, ties rolled again
    (L188-189, A16; vector P2)."""
    for _ in range(MAX_REROLLS):
        a = d6(source, f"edge {attacker_id}") + EDGE_BONUS
        d = d6(source, f"edge {defender_id}")
        if a != d:
            return attacker_id if a > d else defender_id
    return attacker_id


def exploitable_feature(source: RandomSource, *, cinc_grade: str | None) -> bool:
    """Whether the defender gets an exploitable linear feature: never under a Lethargic
    ("Dilatory", A15) C-in-C (no die), else on a 5 or 6 (L197-198; vector P4)."""
    if cinc_grade == "L":
        return False
    return d6(source, "exploitable feature") >= ELF_ROLL


@dataclass(frozen=True, slots=True)
class Footprint:
    """An element's extent in its own side's frame: ``front`` the furthest y from its base
    edge, ``x_min``..``x_max`` across the table, in paces."""

    front: float
    x_min: float
    x_max: float


def zone_error(fp: Footprint, *, defender: bool, concealed: bool = False,
               exempt: bool = False, width: int = TABLE_W, depth: int = TABLE_D) -> str | None:
    """Why an element may not deploy there, in plain words, or None (L189-190; vector P3):
    no part beyond 200p short of the centreline for the defender and concealed attackers,
    1,200p short for other attackers; nothing within 1,200p of a side edge unless naval or
    in a town or strong point (``exempt``)."""
    limit = depth / 2 - (200 if defender or concealed else 1200)
    if fp.front > limit:
        return (f"no part may be further forward than {limit:.0f} paces from the base edge "
                f"(it reaches {fp.front:.0f})")
    if not exempt and (fp.x_min < SIDE_BAND or fp.x_max > width - SIDE_BAND):
        return "nothing may deploy within 1,200 paces of a side edge"
    if fp.x_min < 0 or fp.x_max > width or fp.front < 0:
        return "the element must be on the table"
    return None
