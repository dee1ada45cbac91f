"""HFG field works on the table (``rules/hfg.md`` §3.3, §10.2; HFG L192-196, L226, L289):
the limits on redoubts, entrenchments and strong points, where a shooter stands, who is
protected, and in a battle with scripted dice the +3, the guns held in their redoubt, the
entrenched who cannot turn and pay a PIP more."""

import pytest

from rules.engine import IllegalAction
from rules.hfg.engine import ENGINE, _fighter, _initial_state, order_options, validate_setup
from rules.hfg.geometry import Rect
from rules.hfg.works import check_works, holds_in_place, may_turn, protects, shot_from
from rules.random import ScriptedSource


def work(kind, i=0, x=0, y=0, w=400, h=200):
    return {"id": f"{kind}{i}", "kind": kind, "x": x, "y": y, "w": w, "h": h}


@pytest.mark.parametrize("features,message", [
    ([work("redoubt", i, x=1000 * i) for i in range(4)], "at most 3 of redoubts, not 4"),
    ([work("entrenchment", i, x=2000 * i) for i in range(4)], "at most 3 of entrenchments"),
    ([work("strong_point", 0, w=200), work("strong_point", 1, x=900, w=200)],
     "at most 1 of strong points"),
    ([work("redoubt", w=600)], "at most 500 paces"),
    ([work("redoubt", 0), work("redoubt", 1, x=550)], "within 200 paces of redoubt redoubt0"),
    ([work("entrenchment", w=1300)], "at most 1200 paces long and 300 deep"),
    ([work("entrenchment", w=1200, h=400)], "at most 1200 paces long and 300 deep"),
    ([work("linear_feature", w=1300)], "linear feature linear_feature0: it is a straight"),
    ([work("linear_feature", 0), work("linear_feature", 1, y=900)],
     "at most 1 of linear features"),
    ([work("strong_point", w=300, h=250)], "at most 250 paces square"),
])
def test_works_that_break_the_limits_are_refused(features, message):
    with pytest.raises(IllegalAction, match=message):
        check_works(features)


def test_works_within_the_limits_pass():
    check_works([work("redoubt", 0), work("redoubt", 1, x=600), work("redoubt", 2, x=1200),
                 work("entrenchment", 0, y=1000, w=1200, h=200),
                 work("strong_point", 0, y=2000, w=250, h=250),
                 {"id": "w", "kind": "wood", "x": 0, "y": 0, "w": 3000, "h": 3000}])


def test_where_a_shooter_stands():
    target = Rect(0, 0, 0, 400, 200)  # faces north, its rear edge at y = -200
    assert shot_from(target, Rect(0, 600, 180)) == "front"
    assert shot_from(target, Rect(0, -500, 0)) == "rear"       # directly behind
    assert shot_from(target, Rect(700, -100, 270)) == "flank"  # directly to its right
    assert shot_from(target, Rect(-700, -100, 90)) == "flank"
    assert shot_from(target, Rect(700, -600, 315)) == "front"  # behind, but not directly


@pytest.mark.parametrize("kind,code,dismounted,at,protected", [
    ("redoubt", "SBA", False, "front", True),
    ("redoubt", "MUS", False, "flank", True),       # all but directly behind
    ("redoubt", "MUS", False, "rear", False),
    ("redoubt", "HC", False, "front", False),       # artillery or foot only
    ("entrenchment", "MUS", False, "front", True),
    ("entrenchment", "MUS", False, "flank", False),
    ("entrenchment", "MUS", False, "rear", False),
    ("entrenchment", "DRG", True, "front", True),   # dismounted
    ("entrenchment", "DRG", False, "front", False),
    ("entrenchment", "SBA", False, "front", False),
    ("linear_feature", "MUS", False, "front", True),  # as an entrenchment (L197)
    ("linear_feature", "MUS", False, "flank", False),
    ("strong_point", "SPG", False, "front", False),  # its +2 is the garrison's
    (None, "MUS", False, "front", False),
])
def test_who_a_work_protects(kind, code, dismounted, at, protected):
    assert protects(kind, code, dismounted=dismounted, shooter_at=at) is protected


def test_guns_in_a_redoubt_stay_and_the_entrenched_do_not_turn():
    assert holds_in_place("redoubt", "SBA") and not holds_in_place("redoubt", "MUS")
    assert not holds_in_place("entrenchment", "SBA")
    assert not may_turn("entrenchment") and may_turn("redoubt") and may_turn(None)


def battle(terrain, b_type="MUS", b_x=6000):
    """Muskets (a) 200 paces from b's element, both generals far off."""
    return validate_setup({
        "title": "Works", "year": 1800, "attacker": "a", "max_bounds": 8,
        "sides": [{"id": s, "name": s.upper(), "commands": [{"id": s, "general": f"{s}-cp"}]}
                  for s in ("a", "b")],
        "terrain": terrain,
        "elements": [
            {"id": "a-cp", "side": "a", "command": "a", "type": "CP", "x": 3000, "y": 1000},
            {"id": "mus", "side": "a", "command": "a", "type": "MUS", "x": 6000, "y": 2800},
            {"id": "b-cp", "side": "b", "command": "b", "type": "CP", "x": 3000, "y": 5000,
             "heading": 180},
            {"id": "held", "side": "b", "command": "b", "type": b_type, "x": b_x, "y": 3000,
             "heading": 180}]})


TRENCH = {"id": "trench", "kind": "entrenchment", "x": 5400, "y": 3000, "w": 1200, "h": 300,
          "name": "the trench"}


def test_an_entrenchment_adds_3_to_the_shot_at_from_the_front():
    # a's PIPs 1; a's Muskets 4 + 3 = 7; b's entrenched Muskets 2 + 3 + 3 = 8
    source = ScriptedSource(rolls=[1, 4, 2, 6])
    state, _ = ENGINE.start(battle([TRENCH]), source)
    _, events = ENGINE.apply(state, "side:a", "end", source)
    fire = next(e for e in events if e.kind == "combat")
    assert fire.data["scores"] == [7, 8] and fire.data["bands"] == ["lose", "win"]
    # without the trench the same dice lose: 4 + 3 against 2 + 3
    source = ScriptedSource(rolls=[1, 4, 2, 6])
    state, _ = ENGINE.start(battle([]), source)
    _, events = ENGINE.apply(state, "side:a", "end", source)
    assert next(e for e in events if e.kind == "combat").data["scores"] == [7, 5]


def test_the_entrenchment_does_not_cover_a_flank():
    st = _initial_state(battle([TRENCH]))
    held, mus = st["elements"]["held"], st["elements"]["mus"]
    assert _fighter(st, held, mus, close=False).works == "entrenchment"
    assert _fighter(st, held, mus, close=True).works is None  # shooting only
    mus.update(x=6700, y=3100, heading=270)  # directly on its flank
    assert _fighter(st, held, mus, close=False).works is None


def test_the_entrenched_cannot_turn_and_pay_a_pip_more():
    st = _initial_state(battle([TRENCH]))
    st["elements"]["mus"].update(x=7200, y=2200)  # off to its left front, out of reach
    st.update(phasing="b", pips={"b": 6})
    opts = {k: c for k, _, c in order_options(st)}
    assert not [k for k in opts if k.startswith("face:held")]
    assert opts["retire:held"] == 3  # 1, out of command 1, entrenched 1 (L226)
    st["terrain"] = []
    opts = {k: c for k, _, c in order_options(st)}
    assert opts["face:held:mus"] == 2 and opts["retire:held"] == 2


def test_guns_in_a_redoubt_have_no_orders():
    redoubt = {"id": "r", "kind": "redoubt", "x": 5800, "y": 3000, "w": 400, "h": 450,
               "name": "the redoubt"}
    st = _initial_state(battle([redoubt], b_type="SBA"))
    st.update(phasing="b", pips={"b": 6})
    assert not [k for k, _, _ in order_options(st) if ":held" in k]
    st["terrain"] = []
    assert [k for k, _, _ in order_options(st) if ":held" in k]


def test_the_attacker_does_not_start_in_the_works():
    setup = battle([TRENCH])
    for e in setup["elements"]:
        e["y"] = {"mus": 3150, "held": 2000}.get(e["id"], e["y"])  # a's Muskets in the trench
    with pytest.raises(IllegalAction, match="element mus: the field works are the defender's"):
        validate_setup(setup)


def test_a_setup_with_too_many_works_is_refused():
    terrain = [{**TRENCH, "id": f"t{i}", "y": 3000 + 400 * i} for i in range(4)]
    with pytest.raises(IllegalAction, match="at most 3 of entrenchments"):
        battle(terrain)


SP = {"id": "sp", "kind": "strong_point", "x": 5875, "y": 3000, "w": 250, "h": 250,
      "name": "the chateau"}


def strong_point(garrison="SPG", side="b", attacker_at=(6000, 3000)):
    """b's garrison in the chateau, a's Bayonets on its south edge."""
    x, y = attacker_at
    return validate_setup({
        "title": "Chateau", "year": 1800, "attacker": "a", "max_bounds": 8,
        "sides": [{"id": s, "name": s.upper(), "commands": [{"id": s, "general": f"{s}-cp"}]}
                  for s in ("a", "b")],
        "terrain": [SP],
        "elements": [
            {"id": "a-cp", "side": "a", "command": "a", "type": "CP", "x": 3000, "y": 1000},
            {"id": "b-cp", "side": "b", "command": "b", "type": "CP", "x": 3000, "y": 5000,
             "heading": 180},
            {"id": "held", "side": side, "command": side, "type": garrison, "x": 6000,
             "y": 3100, "heading": 180},
            {"id": "bay", "side": "a", "command": "a", "type": "BAY", "x": x, "y": y}]})


@pytest.mark.parametrize("garrison,side,message", [
    ("MUS", "b", "a strong point is held by its SP garrison"),
    ("SPG", "a", "the field works are the defender's"),
])
def test_only_the_defenders_sp_garrison_holds_a_strong_point(garrison, side, message):
    with pytest.raises(IllegalAction, match=message):
        strong_point(garrison, side)


def test_an_sp_garrison_stands_in_a_strong_point():
    setup = strong_point()
    setup["terrain"] = []
    with pytest.raises(IllegalAction, match="an SP garrison stands in a strong point"):
        validate_setup(setup)


def test_the_walls_prevent_escape():
    # a's PIPs 1; Bayonets 6 + 2 = 8 on the south edge against the garrison 1 + 4 + 2
    # (its walls) = 7: an SP garrison losing a close combat is destroyed (L193, L305)
    source = ScriptedSource(rolls=[1, 6, 1, 3])
    state, _ = ENGINE.start(strong_point(), source)
    state, events = ENGINE.apply(state, "side:a", "end", source)
    fight = next(e for e in events if e.kind == "combat")
    assert fight.data["scores"] == [8, 7] and fight.data["outcomes"][1] == "destroyed"
    assert state["elements"]["held"]["state"] == "destroyed"
