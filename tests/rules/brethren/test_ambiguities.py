"""The ambiguities of ``rules/brethren.md`` §11 (A1-A38) and the errata (BR-1..BR-9): each
decided by its recommended reading, or a campaign setting whose default is that reading,
and tested here (those the engine leaves out are listed in the report, not faked)."""

import pytest

from rules.brethren import (
    ai,
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
from rules.brethren.geometry import EPSILON, L, S, footprint, ship_gap, side_of
from rules.btq.settings import SETTINGS, resolve
from rules.dice import order_by_dice
from rules.engine import EventLog
from rules.random import ScriptedSource, SeededSource

from .conftest import make_ship, make_table


def rolls(*faces):
    return ScriptedSource(rolls=list(faces))


def _two(a=None, b=None, **table):
    a = {"id": "a1", "class": "frigate", "side": "a", "x": 10, "y": 10, "heading": 0,
         "crew": ["seaman"] * 6, **(a or {})}
    b = {"id": "b1", "class": "brigantine", "side": "b", "x": 12.5, "y": 10, "heading": 0,
         "crew": ["seaman"] * 4, **(b or {})}
    st = make_table([a, b], **table)
    st["round"] = 1
    return st


def test_A1_S_and_L_are_card_edges_and_ships_touch_within_epsilon():
    assert (S, L, EPSILON) == (2.5, 3.5, 0.05)
    assert footprint(3) == (2.5, 0.8)
    st = _two(b={"x": 10.75 + EPSILON / 2})
    assert ship_gap(st["ships"]["a1"], st["ships"]["b1"]) <= EPSILON


def test_A2_A3_the_sectors_of_the_wind_rose():
    fresh = {"dir": 0, "strength": 2}  # from the south
    assert [wind.point_of_sailing(h, fresh) for h in (180, 200, 225, 250, 90, 20, 0)] == [
        "into_wind", "into_wind", "close_hauled", "full_and_by", "full_and_by",
        "running", "running"]


def test_A4_modifiers_add_and_oars_are_instead():
    assert movement.apply_modifiers(["L", "S"], -2) == ["L-S"]
    assert movement.apply_modifiers(["S"], -3) == []
    sh = make_ship("sloop", crew=["oarsman", "helmsman"])
    assert movement.allowance(sh, 0, {"dir": 0, "strength": 0}) == ["S"]  # not S + S


def test_A5_a_ship_steering_for_a_mark_turns_between_legs():
    st = _two(a={"x": 5, "y": 5, "heading": 0}, b={"x": 30, "y": 30})
    st["islands"]["isle"] = {"id": "isle", "x": 14, "y": 5, "r": 1.25, "kind": "wild",
                             "home_of": None, "name": "Isle", "coins": [], "streamers": [],
                             "castaways": []}
    st["island_ids"].append("isle")
    engine._move(st, st["ships"]["a1"], "move:to:isle", rolls(), EventLog(None))
    assert st["ships"]["a1"]["heading"] == pytest.approx(90, abs=1)
    assert st["ships"]["a1"]["docked_at"] == "isle"


def test_A6_the_broadside_reading_is_a_setting():
    assert gunfire.broadside_hits(3, [2, 3, 4]) == 0
    assert gunfire.broadside_hits(3, [2, 3, 4], reading="lowest_number") == 4
    assert SETTINGS["brethren_broadside_rank"].default == "highest_number"


def test_A7_no_gun_bears_within_22_5_degrees_of_bow_or_stern():
    sh = make_ship("frigate", x=0, y=0, heading=0)
    assert side_of(sh, 0.3, 5) is None and side_of(sh, -0.3, -5) is None
    assert side_of(sh, 5, 0) == "starboard" and side_of(sh, -5, 1) == "port"


def test_A8_the_whole_ship_fires_to_one_side_a_turn():
    st = make_table([
        {"id": "a1", "class": "frigate", "side": "a", "x": 10, "y": 10, "heading": 0,
         "crew": ["seaman"] * 6},
        {"id": "p", "class": "sloop", "side": "b", "x": 8, "y": 10, "heading": 0,
         "crew": ["seaman"] * 2},
        {"id": "q", "class": "sloop", "side": "b", "x": 12, "y": 10, "heading": 0,
         "crew": ["seaman"] * 2}])
    enemies = [st["ships"]["p"], st["ships"]["q"]]
    shots = gunfire.choose_fire(st, st["ships"]["a1"], enemies)
    assert len({s["target"] for s in shots}) == 1
    both = gunfire.choose_fire(st, st["ships"]["a1"], enemies, per_battery_sides=True)
    assert len(both) == 3 and SETTINGS["brethren_fire_sides"].default == "ship"


def test_A9_A10_A11_reef_overflow_sinks_and_the_depth_holds_for_the_turn():
    piece = {"id": "r", "kind": "reef", "x": 0, "y": 0, "r": 1, "rating": None}
    assert terrain.reef_check(piece, 4, 1, rolls(1)) == (1, True)
    # the next ship this turn meets the same depth, without a die (A11)
    assert terrain.reef_check(piece, 3, 3, ScriptedSource(rolls=[])) == (2, False)
    assert terrain.clear_ratings([piece])[0]["rating"] is None


def test_A12_boarding_ties_are_rolled_again():
    result = boarding.board(rolls(3, 3, 5, 2), 2, 2)
    assert result["rolls"] == [(3, 3), (5, 2)] and result["winner"] == "attacker"


def test_A13_boarding_when_fouled_is_a_setting():
    assert SETTINGS["brethren_board_when_fouled"].default is False
    st = _two(settings={"brethren_board_when_fouled": True})
    st["ships"]["a1"]["fouled"] = "b1"
    events = []
    engine._activate(st, st["ships"]["a1"], "hold", rolls(6, 1), EventLog(events))
    assert [e.kind for e in events][0] == "boarding"


def test_A14_a_ram_in_a_near_gale_costs_the_rammer_too():
    st = _two(wind=("N", 4))
    r, t = st["ships"]["a1"], st["ships"]["b1"]
    engine._ram(st, r, t, rolls(1, 6), EventLog(None))  # ram 1 (no loss), back 6 > 3
    assert damage.masts_remaining(r["masts"]) == 2


def test_A15_A16_wind_dice_are_direction_then_strength_clamped():
    new, dice = wind.change({"dir": 7, "strength": 0}, rolls(4, 1))
    assert dice == (4, 1) and new == {"dir": 0, "strength": 0}


def test_A17_tied_initiative_is_rolled_again_among_the_tied():
    order = order_by_dice(rolls(3, 1, 3, 5, 2), ["x", "y", "z"], "initiative")
    assert order == ["y", "z", "x"]  # y 1; x and z tie on 3, then z 2 before x 5


def test_A18_the_captain_of_marines_is_a_3S_battery():
    sh = make_ship("sloop", crew=["seaman", "marines"])
    marines = [b for b in gunfire.batteries(sh) if b["battery"] == "marines"]
    assert marines and (marines[0]["rank"], marines[0]["range"]) == (3, "S")
    assert boarding.boarding_bonus(["marines"]) == 1


def test_A19_an_explorer_looks_at_three_and_takes_the_best():
    coins = [{"id": f"c{i}", "value": v, "special": None} for i, v in enumerate((1, 5, 2, 4))]
    shown = treasure.explorer_look(rolls(2, 1, 1, 1), coins)
    assert len(shown) == 3
    assert treasure.choose_from(coins, 1, [0, 1, 2]) == [1]


def test_A20_st_croix_once_a_turn_or_every_action():
    assert SETTINGS["brethren_st_croix"].default == "once_per_turn"
    st = _two(a={"crew": ["seaman"] * 5 + ["st_croix"]}, settings={
        "brethren_st_croix": "every_action"})
    events = []
    # St. Croix 1 before the first action; the fire 1 1 1; St. Croix 6: it fires again
    engine._activate(st, st["ships"]["a1"], "about+fire", rolls(1, 1, 1, 1, 6, 1, 1, 1),
                     EventLog(events))
    assert [e.kind for e in events].count("crew.extra_action") == 1


def test_A21_ransom_of_rampage_and_pete_is_their_cost():
    assert crews.ransom(["red_rampage", "powder_pete"], [], "EN") == 6


def test_A22_any_hit_sinks_a_derelict():
    assert damage.hit_sinks_derelict(None) and damage.hit_sinks_derelict("chain")
    assert not damage.hit_sinks_derelict("chain", "roundshot")
    st = _two()
    t = st["ships"]["b1"]
    t["masts"], t["derelict"] = ["LOST", "LOST"], True
    engine._lose_masts(st, t, 1, EventLog(None))
    assert t["sunk"]


def test_A22_with_the_roundshot_reading_only_roundshot_sinks_a_derelict():
    st = _two(settings={"brethren_advanced_damage": True, "brethren_derelict_hit": "roundshot"})
    t = st["ships"]["b1"]
    t["masts"], t["derelict"] = ["LOST", "LOST"], True
    engine._hits(st, t, {"chain": 2, "grape": 1}, EventLog(None), rolls(), None)
    assert not t["sunk"] and len(t["crew"]) == 3  # the grapeshot still kills
    engine._hits(st, t, {"round": 1}, EventLog(None), rolls(), None)
    assert t["sunk"]
    st = _two(settings={"brethren_advanced_damage": True})  # the default: any hit
    t = st["ships"]["b1"]
    t["masts"], t["derelict"] = ["LOST", "LOST"], True
    engine._hits(st, t, {"grape": 1}, EventLog(None), rolls(), None)
    assert t["sunk"]


def test_advanced_damage_each_shot_against_its_pool():
    """L73-L75: chainshot the masts, roundshot the hull (0: she sinks), grapeshot the crew
    (0: she surrenders); the standing choice loads against the pool she has least of."""
    st = _two(settings={"brethren_advanced_damage": True})
    t = st["ships"]["b1"]  # a brigantine: 2 masts, hull 4, crew 4
    assert gunfire.choose_ammo(t, 1.0) == "chain"
    t["hull"] = 2
    assert gunfire.choose_ammo(t, 1.0) == "round"
    t["crew"] = ["seaman"]
    assert gunfire.choose_ammo(t, 1.0) == "grape" and gunfire.choose_ammo(t, S + 0.5) == "round"
    t["hull"], t["crew"] = 4, ["seaman"] * 4
    events = []
    engine._hits(st, t, {"chain": 1, "round": 2, "grape": 1}, EventLog(events), rolls(), None)
    assert (damage.masts_remaining(t["masts"]), t["hull"], len(t["crew"])) == (1, 2, 3)
    engine._hits(st, t, {"grape": 3}, EventLog(events), rolls(), None)
    assert t["crew"] == [] and not t["sunk"] and events[-1].kind == "ship.surrenders"
    engine._hits(st, t, {"round": 5}, EventLog(events), rolls(), None)
    assert t["sunk"] and t["hull"] == 0


def test_advanced_damage_in_an_exchange_and_a_hull_repair():
    st = _two(settings={"brethren_advanced_damage": True}, b={"x": 12.0})
    a1, b1 = st["ships"]["a1"], st["ships"]["b1"]
    st["order"], st["orders"] = ["a1", "b1"], {"a1": "fire", "b1": "hold"}
    b1["hull"] = 1  # the pool she has least of: roundshot
    events = []
    engine._do(st, a1, "fire", rolls(6, 1, 1), EventLog(events))
    assert b1["sunk"] and any(e.data.get("why") == "holed below the waterline" for e in events)
    a1["hull"], a1["under_fire_round"] = 2, 1
    engine._repair(st, a1, EventLog(None), rolls(4))  # 4 - 1 under fire: fails
    assert a1["hull"] == 2
    engine._repair(st, a1, EventLog(None), rolls(3))  # 3 - 1 + 1 Shipwright? none: fails
    a1["crew"].append("shipwright")
    engine._repair(st, a1, EventLog(None), rolls(4))  # 4 - 1 + 1 = 4: patched
    assert a1["hull"] == 3


def test_A23_the_first_enemy_to_touch_an_unmanned_ship_takes_her():
    st = _two(b={"x": 16.0, "heading": 90})
    a1, b1 = st["ships"]["a1"], st["ships"]["b1"]
    a1["heading"] = 90
    b1["crew"] = []
    st["wind"] = {"dir": 2, "strength": 2}  # blowing toward the east: a1 runs before it
    engine._move(st, a1, "move:to:b1", rolls(1, 1, 1), EventLog(None))
    assert ship_gap(a1, b1) <= 0.05 and b1["side"] == "a" and len(b1["crew"]) == 1


def test_A24_hanging_wreckage_fouls_the_enemy_on_that_side_within_S_or_by_contact():
    rig = {"brethren_loss_of_rigging": True}
    st = _two(settings=rig, b={"x": 12.0})  # b1 to starboard (east), 1.2 in off
    a1, b1 = st["ships"]["a1"], st["ships"]["b1"]
    engine._lose_masts(st, a1, 1, EventLog(None), rolls(2), b1)  # even: to starboard
    assert a1["fouled"] == "b1"
    st = _two(settings=rig, b={"x": 12.0})
    engine._lose_masts(st, st["ships"]["a1"], 1, EventLog(None), rolls(1),
                       st["ships"]["b1"])  # odd: to port, away from her
    assert st["ships"]["a1"]["fouled"] is None
    st = _two(settings=rig, b={"x": 10 + S + 1.5})  # beyond S
    engine._lose_masts(st, st["ships"]["a1"], 1, EventLog(None), rolls(2),
                       st["ships"]["b1"])
    assert st["ships"]["a1"]["fouled"] is None
    st = _two(settings={**rig, "brethren_hanging_fouls": "contact"}, b={"x": 12.0})
    engine._lose_masts(st, st["ships"]["a1"], 1, EventLog(None), rolls(2),
                       st["ships"]["b1"])
    assert st["ships"]["a1"]["fouled"] is None  # within S but not touching
    assert SETTINGS["brethren_hanging_fouls"].default == "within_S"


def test_A23_a_ship_with_no_crew_is_taken_without_a_roll():
    st = _two()
    st["ships"]["b1"]["crew"] = []
    engine._board(st, st["ships"]["a1"], st["ships"]["b1"], ScriptedSource(rolls=[]),
                  EventLog(None))
    assert st["ships"]["b1"]["side"] == "a"


def test_A25_the_rudder_is_repaired_by_one_action_without_a_roll():
    st = _two()
    st["ships"]["a1"]["rudder_out"] = True
    assert "repair" in engine.plan_options(st, st["ships"]["a1"])
    engine._repair(st, st["ships"]["a1"], EventLog(None), ScriptedSource(rolls=[]))
    assert not st["ships"]["a1"]["rudder_out"]


def test_A26_BR3_a_ship_home_with_one_counter_is_manned_again():
    assert crews.rehire(5, 1) == 2 and crews.rehire(5, 1, "add_half") == 3
    assert crews.rehire(5, 3) == 0


def test_A27_a_working_ship_is_afloat_with_masts_and_crew():
    sh = make_ship("sloop", crew=["seaman"])
    assert missions.working(sh)
    assert not missions.working({**sh, "derelict": True})
    assert not missions.working({**sh, "crew": []})


def test_A28_treasure_scales_with_the_points():
    assert treasure.coins_per_player(60) == (12, 24)
    assert treasure.coins_per_player(20) == (4, 8)


def test_A30_each_mission_names_its_victory_predicate():
    assert set(missions.MISSIONS) >= {s.setup["mission"]
                                      for s in engine.ENGINE.scenarios().values()}


def test_A31_the_lee_of_an_island_lets_the_oars_work_only():
    sh = make_ship("frigate", x=10, y=10, heading=0, crew=["seaman"] * 5 + ["oarsman"])
    isl = {"id": "i", "x": 10, "y": 7.5, "r": 1.0}  # just to the south: upwind
    fresh = {"dir": 0, "strength": 2}
    assert movement.in_lee(sh, [isl], fresh)
    assert movement.allowance(sh, 0, fresh, lee=True) == ["L", "S"]  # sails as usual


def test_A32_a_storm_drives_every_ship_downwind():
    st = _two(wind=("E", 5), a={"x": 10, "y": 20}, b={"x": 10, "y": 30, "class": "sloop",
                                                       "crew": ["seaman"] * 2})
    before = (st["ships"]["a1"]["x"], st["ships"]["b1"]["x"])
    engine._storm(st, rolls(), EventLog(None))
    assert st["ships"]["a1"]["x"] == pytest.approx(before[0] + S, abs=0.01)  # cargo 4: S
    assert st["ships"]["b1"]["x"] == pytest.approx(before[1] + L, abs=0.01)  # cargo 2: L
    assert engine.plan_options(st, st["ships"]["a1"]).count("move:N") == 0


def test_A33_return_fire_needs_an_attack_not_yet_made():
    st = _two()
    st["order"], st["orders"] = ["a1", "b1"], {"a1": "fire", "b1": "move:N"}
    events = []
    engine._fire(st, st["ships"]["a1"], "fire", rolls(1, 1, 1), EventLog(events))
    assert [e.data.get("return") for e in events if e.kind == "fire"] == [False]


def test_A34_a_scuttled_ship_sinks_before_the_initiative():
    st = _two()
    st["ships"]["b1"]["scuttle_pending"] = True
    events = []
    engine._begin_turn(st, rolls(2, 2), EventLog(events))
    assert events[0].kind == "ship.sunk" and st["order"] == ["a1"]


def test_A35_the_ghost_leads_to_the_best_coin():
    coins = [{"id": "c1", "value": 2, "special": None}, {"id": "c2", "value": 5,
                                                         "special": None}]
    assert treasure.best_coin(coins) == 1


def test_A36_a_ship_lost_in_fog_neither_rams_nor_is_shot():
    st = _two()
    st["ships"]["b1"]["lost"] = True
    assert not gunfire.may_be_shot(st, st["ships"]["b1"])
    assert "move:to:b1" not in engine.plan_options(st, st["ships"]["a1"])


def test_A37_the_krakens_hull_blow_takes_a_mast_under_the_basic_damage():
    st = _two(goal={"kraken": "rock"},
              islands=[{"id": "rock", "x": 10, "y": 14}])
    st["kraken"] = {"island": "rock", "on": "a1"}
    engine._kraken(st, st["ships"]["a1"], rolls(4), EventLog(None))
    assert damage.masts_remaining(st["ships"]["a1"]["masts"]) == 2


def test_A38_a_merchantman_fires_if_it_can_else_flees():
    st = _two(b={"class": "merchantman", "merchant": True, "crew": ["seaman"],
                 "x": 10, "y": 20})
    options = engine.plan_options(st, st["ships"]["b1"])
    assert ai.choose(st, "b1", options) == "move:N"  # away from the frigate to the south


def test_BR1_the_sea_wolves_share_is_a_setting():
    assert resolve()["brethren_sea_wolves_share"] == "0.75"
    st = engine.ENGINE.start(engine.ENGINE.scenarios()["sea_wolves"].setup,
                             SeededSource(4))[0]
    for sid in ("c1", "c2"):
        st["ships"][sid]["sunk"] = True
    assert missions.convoy_kept(st) == 0.5
    assert missions.winner(st, missions.scores(st)) == "wolves"
    st["settings"]["brethren_sea_wolves_share"] = "0.5"
    assert missions.winner(st, missions.scores(st)) == "navy"


def test_BR2_light_air_may_give_or_take_an_S():
    sh = make_ship("frigate", crew=["seaman"] * 6)
    light = {"dir": 0, "strength": 1}
    plus = {"brethren_light_air": "plus_minus_S"}
    assert movement.allowance(sh, 0, light, settings=plus, source=rolls(5)) == ["L", "S", "S"]
    assert movement.allowance(sh, 0, light, settings=plus, source=rolls(2)) == ["L"]


def test_BR9_a_scuttled_ship_leaves_no_castaway():
    st = _two(islands=[{"id": "isle", "x": 20, "y": 20}],
              b={"crew": ["seaman", "shipwright", "seaman", "seaman"]})
    engine._sink(st, st["ships"]["b1"], None, "scuttled", castaway=False)
    assert st["islands"]["isle"]["castaways"] == []
    st = _two(islands=[{"id": "isle", "x": 20, "y": 20}],
              b={"crew": ["seaman", "shipwright", "seaman", "seaman"]})
    engine._sink(st, st["ships"]["b1"], None, "sunk")
    assert st["islands"]["isle"]["castaways"] == [{"crew": "shipwright", "from": "b"}]


def test_A19_an_explorer_searches_free_the_moment_she_lands():
    st = _two(a={"class": "schooner", "crew": ["seaman", "seaman", "explorer"], "x": 5,
                 "y": 5, "heading": 90}, b={"x": 30, "y": 30},
              islands=[{"id": "isle", "x": 14, "y": 5,
                        "coins": [{"value": 2}, {"value": 3}]}])
    events = []
    engine._move(st, st["ships"]["a1"], "move:to:isle", rolls(1), EventLog(events))
    assert "treasure.explorer" in [e.kind for e in events]
    assert len(st["ships"]["a1"]["coins"]) == 2


def test_advanced_damage_pools():
    """§6.7.2 (L73-L75): chain takes masts, round the hull (the cargo), grape the crew."""
    sh = make_ship("brigantine", crew=["seaman"] * 4)
    assert damage.advanced_hits(sh, {"chain": 2, "round": 1}) == {
        "rigging": 0, "hull": 3, "crew": 4, "derelict": True, "sinks": False,
        "surrenders": False}
    assert damage.advanced_hits(sh, {"round": 4, "grape": 4})["sinks"]


def test_the_revenue_fires_only_at_a_ship_that_will_not_heave_to():
    """Smugglers' Blues (L98-L99), read as: at a ship that has fired on the Revenue."""
    st = make_table([
        {"id": "r1", "class": "brigantine", "side": "rev", "x": 10, "y": 10, "heading": 0,
         "crew": ["seaman"] * 4},
        {"id": "s1", "class": "schooner", "side": "smug", "x": 12.5, "y": 10, "heading": 0,
         "crew": ["seaman"] * 2}], sides=("rev", "smug"), mission="smugglers_blues",
        goal={"coast": "N"})
    st["sides"]["rev"]["role"], st["sides"]["smug"]["role"] = "revenue", "smugglers"
    st["round"], st["order"] = 1, ["s1", "r1"]
    events = []
    engine._fire(st, st["ships"]["r1"], "fire", rolls(), EventLog(events))
    assert [e.kind for e in events] == ["fire.none"]
    engine._fire(st, st["ships"]["s1"], "fire", rolls(1, 1), EventLog(events))
    assert st["ships"]["s1"]["refused"]
    engine._fire(st, st["ships"]["r1"], "fire", rolls(1, 1), EventLog(events))
    assert events[-1].kind == "fire" and events[-1].data["ship"] == "r1"


def _passing(settings):
    """A frigate sailing north past an enemy frigate off her starboard bow: she comes within
    L of her partway through her move (L+S, running before a fresh wind)."""
    st = make_table([{"id": "a1", "class": "frigate", "side": "a", "x": 10, "y": 5,
                      "heading": 0, "crew": ["seaman"] * 6},
                     {"id": "b1", "class": "frigate", "side": "b", "x": 13, "y": 12,
                      "heading": 0, "crew": ["seaman"] * 6}], settings=settings)
    st["round"], st["order"] = 1, ["a1", "b1"]
    st["orders"] = {"a1": "move:N+fire", "b1": "hold"}
    events = []
    engine._activate(st, st["ships"]["a1"], "move:N+fire", rolls(6, 6, 6, 6),
                     EventLog(events))
    return st, events


def test_BR5_a_ship_passing_an_enemy_fires_where_he_comes_into_range_during_her_move():
    """On by default (the errata stand as written): she passes him, so her guns bear
    best where he first comes into range, and she fires there."""
    assert SETTINGS["brethren_fire_during_move"].default is True
    st, events = _passing({})
    kinds = [e.kind for e in events]
    assert kinds.index("move.fires") < kinds.index("fire") < kinds.index("move")
    where = next(e.data for e in events if e.kind == "move.fires")
    a1 = st["ships"]["a1"]
    assert 5.5 < where["y"] < a1["y"] - 1  # partway, not at the end of her move
    assert a1["y"] == pytest.approx(11.0, abs=0.01)  # then she sails on, the whole L+S
    shots = next(e for e in events if e.kind == "fire").data["rolls"]
    assert [r["battery"] for r in shots] == [0]  # only her L cannon reached there
    assert kinds.count("fire") == 1  # the attack of her orders is spent


def test_BR5_a_ship_closing_on_an_enemy_holds_her_fire_until_her_guns_bear_best():
    """L51 "the active ship decides whether to fire": the standing choice holds the attack
    while more of her guns will bear further on. Sailing north past his bow, one L cannon
    reaches him from y 6; all three bear from y 8.5, and she fires there."""
    st = make_table([{"id": "a1", "class": "frigate", "side": "a", "x": 10, "y": 5,
                      "heading": 0, "crew": ["seaman"] * 6},
                     {"id": "b1", "class": "frigate", "side": "b", "x": 12, "y": 11,
                      "heading": 0, "crew": ["seaman"] * 6}])
    st["round"], st["order"] = 1, ["a1", "b1"]
    events = []
    engine._activate(st, st["ships"]["a1"], "move:N+fire", rolls(*[6] * 12),
                     EventLog(events))
    kinds = [e.kind for e in events]
    assert kinds.index("move.fires") < kinds.index("fire") < kinds.index("move")
    assert next(e for e in events if e.kind == "move.fires").data["y"] > 8
    shots = next(e for e in events if e.kind == "fire").data["rolls"]
    assert len(shots) == 3  # not the one L cannon that reached him first


def test_BR5_with_the_setting_off_she_fires_where_her_orders_put_it():
    st, events = _passing({"brethren_fire_during_move": False})
    kinds = [e.kind for e in events]
    assert "move.fires" not in kinds and kinds.index("move") < kinds.index("fire")
    assert st["ships"]["a1"]["y"] == pytest.approx(11.0, abs=0.01)


def _by_procedure(players=2, settings=None, **more):
    sides = [{"id": s, "name": f"Side {s}"} for s in "abcdef"[:players]]
    ships = [{"id": f"{s['id']}{k}", "class": cls, "side": s["id"], "crew": ["seaman"] * 6}
             for s in sides for k, cls in enumerate(("frigate", "sloop"))]
    return engine.validate_setup({"mission": "treasure_hunt", "procedure": True,
                                  "board": {"w": 36, "h": 28}, "sides": sides,
                                  "ships": ships, "settings": settings or {},
                                  "treasure": {"points": 30, "specials": []}, **more})


def test_A29_the_set_up_procedure_places_players_plus_two_islands_2L_apart():
    setup = _by_procedure(3)
    isles = setup["islands"]
    assert len(isles) == 5 and all(i["kind"] == "wild" and not i["home_of"] for i in isles)
    for k, a in enumerate(isles):
        for b in isles[:k]:
            assert ((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5 - 2 * a["r"] >= 2 * L
    assert len(_by_procedure(2, {"brethren_island_count": "six"})["islands"]) == 6  # BR-6
    assert SETTINGS["brethren_island_count"].default == "players_plus_2"
    assert engine.validate_setup(setup) == setup  # a normalised setup validates again


def test_A29_player_order_homes_and_ships_at_home():
    """L23: a d6 each, highest first (ties again); L34-L36, A29: each home chosen in turn,
    all different; the ships start with their bows touching it, docked; the treasure lies
    on the wild islands only."""
    setup = _by_procedure(3)
    events = []
    st = engine._initial_state(setup, ScriptedSource(rolls=[2, 5, 5, 1, 6] + [1] * 40),
                               events)
    # a 2, b 5, c 5; b and c roll again: 1 and 6
    assert events[0].kind == "setup.order" and events[0].data["order"] == ["c", "b", "a"]
    homes = {s: st["sides"][s]["home"] for s in "abc"}
    assert len(set(homes.values())) == 3 and homes["c"] == "isle1"
    for sh in st["ship_ids"]:
        ship = st["ships"][sh]
        assert ship["docked_at"] == homes[ship["side"]]
    ships = [st["ships"][s] for s in st["ship_ids"]]
    assert all(ship_gap(a, b) > 0 for k, a in enumerate(ships) for b in ships[:k])
    for iid in st["island_ids"]:
        isl = st["islands"][iid]
        assert (isl["kind"] == "home") == (iid in homes.values())
        assert not isl["coins"] or isl["kind"] == "wild"
    assert sum(len(st["islands"][i]["coins"]) for i in st["island_ids"]) == 18


def test_the_set_up_procedure_refuses_what_breaks_it():
    with pytest.raises(ValueError, match="players choose the home islands"):
        _by_procedure(2, islands=[{"id": "x", "x": 5, "y": 5, "home_of": "a"}])
    with pytest.raises(ValueError, match="too small"):
        engine.validate_setup({**_by_procedure(2), "board": {"w": 12, "h": 12},
                               "islands": []})
    with pytest.raises(ValueError, match="within S of an island"):
        _by_procedure(2, terrain=[{"id": "reef1", "kind": "reef", "x": 5.5, "y": 14}])


def test_movin_on_up_a_royal_navy_squadron_hunts_the_first_pirate_with_four_masts():
    """L96-L97: when a player holds a ship of 4 or more masts a squadron of three appears,
    commanded by the lowest-ranked pirate; taking or sinking the biggest pirate ends the
    game with her fleet out of the running."""
    st, _ = engine.ENGINE.start(engine.ENGINE.scenarios()["movin_on_up"].setup, SeededSource(5))
    assert st["navy"] is None and "rn1" not in st["ships"]
    st["ships"]["m3"]["side"] = "a"  # Calico Jack has taken the galleon
    st["ships"]["m3"]["crew"] = ["seaman"] * 3
    events = []
    engine._begin_turn(st, SeededSource(6), EventLog(events))
    assert st["navy"]["quarry"] == "m3" and st["navy"]["commander"] == "side:b"
    rn = [st["ships"][f"rn{k}"] for k in (1, 2, 3)]
    assert all(s["side"] == "m" and s["navy"] for s in rn)
    assert any(e.kind == "mission.navy" for e in events)
    ships = [st["ships"][s] for s in st["ship_ids"] if not st["ships"][s]["sunk"]]
    assert all(ship_gap(a, b) > 0 for k, a in enumerate(ships) for b in ships[:k])
    # Black Bart's commander orders the squadron, one ship after his own, in secret
    assert {s["id"] for s in rn} <= set(st["awaiting"])
    actors = {d.kind: d.actor for d in engine.ENGINE.pending(st)}
    assert set(actors.values()) == {"side:a", "side:b"}
    seen = engine.ENGINE.view(st, "side:b")
    assert isinstance(seen["ships"]["rn1"]["crew"], list)  # his to command: in full
    assert isinstance(engine.ENGINE.view(st, "side:a")["ships"]["rn1"]["crew"], int)
    # the galleon goes down: the Navy has succeeded, and Calico Jack is out of the running
    engine._sink(st, st["ships"]["m3"], EventLog(None), "sunk")
    assert missions.over(st)[0] == "navy_success"
    st["sides"]["a"]["home_coins"] = [{"id": "x", "value": 9, "special": None}]
    assert missions.winner(st, missions.scores(st), "navy_success") == "b"
    assert missions.winner(st, missions.scores(st)) == "a"
