"""Wind: its direction and strength, their change each turn, and the point of sailing
(Brethren L41-L49, L113-L114; ``rules/brethren.md`` §3.8, A2, A3, A15, A16, BR-2).

The wind is ``{"dir": 0-7, "strength": 0-5}``: ``dir`` the compass point it blows
*toward* (:data:`rules.brethren.geometry.COMPASS`), ``strength`` the level of
``sea.json``'s table (0 Calm .. 5 Storm).
"""

from __future__ import annotations

from rules.brethren.data import reference
from rules.brethren.geometry import COMPASS, angle_between
from rules.dice import d6
from rules.random import RandomSource

CALM, LIGHT_AIR, FRESH, STRONG, NEAR_GALE, STORM = range(6)


def strength(level: int) -> dict:
    """The row of the strength table for ``level`` (0-5)."""
    return reference("sea")["strengths"][level]


def change(wind: dict, source: RandomSource) -> tuple[dict, tuple[int, int]]:
    """The wind after the turn's two dice, rolled in order: direction, then strength (A16).
    Direction: 1-3 no change, 4 shifts 45° clockwise, 5 45° counter-clockwise, 6 reverses;
    strength: 1 down a level, 2-5 no change, 6 up, clamped to Calm..Storm (L42-L43, A15).
    Returns the new wind and the dice."""
    sea = reference("sea")
    dir_die = d6(source, "wind direction")
    str_die = d6(source, "wind strength")
    new_dir = (wind["dir"] + sea["direction_die"][str(dir_die)]) % 8
    new_str = max(CALM, min(STORM, wind["strength"] + sea["strength_die"][str(str_die)]))
    return {"dir": new_dir, "strength": new_str}, (dir_die, str_die)


def blows_toward(wind: dict) -> float:
    """The heading the wind blows toward, in degrees."""
    return wind["dir"] * 45.0


def describe(wind: dict) -> str:
    """"Fresh breeze, blowing toward NE"."""
    return f"{strength(wind['strength'])['name']}, blowing toward {COMPASS[wind['dir']]}"


def point_of_sailing(heading: float, wind: dict) -> str:
    """The point of sailing of a ship on ``heading``: ``into_wind``, ``close_hauled``,
    ``full_and_by`` or ``running``, by the angle φ between her heading and where the wind
    comes from: below 22.5°, 67.5°, 157.5°, and the rest (A3)."""
    comes_from = (blows_toward(wind) + 180) % 360
    phi = angle_between(heading, comes_from)
    for row in reference("sea")["points_of_sailing"]:
        if phi < row["below"]:
            return row["name"]
    return "running"


def sailing_modifier(sector: str, rig: str) -> int | None:
    """The point of sailing's S legs for a rig (``SQUARE``/``FORE_AFT``): +1, 0, -1, or
    ``None`` (a square-rigger cannot sail into the wind) (L43-L45, L113-L114)."""
    for row in reference("sea")["points_of_sailing"]:
        if row["name"] == sector:
            return row[rig]
    raise ValueError(f"unknown point of sailing {sector!r}")
