"""Damage, derelicts, sinking, scuttling and repair (Brethren B4, L52, L56-L62, L71-L80,
L82-L85; ``rules/brethren.md`` §6.7-§6.9, A9, A22, A24, A25).

Masts are a list, bow first, of ``"UP"`` (standing), ``"HP"``/``"HS"`` (shot away, its
wreckage hanging over the port or starboard side, Loss of Rigging) or ``"LOST"``.

A hanging mast is a mast **lost** (L72: "for each mast lost ... the mast is hanging over the
side"): its cannon is gone and it does not count among the masts left; what hangs is the
wreckage, which keeps the ship from firing on that side and from turning until it is cut
away. The book wins here over the digest's §3.2, which counts a hanging mast as standing:
that reading would make the optional rule spare a ship the loss of the mast.
"""

from __future__ import annotations

from rules.dice import d6
from rules.random import RandomSource


def masts_remaining(masts: list[str]) -> int:
    """The masts still standing (a hanging one is lost, module docstring)."""
    return sum(1 for m in masts if m == "UP")


def hanging_sides(masts: list[str]) -> set[str]:
    """The sides (``"port"``, ``"starboard"``) wreckage hangs over (L72-L73)."""
    return {{"HP": "port", "HS": "starboard"}[m] for m in masts if m in ("HP", "HS")}


def weakest_mast(masts: list[str], cannons: list[dict]) -> int | None:
    """The mast an owner gives up first (the standing choice for "the owner chooses", B4):
    the standing one whose cannon is hardest to hit with (the largest rank), the sternmost
    of equals; ``None`` if none stands."""
    left = [i for i, m in enumerate(masts) if m == "UP"]
    if not left:
        return None
    return max(left, key=lambda i: (cannons[i]["rank"], i))


def remove_masts(masts: list[str], cannons: list[dict], n: int) -> tuple[list[str], list[int]]:
    """``masts`` with ``n`` removed by the owner's standing choice (:func:`weakest_mast`).
    Returns the new list and the indexes lost."""
    out, lost = list(masts), []
    for _ in range(n):
        i = weakest_mast(out, cannons)
        if i is None:
            break
        out[i] = "LOST"
        lost.append(i)
    return out, lost


def rigging_falls(die: int) -> str:
    """Where a lost mast goes (Loss of Rigging, L71-L72): 1-4 it hangs over the side, port
    on an odd roll, starboard on an even one; 5-6 it falls clear. Returns ``"HP"``, ``"HS"``
    or ``"LOST"``."""
    if die >= 5:
        return "LOST"
    return "HP" if die % 2 else "HS"


def loss_of_rigging(source: RandomSource, lost: int) -> list[str]:
    """One d6 for each mast lost this turn (L72): what each becomes (:func:`rigging_falls`)."""
    return [rigging_falls(d6(source, "loss of rigging")) for _ in range(lost)]


def critical(source: RandomSource, hull_hits: int) -> str | None:
    """A critical hit, when a ship takes 2 or more hull points in one exchange (L75-L77): d6
    1 destroys her rudder, 6 hits the magazine (she blows up, and every ship fouled with her
    with her), 2-5 nothing. ``None`` without the roll (fewer than 2 hull hits)."""
    if hull_hits < 2:
        return None
    die = d6(source, "critical hit")
    return "rudder" if die == 1 else "magazine" if die == 6 else "none"


def blown_up(ship_id: str, ships: list[dict]) -> list[str]:
    """The ships a magazine hit destroys (L76-L77): the ship and every ship fouled with her
    (her ``fouled`` partner and those fouled with her)."""
    me = next(s for s in ships if s["id"] == ship_id)
    out = [ship_id]
    for s in ships:
        if s["id"] != ship_id and (s.get("fouled") == ship_id or me.get("fouled") == s["id"]):
            out.append(s["id"])
    return out


def repair_roll(source: RandomSource, *, shipwright: bool = False, under_fire: bool = False,
                purpose: str = "repair") -> tuple[bool, int]:
    """Unfouling, cutting away wreckage or a hull repair under the advanced rules (L83-L85):
    d6, +1 with a Shipwright, -1 if the ship was under fire or boarded this turn; 4 or more
    succeeds. Returns ``(success, die)``."""
    die = d6(source, purpose)
    return die + (1 if shipwright else 0) - (1 if under_fire else 0) >= 4, die


def masts_repaired(*, at_home: bool, shipwright: bool) -> int:
    """Masts one Repair action restores (L16, L82): at home 1, 2 with a Shipwright; at sea or
    a foreign island 1 with a Shipwright, else none."""
    if at_home:
        return 2 if shipwright else 1
    return 1 if shipwright else 0


def scuttle(source: RandomSource) -> bool:
    """A scuttling attempt, a free action for a derelict (L60-L62): 5-6 and she sinks at the
    start of her owner's next turn, unless an enemy takes her in tow first."""
    return d6(source, "scuttle") >= 5


def hit_sinks_derelict(ammo: str | None, mode: str = "any") -> bool:
    """Whether a hit on a mastless ship sinks her: any hit (B4, A22), or with
    ``brethren_derelict_hit`` = ``roundshot`` only roundshot."""
    return mode == "any" or ammo in (None, "round")


def advanced_hits(ship: dict, hits_by_ammo: dict[str, int]) -> dict:
    """Advanced Damage (L73-L75): chainshot hits take masts, roundshot hull points (the cargo
    rating), grapeshot crew counters. Returns the new ``{"rigging", "hull", "crew"}`` points
    (floors at 0) and what each reaching 0 means: ``derelict``, ``sinks``, ``surrenders``."""
    rigging = max(0, masts_remaining(ship["masts"]) - hits_by_ammo.get("chain", 0))
    hull = max(0, ship["hull"] - hits_by_ammo.get("round", 0))
    crew = max(0, len(ship["crew"]) - hits_by_ammo.get("grape", 0))
    return {"rigging": rigging, "hull": hull, "crew": crew, "derelict": rigging == 0,
            "sinks": hull == 0, "surrenders": crew == 0}
