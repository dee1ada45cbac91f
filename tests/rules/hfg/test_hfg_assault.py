"""Assaults on the edges of a town or strong point (``rules/hfg.md`` §9.1, §9.3, §11.4,
A21; HFG L174-177, L277-282, L305-306): the posts on the edges, the garrison's worst
result, and with scripted dice a town fought on two edges at once."""

import pytest

from rules.engine import IllegalAction
from rules.hfg.assault import edge_of, nearest_edge, post, worst
from rules.hfg.combat import NONE, Outcome
from rules.hfg.engine import ENGINE, order_options, validate_setup
from rules.hfg.geometry import Rect
from rules.random import ScriptedSource

BOX = (5750, 3000, 500, 500)


def test_posts_face_into_the_box_on_each_edge():
    assert post(BOX, "south") == Rect(6000, 3000, 0, 400, 200)
    assert post(BOX, "north", 400, 300) == Rect(6000, 3500, 180, 400, 300)
    assert post(BOX, "west") == Rect(5750, 3250, 90, 400, 200)
    assert post(BOX, "east") == Rect(6250, 3250, 270, 400, 200)
    for edge in ("north", "east", "south", "west"):
        assert edge_of(BOX, post(BOX, edge)) == edge
    with pytest.raises(IllegalAction, match="an edge is one of"):
        post(BOX, "up")


def test_only_an_element_facing_in_on_an_edge_assaults_it():
    assert edge_of(BOX, Rect(5900, 3000, 0)) == "south"      # off centre, on the edge
    assert edge_of(BOX, Rect(6000, 3000, 180)) is None       # facing out
    assert edge_of(BOX, Rect(6000, 2950, 0)) is None         # 50p short
    assert edge_of(BOX, Rect(6300, 3000, 0)) is None         # beyond the corner
    assert nearest_edge(BOX, (6000, 1000)) == "south"
    assert nearest_edge(BOX, (9000, 3300)) == "east"


def test_the_garrison_suffers_the_worst_of_its_results():
    routed, recoil = Outcome("routed", (800, 800)), Outcome("recoil", (200, 200))
    assert worst([recoil, routed, Outcome("halt")]) is routed
    assert worst([Outcome("press_forward", (0, 200)), recoil]) is recoil
    assert worst([Outcome("press_forward", (0, 200))]) is NONE  # a winner holds the town
    assert worst([]) is NONE


def town(attackers, garrison="MUS"):
    """b's ``garrison`` holds the town ``BOX``; ``attackers`` are a's elements."""
    return validate_setup({
        "title": "Assault", "year": 1800, "attacker": "a", "max_bounds": 8,
        "sides": [{"id": s, "name": s.upper(), "commands": [{"id": s, "general": f"{s}-cp"}]}
                  for s in ("a", "b")],
        "terrain": [{"id": "town", "kind": "bua", "x": 5750, "y": 3000, "w": 500, "h": 500,
                     "name": "the town"}],
        "elements": [
            {"id": "a-cp", "side": "a", "command": "a", "type": "CP", "x": 3000, "y": 1000},
            {"id": "b-cp", "side": "b", "command": "b", "type": "CP", "x": 3000, "y": 5000,
             "heading": 180},
            {"id": "held", "side": "b", "command": "b", "type": garrison, "x": 6000,
             "y": 3150, "heading": 180},
            *[{"side": "a", "command": "a", **x} for x in attackers]]})


def test_a_town_is_fought_on_each_edge_and_routs_at_its_worst():
    setup = town([{"id": "bay", "type": "BAY", "x": 6000, "y": 3000},
                  {"id": "mus", "type": "MUS", "x": 5750, "y": 3250, "heading": 90}])
    # a's PIPs 1; south: Bayonets 6 + 2 = 8 against the garrison 1 + 3 + 2 (town) = 6,
    # the garrison beaten in a town routs 800p; west: Muskets 4 + 3 = 7 against 6 + 5 = 11,
    # foot beaten attacking a town are repulsed 400p (L305-306)
    source = ScriptedSource(rolls=[1, 6, 1, 4, 6, 3])
    state, _ = ENGINE.start(setup, source)
    state, events = ENGINE.apply(state, "side:a", "end", source)
    fights = [e.data for e in events if e.kind == "combat"]
    assert [f["scores"] for f in fights] == [[8, 6], [7, 11]]
    assert [f["outcomes"] for f in fights] == [["press_forward", "routed"],
                                               ["repulsed", "press_forward"]]
    assert state["elements"]["mus"]["x"] == 5750 - 400
    held = state["elements"]["held"]
    assert held["state"] == "routing" and held["heading"] == 0
    assert state["elements"]["bay"]["y"] == 3000  # the winner stays at the edge


def test_the_assault_order_takes_an_element_to_an_edge():
    setup = town([{"id": "bay", "type": "BAY", "x": 6000, "y": 3900, "heading": 180},
                  {"id": "hc", "type": "HC", "x": 6000, "y": 2500}])
    state, _ = ENGINE.start(setup, ScriptedSource(rolls=[5] + [3] * 10))
    keys = [k for k, _, _ in order_options(state)]
    assert "assault:bay:town:north" in keys
    # foot may not close within 200p of the garrison's front, which must shoot at them
    assert "assault:bay:town:south" not in keys
    assert "assault:hc:town:south" in keys  # mounted may
    state, events = ENGINE.apply(state, "side:a", "assault:bay:town:north",
                                 ScriptedSource(rolls=[]))
    assert (state["elements"]["bay"]["y"], state["elements"]["bay"]["heading"]) == (3500, 180)
    assert events[0].text == "Bayonets (bay) assaults the town from the north."
    assert not [k for k in (k for k, _, _ in order_options(state)) if k.startswith(
        "assault:bay")]  # it has moved


def test_no_assault_on_an_empty_or_friendly_town():
    setup = town([{"id": "hc", "type": "HC", "x": 6000, "y": 2500}])
    state, _ = ENGINE.start(setup, ScriptedSource(rolls=[5] + [3] * 10))
    state["elements"]["held"]["state"] = "destroyed"
    assert not [k for k, _, _ in order_options(state) if k.startswith("assault:")]


def test_pressing_forward_after_shooting_stops_at_the_towns_edge_and_assaults_it():
    setup = town([{"id": "bay", "type": "BAY", "x": 6000, "y": 2800}])
    # a's PIPs 1; Bayonets (400p range from 1790) 6 + 2 = 8 shoot the garrison 1 + 3 + 2 = 6,
    # out of its 200p reach: they win in their own bound and press forward 200p onto the
    # south edge; the assault: 6 + 2 against 1 + 5, the garrison routs 800p
    source = ScriptedSource(rolls=[1, 6, 1, 6, 1, 3])
    state, _ = ENGINE.start(setup, source)
    state, events = ENGINE.apply(state, "side:a", "end", source)
    texts = [e.text for e in events]
    assert "Bayonets (bay) presses forward into Muskets (held) at the edge of the town." in texts
    fights = [e.data for e in events if e.kind == "combat"]
    assert [(f["close"], f["outcomes"]) for f in fights] == [
        (False, ["press_forward", "none"]), (True, ["press_forward", "routed"])]
    assert state["elements"]["held"]["state"] == "routing"
    assert (state["elements"]["bay"]["y"], state["elements"]["bay"]["heading"]) == (3000, 0)


def test_an_element_that_may_press_forward_but_cannot_reach_says_it_halts():
    """Bayonets 250p short of the town's edge win their shooting: pressing forward is
    theirs to take, but 200p do not bring them to the edge, so they halt, and the log says
    so (it said only "may press forward")."""
    setup = town([{"id": "bay", "type": "BAY", "x": 6000, "y": 2750}])
    source = ScriptedSource(rolls=[1, 6, 1, 3, 3, 3])
    state, _ = ENGINE.start(setup, source)
    state, events = ENGINE.apply(state, "side:a", "end", source)
    texts = [e.text for e in events]
    assert any(t.endswith("Bayonets (bay) may press forward.") for t in texts)
    assert "Bayonets (bay) halts." in texts
    assert state["elements"]["bay"]["y"] == 2750


def test_the_default_commander_assaults_a_town_where_it_pays_and_not_where_it_does_not():
    """Heavy Cavalry beside a town: its Muskets garrison would beat them at the edge (the
    town's cover), so the default commander does not assault; a general alone in it would
    be destroyed in close combat, so it does (it weighed attacks and flank attacks only)."""
    from rules.hfg.ai import choose
    from rules.hfg.engine import order_options

    setup = town([{"id": "hc", "type": "HC", "x": 6000, "y": 2500}])
    state, _ = ENGINE.start(setup, ScriptedSource(rolls=[5] + [3] * 10))
    assert "assault:hc:town:south" in [k for k, _, _ in order_options(state)]
    assert not choose(state, order_options(state)).startswith("assault:")
    state["elements"]["held"]["type"] = "CP"
    assert choose(state, order_options(state)) == "assault:hc:town:south"
