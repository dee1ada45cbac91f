"""One person who plays several participants of a wargame (a player whose two characters
command two sides) sees what each of them sees: the engines' ``joint_view``
(``combat.selectors.view_as``), not the first one's view only."""

import copy

import pytest

from rules.engine import get_engine
from rules.random import SeededSource

SCENARIOS = {"brethren": "first_broadside", "hfg": "first_manassas", "viking": "single_combat"}


def _started(name: str):
    engine = get_engine(name)
    setup = copy.deepcopy(engine.scenarios()[SCENARIOS[name]].setup)
    for side, pc in zip(setup["sides"], ("pc:1", "pc:2")):
        side["commander"] = pc
    return engine, engine.start(setup, SeededSource(3))[0]


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_player_commanding_two_sides_sees_both_as_their_commanders_do(name):
    engine, state = _started(name)
    first, second = (engine.view(state, pc) for pc in ("pc:1", "pc:2"))
    joint = engine.joint_view(state, ["pc:1", "pc:2"])
    assert joint["my_sides"] == state["side_ids"][:2] == first["my_sides"] + second["my_sides"]
    assert joint["you"] == "pc:1" and engine.view(state, "pc:1") == first
    if name == "brethren":  # crews and treasure: each side's own in full, as its commander's
        for sid, ship in joint["ships"].items():
            own = first if ship["side"] in first["my_sides"] else second
            assert ship["crew"] == own["ships"][sid]["crew"]
            assert isinstance(ship["crew"], list)
    if name == "hfg":  # each side's elements as its commander sees them
        for seen in (first, second):
            for i, element in seen["elements"].items():
                if element["side"] in seen["my_sides"]:
                    assert joint["elements"][i] == element
    assert engine.joint_view(state, ["pc:2"]) == second


@pytest.mark.parametrize("name", ["brethren"])
def test_the_orders_given_for_either_side_show_to_the_one_who_gave_them(name):
    engine, state = _started(name)
    decision = next(d for d in engine.pending(state) if d.actor == "pc:1")
    state = engine.apply(state, "pc:1", engine.default_choice(state, decision),
                         SeededSource(4))[0]
    given = {k: v for k, v in engine.view(state, "pc:1")["orders"].items() if v != "given"}
    assert given and engine.view(state, "pc:2")["orders"].keys() >= given.keys()
    assert all(engine.view(state, "pc:2")["orders"][k] == "given" for k in given)
    joint = engine.joint_view(state, ["pc:2", "pc:1"])["orders"]
    assert {k: joint[k] for k in given} == given
