"""HFG rout contagion (``rules/hfg.md`` §11.6, A25; HFG L318-319): the ground a router
sweeps, who panics under each reading, and friends routing in a battle with scripted dice."""

import pytest

from rules.engine import IllegalAction
from rules.hfg.engine import ENGINE
from rules.hfg.geometry import Rect
from rules.hfg.rout import met, panics, swept
from rules.random import ScriptedSource
from tests.rules.hfg.test_hfg_engine import duel


def test_the_swept_ground_runs_from_the_rear_edge_to_where_the_move_ends():
    path = swept(Rect(0, 0, 0, 400, 200), 800)
    assert path == ((-200, 800), (200, 800), (200, -200), (-200, -200))
    assert met(path, Rect(0, 500, 0, 400, 200))  # stands on the way
    assert not met(path, Rect(600, 500, 0, 400, 200))  # beside it
    assert not met(path, Rect(0, 1000, 0, 400, 200))  # touching the end is not meeting
    with pytest.raises(IllegalAction, match="forward"):
        swept(Rect(0, 0, 0), -50)


@pytest.mark.parametrize("router,grade,friend,holds,reading,caught", [
    ("MUS", None, "BAY", False, "book", True),
    ("MUS", None, "BAY", True, "book", False),      # defending a town or strong point
    ("MUS", None, "SPG", False, "book", False),     # a strong point's garrison
    ("MUS", None, "SK", False, "book", False),      # the friends are Skirmishers (L319)
    ("MUS", None, "FLO", False, "book", False),     # or naval
    ("MUS", "I", "BAY", False, "book", False),      # A25: an Inferior router
    ("SK", None, "BAY", False, "book", True),
    ("SK", None, "BAY", False, "digest", False),    # the digest: a Skirmisher router
    ("MUS", None, "SK", False, "digest", True),
    ("MUS", "I", "BAY", False, "digest", False),
    ("MUS", None, "BAY", False, "off", False),
])
def test_who_panics(router, grade, friend, holds, reading, caught):
    assert panics(router, grade, friend, friend_holds_works=holds, reading=reading) is caught


def test_an_unknown_reading_is_refused():
    with pytest.raises(IllegalAction, match="rout contagion is read one of"):
        panics("MUS", None, "BAY", friend_holds_works=False, reading="sometimes")


def battle(friend="MUS", settings=None, friend_y=3700):
    """Bayonets (a) against Muskets (b) at push of bayonet, a second element of b behind the
    Muskets where their rout will take them."""
    return duel({"id": "friend", "side": "b", "command": "b", "type": friend, "x": 6000,
                 "y": friend_y, "heading": 180}, settings=settings)


def fought(setup):
    # a's PIPs 3; Bayonets 5 + 2 against Muskets 1 + 3: beaten by Bayonets in their own
    # bound, the Muskets rout 800 paces (as test_hfg_engine's duel); b's PIPs 6
    source = ScriptedSource(rolls=[3, 5, 1, 6])
    state, _ = ENGINE.start(setup, source)
    return ENGINE.apply(state, "side:a", "end", source)


def test_a_friend_in_the_routers_path_routs_its_own_full_move():
    state, events = fought(battle())
    friend, mus = state["elements"]["friend"], state["elements"]["mus"]
    texts = [e.text for e in events]
    assert "Muskets (friend) is swept away by the fleeing Muskets (mus)." in texts
    # the friend turns about (its front at 3,900) and routs its good-going move, 400p
    assert friend["state"] == "routing" and friend["heading"] == 0
    assert friend["rout_distance"] == 400 and friend["y"] == 3900 + 400
    # the router passes through where it stood and routs its full 800p
    assert mus["state"] == "routing" and mus["y"] == 3200 + 800
    assert texts.index("Muskets (friend) routs 400 paces.") < texts.index(
        "Muskets (mus) routs 800 paces.")


def test_skirmishers_stand_and_the_router_ends_short_of_them():
    state, events = fought(battle("SK"))
    assert state["elements"]["friend"]["state"] == "ok"
    assert not [e for e in events if e.kind == "rout.contagion"]
    # it passes through them but cannot end on them: it stops short, behind them
    assert state["elements"]["mus"]["y"] == 3700


def test_with_contagion_off_nobody_else_routs():
    state, _ = fought(battle(settings={"hfg_rout_contagion": "off"}))
    assert state["elements"]["friend"]["state"] == "ok"


def test_a_friend_off_the_path_stands():
    state, _ = fought(battle(friend_y=4300))  # 4,300 is beyond the router's 800p
    assert state["elements"]["friend"]["state"] == "ok"
    assert state["elements"]["mus"]["y"] == 4000


def test_routing_on_in_a_later_command_phase_panics_friends_too():
    setup = battle()
    for e in setup["elements"]:
        if e["id"] == "bay":
            e["x"] = 2000  # out of the fight
    source = ScriptedSource(rolls=[3, 6])  # a's PIPs, then b's
    state, _ = ENGINE.start(setup, source)
    # the Muskets routed last bound: turned about (front at 3,200), 800p to go each bound
    state["elements"]["mus"].update(state="routing", heading=0, y=3200, rout_distance=800,
                                    routed_at=0)
    state, events = ENGINE.apply(state, "side:a", "end", source)
    assert "Muskets (mus) routs on 800 paces." in [e.text for e in events]
    assert state["elements"]["friend"]["state"] == "routing"
