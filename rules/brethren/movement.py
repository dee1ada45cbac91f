"""Movement: the allowance by point of sailing, wind, crew and tow, and sailing it across
the table with its contacts, terrain and docking (Brethren L15, L17, L43-L49, L54-L64;
``rules/brethren.md`` §6.2, §6.3, §7, A4, A5, A31, A32).

Orders discretise a move (the engine's options): a heading for the whole move, or a mark
(an island, a ship, a point) the ship steers for, re-aiming between legs as the base game
allows a change of direction there (B2, A5). A square-rigger steering for a mark dead to
windward bears away to close-hauled (she cannot sail into the wind, L45): she tacks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from math import hypot

from rules.brethren import crews, terrain
from rules.brethren import wind as winds
from rules.brethren.geometry import (
    EPSILON,
    LENGTHS,
    Capsule,
    S,
    angle_between,
    bow_segment,
    footprint,
    gap_capsule_circle,
    gap_capsules,
    heading_to,
    hull,
    unit,
)
from rules.dice import d6
from rules.random import RandomSource

STEP = 0.25
"""Inches a ship advances between contact checks; a contact found inside a step is placed
by halving the step (so ships stop touching, within ``EPSILON``)."""

Log = Callable[[str, str, dict], object]
"""Where a move records what happened: ``log(kind, text, data)``."""


def apply_modifiers(legs: list[str], mods: int) -> list[str]:
    """The legs after ``mods`` S legs: +n appends n S legs; -n removes S legs first, then
    shortens an L leg to L-S, then removes further legs; never below none (A4).

    >>> apply_modifiers(["L"], -1)
    ['L-S']
    >>> apply_modifiers(["L", "S"], 1)
    ['L', 'S', 'S']
    """
    out = list(legs)
    if mods > 0:
        return out + ["S"] * mods
    for _ in range(-mods):
        if "S" in out:
            del out[len(out) - 1 - out[::-1].index("S")]
        elif "L" in out:
            out[len(out) - 1 - out[::-1].index("L")] = "L-S"
        elif out:
            out.pop()
    return out


def in_lee(ship: dict, islands: list[dict], wind: dict) -> bool:
    """Whether an island lies within 1 S upwind of the ship: any of its points within S of
    her and within 45° of the bearing the wind comes from (A31)."""
    upwind = (winds.blows_toward(wind) + 180) % 360
    for isl in islands:
        d = hypot(isl["x"] - ship["x"], isl["y"] - ship["y"]) - isl["r"]
        if d <= S and angle_between(heading_to(ship["x"], ship["y"], isl["x"], isl["y"]),
                                    upwind) <= 45:
            return True
    return False


def allowance(ship: dict, heading: float, wind: dict, *, lee: bool = False,
              settings: dict | None = None, source: RandomSource | None = None) -> list[str]:
    """The legs a ship may sail this move on ``heading`` (§6.2.1): her base move (S while
    towing, L63), plus the point of sailing's and the wind strength's S legs, a Helmsman's
    and Agustin Covas's (L15, L17), combined by :func:`apply_modifiers` (A4); nothing in a
    Calm, a Storm, for a derelict or for a square-rigger into the wind, where an Oarsman
    gives S instead (never on top, L15, L46). Light Air is -S, or with the setting
    ``brethren_light_air`` = ``plus_minus_S`` a d6 per move: 1-3 -S, 4-6 +S (BR-2)."""
    settings = settings or {}
    crew = ship["crew"]
    legs = ["S"] if ship.get("towing") else list(ship["base_move"])
    sector = winds.point_of_sailing(heading, wind)
    sail_mod = winds.sailing_modifier(sector, ship["rig"])
    level = wind["strength"]
    row = winds.strength(level)
    wind_mod = row["move"] if ship["cargo"] >= 3 else row["small_move"]
    if level == winds.LIGHT_AIR and settings.get("brethren_light_air") == "plus_minus_S":
        if source is None:
            raise ValueError("Light Air under plus_minus_S rolls a d6: give a random source")
        wind_mod = -1 if d6(source, f"light air {ship['id']}") <= 3 else 1
    derelict = ship.get("derelict") or not any(m == "UP" for m in ship["masts"])
    sail_ok = sail_mod is not None and wind_mod is not None and not derelict and legs
    sail = []
    if sail_ok:
        mods = sail_mod + wind_mod + crews.count(crew, "helmsman") + crews.count(crew, "covas")
        sail = apply_modifiers(legs, mods)
    oars = (["S"] if "oarsman" in crew and (derelict or lee or sector == "into_wind"
                                            or level == winds.CALM) else [])
    if level == winds.STORM:
        return []
    return sail if length_of(sail) >= length_of(oars) else oars


def length_of(legs: list[str]) -> float:
    """Total inches of ``legs``."""
    return sum(LENGTHS[leg] for leg in legs)


def steer(ship: dict, heading: float, wind: dict) -> float:
    """The heading a ship takes to steer for ``heading``: the same, unless she is a
    square-rigger without oars and it is into the wind; then the nearer close-hauled
    heading (she tacks)."""
    if ship["rig"] != "SQUARE" or "oarsman" in ship["crew"]:
        return heading
    if winds.point_of_sailing(heading, wind) != "into_wind":
        return heading
    comes_from = (winds.blows_toward(wind) + 180) % 360
    left, right = (comes_from - 23) % 360, (comes_from + 23) % 360
    return left if angle_between(heading, left) <= angle_between(heading, right) else right


def clear_course(state: dict, ship: dict, heading: float, reach: float,
                 goal: str | None = None) -> float:
    """The heading nearest ``heading`` on which the next ``reach`` inches are clear of
    islands, seascapes and other ships (but the ``goal`` she steers for), trying 20°, 40°...
    either side: a ship steering for a mark sails round an island, a reef or a ship in her
    way, as a helmsman would."""
    from rules.brethren.geometry import segment_hits_circle

    x, y = ship["x"], ship["y"]
    pad = ship["beam"] / 2 + 0.1
    others = [{"id": s["id"], "x": s["x"], "y": s["y"], "r": s["length"] / 2}
              for s in map(state["ships"].get, state["ship_ids"])
              if s["id"] != ship["id"] and afloat(s)]
    islands = [i for i in [*map(state["islands"].get, state["island_ids"]), *state["terrain"],
                           *others]
               if i["id"] != goal and hypot(i["x"] - x, i["y"] - y) - i["r"]
               <= reach + ship["length"]]
    if not islands:
        return heading
    for turn in (0, 20, -20, 40, -40, 60, -60, 80, -80, 100, -100, 120, -120):
        h = (heading + turn) % 360
        ux, uy = unit(h)
        end = (x + ux * (reach + ship["length"] / 2), y + uy * (reach + ship["length"] / 2))
        if not any(segment_hits_circle((x, y), end, i["x"], i["y"], i["r"] + pad)
                   for i in islands):
            return h
    return heading


def come_about(ship: dict) -> float:
    """The heading after coming about: turned in place so the bow is where the stern was
    (a move action, no distance; L56)."""
    return (ship["heading"] + 180) % 360


def _obstacles(state: dict, ship: dict, reach: float
               ) -> tuple[list[dict], list[dict], list[dict]]:
    """The islands, ships and terrain pieces within ``reach`` of the ship's centre (the
    rest cannot be met this move)."""
    x, y = ship["x"], ship["y"]
    near = reach + footprint(ship["masts_original"])[0]
    isl = [i for i in map(state["islands"].get, state["island_ids"])
           if hypot(i["x"] - x, i["y"] - y) - i["r"] <= near]
    shp = [s for s in map(state["ships"].get, state["ship_ids"])
           if s["id"] != ship["id"] and afloat(s) and s["id"] != ship.get("towing")
           and hypot(s["x"] - x, s["y"] - y) <= near + 2.0]
    ter = [t for t in state["terrain"] if hypot(t["x"] - x, t["y"] - y) - t["r"] <= near]
    return isl, shp, ter


def afloat(ship: dict) -> bool:
    """Whether the ship is still on the table: neither sunk nor gone."""
    return not ship.get("sunk") and not ship.get("gone")


def _blocked(state: dict, ship: dict, isl: list[dict], shp: list[tuple[dict, Capsule]],
             ter: list[dict], swung: dict[str, float] | None = None) -> tuple[str, str] | None:
    """What the ship at her present place overlaps: ("island", id), ("ship", id),
    ("wreck", id), ("edge", "") or None. ``swung``: id -> overlap of what her turn at the
    start of the leg swung her hull into (a ship docked bow-on turning away): that does not
    stop her while she draws away from it (the overlap shrinks), and is forgotten once she
    is clear; it is updated here."""
    h = hull(ship)
    found: tuple[str, str] | None = None
    for kind, oid, gap in _gaps(h, isl, shp, ter):
        if swung is not None and oid in swung:
            if gap < swung[oid] - 1e-9:
                return kind, oid
            if gap >= 0:
                del swung[oid]
            else:
                swung[oid] = gap
            continue
        if gap < 0 and found is None:
            found = (kind, oid)
    if found:
        return found
    w, hgt = state["board"]["w"], state["board"]["h"]
    a, b, r = h
    if min(a[0], b[0]) - r < 0 or min(a[1], b[1]) - r < 0 or max(a[0], b[0]) + r > w \
            or max(a[1], b[1]) + r > hgt:
        return "edge", ""
    return None


def _gaps(h: Capsule, isl: list[dict], shp: list[tuple[dict, Capsule]], ter: list[dict]
          ) -> Iterator[tuple[str, str, float]]:
    for i in isl:
        yield "island", i["id"], gap_capsule_circle(h, i["x"], i["y"], i["r"])
    for s, sh in shp:
        yield "ship", s["id"], gap_capsules(h, sh)
    for t in ter:
        if t["kind"] == "wreck":
            yield "wreck", t["id"], gap_capsule_circle(h, t["x"], t["y"], t["r"])


def sail(state: dict, ship: dict, legs: list[str], heading_for: Callable[[dict], float],
         source: RandomSource, log: Log, during: Callable[[dict], object] | None = None
         ) -> dict:
    """Sail ``ship`` (changed in place) her ``legs`` one at a time, each on the heading
    ``heading_for(ship)`` gives at its start (a rudderless ship or one with a mast hanging
    keeps hers, L72-L73, L76). She stops at once where she touches an island, a ship, a
    wreck or the table's edge (L56), or is tangled in the Sargasso (L30-L32); a reef she
    moves onto takes its masts (L27-L29), fog makes her lost (L25-L26). ``log(kind, text,
    data)`` records what happened; ``during(ship)``, if given, is called after every step
    she makes (firing during a move, errata BR-5). Returns ``{"stopped": None | (what, id),
    "moved": inches}``."""
    total = length_of(legs)
    isl, near, ter = _obstacles(state, ship, total)
    shp = [(s, hull(s)) for s in near]  # they lie still while she moves
    already = {t["id"] for t in ter if t["kind"] in ("reef", "sargasso", "fog")
               and gap_capsule_circle(hull(ship), t["x"], t["y"], t["r"]) < 0}
    moved = 0.0
    fixed = ship.get("rudder_out") or any(m in ("HP", "HS") for m in ship["masts"])
    for leg in legs:
        if not fixed:
            ship["heading"] = round(heading_for(ship) % 360, 1)
        ux, uy = unit(ship["heading"])
        swung = {oid: gap for _, oid, gap in _gaps(hull(ship), isl, shp, ter) if gap < 0}
        left = LENGTHS[leg]
        while left > 1e-9:
            step = min(STEP, left)
            px, py = ship["x"], ship["y"]
            before = dict(swung)
            ship["x"], ship["y"] = px + ux * step, py + uy * step
            hit = _blocked(state, ship, isl, shp, ter, swung)
            if hit is not None:
                lo, hi = 0.0, step
                for _ in range(6):  # place her touching, not overlapping
                    mid = (lo + hi) / 2
                    ship["x"], ship["y"] = px + ux * mid, py + uy * mid
                    if _blocked(state, ship, isl, shp, ter, dict(before)):
                        hi = mid
                    else:
                        lo = mid
                ship["x"], ship["y"] = round(px + ux * lo, 3), round(py + uy * lo, 3)
                moved += lo
                return {"stopped": hit, "moved": round(moved, 3)}
            moved += step
            left -= step
            stop = _terrain(ship, ter, already, source, log)
            if during is not None and not stop:
                during(ship)
            if stop:
                ship["x"], ship["y"] = round(ship["x"], 3), round(ship["y"], 3)
                return {"stopped": stop, "moved": round(moved, 3)}
    ship["x"], ship["y"] = round(ship["x"], 3), round(ship["y"], 3)
    return {"stopped": None, "moved": round(moved, 3)}


def _terrain(ship: dict, ter: list[dict], already: set[str], source: RandomSource, log: Log
             ) -> tuple[str, str] | None:
    h = hull(ship)
    for t in ter:
        if t["id"] in already or t["kind"] == "wreck":
            continue
        if gap_capsule_circle(h, t["x"], t["y"], t["r"]) >= 0:
            continue
        already.add(t["id"])
        if t["kind"] == "fog":
            ship["lost"] = True
            log("move.fog", f"The {ship['name']} sails into a fog bank and is lost in it.",
                {"ship": ship["id"], "terrain": t["id"]})
        elif t["kind"] == "reef":
            up = sum(1 for m in ship["masts"] if m == "UP")
            loss, sinks = terrain.reef_check(t, ship["masts_original"], up, source,
                                             covas="covas" in ship["crew"])
            log("move.reef", f"The {ship['name']} strikes a reef (depth {t['rating']}): "
                f"{'she sinks on it' if sinks else f'{loss} mast(s) lost' if loss else 'no harm'}.",
                {"ship": ship["id"], "terrain": t["id"], "depth": t["rating"], "loss": loss,
                 "sinks": sinks})
            if sinks:
                ship["reef_sunk"] = True
                return ("reef", t["id"])
            if loss:
                ship["reef_loss"] = ship.get("reef_loss", 0) + loss
                return None
        elif t["kind"] == "sargasso":
            if terrain.sargasso_check(t, ship["masts_original"], source,
                                      covas="covas" in ship["crew"]):
                ship["tangled"] = True
                log("move.sargasso", f"The {ship['name']} is tangled in the Sargasso (thickness "
                    f"{t['rating']}).", {"ship": ship["id"], "terrain": t["id"],
                                         "thickness": t["rating"]})
                return ("sargasso", t["id"])
            log("move.sargasso", f"The {ship['name']} sails through the Sargasso (thickness "
                f"{t['rating']}).", {"ship": ship["id"], "terrain": t["id"],
                                     "thickness": t["rating"]})
    return None


def bow_contacts(state: dict, ship: dict) -> tuple[list[str], list[str]]:
    """The islands and ships the ship's bow touches (docking, ramming, fouling; B5,
    L57-L59): ``(island ids, ship ids)``."""
    bow = bow_segment(ship)
    isl = [i["id"] for i in map(state["islands"].get, state["island_ids"])
           if gap_capsule_circle(bow, i["x"], i["y"], i["r"]) <= EPSILON]
    shp = [s["id"] for s in map(state["ships"].get, state["ship_ids"])
           if s["id"] != ship["id"] and afloat(s) and gap_capsules(bow, hull(s)) <= EPSILON]
    return isl, shp


def overlapping(ship: dict, others: list[dict]) -> str | None:
    """The first of ``others`` whose hull overlaps ``ship``'s (a bad setup), else None."""
    h = hull(ship)
    for o in others:
        if gap_capsules(h, hull(o)) < 0:
            return o["id"]
    return None
