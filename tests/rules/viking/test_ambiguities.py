"""Every ambiguity of ``rules/viking.md`` §9 (A1-A14) and the errata VK-1 to VK-3, decided
by the recommended reading or a setting, through the kernel."""

from math import ceil, floor

import pytest

from rules.engine import IllegalAction
from rules.viking import movement as mv
from rules.viking import orders as od
from rules.viking.data import DIW, FULL, HEAVY, LIGHT, MODERATE, PACED, SLOW, ZERO
from rules.viking.engine import ENGINE
from rules.viking.house import wind_speed_for

from .conftest import make_game, play_turn, to_orders, vessel


def _near(a_x=36.0, b_y=30.0, **kw):
    return [vessel("a1", x=a_x, y=10, **kw), vessel("b1", side="b", x=36, y=b_y, heading=180)]


def test_a1_a_range_is_any_distance_inside_it_and_a_single_value_is_exact():
    state, source = make_game(_near(cls="LONGSHIP"))
    state = to_orders(state, source)
    a1 = state["vessels"]["a1"]
    od.check(state, a1, "FULL@5.4")
    od.check(state, a1, "SLOW@1.5")
    with pytest.raises(od.OrderError, match="moves 1.5 in"):
        od.check(state, a1, "SLOW@1.2")


def test_a1_the_orders_offer_every_whole_inch_of_each_range_grouped_by_speed():
    state, source = make_game(_near(cls="LONGSHIP"))
    state = to_orders(state, source)
    a1 = state["vessels"]["a1"]
    decision = next(d for d in ENGINE.pending(state) if d.kind == "orders:a1")
    plans = {o.key: od.parse(o.key) for o in decision.options}
    assert od.levels(state, a1)
    for level, back in od.levels(state, a1):
        lo, hi = mv.speed_range("LONGSHIP", level, backward=back)
        offered = {p.distance for p in plans.values()
                   if p.action == "move" and (p.level, p.backward) == (level, back)}
        assert offered == {lo, hi, *range(ceil(lo), floor(hi) + 1)}
    assert {o.group for o in decision.options if plans[o.key].action == "move"} >= {
        "Go paced", "Go slow"}
    assert "Go paced" in [o.group for o in decision.options if o.key == "PACED@3"]
    for key in plans:  # each one the kernel accepts
        od.check(state, a1, key)
    # the default policy still chooses among the tops of the ranges
    assert decision.default in od.options(state, a1)


def test_a2_moves_are_simultaneous_and_the_first_touch_stops_both():
    state, source = make_game([vessel("a1", x=36, y=10), vessel("b1", side="b", x=36, y=26,
                                                                heading=180)],
                              house_rules=False)
    state, events = play_turn(state, source, {"a1": "FULL@8", "b1": "FULL@8"})
    contact = next(e for e in events if e.kind == "contact")
    assert contact.data["a_point"] == contact.data["b_point"] == "bow"
    a1, b1 = state["vessels"]["a1"], state["vessels"]["b1"]
    # they met halfway, each stopped short of the other's hull
    assert a1["y"] == pytest.approx(b1["y"] - 6, abs=0.85)
    assert a1["y"] - 10 == pytest.approx(26 - b1["y"])
    assert a1["level"] == b1["level"] == DIW


def test_a2_a_vessel_stops_at_the_table_edge():
    ends, contacts = mv.simulate([{"id": "x", "x": 10, "y": 45, "heading": 0, "length": 6,
                                   "beam": 1.5, "distance": 8, "turn": 0, "turn_in_place": 0,
                                   "level": FULL}], set(), 72, 48)
    assert 45 <= ends["x"]["y"] <= 48 and not contacts


@pytest.mark.parametrize("model,per_inch", [("atan", 18.43), ("asin", 19.47), ("arc", 19.10)])
def test_a3_and_vk2_the_facing_inch_model_is_a_setting(model, per_inch):
    assert mv.facing_degrees(1, 6, model) == pytest.approx(per_inch, abs=0.01)
    state, source = make_game(_near(), settings={"viking_facing_inch": model})
    state, _ = play_turn(state, source, {"a1": "DIW@0/R1", "b1": "DIW@0"})
    assert state["vessels"]["a1"]["heading"] == pytest.approx(per_inch, abs=0.01)


def test_a3_the_default_facing_model_is_the_errata_s_asin():
    state, _ = make_game(_near())
    assert state["settings"]["viking_facing_inch"] == "asin"


def test_a4_strict_facing_by_default_and_lenient_as_a_setting():
    state, source = make_game(_near())
    state = to_orders(state, source)
    with pytest.raises(od.OrderError, match="face at most 4 in"):
        od.check(state, state["vessels"]["a1"], "SLOW@2/L5")
    state, source = make_game(_near(), settings={"viking_facing": "lenient"})
    state, _ = play_turn(state, source, {"a1": "SLOW@2/L5", "b1": "DIW@0"})
    # 4 in turned while moving, the fifth in place at the end
    assert state["vessels"]["a1"]["heading"] == pytest.approx(360 - 5 * 19.47, abs=0.1)


def test_a5_a_sector_order_keeps_the_vessel_inside_and_sends_it_back_at_paced():
    state, source = make_game([vessel("a1", x=50, y=10, order="LEFT"),
                               vessel("b1", side="b", x=20, y=30, heading=180)])
    state = to_orders(state, source)
    keys = od.options(state, state["vessels"]["a1"])
    plans = [od.parse(k) for k in keys if ">" not in k]
    assert plans and all(p.level >= PACED and not p.backward for p in plans
                         if p.action == "move")
    with pytest.raises(IllegalAction, match="paced speed or faster"):
        ENGINE.apply(state, "side:a", "SLOW@2/L4", source)
    # inside its half it may not leave it
    state, source = make_game([vessel("a1", x=34, y=10, heading=90, order="LEFT"),
                               vessel("b1", side="b", x=20, y=30, heading=180)])
    state = to_orders(state, source)
    with pytest.raises(IllegalAction, match="inside her part"):
        ENGINE.apply(state, "side:a", "PACED@5", source)


def test_a5_left_and_right_are_from_each_player_s_own_side():
    assert mv.sector_gap("LEFT", 10, "south", 72) == 0
    assert mv.sector_gap("LEFT", 10, "north", 72) == 26
    assert mv.sector_gap("RIGHT", 60, "north", 72) == 24
    assert mv.sector_gap("CENTER", 54, "south", 72) == 2


def test_a6_engaged_followers_steer_for_the_enemy_most_easily_reached():
    state, source = make_game([
        vessel("a0", x=36, y=20, flagship=True), vessel("a1", x=30, y=10, order="FLAGSHIP"),
        vessel("b1", side="b", x=36, y=27, heading=180),
        vessel("b2", side="b", x=10, y=40, heading=180, order="RIGHT")], house_rules=False)
    state, _ = play_turn(state, source, {"a0": "PACED@4", "b1": "SLOW@2", "a1": "DIW@0",
                                         "b2": "DIW@0"})
    assert state["sides"]["a"]["engaged"]
    state = to_orders(state, source)
    target = od.easiest_enemy(state, state["vessels"]["a1"])
    assert target["id"] == "b1"
    while ENGINE.pending(state)[0].kind != "orders:a1":
        d = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, d.actor, d.default, source)
    with pytest.raises(IllegalAction, match="hurry to engage"):
        ENGINE.apply(state, "side:a", "DIW@0", source)


def test_a7_crew_thresholds():
    assert mv.crew_state(40, 40, 20) == "normal"
    assert mv.crew_state(20, 40, 20) == "minimum"
    assert mv.crew_state(19, 40, 20) == "below"


def test_a8_raising_sail_means_shipping_oars_first_and_the_vessel_slows_meanwhile():
    state, source = make_game(_near(level="PACED"))
    state = to_orders(state, source)
    assert "raise" not in od.options(state, state["vessels"]["a1"])
    state["turn"] = 2
    state["phase"], state["wind_checks"] = "wind", {}
    state, _ = play_turn(state, source, {"a1": "oars", "b1": "DIW@0"})
    assert state["vessels"]["a1"]["level"] == SLOW
    state, _ = play_turn(state, source, {"a1": "raise", "b1": "DIW@0"})
    a1 = state["vessels"]["a1"]
    assert a1["sail"] == "RAISING" and a1["level"] == DIW
    state = to_orders(state, source)
    assert "a1" not in state["awaiting"] and state["orders"]["a1"] == "auto"


def test_a9_the_wind_table_is_a_house_rule_and_diced_at_the_start():
    assert [wind_speed_for(d) for d in range(1, 11)] == [
        ZERO, LIGHT, LIGHT, LIGHT, MODERATE, MODERATE, MODERATE, MODERATE, HEAVY, HEAVY]
    from rules.random import ScriptedSource

    setup = ENGINE.scenarios()["fleet_battle"].setup
    source = ScriptedSource(rolls=[3, 10])
    state, events = ENGINE.start(setup, source)
    assert state["wind"] == {"from": 90.0, "speed": HEAVY}
    assert "diced, house rule (not in the source)" in events[0].text
    assert state["wind_house"] and events[0].data["house_rule"]


def test_a10_within_45_degrees_of_the_wind_s_source():
    assert mv.sail_max("LONGSHIP", MODERATE, 45, 0) == SLOW
    assert mv.sail_max("LONGSHIP", MODERATE, 46, 0) == FULL
    assert mv.sail_max("LONGSHIP", MODERATE, 315, 0) == SLOW


def test_a11_doubling_counts_from_the_closest_enemy_and_is_one_full_speed_move():
    state, source = make_game([vessel("a1", x=36, y=2), vessel("b1", side="b", x=36, y=26,
                                                               heading=180)])
    state = to_orders(state, source)
    assert state["doubled"]
    state, source = make_game([vessel("a1", x=36, y=2), vessel("b1", side="b", x=36, y=25.9,
                                                               heading=180)])
    state = to_orders(state, source)
    assert not state["doubled"]
    state, source = make_game([vessel("a1", x=36, y=2), vessel("b1", side="b", x=36, y=46,
                                                               heading=180)])
    state, _ = play_turn(state, source, {"a1": "FULL@16", "b1": "DIW@0"})
    assert state["vessels"]["a1"]["full_speed_moves"] == 1
    assert state["vessels"]["a1"]["y"] == pytest.approx(18)


def test_a12_the_dead_in_the_water_band_is_free_and_needs_no_movement_to_face():
    assert mv.speed_range("DRAGONSHIP", DIW) == (0, 1)
    assert mv.max_facing("DRAGONSHIP", DIW, 0) == 6


@pytest.mark.parametrize("viking,turns", [(True, 2), (False, 3)])
def test_a13_the_crew_s_nation_sets_the_handling_times(viking, turns):
    state, source = make_game([vessel("a1", viking=viking, oars_out=False),
                               vessel("b1", side="b", x=10, y=30, heading=180)])
    state, _ = play_turn(state, source, {"a1": "raise"})
    assert state["vessels"]["a1"]["busy_turns"] == turns - 1


def test_a14_and_vk1_source_only_rules_say_what_is_not_defined_and_end_unresolved():
    state, source = make_game(_near(), house_rules=False, turn_limit=2)
    from rules.engine import play_out
    from rules.random import SeededSource

    setup = ENGINE.scenarios()["single_combat"].setup
    state, events = ENGINE.start(ENGINE.validate_setup({
        **setup, "house_rules": False, "turn_limit": 3,
        "vessels": [{**v, "crew_full": 40, "crew_minimum": 20} for v in setup["vessels"]]}),
        SeededSource(1))
    assert any("Not defined in the source" in e.text and "impact results" in e.text
               for e in events)
    final, later = play_out(ENGINE, state, SeededSource(2))
    out = ENGINE.outcome(final)
    assert out.result == "unresolved_rules_missing" and out.winner is None
    assert "does not define" in out.summary
    assert sum(e.kind == "phases.undefined" for e in later) == 3
    assert not any("house rule" in e.text for e in events + later)


def test_vk3_lowering_sail_at_full_speed_is_a_setting():
    vs = [vessel("a1", sail="UP", level="FULL", heading=90, x=5, y=10),
          vessel("b1", side="b", x=40, y=30, heading=180)]
    state, source = make_game(vs, wind=(0, HEAVY))
    state["turn"] = 2
    state = to_orders(state, source)
    assert "lower" in od.options(state, state["vessels"]["a1"])
    state, source = make_game(vs, wind=(0, HEAVY),
                              settings={"viking_sail_lowering": "wait_until_slow"})
    state["turn"] = 2
    state = to_orders(state, source)
    assert "lower" not in od.options(state, state["vessels"]["a1"])


def test_vk3_a_viking_longship_lowering_at_full_keeps_slowing_after_the_sail_is_down():
    state, source = make_game([vessel("a1", cls="LONGSHIP", sail="UP", level="FULL",
                                      heading=90, x=5, y=10),
                               vessel("b1", side="b", x=40, y=30, heading=180)],
                              wind=(0, HEAVY))
    state["turn"] = 2
    state, _ = play_turn(state, source, {"a1": "lower", "b1": "DIW@0"})
    a1 = state["vessels"]["a1"]
    assert a1["sail"] == "DOWN" and a1["level"] == PACED
    for level in (SLOW, DIW):
        state, _ = play_turn(state, source, {"a1": "drift", "b1": "DIW@0"})
        assert state["vessels"]["a1"]["level"] == level
