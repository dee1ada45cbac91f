"""The default policy of the ``viking`` engine: a commander who closes with the enemy most
easily reached and rams or boards it, and breaks away from a losing melee.

For each order it may give, the vessel's end of the turn is worked out as if nothing
touched it; the order that leaves it nearest where its target will be (the target going
on as it last moved), pointing at it, wins. A vessel that is weaker than every enemy
near it (under its minimum crew, or its hull nearly gone) keeps away instead. The wind is
left alone.
"""

from __future__ import annotations

from math import cos, hypot, radians, sin

from rules.viking import house
from rules.viking import movement as mv
from rules.viking import orders as od
from rules.viking.data import FULL

SPEED_BONUS = 1.5
"""Inches of approach a level of speed is worth going forward (a faster ram does more harm;
a move the table's edge cuts short earns it only for the way it makes)."""


GANG_UP = 2.0
"""Turns nearer an enemy already grappled to a friend counts (two crews against one)."""
RAM_BONUS = 10.0
"""How much better than ending beside it touching the target this turn is, in inches."""


def wind_choice(st: dict, side: str) -> str:
    """The wind check: leave it (a re-dice is as likely to hurt as to help)."""
    return "keep"


def _strength(v: dict) -> float:
    return v["crew"] * (v["hull"] / v["hull_max"])


def _target(st: dict, v: dict) -> dict | None:
    """The enemy to close with: the most easily reached (A6), counting the inches its
    standing order's part of the table keeps it from the enemy as turns at full speed, and
    one already grappled to a friend as :data:`GANG_UP` turns nearer."""
    best = None
    side = st["sides"][v["side"]]
    top = mv.speed_range(v["cls"], FULL)[1]
    for e in map(st["vessels"].get, st["vessel_ids"]):
        if e["side"] == v["side"] or not house.afloat(e):
            continue
        cost = od.turns_to_reach(st, v, e) + mv.sector_gap(
            v["order"], e["x"], side["baseline"], st["board"]["w"]) / top
        if e["grappled"]:  # bound to a friend: join the fight
            cost -= GANG_UP
        if best is None or cost < best[0]:
            best = (cost, e)
    return None if best is None else best[1]


def choose(st: dict, vid: str, keys: list[str]) -> str:
    """The order the default policy gives vessel ``vid`` among ``keys``."""
    v = st["vessels"][vid]
    if v["grappled"]:
        foes = [st["vessels"][o] for o in v["grappled"]]
        strongest = max(foes, key=lambda f: f["crew"])
        if "fight" in keys and (v["crew"] >= strongest["crew"]
                                or strongest["crew"] < strongest["crew_minimum"]):
            return "fight"
        return "break" if "break" in keys else keys[0]
    target = _target(st, v)
    if target is None or len(keys) == 1:
        return keys[0]
    weak = v["crew"] < v["crew_minimum"] or v["hull"] <= 3
    step = 0.0 if target["grappled"] else mv.speed_range(target["cls"], target["level"])[1] * (
        -1 if target["backward"] else 1)
    tx = target["x"] + sin(radians(target["heading"])) * step
    ty = target["y"] + cos(radians(target["heading"])) * step
    their = {"id": target["id"], "x": target["x"], "y": target["y"],
             "heading": target["heading"], "length": target["length"], "beam": target["beam"],
             "distance": step, "turn": 0.0, "turn_in_place": 0.0, "level": target["level"]}
    reach = (v["length"] + target["length"]) / 2
    best, best_score = keys[0], None
    for key in keys:
        plan = od.parse(key)
        end = od.end_of(st, v, plan)
        d = hypot(end["x"] - tx, end["y"] - ty)
        if plan.action == "move" and plan.distance + abs(step) + reach >= hypot(
                v["x"] - target["x"], v["y"] - target["y"]):
            mine = od.move_shape(st, v, plan)
            _, hits = mv.simulate([mine, their], {frozenset((vid, target["id"]))},
                                  st["board"]["w"], st["board"]["h"])
            if hits:  # a ram or a boarding this turn: the faster the better
                d = -RAM_BONUS - plan.level if not weak else d + RAM_BONUS
        off = mv.angle_between(end["heading"], mv.bearing(end["x"], end["y"], tx, ty))
        way = 0.0
        if plan.action == "move" and not plan.backward and plan.distance > 0:
            way = min(1.0, hypot(end["x"] - v["x"], end["y"] - v["y"]) / plan.distance)
        score = -d + off / 60.0 if weak else d + off / 30.0 - SPEED_BONUS * plan.level * way
        if plan.change:
            score += 0.5
        if plan.action in ("oars", "raise", "lower", "drift"):
            score += 2.0
        if best_score is None or score < best_score:
            best, best_score = key, score
    return best
