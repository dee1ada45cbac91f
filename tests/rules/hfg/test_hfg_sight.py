"""HFG sight over hill crests and concealed positions (``rules/hfg.md`` §4.2, §8.4, §3.3;
``rules.hfg.sight``), on the 4,000 x 3,200-pace table of ``test_hfg_moves``."""

import pytest

from rules.engine import GM, IllegalAction
from rules.hfg import engine as eng
from rules.hfg.engine import ENGINE, validate_setup
from rules.hfg.geometry import Rect
from rules.hfg.sight import crest_hides
from tests.rules.hfg.test_hfg_moves import el, options, order, setup, start

NARROW = {"id": "ridge", "kind": "hill", "x": 0, "y": 1000, "w": 4000, "h": 800}
"""A gentle hill under 1,000p across: a crest line at y 1,400."""
ROCKY = {**NARROW, "id": "rocks", "kind": "difficult_hill"}
WIDE = {"id": "down", "kind": "hill", "x": 1000, "y": 1000, "w": 2000, "h": 2000}
"""A gentle hill 2,000p every way: a plateau from 500p in (y 1,500 to 2,500)."""

VIEWER = Rect(2000, 600, 0)


def target(front_y, heading=180):
    """A 400 x 200 footprint facing south with its front edge at ``front_y``."""
    return Rect(2000, front_y, heading, 400, 200)


@pytest.mark.parametrize("hill,front_y,hidden", [
    (NARROW, 1800, False),   # 400p behind the crest: still seen
    (NARROW, 1850, True),    # 450p behind it
    (ROCKY, 1450, True),     # anything beyond a difficult hill's crest
    (ROCKY, 1200, False),    # on its near slope
    (WIDE, 1900, False),     # 400p onto the plateau
    (WIDE, 1950, True),
])
def test_a_crest_hides_troops_beyond_it(hill, front_y, hidden):
    assert crest_hides([hill], VIEWER, target(front_y)) is hidden


def test_a_viewer_on_the_crest_or_the_plateau_sees_down_the_far_slope():
    assert not crest_hides([NARROW], Rect(2000, 1400, 0), target(2600))
    assert not crest_hides([WIDE], Rect(2000, 1600, 0), target(2900))


def test_bayonets_shoot_over_a_crest_within_200_paces_of_their_front():
    near = Rect(2000, 1250, 0)  # the crest 150p ahead
    assert crest_hides([NARROW], near, target(1900))
    assert not crest_hides([NARROW], near, target(1900), shooter_type="BAY")
    assert crest_hides([NARROW], Rect(2000, 1150, 0), target(1900), shooter_type="BAY")


def test_guns_do_not_shoot_at_troops_in_dead_ground_behind_a_gentle_crest():
    def targets(front_y):
        s = setup([el("gun", "a", 2000, 600, type_="SBA"),
                   el("foe", "b", 2000, front_y)], [NARROW])
        state, _, _ = start(s, [5])
        return [o["id"] for _, o in eng._targets(state, state["elements"]["gun"])]

    assert targets(1750) == ["foe"] and targets(1900) == []


WOOD = {"id": "copse", "kind": "wood", "x": 1500, "y": 1600, "w": 1000, "h": 800,
        "name": "the copse"}


def concealed_setup(**kw):
    return setup([el("m", "a", 2000, 400), el("hid", "b", 2000, 2100, concealed=True,
                                                **kw)], [WOOD])


def test_a_concealed_element_is_off_the_enemys_map_and_no_target():
    state, _, _ = start(concealed_setup(), [5])
    red = ENGINE.view(state, "side:a")
    assert "hid" not in red["elements"] and "hid" not in red["order"]
    assert all(e["id"] != "hid" for e in red["setup"]["elements"])
    assert "hid" in ENGINE.view(state, "side:b")["elements"]
    assert ENGINE.view(state, GM)["elements"]["hid"]["concealed"]
    assert not any("hid" in k for k in options(state))


def test_troops_deep_in_a_wood_stay_concealed_at_its_edge_they_are_seen():
    state, _, source = start(concealed_setup(), [5, 3])
    state, events = order(state, "advance:m", source)
    assert state["elements"]["hid"]["concealed"]  # 200p inside the wood: unseen
    state, events = order(state, "end", source)
    assert state["elements"]["hid"]["concealed"]
    s = concealed_setup()
    s["elements"][-1]["y"] = 1600  # its centre 100p inside the edge: seen from outside
    state, events, _ = start(s, [5])
    assert "concealed" not in state["elements"]["hid"]
    assert any(e.kind == "revealed" and e.text == "Muskets (hid) is revealed." for e in events)


def test_moving_reveals_a_concealed_element():
    state, _, source = start(concealed_setup(), [5, 3])
    state, _ = order(state, "end", source)
    state, events = order(state, "retire:hid", source, actor="side:b")
    assert "concealed" not in state["elements"]["hid"]
    assert events[-1].kind == "revealed"


def test_a_concealed_position_is_in_or_behind_cover():
    s = setup([el("m", "a", 2000, 400), el("hid", "b", 2000, 2800, concealed=True)])
    with pytest.raises(IllegalAction, match="concealed position is in or behind"):
        validate_setup(s)
    s["terrain"] = [{**ROCKY, "x": 1000, "y": 2000, "w": 2000, "h": 600}]  # out of sight
    assert validate_setup(s)["elements"][-1]["concealed"]
