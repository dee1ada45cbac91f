"""HFG distant shooting (digest 8; L263-277): who shoots and who must, ranges by type, grade
and year, and several shooters on one target (the primary and at most two aiders).

Ranges are in paces, measured from the nearest point of the shooting edge to the nearest
point of the target; a band's year is its last (boundary years fall on the lower band:
Bayonets 200p in 1790, 400p from 1791; digest 8.1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.btq.settings import resolve
from rules.engine import IllegalAction
from rules.hfg.combat import MAX_AIDERS
from rules.hfg.data import Band, reference, troop_type


def _dated(bands: Sequence[Band], year: int) -> int:
    for last, value in bands:
        if last is None or year <= last:
            return value
    raise ValueError(f"no band covers {year}")


def naval_range(year: int) -> int:
    """The shooting range of naval elements other than Flotilla in ``year``: 800 (before
    1850), 1,200 (1850-1858), 2,000 (1859-1886), 3,000 (1887-1905), 6,000 (1906>) (L273-275)."""
    return _dated(_bands(), year)


def _bands() -> list[Band]:
    return [(b[0], b[1]) for b in reference("naval_ranges")["bands"]]


def shooting_range(code: str, *, year: int, grade: str | None = None,
                   dismounted: bool = False, long_target: bool = False,
                   settings: Mapping | None = None) -> int | None:
    """How far an element of type ``code`` shoots in ``year``, in paces; None if it cannot
    shoot (staff, most mounted, Spearmen, Flotilla, Submarines unless the setting allows,
    Supply Base, Aeronauts; a dismountable only when ``dismounted``). ``long_target``: the
    target is in a town or on a hill or is a logistics element, which Heavy Rifled Artillery
    reaches at 6,000p (digest 8.1, R1-R5)."""
    t = troop_type(code)
    if t.dismountable:
        return _dated(t.dismounted_ranges, year) if dismounted else None
    if t.naval_range or (code == "SUB" and resolve(settings)["hfg_submarine_can_shoot"]):
        return naval_range(year)
    if not t.ranges:
        return None
    if grade == "HVY" and long_target and t.heavy_long_range:
        return t.heavy_long_range
    return _dated(t.ranges, year)


def may_shoot(code: str, *, dismounted: bool = False, marched: bool = False,
              in_close_combat: bool = False, year: int = 1800,
              settings: Mapping | None = None) -> bool:
    """Whether an element may shoot this phase: a shooting type (in that mode), that made no
    march move this bound and is not in close combat other than as an overlap (L264-267, R7)."""
    if marched or in_close_combat:
        return False
    return shooting_range(code, year=year, dismounted=dismounted, settings=settings) is not None


def must_shoot(code: str, *, dismounted: bool = False, enemy_bound: bool) -> bool:
    """Foot and dismounted elements must shoot at a valid target in an enemy bound; all other
    shooting is voluntary (L265)."""
    category = troop_type(code).category
    return enemy_bound and (dismounted or (category == "foot" and code != "SPG"))


@dataclass(frozen=True, slots=True)
class FireOnTarget:
    """Several shooters on one target (digest 8.3): the ``primary`` (the combat is rolled
    against it), the ``aiders`` (each -1 to the target, at most two) and ``turned_away``: the
    further shooters, who must choose another target or not shoot (A10)."""

    primary: str
    aiders: tuple[str, ...]
    turned_away: tuple[str, ...]


def fire_on_target(shooters: Sequence[tuple[str, int]], *,
                   shoots_back_at: str | None = None) -> FireOnTarget:
    """Order the ``shooters`` at one target, given as (id, distance in paces): the primary is
    the one the target shoots back at (``shoots_back_at``), else the closest (the first given
    on equal distance); the next two closest aid; the rest are turned away (L265-267, R6).
    IllegalAction for no shooters, a repeated id, or a target shooting back at an element not
    shooting at it (it must answer the primary or not shoot)."""
    if not shooters:
        raise IllegalAction("nobody is shooting at this target")
    ids = [s for s, _ in shooters]
    if len(set(ids)) != len(ids):
        raise IllegalAction("an element shoots only once")
    if shoots_back_at is not None and shoots_back_at not in ids:
        raise IllegalAction("a target shooting back must shoot at one of the elements "
                            "shooting at it, or not shoot")
    ordered = [s for s, _ in sorted(shooters, key=lambda s: s[1])]
    primary = shoots_back_at or ordered[0]
    rest = [s for s in ordered if s != primary]
    return FireOnTarget(primary, tuple(rest[:MAX_AIDERS]), tuple(rest[MAX_AIDERS:]))
