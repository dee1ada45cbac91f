"""The house rules (not in the source) for the phases the Viking instalment names but does
not define: each a resolver chosen in the setup, marked on every log line, with scripted
dice."""

import pytest

from rules.random import ScriptedSource
from rules.viking import house
from rules.viking.data import FULL, PACED
from rules.viking.engine import ENGINE

from .conftest import make_game, play_turn, vessel


def test_impact_damage_grows_with_speed_class_and_a_square_blow():
    # a dragonship at full, bow square into a longship's side, d6 4: 3 x 1 x 4/3 x 2
    assert house.impact_damage(FULL, "DRAGONSHIP", "LONGSHIP", "side", 90, 4) == 8
    assert house.impact_damage(PACED, "DRAGONSHIP", "LONGSHIP", "side", 90, 4) == 5
    assert house.impact_damage(FULL, "DRAGONSHIP", "LONGSHIP", "side", 30, 4) == 4
    assert house.impact_damage(FULL, "KARFI", "LONGSHIP", "side", 90, 4) == 4
    assert house.impact_damage(FULL, "LONGSHIP", "LONGSHIP", "bow", 180, 4) == 3
    assert house.impact_damage(0, "DRAGONSHIP", "KARFI", "side", 90, 6) == 0


def _ram(rolls, **setup):
    """A dragonship rows at full into a longship's side."""
    state, source = make_game([vessel("a1", x=30, y=20, heading=90, level="FULL"),
                               vessel("b1", side="b", cls="LONGSHIP", x=40, y=20, heading=0,
                                      order="LEFT")],
                              rolls=rolls, **setup)
    state["turn"] = 2
    return play_turn(state, source, {"a1": "FULL@8", "b1": "DIW@0"}), source


def test_a_ram_damages_the_hull_then_grapnels_and_melee_follow():
    (state, events), source = _ram([4, 1, 1, 5, 7, 3])
    texts = [e.text for e in events if e.data.get("house_rule")]
    impact = next(e for e in events if e.kind == "impact")
    assert impact.data["damage"] == 8 and state["vessels"]["b1"]["hull"] == 2
    assert state["vessels"]["a1"]["grappled"] == ["b1"]
    melee = next(e for e in events if e.kind == "melee")
    # d10 7 +1 Viking +2 ram = 10: 60 x 10 / 50 = 12 lost; the longship's 3 + 1 = 4: 40 x 4
    # / 50 = 3 (rounded)
    assert melee.data["rolls"] == {"a1": 10, "b1": 4}
    assert melee.data["losses"] == {"b1": 12, "a1": 3}
    assert texts and all(house.MARK in t for t in texts)
    assert [str(d) for d in source.log] == [
        "d6 impact a1 on b1: 4", "d10 missiles a1 at b1: 1", "d10 missiles b1 at a1: 1",
        "d10 grapple a1 b1: 5", "d10 melee a1: 7", "d10 melee b1: 3"]


def test_missiles_have_a_supply_that_the_record_counts():
    state, source = make_game([vessel("a1", x=36, y=20, order="CENTER"),
                               vessel("b1", side="b", x=36, y=25, heading=180)],
                              rolls=[7, 1] * 3)
    for _ in range(3):
        state, events = play_turn(state, source, {"a1": "DIW@0", "b1": "DIW@0"})
    a1, b1 = state["vessels"]["a1"], state["vessels"]["b1"]
    assert a1["missiles"] == 0 and a1["hand_missiles_used"] == 3
    # each volley of d10 7 kills (7 - 5) x 60 / 40 = 3
    assert b1["crew"] == 60 - 9 and a1["crew"] == 60
    state, events = play_turn(state, source, {"a1": "DIW@0", "b1": "DIW@0"})
    assert not any(e.kind == "missiles" for e in events)


def test_fitness_to_continue():
    v = {"hull": 5, "crew": 25, "crew_minimum": 30}
    assert house.fitness(v, 5) == "continue"
    assert house.fitness(v, 4) == "struck"
    assert house.fitness({**v, "crew": 14}, None) == "struck"
    assert house.fitness({**v, "hull": 0}, None) == "sunk"
    assert house.fitness({**v, "crew": 30}, None) == "continue"


def test_a_vessel_holed_by_a_ram_sinks_and_the_game_ends():
    state, source = make_game([vessel("a1", x=30, y=20, heading=90, level="FULL"),
                               vessel("b1", side="b", cls="KARFI", x=40, y=20, heading=0,
                                      crew=14, order="LEFT")], rolls=[6, 1, 1, 5, 7, 3])
    state["turn"] = 2
    state, events = play_turn(state, source, {"a1": "FULL@8", "b1": "DIW@0"})
    assert state["vessels"]["b1"]["hull"] == 0 and state["vessels"]["b1"]["sunk"]
    out = ENGINE.outcome(state)
    assert out.winner == "a" and out.result == "fleet_taken"


def test_the_log_says_rams_for_a_blow_and_surrenders_for_a_vessel_that_gives_up():
    """"Strikes" was both a ram's blow and a vessel giving up (a tester could not tell which):
    the blow "rams", the vessel that gives up "surrenders"."""
    (_, events), _ = _ram([4, 1, 1, 5, 7, 3])
    impact = next(e for e in events if e.kind == "impact")
    assert impact.text.startswith("A1 rams B1 on the side")
    state, source = make_game([vessel("a1", x=30, y=10, heading=90),
                               vessel("b1", side="b", cls="KARFI", x=40, y=40, heading=0,
                                      crew=10, order="LEFT")], rolls=[1] * 20)
    state["turn"] = 2
    state, events = play_turn(state, source, {"a1": "DIW@0", "b1": "DIW@0"})
    fitness = next(e for e in events if e.kind == "fitness")
    assert state["vessels"]["b1"]["struck"] and "surrenders" in fitness.text
    assert not any("strikes" in e.text for e in events)


def test_break_off_cuts_the_grapnels_on_6_or_more():
    vessels = {"a": {"id": "a", "name": "A", "crew": 10, "grappled": ["b"]},
               "b": {"id": "b", "name": "B", "crew": 20, "grappled": ["a"]}}
    logged = []
    house.house_break_off(vessels, {"a"}, ScriptedSource(rolls=[5]),
                          lambda *a, **k: logged.append(a))
    assert vessels["a"]["grappled"] == ["b"]
    house.house_break_off(vessels, {"a"}, ScriptedSource(rolls=[6]),
                          lambda *a, **k: logged.append(a))
    assert vessels["a"]["grappled"] == [] and vessels["b"]["grappled"] == []
    assert all(house.MARK in text for _, text, _ in logged)


def test_the_resolvers_are_chosen_in_the_setup():
    assert house.normalise(None) == {p: "house" for p in house.RULES}
    assert house.normalise(False) == {p: None for p in house.RULES}
    assert house.normalise({"missiles": None})["missiles"] is None
    with pytest.raises(ValueError, match="no phase"):
        house.normalise({"boarding": "house"})
    with pytest.raises(ValueError, match="no resolver"):
        house.normalise({"impact": "book"})


def test_a_phase_switched_off_is_said_to_be_undefined_each_turn():
    state, source = make_game([vessel("a1", x=36, y=20), vessel("b1", side="b", x=36, y=25,
                                                                heading=180)],
                              house_rules={"missiles": None})
    state, events = play_turn(state, source, {"a1": "DIW@0", "b1": "DIW@0"})
    undefined = next(e for e in events if e.kind == "phases.undefined")
    assert undefined.text == ("Not defined in the source, so not played this turn: distance "
                              "weapons.")
    assert state["vessels"]["a1"]["hand_missiles_used"] == 0


def test_the_set_up_wind_dice_and_crew_figures_are_house_rules_chosen_in_the_setup():
    setup = ENGINE.scenarios()["fleet_battle"].setup  # wind and crews left to the house rules
    state, events = ENGINE.start(setup, ScriptedSource(rolls=[1, 5]))
    assert state["wind"] == {"from": 0.0, "speed": 2}
    assert f"diced, {house.MARK}" in events[0].text
    rules = next(e for e in events if e.kind == "game.rules" and e.data.get("house_rule"))
    assert "the set-up wind dice" in rules.text and "crew figures" in rules.text
    view = ENGINE.view(state, "side:norse")
    assert view["house_rules_used"][-2:] == ["the set-up wind dice", "crew figures"]
    assert (state["vessels"]["n1"]["crew_full"], state["vessels"]["n1"]["crew_minimum"]) == \
        house.CREW["DRAGONSHIP"]
    own = [{**v, "crew_full": 50, "crew_minimum": 25} for v in setup["vessels"]]
    state, _ = ENGINE.start({**setup, "vessels": own}, ScriptedSource(rolls=[1, 5]))
    assert "crew figures" not in ENGINE.view(state, "side:norse")["house_rules_used"]
    assert state["vessels"]["n1"]["crew_full"] == 50


@pytest.mark.parametrize("rules,reason", [
    ({"wind_dice": None}, "set-up wind dice are in an earlier instalment"),
    ({"crew": None}, "the source gives no crew figures"),
])
def test_without_the_set_up_house_rules_the_setup_must_give_wind_and_crews(rules, reason):
    setup = ENGINE.scenarios()["fleet_battle"].setup
    with pytest.raises(ValueError, match=reason):
        ENGINE.validate_setup({**setup, "house_rules": rules})


def test_without_the_wind_dice_a_re_dice_check_of_9_leaves_the_wind_as_it_is():
    state, source = make_game([vessel("a1"), vessel("b1", side="b", x=36, y=40, heading=180)],
                              house_rules={"wind_dice": None}, rolls=[9])
    state, events = play_turn(state, source, {"a1": "DIW@0", "b1": "DIW@0"},
                              checks=("redice", "keep"))
    check = next(e for e in events if e.kind == "wind.redice")
    assert "not in the source: it stays as it is" in check.text
    assert state["wind"]["speed"] == 2 and not state["wind_house"]
    assert len(source.log) == 1  # the check die, nothing diced again
