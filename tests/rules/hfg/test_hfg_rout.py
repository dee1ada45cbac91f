"""HFG rout contagion (``rules/hfg.md`` §11.6, A25; HFG L318-319): the ground a router
sweeps, who panics under each reading, and friends routing in a battle with scripted dice."""

import pytest

from rules.engine import IllegalAction
from rules.hfg.engine import ENGINE, validate_setup
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


def test_skirmishers_stand_and_the_router_ends_just_beyond_them():
    """L319: friendly Skirmishers passed through do not rout. The router, its 800p ending
    on them (they stand from 3,700 to 3,900), moved further than they did, so it ends in
    front of them: it goes on until clear, its rear edge on their far edge (L256)."""
    state, events = fought(battle("SK"))
    assert state["elements"]["friend"]["state"] == "ok"
    assert state["elements"]["friend"]["y"] == 3700
    assert not [e for e in events if e.kind == "rout.contagion"]
    assert state["elements"]["mus"]["y"] == 3900 + 200
    assert "Muskets (mus) routs 900 paces." in [e.text for e in events]


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


def routed(*others, terrain=(), dice=(3, 5, 1, 6)):
    """The duel with ``others`` on the table and ``terrain``, fought with ``dice`` (by
    default the Muskets rout 800 paces, as :func:`fought`): the state and the log's texts."""
    setup = validate_setup({**duel(*others), "terrain": list(terrain)})
    state, events = fought_with(setup, dice)
    return state["elements"], [e.text for e in events]


def fought_with(setup, dice):
    source = ScriptedSource(rolls=list(dice))
    state, _ = ENGINE.start(setup, source)
    return ENGINE.apply(state, "side:a", "end", source)


def test_a_router_that_reaches_the_enemy_is_destroyed_not_stopped_short():
    """L320-321: a routing element that reaches enemy other than Skirmishers is destroyed
    (it used to stop in front of them). a's Hussars stand across the Muskets' way, 300p
    behind them."""
    els, texts = routed({"id": "hus", "side": "a", "command": "a", "type": "HC", "x": 6000,
                         "y": 3700, "heading": 90})
    assert els["mus"]["state"] == "destroyed"
    assert "Muskets (mus) runs into the enemy and is destroyed." in texts
    assert els["hus"]["state"] == "ok"


def test_a_router_with_an_enemy_front_on_its_rear_is_destroyed_where_it_stands():
    """L320: "starts with an enemy front edge in close combat with its rear edge". a's
    Muskets behind b's Muskets, facing their rear: b's Muskets, 4 + 3 - 2 (enemy on their
    rear) against the Bayonets' 5 + 2, are routed 800p by Bayonets in a's bound, and cannot
    get away."""
    els, texts = routed({"id": "rear", "side": "a", "command": "a", "type": "MUS",
                         "x": 6000, "y": 3200, "heading": 180}, dice=(3, 5, 4, 6))
    assert "Muskets (mus) is routed" in " ".join(texts)
    assert els["mus"]["state"] == "destroyed"
    assert (els["mus"]["y"], els["mus"]["heading"]) == (3000, 180)
    assert "Muskets (mus) cannot get away and is destroyed." in texts


def test_enemy_skirmishers_in_the_way_are_burst_through_and_turn_to_face_the_routers_rear():
    """L321: a's Skirmishers 300p behind the Muskets, facing them (from 3,500 to 3,700):
    the Muskets rout through them and on, and the Skirmishers turn about their centre to
    face the way the Muskets went, their front now at 3,700."""
    els, texts = routed({"id": "sk", "side": "a", "command": "a", "type": "SK", "x": 6000,
                         "y": 3500, "heading": 180})
    assert els["mus"]["state"] == "routing" and els["mus"]["y"] == 4000
    assert (els["sk"]["y"], els["sk"]["heading"], els["sk"]["state"]) == (3700, 0, "ok")
    assert "Muskets (mus) bursts through Skirmishers (sk), which turns to face it." in texts


RIVER = {"id": "bull", "kind": "river", "name": "Bull Run", "x": 0, "y": 3700, "w": 12000,
         "h": 400}
ROAD = {"id": "pike", "kind": "road", "quality": "good", "x": 5900, "y": 0, "w": 200,
        "h": 6000}


def test_routers_that_reach_a_ford_stop_at_the_near_side():
    """L318-319: the road fords the river where the Muskets' 800p would take them across:
    they stop with their front on the near bank, 500p on."""
    els, texts = routed(terrain=[RIVER, ROAD])
    assert els["mus"]["state"] == "routing" and els["mus"]["y"] == 3700
    assert "Muskets (mus) routs 500 paces and stops at the ford over Bull Run." in texts


def test_routers_at_a_ford_stop_short_of_a_friend_on_its_near_bank():
    """L318-319: b's Skirmishers (whom routers do not sweep away) stand where the Muskets
    would stop at the ford: the Muskets stop short of them, never going on into the ford."""
    els, texts = routed({"id": "skb", "side": "b", "command": "b", "type": "SK", "x": 6000,
                         "y": 3600, "heading": 0}, terrain=[RIVER, ROAD])
    assert els["mus"]["state"] == "routing" and els["mus"]["y"] < 3700
    assert els["skb"]["y"] == 3600
    assert f"Muskets (mus) routs {els['mus']['y'] - 3200} paces." in texts


def test_routers_that_reach_a_river_away_from_a_ford_are_destroyed():
    """L252, L321: a river is crossed only at a ford, so it is ground the router cannot
    cross: it is destroyed (it used to stop at the bank)."""
    els, texts = routed(terrain=[RIVER])
    assert els["mus"]["state"] == "destroyed"
    assert "Muskets (mus) reaches ground it cannot cross and is destroyed." in texts


def test_the_router_moving_furthest_ends_in_front_of_the_friend_it_swept_away():
    """L319: "The element moving furthest ends in front". The friend from 3,300 to 3,500
    routs its 400p to end from 3,700 to 3,900, under the end of the Muskets' 800p: the
    Muskets, having moved further, go on until clear and end just beyond it."""
    state, events = fought(battle(friend_y=3300))
    texts = [e.text for e in events]
    assert state["elements"]["friend"]["y"] == 3900
    assert state["elements"]["mus"]["y"] == 3900 + 200
    assert "Muskets (mus) routs 900 paces." in texts


def test_skirmishers_burst_through_with_no_room_to_turn_stay_as_they_are():
    """a's Skirmishers face east across the Muskets' way (from 5,800 to 6,000 east-west,
    3,300 to 3,700 north-south) with a's Muskets against their rear: turned about their
    centre to face north they would stand on those Muskets, so they keep their facing."""
    els, texts = routed({"id": "sk", "side": "a", "command": "a", "type": "SK", "x": 6000,
                         "y": 3500, "heading": 90},
                        {"id": "back", "side": "a", "command": "a", "type": "MUS", "x": 5800,
                         "y": 3500, "heading": 90})
    assert els["mus"]["state"] == "routing" and els["mus"]["y"] == 4000
    assert (els["sk"]["x"], els["sk"]["y"], els["sk"]["heading"]) == (6000, 3500, 90)
    assert "Muskets (mus) bursts through Skirmishers (sk), which cannot turn where it " \
        "stands." in texts
