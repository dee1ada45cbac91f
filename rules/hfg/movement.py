"""HFG movement limits (digest 7; L231-263): allowances by type, grade, going, year and
weather; a group at its slowest member's pace; the limits near the enemy (mounted contact
within 600p, the 200p approach to enemy that must shoot, march moves not ending within
1,200p of known enemy); the ford search and the naval minefield. Distances in paces.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.dice import d6
from rules.engine import IllegalAction
from rules.hfg.command import Weather
from rules.hfg.data import reference, troop_type
from rules.random import RandomSource

GOING_INDEX = {"good": 0, "slow": 1, "difficult": 2}
MARCH_CLEARANCE = 1200
"""A march move may not end closer than this to known enemy (L232)."""
CONTACT_REACH = 600
"""A mounted or staff element may not move further than this in a move that contacts enemy
(L258)."""
MUST_SHOOT_CLEARANCE = 200
"""Only mounted may move closer than this to enemy that must shoot at them (L257-258)."""
FORD_FOUND = 5


def allowance(code: str, going: str = "good", *, grade: str | None = None,
              year: int = 1800, weather: Weather | None = None, road: bool = False,
              upstream: bool = False) -> int:
    """The most paces each front corner of an element of type ``code`` may move in one move
    over the worst ``going`` it crosses (good / slow / difficult, L243-246; vector M1):
    artillery by its own rows (Horse, Light, other before or after 1790), naval by the naval
    table (``upstream``: partly upstream, or towards the attacker's edge on a Waterway, A18).
    Mist limits off-road land moves, rain off-road artillery and Laager, to the slow value
    (L229-231). IllegalAction for an immobile type or impassable going."""
    t = troop_type(code)
    if going not in GOING_INDEX:
        raise IllegalAction(f"going is good, slow or difficult, not {going!r}")
    if t.category == "naval":
        normal, slow = reference("naval_moves")[code]
        return slow if upstream else normal
    if t.category == "artillery":
        rows = reference("artillery_moves")
        key = ("horse" if grade == "HOR" else "light" if code == "LTA" else
               "other_until_1790" if year <= 1790 else "other_after_1790")
        row = rows[key]
    elif t.move is None:
        raise IllegalAction(f"{t.name} cannot move")
    else:
        row = list(t.move)
    if going != "good" and row[GOING_INDEX[going]] == 0:
        raise IllegalAction(f"{t.name} cannot enter {going} going")
    value = row[GOING_INDEX[going]]
    if weather is not None and not road and going == "good":
        if weather.mist or (weather.guns_slowed and t.category in ("artillery",)
                            or weather.guns_slowed and code == "LAA"):
            value = min(value, row[1])
    return int(value)


def group_allowance(members: Sequence[tuple[str, str | None]], going: str = "good",
                    **kw: object) -> int:
    """A group moves at the pace of its slowest member (L237; vector M2): ``members`` as
    (type, grade)."""
    if not members:
        raise IllegalAction("a group has at least one element")
    return min(allowance(code, going, grade=grade, **kw)  # type: ignore[arg-type]
               for code, grade in members)


def may_contact(code: str, distance: float) -> bool:
    """Whether a move of ``distance`` paces may end in contact with enemy: not further than
    600p for mounted or staff (L258; vector M3); artillery, Army HQ, Laager, Aeronauts and
    Skirmishers never move into front-edge contact (L259)."""
    t = troop_type(code)
    if code in ("HQ", "LAA", "AER", "SK") or t.category == "artillery":
        return False
    if t.category in ("mounted", "staff"):
        return distance <= CONTACT_REACH
    return True


def approach_limit(code: str, *, dismounted: bool = False) -> int:
    """How close a tactical move may bring the element to enemy foot or dismounted that must
    shoot at it: 0 for mounted (they may close), 200p for everything else (L257-258, M4)."""
    mounted = troop_type(code).category == "mounted" and not dismounted
    return 0 if mounted else MUST_SHOOT_CLEARANCE


def march_allowed(nearest_known_enemy: float) -> bool:
    """A march move must not end closer than 1,200p to known enemy (L232; vector M5)."""
    return nearest_known_enemy >= MARCH_CLEARANCE


def ford_search(source: RandomSource, *, town_near: bool = False, town_far: bool = False,
                enemy_skirmishers_near: bool = False, both_bonus: int = 4) -> dict:
    """Search a river for a ford (L249-251; vector M6): 1d6, +1 for a town within 400p on
    the near or the far bank, ``both_bonus`` (+4 as printed, A13b) if both, -1 for enemy
    Skirmishers within 400p; 5 or more finds a ford, less means none within 1,200p (and a
    later search there fails). Returns ``{"die", "total", "found"}``."""
    die = d6(source, "ford search")
    bonus = both_bonus if town_near and town_far else 1 if town_near or town_far else 0
    total = die + bonus - (1 if enemy_skirmishers_near else 0)
    return {"die": die, "total": total, "found": total >= FORD_FOUND}


def minefield(source: RandomSource, code: str) -> bool:
    """An enemy naval element entering a minefield rolls 1d6 and is destroyed on a 1
    (L201-202; vector M7). Returns whether it is destroyed."""
    if troop_type(code).category != "naval":
        raise IllegalAction("only naval elements enter a minefield")
    return d6(source, f"minefield {code}") == 1
