"""HFG march moves, roads, water crossings and delayed arrivals in play (``rules/hfg.md``
§7.1, §7.2, §7.5, §7.8; vectors M5, M6; ``rules.hfg.moves``), through the engine with
scripted dice, on a 4,000 x 3,200-pace table: side ``a`` at the south facing north, side
``b`` at the north facing south."""

import pytest

from rules.engine import GM, IllegalAction
from rules.hfg import water
from rules.hfg.engine import ENGINE, validate_setup
from rules.hfg.geometry import overlaps
from rules.hfg.moves import nearest_known_enemy
from rules.random import ScriptedSource


def el(eid, side, x, y, heading=None, type_="MUS", command=None, **kw):
    return {"id": eid, "side": side, "command": command or side, "type": type_, "x": x,
            "y": y, "heading": (0 if side == "a" else 180) if heading is None else heading,
            **kw}


def setup(elements, terrain=(), a_commands=None, **kw):
    """Generals far in the west and the north-east, so the others are out of their command
(every move +1 PIP); ``elements`` added; ``a_commands`` replaces side a's."""
    return {"title": "test", "year": 1805, "table": {"w": 4000, "d": 3200},
            "attacker": "a",
            "sides": [{"id": "a", "name": "Red", "commands": a_commands or [
                {"id": "a", "general": "ga"}]},
                      {"id": "b", "name": "Blue", "commands": [{"id": "b", "general": "gb"}]}],
            "terrain": list(terrain),
            "elements": [el("ga", "a", 300, 1600, type_="CP"), el("gb", "b", 3700, 2800,
                                                                  type_="CP"), *elements],
            **kw}


def start(s, rolls):
    source = ScriptedSource(rolls=rolls)
    state, events = ENGINE.start(validate_setup(s), source)
    return state, events, source


def options(state):
    return {o.key: o.label for o in ENGINE.pending(state)[0].options}


def cost(state, key):
    label = options(state)[key]
    return int(label.rsplit("(", 1)[1].split(" ")[0])


def order(state, key, source, actor="side:a"):
    return ENGINE.apply(state, actor, key, source)


ENEMY_LINE = [el("b1", "b", 2000, 3000)]


# --- march moves (§7.1) -----------------------------------------------------------------


def test_a_march_is_a_move_ahead_that_may_be_repeated_but_then_no_tactical_move():
    state, _, source = start(setup([el("m", "a", 2000, 400)] + ENEMY_LINE), [5])
    state["pips"]["a"] = 9
    tactical = cost(state, "advance:m")
    assert cost(state, "march:m") == tactical
    state, events = order(state, "march:m", source)
    m = state["elements"]["m"]
    assert m["y"] == 800 and m["moved"] and m["shot"]  # a marcher cannot shoot (L267)
    assert events[0].text == "Muskets (m) marches ahead 400 paces."
    keys = options(state)
    assert "advance:m" not in keys and "retire:m" not in keys  # no tactical move too
    assert cost(state, "march:m") == tactical + 1  # surcharge (c): off-road, after the first
    state, _ = order(state, "march:m", source)
    assert state["elements"]["m"]["y"] == 1200 and state["pips"]["a"] == 9 - 2 * tactical - 1
    assert state["marches"] == {"m": 2}


def test_a_march_may_not_end_within_1200_paces_of_known_enemy_m5():
    state, _, source = start(setup([el("m", "a", 2000, 1500)] + ENEMY_LINE), [5])
    # the full 400p would end 1,100p from the enemy's front (M5): the march stops at 1,200p
    state, _ = order(state, "march:m", source)
    assert state["elements"]["m"]["y"] == 1800
    assert nearest_known_enemy(state, "a", _rect(state["elements"]["m"])) == 1200
    assert "march:m" not in options(state)
    assert "advance:m" not in options(state)


def test_a_tactical_move_rules_out_a_march():
    state, _, source = start(setup([el("m", "a", 2000, 400)] + ENEMY_LINE), [5])
    state, _ = order(state, "advance:m", source)
    assert not any(k.startswith("march:m") for k in options(state))


def test_no_march_in_difficult_going_off_road_but_along_a_road():
    wood = {"id": "wood", "kind": "wood", "x": 1500, "y": 500, "w": 1000, "h": 800}
    road = {"id": "lane", "kind": "road", "x": 1950, "y": 0, "w": 100, "h": 3200,
            "name": "the lane", "quality": "bad"}
    state, _, source = start(setup([el("m", "a", 2000, 400)] + ENEMY_LINE, [wood]), [5])
    assert "march:m" not in options(state)
    state, _, source = start(setup([el("m", "a", 2000, 400)] + ENEMY_LINE, [wood, road]),
                             [5])
    keys = options(state)
    assert "march:m:n" in keys and "march:m:s" not in keys  # nowhere to go south
    first = cost(state, "march:m:n")
    state, _ = order(state, "march:m:n", source)
    assert state["elements"]["m"]["y"] == 800  # the road's 400p through the wood
    assert cost(state, "march:m:n") == first  # bad roads in dry weather: 3 free (A13)


@pytest.mark.parametrize("quality,first_roll,costs", [
    ("bad", 1, [0, 0, 1]),   # wet: the bad road is muddy, 2 marches free
    ("bad", 3, [0, 0, 0]),   # dry: a bad road counts as good (A13), 3 free
    ("good", 1, [0, 0, 0]),
])
def test_marches_along_roads_are_free_of_surcharge_c_by_the_road(quality, first_roll, costs):
    road = {"id": "pike", "kind": "road", "x": 0, "y": 150, "w": 4000, "h": 100,
            "name": "the pike", "quality": quality}
    # the attacker's first PIP roll of 1 makes the weather wet (muddy roads all game)
    state, _, source = start(setup([el("m", "a", 400, 200, 90, type_="LI")] + ENEMY_LINE,
                                   [road]), [first_roll])
    assert state["weather"]["muddy_roads"] is (first_roll == 1)
    state["pips"]["a"] = 9
    base = cost(state, "advance:m")
    paid = []
    for _ in costs:
        paid.append(cost(state, "march:m:e") - base)
        state, _ = order(state, "march:m:e", source)
    assert paid == costs and state["elements"]["m"]["x"] == 2800


# --- roads (§7.2) -----------------------------------------------------------------------


def test_a_road_move_has_the_good_going_allowance_through_a_wood():
    wood = {"id": "wood", "kind": "wood", "x": 1500, "y": 500, "w": 1000, "h": 800}
    road = {"id": "lane", "kind": "road", "x": 1950, "y": 0, "w": 100, "h": 3200,
            "name": "the lane"}
    s = setup([el("m", "a", 2000, 400), el("n", "a", 1000, 400)] + ENEMY_LINE, [wood, road])
    state, _, source = start(s, [5])
    keys = options(state)
    assert "road:m:n" in keys and "road:n:n" not in keys  # n is not on the road
    after_advance, _ = order(state, "advance:m", source)
    assert after_advance["elements"]["m"]["y"] == 600  # off-road into the wood: 200p
    state, events = order(state, "road:m:n", source)
    assert state["elements"]["m"]["y"] == 800 and state["elements"]["m"]["heading"] == 0
    assert events[0].text == "Muskets (m) moves N along the lane 400 paces."
    assert not any(k.startswith(("road:m", "march:m")) for k in options(state))


def test_an_element_turns_onto_the_road_within_its_allowance():
    road = {"id": "pike", "kind": "road", "x": 0, "y": 950, "w": 4000, "h": 100,
            "name": "the pike"}
    state, _, source = start(setup([el("c", "a", 1000, 1000, type_="LC")] + ENEMY_LINE,
                                   [road]), [5])
    keys = options(state)
    assert {"road:c:e", "road:c:w"} <= set(keys)
    state, _ = order(state, "road:c:e", source)
    c = state["elements"]["c"]
    assert (c["heading"], c["y"]) == (90, 1000) and 1000 < c["x"] <= 2600


def test_a_road_must_be_good_or_bad():
    road = {"id": "lane", "kind": "road", "x": 1950, "y": 0, "w": 100, "h": 3200,
            "quality": "muddy"}
    with pytest.raises(IllegalAction, match="a road is good or bad"):
        validate_setup(setup(ENEMY_LINE, [road]))


# --- water (§7.5) -----------------------------------------------------------------------

RIVER = {"id": "river", "kind": "river", "x": 0, "y": 1000, "w": 4000, "h": 200,
         "name": "the river"}
STREAM = {"id": "brook", "kind": "stream", "x": 0, "y": 1000, "w": 4000, "h": 200,
          "name": "the brook"}
ROAD = {"id": "lane", "kind": "road", "x": 1950, "y": 0, "w": 100, "h": 3200,
        "name": "the lane"}


def _rect(e):
    from rules.hfg.engine import _rect

    return _rect(e)


def test_a_river_stops_a_move_except_at_a_road_ford():
    s = setup([el("li", "a", 1000, 800, type_="LI"), el("ford", "a", 2000, 800,
                                                        type_="LI")] + ENEMY_LINE,
              [RIVER, ROAD])
    state, _, source = start(s, [5])
    state, _ = order(state, "advance:li", source)
    assert state["elements"]["li"]["y"] == 1000  # to the bank, not across
    state, _ = order(state, "road:ford:n", source)
    assert state["elements"]["ford"]["y"] == 1600  # across by the ford, the full 800p


def test_nothing_may_stand_in_a_river_outside_a_ford():
    s = setup([el("li", "a", 1000, 1100, type_="LI")] + ENEMY_LINE, [RIVER])
    state, _, _ = start(s, [5])
    from rules.hfg.engine import _blocked

    e = state["elements"]["li"]
    assert _blocked(state, e, _rect(e))
    assert not water.in_river(state, e, _rect(e).moved(-100))


def test_a_stream_crossing_ends_with_the_rear_edge_half_way_across():
    s = setup([el("li", "a", 1000, 800, type_="LI")] + ENEMY_LINE, [STREAM])
    state, _, source = start(s, [5, 3])
    state, _ = order(state, "advance:li", source)
    li = state["elements"]["li"]
    # rear edge (200p deep) at the stream's centre line, 1,100: the front at 1,300
    assert li["y"] == 1300
    end = ENGINE.apply(state, "side:a", "end", source)[0]
    assert end["phasing"] == "b"


def test_after_the_first_move_a_stream_is_crossed_normally():
    s = setup([el("li", "a", 1000, 1300, type_="LI")] + ENEMY_LINE, [STREAM])
    state, _, source = start(s, [5])
    state, _ = order(state, "advance:li", source)
    assert state["elements"]["li"]["y"] == 2100  # its full 800p


def test_a_line_does_not_cross_water_a_road_column_does():
    s = setup([el("l1", "a", 1000, 800, type_="LI"), el("l2", "a", 1400, 800, type_="LI"),
               el("r", "a", 2000, 800, type_="LI")] + ENEMY_LINE, [STREAM, ROAD])
    state, _, source = start(s, [5])
    state, _ = order(state, "line:l1", source)
    assert state["elements"]["l1"]["y"] == state["elements"]["l2"]["y"] == 1000
    state, _ = order(state, "road:r:n", source)
    assert state["elements"]["r"]["y"] == 1600  # on the road: no half-way stop


@pytest.mark.parametrize("die,town,skirmisher,found", [
    (4, "near", False, True),     # M6: 4 + 1 = 5
    (4, "near", True, False),     # M6: 4 + 1 - 1 = 4
    (1, "both", False, True),     # M6: 1 + 4 = 5
    (4, None, False, False),
])
def test_a_ford_search_m6(die, town, skirmisher, found):
    towns = {"near": [{"id": "t1", "kind": "bua", "x": 400, "y": 300, "w": 500, "h": 500}],
             "both": [{"id": "t1", "kind": "bua", "x": 400, "y": 300, "w": 500, "h": 500},
                      {"id": "t2", "kind": "bua", "x": 400, "y": 1400, "w": 500, "h": 500}],
             None: []}[town]
    extra = [el("sk", "b", 1400, 1400, type_="SK")] if skirmisher else []
    s = setup([el("bay", "a", 1400, 900, type_="BAY")] + ENEMY_LINE + extra,
              [RIVER] + towns)
    state, _, source = start(s, [5, die])
    state["pips"]["a"] = 9
    # the move's PIPs and 2 for the search (3 at least, A13)
    assert cost(state, "ford:bay:river") == cost(state, "advance:bay") + 2
    state, events = order(state, "ford:bay:river", source)
    bay = state["elements"]["bay"]
    assert str(source.log[-1]) == f"d6 ford search: {die}"
    assert events[0].data["found"] is found
    if found:
        assert bay["y"] == 1200  # its front edge on the far bank
        assert state["fords"] == [{"river": "river", "lo": 1200, "hi": 1600}]
        assert "found a ford" not in events[0].text and "crosses" in events[0].text
    else:
        assert bay["y"] == 1000 and state["searched"] == [
            {"river": "river", "x": 1400, "y": 1000}]


def test_a_failed_search_rules_out_another_within_1200_paces_and_a_ford_is_used():
    s = setup([el("b1x", "a", 1400, 900, type_="BAY"), el("b2x", "a", 2000, 900,
                                                          type_="BAY"),
               el("far", "a", 3400, 900, type_="BAY")] + ENEMY_LINE, [RIVER])
    state, _, source = start(s, [5, 4])
    state["pips"]["a"] = 9
    state, _ = order(state, "ford:b1x:river", source)
    keys = options(state)
    assert "ford:b2x:river" not in keys and "ford:far:river" in keys


def test_a_found_ford_is_a_lane_across_the_river():
    s = setup([el("bay", "a", 1400, 900, type_="BAY")] + ENEMY_LINE,
              [RIVER, {"id": "t1", "kind": "bua", "x": 400, "y": 300, "w": 500, "h": 500}])
    state, _, source = start(s, [5, 6])
    state["pips"]["a"] = 9
    state, _ = order(state, "ford:bay:river", source)
    bay = state["elements"]["bay"]
    assert bay["y"] == 1200 and not water.in_river(state, bay, _rect(bay))
    assert water.in_river(state, bay, _rect(bay).moved(0, aside=300))


def test_the_both_banks_bonus_is_a_setting():
    towns = [{"id": "t1", "kind": "bua", "x": 400, "y": 300, "w": 500, "h": 500},
             {"id": "t2", "kind": "bua", "x": 400, "y": 1400, "w": 500, "h": 500}]
    s = setup([el("bay", "a", 1400, 900, type_="BAY")] + ENEMY_LINE, [RIVER] + towns,
              settings={"hfg_ford_both_banks": 2})
    state, _, source = start(s, [5, 1])
    state["pips"]["a"] = 9
    state, events = order(state, "ford:bay:river", source)
    assert events[0].data["total"] == 3 and not events[0].data["found"]


# --- delayed arrivals (§7.8) ------------------------------------------------------------

EAST_ROAD = {"id": "east-road", "kind": "road", "x": 2950, "y": 0, "w": 100, "h": 1200,
             "name": "the east road"}
DELAYED = [{"id": "a", "general": "ga"},
           {"id": "late", "general": "gl", "arrives": {"road": "east-road"}}]


def delayed_setup(extra=()):
    return setup([el("gl", "a", 3000, 300, type_="CP", command="late"),
                  el("l1", "a", 3000, 300, command="late"), *ENEMY_LINE, *extra],
                 [EAST_ROAD], a_commands=DELAYED)


def test_a_delayed_command_waits_off_the_table_hidden_from_the_enemy():
    state, events, source = start(delayed_setup(), [5, 6])
    assert state["elements"]["l1"]["state"] == "waiting"
    assert state["arrivals"] == {"late": {"road": "east-road", "edge": "s",
                                          "status": "due"}}
    due = next(e for e in events if e.kind == "arrival.due")
    assert due.visible("side:a") and not due.visible("side:b")
    blue = ENGINE.view(state, "side:b")
    assert "l1" not in blue["elements"] and "l1" not in blue["order"]
    assert blue["arrivals"] == {} and "arrives" not in blue["sides"]["a"]["commands"][1]
    assert all(e["id"] != "l1" for e in blue["setup"]["elements"])
    red = ENGINE.view(state, "side:a")
    assert red["elements"]["l1"]["state"] == "waiting" and ENGINE.view(state, GM)["arrivals"]
    assert not any(k.startswith("arrive:") for k in options(state))


def test_it_arrives_by_its_road_in_the_next_bound_then_within_800_paces():
    state, _, source = start(delayed_setup(), [5, 6, 3, 4, 3, 3, 5, 5])
    state, events = order(state, "end", source)  # b's bound: PIPs 3
    state, events = order(state, "end", source, actor="side:b")  # a's bound: 4, 2
    assert any(e.kind == "arrival" and e.text == "Red: command late arrives along the east "
               "road." for e in events)
    keys = options(state)
    assert {"arrive:l1", "arrive:gl"} <= set(keys) and "arrive:l1:400" not in keys
    state, events = order(state, "arrive:l1", source)
    l1 = state["elements"]["l1"]
    assert (l1["state"], l1["x"], l1["y"], l1["heading"]) == ("ok", 3000, 400, 0)
    assert events[0].text == "Muskets (l1) comes on and moves 400 paces."
    assert state["pips"]["late"] == 1  # its general is not yet on: out of command (+1)
    state, _ = order(state, "end", source)
    state, _ = order(state, "end", source, actor="side:b")
    keys = options(state)
    assert {"arrive:gl:-800", "arrive:gl:800", "arrive:gl:0"} <= set(keys)
    state, _ = order(state, "arrive:gl:-800", source)
    assert state["elements"]["gl"]["x"] == 2200 and state["arrivals"]["late"]["status"] == \
        "done"


def test_an_enemy_blocking_the_road_is_repulsed_400_paces():
    state, _, source = start(delayed_setup([el("block", "b", 3000, 300)]),
                             [5, 6, 3, 4, 2])
    state, _ = order(state, "end", source)
    state, _ = order(state, "end", source, actor="side:b")
    assert "arrive:l1" in options(state)
    state, events = order(state, "arrive:l1", source)
    assert state["elements"]["block"]["y"] == 700 and state["elements"]["l1"]["state"] == "ok"
    assert "blocks the road and is repulsed 400 paces" in events[0].text


@pytest.mark.parametrize("commands,road,message", [
    ([{"id": "a", "general": "ga", "arrives": {"road": "east-road"}}], EAST_ROAD,
     "C-in-C's own command"),
    ([{"id": "a", "general": "ga"}, {"id": "late", "general": "gl",
                                     "arrives": {"road": "nowhere"}}], EAST_ROAD,
     "arrives by one of the table's roads"),
    ([{"id": "a", "general": "ga"}, {"id": "late", "general": "gl",
                                     "arrives": {"road": "east-road", "edge": "n"}}],
     EAST_ROAD, "does not enter the table there"),
    ([{"id": "a", "general": "ga"}, {"id": "late", "general": "gl",
                                     "arrives": {"road": "east-road"}}],
     {**EAST_ROAD, "y": 100, "h": 1000}, "does not reach a table edge"),
])
def test_bad_delayed_commands_are_refused(commands, road, message):
    s = setup([el("gl", "a", 3000, 300, type_="CP", command="late")] + ENEMY_LINE, [road],
              a_commands=commands)
    if all(c["id"] != "late" for c in commands):
        s["elements"] = [e for e in s["elements"] if e["id"] != "gl"]
    with pytest.raises(IllegalAction, match=message):
        validate_setup(s)


# --- terrain diced for (§4.1) -----------------------------------------------------------

SCRIPT = [1, 1,                  # no Waterway; a Stream, not a River
          2, 1,                  # the Stream from section 2, 200p west of the road line
          1,                     # 2 hills
          1, 1, 1, 1, 1, 4,      # a gentle hill: section 1, 500 x 500, 400p in, 200p along
          6, 1, 1, 1, 1, 4,      # a difficult hill on the same spot: diced again ...
          4, 2, 1, 1, 3,         # ... section 4, 1,000 x 500 (cut at the table's edge)
          1,                     # 2 roads
          3, 3, 4,               # doubles: section 3 to the opposite 5, a good road
          1, 2, 1,               # sections 1 and 2, a bad road
          1,                     # 2 towns
          6, 1, 4, 5, 2, 1,      # sections 6 and 5
          1, 3, 1, 1, 1, 6,      # one wood from section 3
          1]                     # no slow going


def test_terrain_diced_for_with_the_books_sections_and_limits():
    s = setup([])
    s["terrain"] = "dice"
    s["elements"] = [el("ga", "a", 2000, 400, type_="CP"), el("gb", "b", 2000, 2800,
                                                                type_="CP")]
    state, _, source = start(s, SCRIPT + [5])
    assert state["setup"]["terrain"] == "dice"
    got = {t["id"]: (t["kind"], t["x"], t["y"], t["w"], t["h"], t.get("quality"))
           for t in state["terrain"]}
    assert got == {
        "stream": ("stream", 700, 0, 200, 3200, None),
        "hill-1": ("hill", 150, 1550, 500, 500, None),
        "difficult_hill-2": ("difficult_hill", 3100, 1150, 900, 500, None),
        "road-1-1": ("road", 2950, 1600, 100, 1600, "good"),
        "road-1-2": ("road", 2950, 0, 100, 1600, "good"),
        "road-1-3": ("road", 1950, 1550, 1100, 100, "good"),
        "road-2-1": ("road", 0, 1550, 1000, 100, "bad"),
        "road-2-2": ("road", 950, 1600, 100, 1600, "bad"),
        "road-2-3": ("road", 950, 1550, 1100, 100, "bad"),
        "bua-1": ("bua", 875, 150, 500, 500, None),
        "bua-2": ("bua", 2125, 550, 500, 500, None),
        "wood-1": ("wood", 3375, 2550, 500, 500, None)}
    terrain_draws = [d.purpose for d in source.log if d.purpose.startswith("terrain")]
    assert len(terrain_draws) == len(SCRIPT)
    assert str(source.log[len(SCRIPT)]) == "d6 PIPs a: 5"  # the terrain first, then play
    # the bad road crosses the stream at a ford
    assert water.lanes(state, state["terrain"][0]) == [(1400, 1800)]


@pytest.mark.parametrize("seed", range(6))
def test_any_diced_table_keeps_the_limits_and_clear_of_the_troops(seed):
    from rules.hfg.engine import _rect
    from rules.random import SeededSource

    s = copy_manassas()
    state, _ = ENGINE.start(validate_setup(s), SeededSource(seed))
    kinds = [t["kind"] for t in state["terrain"]]
    areas = [t for t in state["terrain"] if t["kind"] not in ("road", "stream", "river")]
    assert kinds.count("bua") >= 2 and len({t["id"].rsplit("-", 1)[0] for t in
                                           state["terrain"] if t["kind"] == "road"}) >= 2
    assert len(areas) + kinds.count("stream") + kinds.count("river") <= 20
    assert all(kinds.count(k) <= 6 for k in set(kinds) - {"road"})
    assert sum(max(t["w"], t["h"]) > 1000 for t in areas) <= 4
    strips = [water.box(t) for t in state["terrain"] if t["kind"] == "road"]
    net, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j, other in enumerate(strips):
            if j not in net and overlaps(strips[i], other, margin=-1):
                net.add(j)
                todo.append(j)
    assert len(net) == len(strips)  # the roads are one connected net
    for e in state["elements"].values():
        assert not water.in_river(state, e, _rect(e))


def copy_manassas():
    import copy

    s = copy.deepcopy(ENGINE.scenarios()["first_manassas"].setup)
    s["terrain"] = "dice"
    for side in s["sides"]:  # a diced table has no road to arrive by
        for c in side["commands"]:
            c.pop("arrives", None)
    return s


@pytest.mark.parametrize("seed", range(4))
def test_random_orders_over_roads_water_arrivals_and_cover_always_end(seed):
    """Any legal order, taken at random, on a table with every feature of this module."""
    import json
    import random

    from rules.random import SeededSource

    s = delayed_setup([el("li", "a", 1400, 800, type_="LI"), el("lc", "a", 2000, 700,
                                                                  type_="LC"),
                       el("sk", "b", 1000, 2600, type_="SK"),
                       el("hid", "b", 2000, 2300, concealed=True)])
    s["terrain"] += [RIVER | {"y": 1500}, ROAD, WOOD_NORTH]
    s["max_bounds"] = 6
    rng, source = random.Random(seed), SeededSource(seed)
    state, _ = ENGINE.start(validate_setup(s), source)
    for _ in range(400):
        if ENGINE.outcome(state):
            break
        decision = ENGINE.pending(state)[0]
        choice = rng.choice([o.key for o in decision.options])
        state, _ = ENGINE.apply(state, decision.actor, choice, source)
        state = json.loads(json.dumps(state))
    assert ENGINE.outcome(state) is not None


WOOD_NORTH = {"id": "copse", "kind": "wood", "x": 1500, "y": 2000, "w": 1000, "h": 800}


def test_a_concealed_enemy_on_the_road_is_revealed_before_it_is_repulsed():
    s = delayed_setup([el("block", "b", 3000, 300, concealed=True)])
    s["terrain"].append({"id": "thicket", "kind": "wood", "x": 2700, "y": 0, "w": 600,
                         "h": 800})
    state, _, source = start(s, [5, 6, 3, 4, 2])
    state, _ = order(state, "end", source)
    state, _ = order(state, "end", source, actor="side:b")
    assert state["elements"]["block"]["concealed"]  # deep in the thicket
    state, events = order(state, "arrive:l1", source)
    assert [e.kind for e in events[:2]] == ["revealed", "outcome"]
    assert "concealed" not in state["elements"]["block"]
    assert state["elements"]["block"]["y"] == 700
