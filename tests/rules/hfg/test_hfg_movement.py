"""HFG geometry, movement limits and the pre-battle procedure (``rules/hfg.md`` §4, §7 and
errata F18, F19): vectors M1-M7 and P1-P4."""

import pytest

from rules.engine import IllegalAction
from rules.hfg.command import weather_from
from rules.hfg.geometry import (
    Rect,
    arc_spread,
    contact,
    edge_gap,
    flank_position,
    in_corridor,
    in_diagonal_arc,
    move_distance,
    opposite,
    side_by_side,
)
from rules.hfg.movement import (
    allowance,
    approach_limit,
    ford_search,
    group_allowance,
    march_allowed,
    may_contact,
    minefield,
)
from rules.hfg.prebattle import Footprint, attacker, edge_chooser, exploitable_feature, zone_error
from rules.random import ScriptedSource


def test_M1_terrain_allowance():
    assert allowance("MUS") == 400 and allowance("MUS", "slow") == 200
    assert allowance("LC", "difficult") == 300
    assert allowance("SBA", year=1790) == 400 and allowance("SBA", year=1800) == 600
    assert allowance("SBA", grade="HOR") == 1200 and allowance("STM", upstream=True) == 1200
    assert allowance("MUS", weather=weather_from(6)) == 200  # mist: the slow distance
    assert allowance("MUS", weather=weather_from(6), road=True) == 400
    assert allowance("SBA", weather=weather_from(1), year=1800) == 400
    with pytest.raises(IllegalAction, match="cannot enter difficult"):
        allowance("LAA", "difficult")
    with pytest.raises(IllegalAction, match="cannot move"):
        allowance("SUP")


def test_M1_the_corner_rule():
    start = Rect(1000, 1000, 0, 400, 200)
    assert move_distance(start, start.moved(400)) == 400
    assert move_distance(start, start.moved(300, aside=300)) == pytest.approx(424.26, abs=0.01)
    assert move_distance(start, start.moved(0, turn=180)) == pytest.approx(400)


def test_M2_group_at_its_slowest():
    assert group_allowance([("LI", None), ("MUS", None)]) == 400


def test_M3_M4_M5_near_the_enemy():
    assert may_contact("LC", 600) and not may_contact("LC", 700)
    assert may_contact("BAY", 600) and not may_contact("SBA", 100) and not may_contact("SK", 1)
    assert approach_limit("BAY") == 200 and approach_limit("HC") == 0
    assert approach_limit("DRG", dismounted=True) == 200
    assert not march_allowed(1100) and march_allowed(1200)


def test_M6_ford_search():
    assert ford_search(ScriptedSource(rolls=[4]), town_near=True) == {
        "die": 4, "total": 5, "found": True}
    assert ford_search(ScriptedSource(rolls=[4]), town_near=True,
                       enemy_skirmishers_near=True)["found"] is False
    assert ford_search(ScriptedSource(rolls=[1]), town_near=True, town_far=True)["total"] == 5


def test_M7_minefield():
    assert minefield(ScriptedSource(rolls=[1]), "STM")
    assert not any(minefield(ScriptedSource(rolls=[r]), "STM") for r in range(2, 7))
    with pytest.raises(IllegalAction):
        minefield(ScriptedSource(rolls=[1]), "MUS")


def test_P1_attacker():
    assert attacker(ScriptedSource(rolls=[2, 4]), [("swedes", 4), ("russians", 1)]) == "swedes"
    source = ScriptedSource(rolls=[1, 4, 1, 6])  # 5 v 5 tie, then 5 v 7
    assert attacker(source, [("swedes", 4), ("russians", 1)]) == "russians"
    assert len(source.log) == 4


def test_P2_edge():
    assert edge_chooser(ScriptedSource(rolls=[3, 5, 2, 5]), "a", "d") == "d"


def test_P3_zones():
    def fp(front, x=6000):
        return Footprint(front, x - 200, x + 200)
    assert zone_error(fp(2900), defender=True) and zone_error(fp(2800), defender=True) is None
    assert zone_error(fp(1900), defender=False)
    assert zone_error(fp(2700), defender=False, concealed=True) is None
    assert "side edge" in zone_error(fp(1000, x=1100), defender=True)
    assert zone_error(fp(1000, x=1100), defender=True, exempt=True) is None


def test_P4_exploitable_feature():
    assert not exploitable_feature(ScriptedSource(rolls=[4]), cinc_grade=None)
    assert exploitable_feature(ScriptedSource(rolls=[5]), cinc_grade=None)
    source = ScriptedSource(rolls=[])
    assert not exploitable_feature(source, cinc_grade="L") and not source.log


def test_geometry_contacts_and_arcs_errata_F18():
    a = Rect(1000, 1000, 0, 400, 200)
    assert contact(opposite(a), a) == "front"
    for side in ("left", "right"):  # a 400p front edge on a 200p-deep flank
        assert contact(flank_position(a, side, depth=300), a) == "flank"
    behind = Rect(1000, 800, 0, 400, 300)
    assert contact(behind, a) == "rear"
    assert side_by_side(a, Rect(1400, 1000, 0)) and not side_by_side(a, Rect(1500, 1000, 0))
    assert in_corridor(a, Rect(1500, 2000, 180)) and not in_corridor(a, Rect(1700, 2000, 180))
    assert not in_corridor(a, Rect(1000, 500, 0))
    assert edge_gap(a, Rect(1000, 1500, 180)) == 500  # its front edge faces a
    assert round(arc_spread(400, 200), 1) == 126.9 and round(arc_spread(800, 100), 1) == 165.7
    gun = Rect(0, 0, 0, 400, 400)
    assert in_diagonal_arc(gun, Rect(2000, 200, 180))
    redoubt = Rect(0, 0, 0, 400, 200)  # front edge only (errata F3): 126.9 degrees
    assert in_diagonal_arc(redoubt, Rect(1500, 1000, 180), any_edge=False)
    assert not in_diagonal_arc(redoubt, Rect(3000, 600, 0, 100, 100), any_edge=False)
    assert in_diagonal_arc(redoubt, Rect(3000, 600, 0, 100, 100))
