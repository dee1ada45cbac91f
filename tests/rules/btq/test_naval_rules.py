"""The five rules of ship-to-ship combat checked against the book (issue 10, "Checked
against the book"), from the book's own lines, in both settings where a setting exists:
repair chooses the box (BtQ L2410-2412), Ship Morale Dead (L1326-1328, L1350-1351), the
fire-fighter's lockout (L2672), a contest where one side has no cards (D3, D18), and a test
with no skill (L1266-1269, L2360-2362)."""

import pytest

from rules.btq import naval
from rules.btq.naval import positioning_pool, repair_pool
from rules.btq.ships import DamageTrack
from rules.engine import GM
from rules.random import ScriptedSource, SeededSource
from tests.rules.btq.test_naval import LONDON_WINS, Table, hermes_setup, london_setup, of

# --- 1. Repair: the repairer chooses the box (BtQ L2410-2412) -------------------------------

def test_a_critical_may_clear_any_box_up_to_maimed_and_the_default_lifts_the_most_penalty():
    # The Hull: an Injured box cleared leaves it Healthy; the Maimed box, Injured.
    hull = DamageTrack.parse("xx|x.|..")
    assert hull.repair_levels(2) == (1, 2) and hull.repair_levels(1) == (1,)
    assert hull.best_repair_level(2) == 1
    assert str(hull.repair(2)[0]) == "x.|x.|.." and hull.repair(2)[0].state == 0
    assert str(hull.repair(2, 2)[0]) == "xx|..|.." and hull.repair(2, 2)[0].state == 1
    with pytest.raises(ValueError, match="cannot clear"):
        hull.repair(1, 2)
    # When every choice leaves the same state, the harder box goes (N5).
    assert DamageTrack.parse("x.|x.|x.").best_repair_level(3) == 3


def sloop_with_a_midshipman(**settings):
    """HMS London as a Brig Sloop (2/2/2) whose Hull is ``xx|x.|..``, with Gunner Hale in
    command and Midshipman Vane (Seamanship 3) aboard to repair."""
    setup = london_setup(start_distance=3, settings=settings)
    setup["ships"][0].update(type="Brig Sloop", traits=[], tracks={"hull": "xx|x.|.."})
    setup["pcs"].append({"id": "vane", "name": "Midshipman Vane", "seniority": 1,
                         "discipline": 1, "skills": {"seamanship": 3}})
    return setup


@pytest.mark.parametrize("box, track, state", [("1", "x.|x.|..", 0), ("2", "xx|..|..", 1)])
def test_the_repairer_chooses_which_box_his_success_clears(box, track, state):
    table = Table(sloop_with_a_midshipman())
    table.do("pc:gunner", "discipline.cards", "0")
    table.do("pc:gunner", "repair.action", "hull:pc:vane", "7S  7H 2D 3D")   # 7H: Critical
    decision = table.expect("pc:vane", "repair.box")     # Vane's choice, not the captain's
    assert [o.key for o in decision.options] == ["1", "2"] and decision.default == "1"
    assert "x.|x.|.. (Healthy)" in decision.options[0].label
    table.source.then = SeededSource(1)  # the Positioning that follows
    table.do("pc:vane", "repair.box", box)
    assert table.ship("london")["tracks"]["hull"] == track
    assert table.ship("london")["states"]["hull"] == state
    [repair] = of(table.events, "repair.test")
    assert repair.data["success"] == "critical" and repair.data["track"] == track


def test_an_ordinary_success_leaves_no_choice():
    table = Table(sloop_with_a_midshipman())
    table.do("pc:gunner", "discipline.cards", "0")
    table.source.then = SeededSource(1)
    table.do("pc:gunner", "repair.action", "hull:pc:vane", "7S  8S 2D 3D")   # 8S: Ordinary
    assert table.ship("london")["tracks"]["hull"] == "x.|x.|.."
    assert all(d.kind != "repair.box" for d in naval.ENGINE.pending(table.state))


# --- 2. Ship Morale Dead (BtQ L1326-1328, L1350-1351) ---------------------------------------

def test_dead_ship_morale_is_no_better_than_maimed():
    # The issue: the Positioning pool at morale 0/1/2/3 was 7/6/4/7.
    sizes = []
    for morale in range(4):
        setup = london_setup()
        setup["ships"][0]["morale"] = morale
        state, _ = naval.ENGINE.start(setup, ScriptedSource(LONDON_WINS))
        sizes.append(positioning_pool(state, "pc")[0])
    assert sizes == [7, 6, 4, 4]


@pytest.mark.parametrize("great_hardship", [False, True])
def test_a_crew_on_the_verge_of_mutiny_does_nothing(great_hardship):
    # A Dead area allows no test: no Discipline gate is drawn, no Great Hardship is offered
    # (it lifts penalties, L1421-1426, not a Dead area), the Hermes turns no Positioning
    # cards and the Corsair moves by her Critical alone (D18).
    setup = hermes_setup(great_hardship=great_hardship)
    setup["ships"][0]["morale"] = 3
    table = Table(setup, "6C  4C KS  3C JD")
    table.do("pc:otoole", "start.distance", "3")
    table.do("pc:otoole", "discipline.cards", "1")
    table.do("pc:otoole", "discipline.cards", "2", "9D  9C 2H 3H 4H 5H 6H")
    assert not of(table.events, "gate.test")
    [mutiny] = of(table.events, "gate.mutiny")
    assert "verge of mutiny" in mutiny.text
    pos = of(table.events, "positioning.test")[0]
    assert pos.data["pools"]["pc"]["size"] == 0 and pos.data["winner"] == "enemy"
    table.expect(GM, "positioning.move")


def test_the_next_battle_starts_from_the_morale_the_last_one_left():
    # The losing Corsair's morale goes down a level (N22); a ship whose morale that makes
    # Dead cannot fight the next battle at full strength.
    setup = hermes_setup()
    setup["ships"][1]["morale"] = 2
    state, _ = naval.ENGINE.start(setup, ScriptedSource("6C  4C KS  3C JD"))
    assert naval._morale_penalty(state, state["ships"]["corsair"]) == 3
    state["ships"]["corsair"]["morale"] = 3
    assert naval._morale_penalty(state, state["ships"]["corsair"]) == 3


# --- 3. Fighting a fire locks the PC out of "that round" (BtQ L2672) ------------------------

def burning_london(**settings):
    """HMS London on fire (1 card) at Distance 3, with Bosun Tapp (Maritime 3) aboard."""
    setup = london_setup(start_distance=3, settings=settings)
    setup["ships"][0]["fire"] = 1
    setup["pcs"].append({"id": "tapp", "name": "Bosun Tapp", "seniority": 1,
                         "discipline": 1, "skills": {"maritime": 3}})
    return setup


@pytest.mark.parametrize("lockout", ["same_round", "next_round"])
def test_a_fire_fighter_sits_out_step_five_of_that_round_only(lockout):
    table = Table(burning_london(repair_lockout=lockout))
    # Round 1: the fire turns 2S; Tapp fights it (3 cards against 7D, no success).
    table.do("pc:gunner", "discipline.cards", "0", "2S")
    table.do("pc:gunner", "repair.action", "fire:pc:tapp", "7D  2H 3H 4H  " + LONDON_WINS)
    table.do("pc:gunner", "positioning.move", "2")
    # Step 5 of that round: Hale only, in either setting.
    table.do("pc:gunner", "fight.action", "none")
    table.do("pc:gunner", "broadside.ammo", "roundshot", "2C  3H 4H 5H 6H 7H 8H")
    table.do("pc:gunner", "continue.orders", "continue")
    # Round 2: Tapp takes part again, in either setting (the fire still burns: 3S).
    table.do(GM, "continue.orders", "continue", "3S")
    table.do("pc:gunner", "repair.action", "none", LONDON_WINS)
    table.do("pc:gunner", "positioning.move", "2")
    table.do("pc:gunner", "fight.action", "none")
    table.expect("pc:tapp", "fight.action")
    assert [e.data["pc"] for e in of(table.events, "fight.action")] == ["gunner", "gunner"]


def fight_actions(table):
    """Answer "none" for every PC How Will You Fight? asks; their ids in order."""
    asked = []
    while (d := naval.ENGINE.pending(table.state)[0]).kind == "fight.action":
        asked.append(d.actor[3:])
        table.do(d.actor, "fight.action", "none")
    return asked


@pytest.mark.parametrize("lockout, round_one, round_two", [
    ("same_round", ["gunner"], ["gunner", "tapp"]),
    ("next_round", ["gunner", "tapp"], ["gunner"]),
])
def test_a_repairer_sits_out_step_five_as_the_setting_says(lockout, round_one, round_two):
    # D19 for a repair (not a fire): Tapp repairs the Hull in round 1.
    setup = burning_london(repair_lockout=lockout)
    setup["ships"][0].update(fire=0, tracks={"hull": "x...|....|...."})
    setup["pcs"][1]["skills"]["seamanship"] = 3
    table = Table(setup)
    table.do("pc:gunner", "discipline.cards", "0")
    table.do("pc:gunner", "repair.action", "hull:pc:tapp", "7D  2H 3H 4H  " + LONDON_WINS)
    table.do("pc:gunner", "positioning.move", "2")
    assert fight_actions(table) == round_one
    table.do("pc:gunner", "broadside.ammo", "roundshot", "2C  3H 4H 5H 6H 7H 8H")
    table.do("pc:gunner", "continue.orders", "continue")
    table.do(GM, "continue.orders", "continue")
    table.do("pc:gunner", "repair.action", "none", LONDON_WINS)
    table.do("pc:gunner", "positioning.move", "2")
    assert fight_actions(table) == round_two


# --- 4. A contest where one side has no cards (D3; D18 only in Positioning) -----------------

def contest_sides(size_a, size_b):
    return [{"key": k, "side": side, "pid": None, "size": size, "who": k, "label": k,
             "breakdown": {}, "public": True}
            for k, side, size in (("a", "pc", size_a), ("b", "enemy", size_b))]


def test_an_empty_side_and_a_failure_are_a_mutual_failure_retested():
    state = naval.ENGINE.start(london_setup(), ScriptedSource(LONDON_WINS))[0]
    events = []
    source = ScriptedSource("2C  3H 4H 5H  2D  3D 4H 5H")
    assert naval._contest(state, source, events, "awareness", contest_sides(3, 0),
                          "Awareness") == ("a", 1)
    assert [e.data["verdict"] for e in events] == ["both_failed", "a"]
    assert "retest with a new Card of Fate" in events[0].text
    assert source.cards_left == 0


def test_in_positioning_the_side_with_cards_turns_them_once():
    state = naval.ENGINE.start(london_setup(), ScriptedSource(LONDON_WINS))[0]
    events = []
    source = ScriptedSource("2C  3H 4H 5H")
    assert naval._contest(state, source, events, "positioning", contest_sides(3, 0),
                          "Positioning", one_draw_if_empty=True) == (None, 0)
    assert len(events) == 1 and "nobody wins" in events[0].text


# --- 5. No skill: one card (BtQ L1266-1269); the crew's Command serves (L2360-2362) ---------

def test_with_no_awareness_at_all_each_side_turns_one_card():
    # Before, two pools of 0: nothing was drawn and the GM chose the start.
    setup = london_setup(start_distance=None)
    setup["ships"][0]["crew"]["awareness"] = 0
    setup["ships"][1]["crew"]["awareness"] = 0
    table = Table(setup, "6C  6S  5H")
    [test] = of(table.events, "awareness.test")
    assert test.data["pools"]["pc"]["size"] == 1 and test.data["pools"]["enemy"]["size"] == 1
    # The crew's 6S would be a Critical; unskilled, it counts as an Ordinary.
    assert test.data["pools"]["pc"]["cards"] == [["6S", "ordinary"]]
    assert test.data["pools"]["pc"]["breakdown"] == {"awareness": 0, "unskilled": 1}
    table.expect("pc:gunner", "start.distance")


def crew_maimed_london(crew_command):
    setup = london_setup(start_distance=3)
    setup["ships"][0]["tracks"] = {"crew": "xxxx|xxxx|...."}
    setup["ships"][0]["crew"]["command"] = crew_command
    return setup


def test_a_commander_with_no_command_leaves_the_gate_to_the_crews_command():
    # Hale has no Command; the London's crew has Command 3 and tests (3 cards, all fail).
    table = Table(crew_maimed_london(3), ScriptedSource("2D  3H 4H 5H", then=SeededSource(1)))
    [gate] = of(table.events, "gate.test")
    assert (gate.data["who"], gate.data["pool"], gate.data["passed"]) == (
        "HMS London's crew", 3, False)


def test_with_no_command_anywhere_the_commander_turns_one_card():
    # Nobody has Command: Hale tests unskilled, one card; his 2D on the 2D is a Perfect,
    # counted as an Ordinary: it passes.
    table = Table(crew_maimed_london(0), ScriptedSource("2D  2D", then=SeededSource(1)))
    [gate] = of(table.events, "gate.test")
    assert (gate.data["who"], gate.data["pool"], gate.data["passed"]) == ("Gunner Hale", 1, True)
    assert gate.data["cards"] == [["2D", "ordinary"]] and "unskilled" in gate.text


def test_an_unskilled_action_in_how_will_you_fight():
    table = Table(london_setup(start_distance=3), LONDON_WINS)
    table.do("pc:gunner", "positioning.move", "2")
    decision = table.expect("pc:gunner", "fight.action")
    labels = {o.key: o.label for o in decision.options}
    assert labels["music"] == "Music (unskilled, 1 card)"
    table.do("pc:gunner", "fight.action", "music")
    table.do(GM, "fight.opposition", "static:1", "9H  9H  2C")
    [test] = of(table.events, "fight.test")
    pc = test.data["pools"]["pc"]
    assert pc["size"] == 1 and pc["cards"] == [["9H", "ordinary"]]
    assert test.data["winner"] == "pc" and "unskilled" in test.text


def test_an_unskilled_repair_clears_only_an_injured_box():
    setup = sloop_with_a_midshipman()
    setup["ships"][0]["crew"] = {"awareness": 2}          # no Seamanship, no Maritime
    table = Table(setup)
    table.do("pc:gunner", "discipline.cards", "0")
    assert repair_pool(table.state, "pc", "hull", "crew") == (1, {"seamanship": 0,
                                                                   "unskilled": 1})
    table.source.then = SeededSource(1)
    table.do("pc:gunner", "repair.action", "hull:crew", "7S  7H")   # a Critical, as Ordinary
    assert table.ship("london")["tracks"]["hull"] == "x.|x.|.."
    assert of(table.events, "repair.test")[0].data["success"] == "ordinary"


# --- PC traits in the pools (BtQ L2459-2460: "Any traits from PCs") -------------------------

def test_a_pcs_trait_cards_join_his_tests_of_that_skill_but_not_unskilled_ones():
    setup = london_setup(start_distance=3)
    setup["pcs"][0]["trait_cards"] = {"gunnery": 2, "music": 1}
    state = naval.ENGINE.start(setup, ScriptedSource(LONDON_WINS))[0]
    size, parts = naval.broadside_pool(state, "london", distance=1)
    assert parts["traits"] == 2 and size == 5 + 2 + 3     # Gunnery, traits, Broadside
    assert "traits" not in positioning_pool(state, "london")[1]
    assert naval._skill_pool("gunnery", 5, 0, 2) == (7, {"gunnery": 5, "traits": 2})
    assert naval._skill_pool("music", 0, 0, 1) == (1, {"music": 0, "unskilled": 1})
    with pytest.raises(ValueError, match="trait_cards: unknown skill 'gunner'"):
        naval.validate_setup({**setup, "pcs": [{**setup["pcs"][0],
                                                "trait_cards": {"gunner": 1}}]})


# --- D15: the general weather, a setting (BtQ L1699-1709 against L2365-2367) ---------------

@pytest.mark.parametrize("applied", [False, True])
def test_the_general_weather_counts_only_with_the_setting(applied):
    # Strong Wind -1 and a Squall -1: -2 to every test; Fog -4 more to Awareness.
    setup = london_setup(start_distance=None,
                         settings={"general_weather_in_ship_combat": applied},
                         general_weather={"wind": "strong_wind", "precipitation": "squall"})
    state = naval.ENGINE.start(setup, ScriptedSource("6C  4H KS  3C JD"))[0]
    mod = -2 if applied else 0
    assert positioning_pool(state, "london")[1].get("general_weather", 0) == mod
    assert naval.broadside_pool(state, "london", distance=1)[1].get("general_weather", 0) == mod
    assert repair_pool(state, "london", "hull", "gunner")[1].get("general_weather", 0) == mod
    assert naval._skill_pool("gunnery", 5, 0, 0, naval._weather_mod(state, "gunnery"))[0] == (
        5 + mod)
    # A test made unskilled keeps its one card.
    assert repair_pool(state, "london", "guns", "crew")[0] == 1
    fog = {**setup, "general_weather": {"wind": "light_wind", "precipitation": "fog"}}
    # The crews' Awareness 2 (Hale has none): 2 cards each, or 2 - 4 = 0 in a fog bank,
    # where neither side turns a card and the GM sets the start.
    table = Table(fog, "" if applied else "6C  4H KS  3C JD")
    [test] = of(table.events, "awareness.test")
    assert test.data["pools"]["pc"] == (0 if applied else {
        "who": "HMS London", "size": 2, "cards": [["4H", "failure"], ["KS", "failure"]],
        "breakdown": {"awareness": 2}})
    table.expect(GM, "start.distance")


def test_a_bad_general_weather_is_refused():
    with pytest.raises(ValueError, match="general_weather wind must be one of"):
        naval.validate_setup(london_setup(general_weather={"wind": "breezy"}))


# --- Profession skills for repairs (BtQ L2410-2413) ------------------------------------------

def test_a_carpenter_repairs_the_hull_with_his_profession():
    # Midshipman Brodie: Maritime 5, Profession (Carpenter) 3, Seamanship 3 (BtQ L2717-2732);
    # here his Profession is made his best, 6, to show it is used.
    setup = sloop_with_a_midshipman()
    setup["pcs"][1].update(profession="Carpenter",
                           skills={"seamanship": 3, "maritime": 5, "profession": 6})
    state = naval.ENGINE.start(setup, ScriptedSource(""))[0]
    assert repair_pool(state, "london", "hull", "vane") == (6, {"profession": 6})
    # Not for the Guns: a carpenter's trade does not serve there.
    assert repair_pool(state, "london", "guns", "vane")[1] == {"gunnery": 0, "unskilled": 1}
    setup["pcs"][1]["profession"] = "Farmer"
    state = naval.ENGINE.start(setup, ScriptedSource(""))[0]
    assert repair_pool(state, "london", "hull", "vane") == (5, {"maritime": 5})
