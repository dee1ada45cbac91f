"""Gunfire: lines of fire, arcs and ranges, Fire as They Bear, the Broadside and the
simultaneous exchange (Brethren L14, L20, L48, L51-L52, L65-L71, L80; ``rules/brethren.md``
§6.6, A6, A7, A8, A18, A33).

A battery is one cannon on a standing mast (B3), ``{"rank", "range"}``; it hits when its
d6 plus modifiers is at least its rank, and a natural 1 always misses (L71). A shot is
``{"ship", "target", "battery", "rank", "bonus"}``; a fire is the list of a ship's shots at
one moment.
"""

from __future__ import annotations

from rules.brethren import wind as winds
from rules.brethren.damage import hanging_sides
from rules.brethren.geometry import (
    L,
    S,
    mast_points,
    nearest_point_on_ship,
    point_to_ship,
    segment_hits_circle,
    segment_hits_ship,
    side_of,
)
from rules.brethren.movement import afloat
from rules.dice import d6
from rules.random import RandomSource

MARINES_BATTERY = {"rank": 3, "range": "S"}
"""The Captain of Marines' musketry, "(d3)" read as a 3S battery with no mast (A18)."""


def hits(die: int, rank: int, bonus: int = 0) -> bool:
    """Whether a battery's die hits: die + bonus >= rank, never on a natural 1 (L71)."""
    return die != 1 and die + bonus >= rank


def broadside_threshold(ranks: list[int], reading: str = "highest_number") -> int:
    """The score one Broadside die must reach: the firing cannons' largest rank number (the
    hardest to hit with; A6), or the smallest with ``brethren_broadside_rank`` =
    ``lowest_number``."""
    return max(ranks) if reading == "highest_number" else min(ranks)


def broadside_hits(die: int, ranks: list[int], bonus: int = 0,
                   reading: str = "highest_number") -> int:
    """The hits of a Broadside (L67-L70): one die for all the cannons; at or above the
    threshold every cannon hits and one more (cannons + 1), otherwise none; a natural 1
    misses (A6)."""
    if die == 1 or die + bonus < broadside_threshold(ranks, reading):
        return 0
    return len(ranks) + 1


def fire_battery(source: RandomSource, rank: int, bonus: int = 0, *,
                 reroll: bool = False, purpose: str = "gunfire") -> tuple[bool, list[int]]:
    """Roll one battery: ``(hit, dice)``; with ``reroll`` (a Cannoneer's, L14) a miss is
    rolled once more."""
    die = d6(source, purpose)
    if hits(die, rank, bonus) or not reroll:
        return hits(die, rank, bonus), [die]
    again = d6(source, f"{purpose} (cannoneer)")
    return hits(again, rank, bonus), [die, again]


def batteries(ship: dict) -> list[dict]:
    """The ship's batteries that can fire: one per standing mast (B3; a mast shot away and
    hanging has lost its cannon, ``rules.brethren.damage``), a Cannoneer making the first S
    cannon L (L14), and the Captain of Marines' 3S (A18). Each ``{"battery", "rank",
    "range", "mast"}``."""
    out = []
    upgraded = "cannoneer" not in ship["crew"]
    points = mast_points(ship)
    for i, (status, gun) in enumerate(zip(ship["masts"], ship["cannons"])):
        if status != "UP":
            continue
        rng = gun["range"]
        if not upgraded and rng == "S":
            rng, upgraded = "L", True
        out.append({"battery": i, "rank": gun["rank"], "range": rng, "mast": points[i]})
    if "marines" in ship["crew"]:
        out.append({"battery": "marines", **MARINES_BATTERY, "mast": (ship["x"], ship["y"])})
    return out


AMMO = ("round", "chain", "grape")
"""Advanced Damage's shot (L73-L75): roundshot against the hull, chainshot the rigging,
grapeshot the crew (S range only)."""


def choose_ammo(target: dict, distance: float) -> str:
    """The shot a battery loads against ``target`` at ``distance`` inches (the standing
    choice for the firer's declaration, L73): at the pool she has least of, rigging (masts
    standing), hull or crew (grapeshot only within S), roundshot first among equals, then
    chainshot; at a derelict roundshot, which sinks her under either reading of A22."""
    if target.get("derelict"):
        return "round"
    pools = [("round", target["hull"]),
             ("chain", sum(1 for m in target["masts"] if m == "UP"))]
    if distance <= S:
        pools.append(("grape", len(target["crew"])))
    return min(pools, key=lambda p: p[1])[0]


def may_be_shot(state: dict, target: dict) -> bool:
    """Not lost in fog (L26), not docked at her own home island (L67), afloat."""
    if not afloat(target) or target.get("lost"):
        return False
    home = state["sides"][target["side"]].get("home")
    return not (home is not None and target.get("docked_at") == home)


def line_clear(state: dict, a: tuple[float, float], target: dict, shooter: dict) -> bool:
    """Whether the line from a mast to the nearest point of ``target`` crosses no island,
    fog bank, wreck or other ship (L26, L64-L67)."""
    b = nearest_point_on_ship(a, target)
    for isl in state["islands"].values():
        if segment_hits_circle(a, b, isl["x"], isl["y"], isl["r"]):
            return False
    for t in state["terrain"]:
        if t["kind"] in ("fog", "wreck") and segment_hits_circle(a, b, t["x"], t["y"], t["r"]):
            return False
    for s in state["ships"].values():
        if s["id"] in (shooter["id"], target["id"]) or not afloat(s):
            continue
        if segment_hits_ship(a, b, s):
            return False
    return True


def max_range(state: dict, gun_range: str) -> float:
    """Inches a cannon of ``gun_range`` reaches in this wind: S only in a Near gale (L48)."""
    cap = winds.strength(state["wind"]["strength"])["max_range"]
    if cap == "S":
        return S
    return S if gun_range == "S" else L


def candidates(state: dict, ship: dict, enemies: list[dict]) -> dict[str, list[dict]]:
    """Side -> the batteries that bear on each enemy from that side: ``{"port": [{"battery",
    "rank", "target", "distance"}...], "starboard": [...]}`` (arcs A7, range B3, L48; line
    of fire L66-L67)."""
    out: dict[str, list[dict]] = {"port": [], "starboard": []}
    fouled = hanging_sides(ship["masts"])  # no fire over wreckage (L72-L73)
    for bat in batteries(ship):
        reach = max_range(state, bat["range"])
        for enemy in enemies:
            if not may_be_shot(state, enemy):
                continue
            dist = point_to_ship(bat["mast"], enemy)
            if dist > reach:
                continue
            aim = nearest_point_on_ship(bat["mast"], enemy)
            side = side_of(ship, *aim)
            if side is None or side in fouled:
                continue
            if not line_clear(state, bat["mast"], enemy, ship):
                continue
            out[side].append({"battery": bat["battery"], "rank": bat["rank"],
                              "target": enemy["id"], "distance": round(dist, 2)})
    return out


def choose_fire(state: dict, ship: dict, enemies: list[dict], *, mode: str = "bear",
                side: str | None = None, per_battery_sides: bool = False,
                advanced: bool = False) -> list[dict]:
    """The shots a ship fires now (the standing choice for "fire"): to the one side where
    most batteries bear (A8: the whole ship fires to one side a turn; ``side`` if it has
    fired already), each battery at the enemy it bears on that is nearest, the weakest
    first. ``mode="broadside"``: every cannon at short range at the one target most of them
    bear on (L67-L69). With ``per_battery_sides`` each battery may fire to either side
    (A8's alternative). With ``advanced`` (Advanced Damage) each shot carries the ``ammo``
    its battery loads (:func:`choose_ammo`; a Broadside's one for all, A6). Returns the
    shots, ``[]`` if none bears."""
    cands = candidates(state, ship, enemies)
    sides = [side] if side else ["port", "starboard"]
    if per_battery_sides and not side and mode == "bear":
        pool = cands["port"] + cands["starboard"]
    else:
        best = max(sides, key=lambda s: len({c["battery"] for c in cands[s]}))
        pool = cands[best]
    if mode == "broadside":
        pool = [c for c in pool if c["distance"] <= S and c["battery"] != "marines"]
        if not pool:
            return []
        counts: dict[str, int] = {}
        for c in pool:
            counts[c["target"]] = counts.get(c["target"], 0) + 1
        target = max(sorted(counts), key=lambda t: counts[t])
        pool = [c for c in pool if c["target"] == target]
    shots, seen = [], set()
    masts_left = {e["id"]: sum(1 for m in e["masts"] if m == "UP") for e in enemies}
    for c in sorted(pool, key=lambda c: (masts_left.get(c["target"], 9), c["distance"])):
        if c["battery"] in seen:
            continue
        seen.add(c["battery"])
        shot = {"ship": ship["id"], "target": c["target"], "battery": c["battery"],
                "rank": c["rank"], "side": side_of(ship, *nearest_point_on_ship(
                    (ship["x"], ship["y"]), state["ships"][c["target"]])) or side}
        if advanced:
            shot["ammo"] = choose_ammo(state["ships"][c["target"]], c["distance"])
        shots.append(shot)
    if advanced and mode == "broadside" and shots:
        for shot in shots:
            shot["ammo"] = shots[0]["ammo"]
    return shots


def resolve_fire(source: RandomSource, shots: list[dict], *, mode: str = "bear",
                 bonus: int = 0, reroll: bool = False, limit: int | None = None,
                 reading: str = "highest_number") -> tuple[dict[str, int], list[dict]]:
    """Roll a ship's ``shots``: each battery its die (Fire as They Bear, L70-L71; a
    Cannoneer's re-roll on the first miss, L14; at most ``limit`` batteries for a single
    crew counter, L80), or one die for the Broadside (L68). Returns ``(hits per target,
    rolls)`` where each roll is ``{"battery", "target", "dice", "hit", "ammo"}``; nothing is applied
    here (the exchange applies both sides' hits together, L52)."""
    if limit is not None:
        shots = shots[:limit]
    hits_on: dict[str, int] = {}
    rolls: list[dict] = []
    if not shots:
        return hits_on, rolls
    if mode == "broadside":
        die = d6(source, f"broadside {shots[0]['ship']}")
        n = broadside_hits(die, [s["rank"] for s in shots], bonus, reading)
        target = shots[0]["target"]
        if n:
            hits_on[target] = n
        rolls.append({"battery": "broadside", "target": target, "dice": [die], "hit": n,
                      "ammo": shots[0].get("ammo")})
        return hits_on, rolls
    for shot in shots:
        hit, dice = fire_battery(source, shot["rank"], bonus, reroll=reroll,
                                 purpose=f"gunfire {shot['ship']}:{shot['battery']}")
        if len(dice) > 1:
            reroll = False
        if hit:
            hits_on[shot["target"]] = hits_on.get(shot["target"], 0) + 1
        rolls.append({"battery": shot["battery"], "target": shot["target"], "dice": dice,
                      "hit": int(hit), "ammo": shot.get("ammo")})
    return hits_on, rolls
