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

SPEED_BONUS = 1.5
"""Inches of approach a level of speed is worth (a faster ram does more harm)."""


def wind_choice(st: dict, side: str) -> str:
    """The wind check: leave it (a re-dice is as likely to hurt as to help)."""
    return "keep"


def _strength(v: dict) -> float:
    return v["crew"] * (v["hull"] / v["hull_max"])


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
    target = od.easiest_enemy(st, v)
    if target is None or len(keys) == 1:
        return keys[0]
    weak = v["crew"] < v["crew_minimum"] or v["hull"] <= 3
    tx, ty = target["x"], target["y"]
    if house.afloat(target) and not target["grappled"]:
        step = mv.speed_range(target["cls"], target["level"])[1] * (-1 if target["backward"]
                                                                   else 1)
        tx += sin(radians(target["heading"])) * step
        ty += cos(radians(target["heading"])) * step
    best, best_score = keys[0], None
    for key in keys:
        plan = od.parse(key)
        end = od.end_of(st, v, plan)
        d = hypot(end["x"] - tx, end["y"] - ty)
        off = mv.angle_between(end["heading"], mv.bearing(end["x"], end["y"], tx, ty))
        score = -d + off / 60.0 if weak else d + off / 30.0 - SPEED_BONUS * plan.level
        if plan.change:
            score += 0.5
        if plan.action in ("oars", "raise", "lower", "drift"):
            score += 2.0
        if best_score is None or score < best_score:
            best, best_score = key, score
    return best
