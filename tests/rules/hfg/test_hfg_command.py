"""HFG command (``rules/hfg.md`` §6): vectors C1-C7 and P5 through the kernel."""

import pytest

from rules.engine import IllegalAction
from rules.hfg.command import (
    Move,
    ally_throws,
    arrives_next_bound,
    easy_command_distance,
    graded_pips,
    march_costs,
    may_swap,
    pip_cost,
    recovers,
    roll_pips,
    slow_mover,
    weather_after_defender_roll,
    weather_from,
)
from rules.random import ScriptedSource


def test_C1_grading_the_pip_die():
    assert [graded_pips(4, "L"), graded_pips(1, "L"), graded_pips(1, "A"),
            graded_pips(3, "A")] == [3, 0, 6, 3]
    with pytest.raises(IllegalAction):
        graded_pips(7, None)
    source = ScriptedSource(rolls=[1, 4])
    assert roll_pips(source, [("cinc", "A"), ("left", "L")]) == {
        "cinc": {"raw": 1, "pips": 6}, "left": {"raw": 4, "pips": 3}}
    assert [str(d) for d in source.log] == ["d6 PIPs cinc: 1", "d6 PIPs left: 4"]


def test_C2_swap():
    assert may_swap(5, 2, within_ecd=True, allied=False)
    assert not may_swap(5, 6, within_ecd=True, allied=False)
    assert not may_swap(5, 2, within_ecd=True, allied=True)
    assert not may_swap(5, 2, within_ecd=False, allied=False)
    assert not may_swap(5, 2, within_ecd=True, allied=False, cinc_disabled=True)
    assert easy_command_distance("HQ") == 2400 and easy_command_distance("CP") == 800


def test_C3_costs():
    assert pip_cost(Move()) == 1
    inferior = slow_mover("MUS", "I")
    assert inferior and pip_cost(Move(slow=inferior)) == 2
    assert pip_cost(Move(slow=True, in_command=False)) == 3
    assert pip_cost(Move(slow=slow_mover("STO"), retiring_near_enemy=True)) == 3
    assert pip_cost(Move(slow=slow_mover("SBA", "HVY"), in_command=False)) == 3
    assert not slow_mover("SBA", "HVY", off_road=False)
    assert pip_cost(Move(slow=slow_mover("SBA", "HVY", off_road=False))) == 1
    assert pip_cost(Move(action="rally")) == 2
    assert pip_cost(Move(action="rally", in_command=False)) == 3
    assert pip_cost(Move(action="ford_search")) + pip_cost(Move()) == 3


def test_C3_naval_pays_no_command_or_inferior_surcharge_errata_F2():
    assert not slow_mover("STM", "I")
    assert pip_cost(Move(land=False, in_command=False, slow=slow_mover("STM", "I"))) == 1
    assert pip_cost(Move(land=False, retiring_near_enemy=True)) == 2


def test_C4_march_costs():
    assert sum(march_costs(5, route="good_road")) == 7
    assert march_costs(3, route="off_road") == [1, 2, 2]
    assert sum(march_costs(3, route="bad_road", wet=True)) == 4
    assert sum(march_costs(3, route="bad_road")) == 3  # A13: dry bad roads count as good
    assert march_costs(2, route="good_road", land=False) == [1, 2]


def test_C5_C6_weather():
    w = weather_from(6)
    assert w.mist and w.visibility == 400 and not w.aeronauts_work
    for raw in (3, 5):
        w = weather_after_defender_roll(w, raw)
    assert w.mist
    assert not weather_after_defender_roll(w, 6).mist
    # an Active attacker's 1 gives 6 PIPs but wet weather: the unadjusted roll counts
    assert graded_pips(1, "A") == 6 and weather_from(1).kind == "wet"
    wet = weather_from(1)
    assert wet.visibility == 1200 and wet.guns_slowed and wet.muddy_roads
    once = weather_after_defender_roll(wet, 1)
    assert not once.raining and once.visibility is None and once.aeronauts_work
    assert once.guns_slowed and once.muddy_roads
    twice = weather_after_defender_roll(weather_after_defender_roll(once, 4), 1)
    assert not twice.guns_slowed and twice.muddy_roads
    assert weather_from(3).visibility is None


def test_C7_delayed_arrival_and_recovery():
    assert arrives_next_bound(6) and not arrives_next_bound(1)  # Active 1 -> 6 PIPs only
    assert recovers(6) and not recovers(5)


def test_P5_dilatory_ally():
    assert [ally_throws(b, army_ag=3, ally_ag=1) for b in range(1, 6)] == [
        False, False, False, True, True]
    assert ally_throws(1, army_ag=1, ally_ag=3)


def test_bad_orders_are_refused():
    with pytest.raises(IllegalAction, match="unknown order"):
        pip_cost(Move(action="fly"))
    with pytest.raises(IllegalAction, match="good road"):
        pip_cost(Move(action="march", route="river"))
    with pytest.raises(IllegalAction, match="not a general"):
        easy_command_distance("MUS")
