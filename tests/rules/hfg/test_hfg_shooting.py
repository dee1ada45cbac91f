"""HFG distant shooting (``rules/hfg.md`` §8): vectors R (ranges by year, several shooters,
no shooting after a march)."""

import pytest

from rules.engine import IllegalAction
from rules.hfg.combat import Fighter, fight
from rules.hfg.shooting import fire_on_target, may_shoot, must_shoot, naval_range, shooting_range
from rules.random import ScriptedSource


@pytest.mark.parametrize("code,year,kw,want", [
    ("BAY", 1790, {}, 200), ("BAY", 1791, {}, 400),                           # R1
    ("STO", 1854, {}, 200), ("STO", 1890, {}, 200), ("STO", 1891, {}, 800),  # R2
    ("DRG", 1863, {"dismounted": True}, 200), ("DRG", 1864, {"dismounted": True}, 400),  # R3
    ("DRG", 1864, {}, None), ("MR", 1900, {"dismounted": True}, 1200),
    ("RFA", 1880, {"grade": "HVY", "long_target": True}, 6000),               # R5
    ("RFA", 1880, {"grade": "HVY"}, 3600), ("RFA", 1880, {"long_target": True}, 3600),
    ("CUI", 1800, {}, None), ("SPR", 1800, {}, None), ("FLO", 1880, {}, None),
    ("SUB", 1864, {}, None), ("SUP", 1800, {}, None), ("LAA", 1800, {}, 200),
    ("SPG", 1800, {}, 400), ("LTA", 1800, {}, 800),
])
def test_R_ranges(code, year, kw, want):
    assert shooting_range(code, year=year, **kw) == want


def test_R4_naval_ranges():
    assert [naval_range(y) for y in (1849, 1850, 1862, 1898, 1906)] == [800, 1200, 2000,
                                                                        3000, 6000]
    assert shooting_range("STM", year=1862) == 2000
    assert shooting_range("SUB", year=1864, settings={"hfg_submarine_can_shoot": True}) == 2000


def test_R6_three_shooters_and_a_fourth():
    fire = fire_on_target([("a", 300), ("b", 200), ("c", 400), ("d", 100)],
                          shoots_back_at="b")
    assert (fire.primary, fire.aiders, fire.turned_away) == ("b", ("d", "a"), ("c",))
    assert fire_on_target([("a", 300), ("b", 200)]).primary == "b"
    r = fight(Fighter("MUS"), Fighter("MUS"), ScriptedSource(rolls=[3, 3]), close=False,
              aiders=len(fire.aiders), distance=200)
    assert r.scores == (6, 4)  # the target -2 for the two aiders
    with pytest.raises(IllegalAction, match="must shoot at one of the elements"):
        fire_on_target([("a", 300)], shoots_back_at="z")


def test_R7_and_who_must_shoot():
    assert not may_shoot("MUS", marched=True) and may_shoot("MUS")
    assert not may_shoot("MUS", in_close_combat=True)
    assert not may_shoot("REP", year=1864) and may_shoot("REP", year=1864, dismounted=True)
    assert must_shoot("MUS", enemy_bound=True) and not must_shoot("MUS", enemy_bound=False)
    assert not must_shoot("SBA", enemy_bound=True)
    assert must_shoot("MR", dismounted=True, enemy_bound=True)
