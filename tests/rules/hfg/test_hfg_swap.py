"""The C-in-C's PIP swap as an order (``rules/hfg.md`` §6.1; HFG L222-224; errata F21;
A17): offered after the dice when a subordinate's score is lower and his element within the
C-in-C's easy command distance, free, once, before any other order; never with an ally."""

import pytest

from rules.engine import IllegalAction
from rules.hfg.engine import ENGINE, validate_setup
from rules.random import ScriptedSource


def army(sub_y=2500, allied=False, hq="HQ"):
    """Side a: an Army HQ (the C-in-C) and a subordinate Command Party with its Muskets;
    side b far off."""
    sub = {"id": "sub", "name": "Hill", "general": "sub-cp",
           **({"allied": True} if allied else {})}
    return validate_setup({
        "title": "Swap", "year": 1800, "attacker": "a", "max_bounds": 8,
        "sides": [{"id": "a", "name": "A", "commands": [{"id": "main", "name": "Wellington",
                                                    "general": "hq"}, sub]},
                  {"id": "b", "name": "B", "commands": [{"id": "b", "general": "b-cp"}]}],
        "elements": [
            {"id": "hq", "side": "a", "command": "main", "type": hq, "x": 6000, "y": 1000},
            {"id": "sub-cp", "side": "a", "command": "sub", "type": "CP", "x": 6000,
             "y": sub_y},
            {"id": "mus", "side": "a", "command": "sub", "type": "MUS", "x": 7000,
             "y": sub_y},
            {"id": "b-cp", "side": "b", "command": "b", "type": "CP", "x": 3000, "y": 5500,
             "heading": 180}]})


def started(setup, rolls=(6, 2)):
    source = ScriptedSource(rolls=list(rolls) + [3] * 10)
    state, _ = ENGINE.start(setup, source)
    return state, source


def keys(state):
    return [o.key for o in ENGINE.pending(state)[0].options]


def test_the_c_in_c_gives_his_higher_score_to_a_subordinate():
    state, source = started(army())
    assert state["pips"] == {"main": 6, "sub": 2}
    assert keys(state)[0] == "swap:sub"
    label = ENGINE.pending(state)[0].options[0].label
    # the commands by their names, not their ids; free: no PIPs shown
    assert label == "The C-in-C takes Hill's 2 PIPs and gives it his 6"
    swapped, events = ENGINE.apply(state, "side:a", "swap:sub", source)
    assert swapped["pips"] == {"main": 2, "sub": 6}
    assert events[0].kind == "pips.swap" and events[0].text.endswith(
        "PIPs now Wellington 2, Hill 6.")
    assert "swap:sub" not in keys(swapped)  # once a bound
    with pytest.raises(IllegalAction, match="not an order"):
        ENGINE.apply(swapped, "side:a", "swap:sub", source)


def test_the_swap_is_made_before_any_other_order():
    state, source = started(army())
    moved, _ = ENGINE.apply(state, "side:a", "advance:mus", source)
    assert "swap:sub" not in keys(moved)


@pytest.mark.parametrize("setup,rolls", [
    (army(), (2, 6)),               # the subordinate's score is not lower
    (army(), (4, 4)),
    (army(allied=True), (6, 2)),    # never with an allied general
    (army(sub_y=3500), (6, 2)),     # 2,500p off: beyond an Army HQ's 2,400p
    (army(sub_y=1900, hq="CP"), (6, 2)),  # 900p off: beyond a C-in-C CP's 800p
])
def test_no_swap_where_the_rules_forbid_it(setup, rolls):
    state, _ = started(setup, rolls)
    assert not [k for k in keys(state) if k.startswith("swap:")]


def test_a_disabled_c_in_c_cannot_swap():
    state, source = started(army())
    state["elements"]["hq"]["disabled"] = True
    state, _ = ENGINE.apply(state, "side:a", "end", source)  # b's bound
    state, _ = ENGINE.apply(state, "side:b", "end", ScriptedSource(rolls=[5, 1] + [3] * 10))
    assert state["pips"] == {"main": 5, "sub": 1}
    assert not [k for k in keys(state) if k.startswith("swap:")]
