"""The worked examples of ``rules/brethren.md`` §10, T1 to T55, through the kernel with
scripted dice (``ScriptedSource(rolls=...)``), each named by its id."""

import pytest

from rules.brethren import (
    boarding,
    crews,
    damage,
    engine,
    gunfire,
    missions,
    movement,
    terrain,
    treasure,
    wind,
)
from rules.engine import EventLog
from rules.random import ScriptedSource, ScriptExhausted

from .conftest import make_ship, make_table

FRESH = {"dir": 0, "strength": 2}  # blowing toward N: from the south


def rolls(*faces):
    return ScriptedSource(rolls=list(faces))


def test_T01_minimum_crew_of_a_5_point_ship_is_3():
    assert crews.min_crew(5) == 3


def test_T02_minimum_crew_rounds_up():
    assert [crews.min_crew(p) for p in (4, 7, 1)] == [2, 4, 1]


def test_T03_cargo_counts_coins_not_value():
    island = [{"id": f"c{v}", "value": v, "special": None} for v in (6, 5, 4, 1)]
    taken, left = treasure.blind_draws(rolls(1, 1, 1), island, crews.capacity(3, ["seaman"]))
    assert [c["value"] for c in taken] == [6, 5, 4]  # all three fit, whatever their worth
    assert len(left) == 1  # the fourth coin, of any value, does not


def test_T04_fernando_sanchez_stows_five_in_a_hold_of_three():
    assert crews.capacity(3, ["seaman", "sanchez"]) == 5


def test_T05_fernando_sanchez_rounds_up():
    assert [crews.capacity(c, ["sanchez"]) for c in (2, 4, 5)] == [3, 6, 8]


def _reef():
    return {"id": "r", "kind": "reef", "x": 0, "y": 0, "r": 1, "rating": None}


def test_T06_a_deep_reef_spares_a_one_master():
    assert terrain.reef_check(_reef(), 1, 1, rolls(2)) == (0, False)


def test_T07_reef_depth_2_takes_two_of_four_masts():
    assert terrain.reef_check(_reef(), 4, 4, rolls(2)) == (2, False)


def test_T08_reef_as_deep_as_the_masts_takes_none():
    assert terrain.reef_check(_reef(), 3, 3, rolls(3)) == (0, False)


def test_T09_covas_adds_one_to_the_depth():
    piece = _reef()
    assert terrain.reef_check(piece, 4, 4, rolls(2), covas=True) == (1, False)
    assert piece["rating"] == 2  # the raw die is stored (A10)


def test_T10_a_reef_taking_more_masts_than_left_sinks_her():
    assert terrain.reef_check(_reef(), 4, 1, rolls(1)) == (1, True)


def _sargasso():
    return {"id": "g", "kind": "sargasso", "x": 0, "y": 0, "r": 1, "rating": None}


def test_T11_sargasso_thicker_than_the_masts_tangles():
    assert terrain.sargasso_check(_sargasso(), 1, rolls(2)) is True


def test_T12_sargasso_thinner_than_the_masts_does_not():
    assert terrain.sargasso_check(_sargasso(), 4, rolls(2)) is False


def test_T13_sargasso_as_thick_as_the_masts_does_not():
    assert terrain.sargasso_check(_sargasso(), 2, rolls(2)) is False


def test_T14_covas_thins_the_sargasso():
    assert terrain.sargasso_check(_sargasso(), 2, rolls(3), covas=True) is False


def test_T15_freeing_on_seven_and_moving_from_next_turn():
    assert terrain.free_from_sargasso(2, rolls(5)) is True
    st = make_table([{"id": "s1", "class": "schooner", "side": "a", "x": 10, "y": 10,
                      "heading": 0, "crew": ["seaman"] * 3},
                     {"id": "s2", "class": "sloop", "side": "b", "x": 30, "y": 30,
                      "heading": 0, "crew": ["seaman"] * 2}])
    st["round"] = 1
    sh = st["ships"]["s1"]
    sh["tangled"] = True
    engine._do(st, sh, "free", rolls(5), EventLog(None))
    assert not sh["tangled"]
    assert not any(k.startswith("move") for k in engine.plan_options(st, sh))
    st["round"] = 2
    assert "move:N" in engine.plan_options(st, sh)


def test_T16_freeing_on_six_fails():
    assert terrain.free_from_sargasso(2, rolls(4)) is False


def test_T17_wind_shifts_clockwise_and_freshens():
    new, dice = wind.change({"dir": 0, "strength": 2}, rolls(4, 6))
    assert new == {"dir": 1, "strength": 3} and dice == (4, 6)  # toward NE, Strong breeze


def test_T18_wind_reverses_and_dies():
    new, _ = wind.change({"dir": 2, "strength": 1}, rolls(6, 1))
    assert new == {"dir": 6, "strength": 0}  # toward W, Calm


def test_T19_no_wind_above_storm():
    new, _ = wind.change({"dir": 0, "strength": 5}, rolls(2, 6))
    assert new["strength"] == 5


def test_T20_full_and_by_adds_S():
    sh = make_ship("frigate", crew=["seaman"] * 6)  # square, L+S
    assert wind.point_of_sailing(90, FRESH) == "full_and_by"
    assert movement.allowance(sh, 90, FRESH) == ["L", "S", "S"]


def test_T21_a_square_rigger_cannot_sail_into_the_wind():
    sh = make_ship("frigate", crew=["seaman"] * 6)
    assert movement.allowance(sh, 180, FRESH) == []


def test_T22_an_oarsman_rows_S_into_the_wind():
    sh = make_ship("frigate", crew=["seaman"] * 5 + ["oarsman"])
    assert movement.allowance(sh, 180, FRESH) == ["S"]


def test_T23_a_schooner_close_hauled_in_light_air():
    sh = make_ship("sloop", crew=["seaman", "seaman"])  # fore-and-aft, S+S
    light = {"dir": 0, "strength": 1}
    assert wind.point_of_sailing(135, light) == "close_hauled"
    assert movement.allowance(sh, 135, light) == ["S"]


def test_T24_minus_S_with_no_S_leg_shortens_the_L():
    sh = make_ship("galleon", crew=["seaman"] * 7)  # square, L
    legs = movement.allowance(sh, 0, {"dir": 0, "strength": 1})
    assert legs == ["L-S"] and movement.length_of(legs) == pytest.approx(1.0)


def test_T25_a_small_ship_in_a_near_gale():
    sh = make_ship("sloop", crew=["seaman", "seaman"])  # cargo 2
    assert movement.allowance(sh, 0, {"dir": 0, "strength": 4}) == ["S"]


def test_T26_calm_without_and_with_an_oarsman():
    calm = {"dir": 0, "strength": 0}
    assert movement.allowance(make_ship("sloop", crew=["seaman"] * 2), 0, calm) == []
    assert movement.allowance(make_ship("sloop", crew=["seaman", "oarsman"]), 0, calm) == ["S"]


def test_T27_helmsman_and_covas():
    sh = make_ship("sloop", crew=["helmsman", "covas"])
    assert movement.allowance(sh, 0, FRESH) == ["S", "S", "S", "S"]


def test_T28_a_tow_makes_the_base_move_S():
    sh = make_ship("frigate", crew=["seaman"] * 6)
    sh["towing"] = "d1"
    assert movement.allowance(sh, 0, FRESH) == ["S"]


def test_T28_taking_up_a_tow_through_the_engine():
    """L62-L64: a ship that touches an enemy derelict's bow after a move takes her in tow, a
    free action: the derelict joins her fleet, a scuttling begun fails, the tower's move is
    S, the tow follows her and docks with her."""
    st = make_table([{"id": "a1", "class": "frigate", "side": "a", "x": 10, "y": 8,
                      "heading": 0, "crew": ["seaman"] * 6},
                     {"id": "b1", "class": "brigantine", "side": "b", "x": 10, "y": 14,
                      "heading": 180, "crew": ["seaman"] * 2}],
                    islands=[{"id": "port", "x": 10, "y": 30, "kind": "wild"}])
    st["round"] = 1
    a1, b1 = st["ships"]["a1"], st["ships"]["b1"]
    b1["masts"], b1["derelict"], b1["scuttle_pending"] = ["LOST", "LOST"], True, True
    events = []
    engine._move(st, a1, "move:to:b1", rolls(), EventLog(events))
    assert a1["towing"] == "b1" and b1["towed_by"] == "a1" and b1["side"] == "a"
    assert not b1["scuttle_pending"] and "move.tow" in [e.kind for e in events]
    assert not b1["sunk"]  # no ram: she is taken, not sunk
    assert movement.allowance(a1, 0.0, st["wind"]) == ["S"]
    assert not engine._can_move(st, b1)
    y = a1["y"]
    engine._move(st, a1, "move:N", rolls(), EventLog(None))
    assert a1["y"] == pytest.approx(y + 2.5, abs=0.01)  # S, not L+S
    assert b1["heading"] == a1["heading"] == 0
    assert b1["y"] == pytest.approx(a1["y"] - (a1["length"] + b1["length"]) / 2, abs=0.05)
    for _ in range(8):  # on to the island: the tow docks with her
        engine._move(st, a1, "move:to:port", rolls(), EventLog(None))
        if a1["docked_at"]:
            break
    assert a1["docked_at"] == b1["docked_at"] == "port"


def _rammer_and_target(target_cls="frigate"):
    st = make_table([{"id": "r", "class": "brigantine", "side": "a", "x": 10, "y": 10,
                      "heading": 90, "crew": ["seaman"] * 4},
                     {"id": "t", "class": target_cls, "side": "b", "x": 13, "y": 10,
                      "heading": 0, "crew": ["seaman"] * 6}])
    st["round"] = 1
    return st, st["ships"]["r"], st["ships"]["t"]


def test_T29_a_ram_above_the_masts_takes_one_and_fouls():
    st, r, t = _rammer_and_target()
    engine._ram(st, r, t, rolls(4, 1, 6), EventLog(None))  # ram 4; boarding 1 against 6
    assert damage.masts_remaining(t["masts"]) == 2 and r["fouled"] == "t"


def test_T30_a_ram_not_above_the_masts_does_nothing_but_fouls():
    st, r, t = _rammer_and_target()
    engine._ram(st, r, t, rolls(3, 1, 6), EventLog(None))
    assert damage.masts_remaining(t["masts"]) == 3 and r["fouled"] == "t"


def test_T31_a_ram_that_leaves_a_derelict_does_not_foul():
    st, r, t = _rammer_and_target("sloop")
    engine._ram(st, r, t, rolls(2, 1, 6), EventLog(None))
    assert t["derelict"] and r["fouled"] is None


def test_T32_boarding_the_defender_wins_6_to_5():
    result = boarding.board(rolls(2, 4), 3, 2)
    assert result["winner"] == "defender" and result["totals"] == (5, 6)
    st, r, t = _rammer_and_target("brigantine")
    t["coins"] = []
    r["coins"] = [{"id": "c1", "value": 3, "special": None}]
    engine._board(st, r, t, rolls(2, 5), EventLog(None))  # 2+2 against 5+2
    assert r["coins"] == [] and len(t["coins"]) == 1  # the winner steals a treasure


def test_T33_red_rampage_natural_six_makes_the_enemy_surrender():
    result = boarding.board(rolls(6, 6), 1, 5, attacker_rampage=True)
    assert result["winner"] == "attacker" and result["surrender"]


def test_T34_fire_as_they_bear_3L():
    assert gunfire.hits(3, 3) and not gunfire.hits(2, 3)
    assert gunfire.fire_battery(rolls(3), 3) == (True, [3])


def test_T35_a_natural_one_always_misses():
    assert not gunfire.hits(1, 1)
    assert not gunfire.hits(1, 2, bonus=1)


def test_T36_st_croix_adds_one():
    assert gunfire.hits(3, 4, bonus=1)


def test_T37_broadside_all_hit_and_one_more():
    assert gunfire.broadside_hits(4, [2, 3, 4]) == 4
    hits_on, _ = gunfire.resolve_fire(rolls(4), [
        {"ship": "a", "target": "b", "battery": i, "rank": r} for i, r in enumerate((2, 3, 4))],
        mode="broadside")
    assert hits_on == {"b": 4}


def test_T38_broadside_below_the_highest_rank_misses_all():
    assert gunfire.broadside_hits(3, [2, 3, 4]) == 0


def test_T39_the_exchange_is_simultaneous():
    """A's fire takes B's only mast; B fires back with it all the same (L52)."""
    st = make_table([{"id": "a1", "class": "frigate", "side": "a", "x": 8, "y": 8,
                      "heading": 0, "crew": ["seaman"] * 6},
                     {"id": "b1", "class": "sloop", "side": "b", "x": 10, "y": 8,
                      "heading": 0, "crew": ["seaman"] * 2}])
    st["round"] = 1
    st["order"] = ["a1", "b1"]
    st["orders"] = {"a1": "fire", "b1": "fire"}
    events = []
    engine._do(st, st["ships"]["a1"], "fire", rolls(5, 1, 1, 4), EventLog(events))
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["fire", "fire"] and events[1].data["return"]
    assert st["ships"]["b1"]["derelict"]
    assert damage.masts_remaining(st["ships"]["a1"]["masts"]) == 2
    assert kinds.index("ship.derelict") > 1 and kinds.index("ship.mast_lost") > 1


RIGGING = {"brethren_loss_of_rigging": True}
ADVANCED = {"brethren_advanced_damage": True, "brethren_critical_hits": True}


def _alongside(settings, *, b_hull=None, b_side_x=8.0):
    """A frigate ``a1`` heading north at (10, 10) and an enemy frigate ``b1`` beside her, to
    port (west) at ``b_side_x`` < 10 or to starboard above it, within S."""
    st = make_table([{"id": "a1", "class": "frigate", "side": "a", "x": 10, "y": 10,
                      "heading": 0, "crew": ["seaman"] * 6},
                     {"id": "b1", "class": "frigate", "side": "b", "x": b_side_x, "y": 10,
                      "heading": 0, "crew": ["seaman"] * 6}], settings=settings)
    st["round"] = 1
    st["order"] = ["a1", "b1"]
    st["orders"] = {"a1": "fire", "b1": "hold"}  # b1 does not fire back
    if b_hull is not None:
        st["ships"]["b1"]["hull"] = b_hull
    return st, st["ships"]["a1"], st["ships"]["b1"]


def test_T40_a_mast_hanging_to_port():
    assert damage.loss_of_rigging(rolls(3), 1) == ["HP"]
    st, a1, b1 = _alongside(RIGGING)
    assert gunfire.candidates(st, a1, [b1])["port"]  # b1 lies to port: a1's guns bear
    engine._lose_masts(st, a1, 1, EventLog(None), rolls(3), b1)  # 3: odd, to port
    assert a1["masts"].count("HP") == 1 and damage.masts_remaining(a1["masts"]) == 2
    assert gunfire.candidates(st, a1, [b1])["port"] == []  # no fire to port
    assert "about" not in engine.plan_options(st, a1)  # no turning until cut away
    assert a1["fouled"] == "b1"  # it fell to port, where b1 lies within S (A24)
    a1["fouled"] = None
    legs = movement.allowance(a1, 90.0, st["wind"])
    movement.sail(st, a1, legs, lambda s: 90.0, rolls(), lambda *a: None)
    assert a1["heading"] == 0  # she keeps her heading
    # cut away by a Repair action (no roll under the basic rules): then she fires again
    engine._repair(st, a1, EventLog(None), rolls())
    assert a1["masts"].count("LOST") == 1 and "HP" not in a1["masts"]


def test_T41_starboard_or_falling_clear():
    assert damage.rigging_falls(4) == "HS" and damage.rigging_falls(5) == "LOST"
    st, a1, b1 = _alongside(RIGGING)
    engine._lose_masts(st, a1, 2, EventLog(None), rolls(4, 5), b1)
    assert sorted(a1["masts"]) == ["HS", "LOST", "UP"]
    assert a1["fouled"] is None  # the wreckage hangs to starboard, b1 is to port (A24)


def _exchange(st, a1, faces):
    events = []
    engine._do(st, a1, "fire", rolls(*faces), EventLog(events))
    return [e.kind for e in events]


def test_T42_a_critical_on_one_destroys_the_rudder():
    assert damage.critical(rolls(1), 2) == "rudder"
    st, a1, b1 = _alongside(ADVANCED, b_hull=3)  # hull 3 = masts 3: roundshot
    kinds = _exchange(st, a1, (5, 5, 1, 1))  # a1's three batteries, then the critical die
    assert b1["hull"] == 1 and b1["rudder_out"] and "ship.rudder" in kinds
    assert damage.masts_remaining(b1["masts"]) == 3  # roundshot spares the rigging
    assert "about" not in engine.plan_options(st, b1)


def test_T43_a_magazine_hit_takes_the_fouled_ship_too():
    assert damage.critical(rolls(6), 2) == "magazine"
    ships = [{"id": "s", "fouled": None}, {"id": "e", "fouled": "s"}, {"id": "x", "fouled": None}]
    assert damage.blown_up("s", ships) == ["s", "e"]
    st, a1, b1 = _alongside(ADVANCED, b_hull=3)
    b1["fouled"] = "a1"
    kinds = _exchange(st, a1, (5, 5, 1, 6))
    assert b1["sunk"] and a1["sunk"] and "ship.magazine" in kinds


def test_T44_one_hull_hit_rolls_no_critical():
    assert damage.critical(ScriptedSource(rolls=[]), 1) is None
    st, a1, b1 = _alongside(ADVANCED, b_hull=3)
    _exchange(st, a1, (5, 1, 1))  # one hit: the script holds no critical die, none is rolled
    assert b1["hull"] == 2 and not b1["rudder_out"]


def test_T45_unfouling_with_a_shipwright():
    assert damage.repair_roll(rolls(3), shipwright=True) == (True, 3)


def test_T46_unfouling_under_fire():
    assert damage.repair_roll(rolls(4), under_fire=True) == (False, 4)


def test_T47_scuttled_she_sinks_at_the_start_of_next_turn():
    assert damage.scuttle(rolls(5)) is True
    st = make_table([{"id": "s1", "class": "sloop", "side": "a", "x": 10, "y": 10,
                      "heading": 0, "crew": ["seaman"] * 2},
                     {"id": "s2", "class": "sloop", "side": "b", "x": 30, "y": 30,
                      "heading": 0, "crew": ["seaman"] * 2}])
    st["round"] = 1
    sh = st["ships"]["s1"]
    sh["derelict"], sh["masts"] = True, ["LOST"]
    engine._do(st, sh, "scuttle", rolls(5), EventLog(None))
    assert not sh["sunk"]
    engine._begin_turn(st, rolls(1, 1, 2), EventLog(None))  # initiative of the rest
    assert sh["sunk"]


def test_T48_rum_leaves_the_crew_drunk_and_is_worth_five_to_a_three_master():
    assert treasure.rum_value(3) == 5
    st = make_table([{"id": "s1", "class": "frigate", "side": "a", "x": 10, "y": 10,
                      "heading": 0, "crew": ["seaman"] * 6},
                     {"id": "s2", "class": "sloop", "side": "b", "x": 30, "y": 30,
                      "heading": 0, "crew": ["seaman"] * 2}])
    st["round"] = 1
    sh = st["ships"]["s1"]
    rum = {"id": "c9", "value": 0, "special": "rum"}
    engine._special(st, sh, {"id": "i", "coins": []}, rum, rolls(), EventLog(None))
    assert rum["worth"] == 5
    engine._begin_turn(st, rolls(1, 2, 2, 3), EventLog(None))  # initiative, wind
    assert "s1" not in st["awaiting"] and "s2" in st["awaiting"]  # no actions next turn
    assert treasure.coin_value(rum) == 5


def test_T49_an_odd_ghost_takes_everything_and_bars_the_island():
    st = make_table([{"id": "s1", "class": "frigate", "side": "a", "x": 20, "y": 20,
                      "heading": 0, "crew": ["seaman"] * 6},
                     {"id": "s2", "class": "sloop", "side": "b", "x": 35, "y": 35,
                      "heading": 0, "crew": ["seaman"] * 2}],
                    islands=[{"id": "home", "x": 5, "y": 5, "home_of": "a"},
                             {"id": "isle", "x": 20, "y": 24}])
    sh = st["ships"]["s1"]
    sh["coins"] = [{"id": "c1", "value": 4, "special": None}]
    isle = st["islands"]["isle"]
    ghost = {"id": "c2", "value": 0, "special": "ghost"}
    engine._special(st, sh, isle, ghost, rolls(3), EventLog(None))
    assert sh["coins"] == [] and "isle" in sh["barred"]
    assert sh["docked_at"] == "home" and ghost in isle["coins"]
    assert st["sides"]["a"]["home_coins"] == []
    assert not any(k.endswith(":isle") for k in engine.plan_options(st, sh))


def test_T50_ransom_of_a_held_clerk_but_not_of_a_serving_doctor():
    assert crews.ransom(["sanchez"], ["seaman", "beattie"], "PI") == 3
    assert crews.ransom(["beattie"], ["beattie"], "PI") == 0
    st = make_table([{"id": "s1", "class": "frigate", "side": "a", "x": 10, "y": 10,
                      "heading": 0, "crew": ["seaman"] * 5 + ["beattie"]},
                     {"id": "s2", "class": "sloop", "side": "b", "x": 30, "y": 30,
                      "heading": 0, "crew": ["seaman"] * 2}])
    st["sides"]["a"]["prisoners"] = ["sanchez"]
    assert missions.treasure(st, "a") == 3


def test_T51_treasure_of_a_30_point_game_for_two():
    coins, gold = treasure.coins_per_player(30)
    assert (coins, gold) == (6, 12) and sum(treasure.spread_values(6, 12)) == 12
    scenario = engine.ENGINE.scenarios()["treasure_hunt"]
    from rules.random import SeededSource

    st, _ = engine.ENGINE.start(scenario.setup, SeededSource(1))
    pool = [c for i in st["islands"].values() for c in i["coins"]]
    ordinary = [c for c in pool if c["special"] is None]
    assert len(ordinary) == 12 and sum(c["value"] for c in ordinary) == 24
    assert len(pool) - len(ordinary) <= 2


def test_T52_the_kraken_attack_die():
    assert [engine.KRAKEN_RESULTS[d] for d in range(1, 7)] == [
        "miss", "mast", "mast", "hull", "crew", "crew"]


def test_T53_kraken_crew_price_doubles_per_voyage_attacked():
    assert crews.kraken_crew_price(3, 2) == 12



def test_T53_a_ship_the_kraken_attacked_buys_her_crew_again_at_home():
    """L110-L112: her crew leave her at home; new crew at 2**k the price (A26: 1 gold a
    crew point), paid with the treasure landed there."""
    st = make_table([{"id": "s1", "class": "sloop", "side": "a", "x": 10, "y": 12.02,
                      "heading": 180, "crew": ["seaman"] * 3}],
                    islands=[{"id": "home", "x": 10, "y": 10, "home_of": "a"}],
                    mission="beware_the_kraken", sides=("a", "b"))
    sh, side = st["ships"]["s1"], st["sides"]["a"]
    side["home_coins"] = [{"id": f"c{v}", "value": v, "special": None} for v in (5, 1, 2, 3)]
    sh["kraken_attacks"] = 1
    events = []
    engine._dock_check(st, sh, EventLog(events), None)
    assert sh["docked_at"] == "home"
    # her three counters leave; one new hand (the standing choice) at 2 gold: coins 1 and 2
    assert sh["crew"] == ["seaman"]
    assert sorted(c["value"] for c in side["home_coins"]) == [3, 5]
    assert next(e for e in events if e.kind == "crew.kraken").data["price"] == 2
    sh["kraken_attacks"] = 1  # attacked on a second voyage: 4 gold a counter
    engine._dock_check(st, sh, EventLog(None), None)
    assert sh["crew"] == ["seaman"] and side["home_coins"] == []  # 3 + 5 pay the 4
    sh["kraken_attacks"] = 1  # a third: 8 gold, and nothing left to pay with
    engine._dock_check(st, sh, EventLog(None), None)
    assert sh["crew"] == []

def test_T54_a_single_crew_counter():
    assert crews.actions_per_turn(["seaman"]) == 1 and crews.batteries_allowed(["seaman"]) == 1
    st = make_table([{"id": "s1", "class": "frigate", "side": "a", "x": 10, "y": 10,
                      "heading": 0, "crew": ["seaman"]},
                     {"id": "s2", "class": "sloop", "side": "b", "x": 30, "y": 30,
                      "heading": 0, "crew": ["seaman"] * 2}])
    assert not any("+" in k for k in engine.plan_options(st, st["ships"]["s1"]))
    shots = [{"ship": "s1", "target": "s2", "battery": i, "rank": 2} for i in range(3)]
    hits_on, fired = gunfire.resolve_fire(rolls(6), shots, limit=1)
    assert len(fired) == 1 and hits_on == {"s2": 1}


def test_T55_admiral_morgan_on_five():
    assert crews.extra_action_roll(["morgan"], rolls(5)) == "morgan"
    assert crews.extra_action_roll(["morgan"], rolls(4)) is None
    with pytest.raises(ScriptExhausted):
        crews.extra_action_roll(["morgan"], rolls())
