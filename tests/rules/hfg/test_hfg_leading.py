"""A Command Party leading the element behind it (``rules/hfg.md`` §9.4; HFG L283-284,
L327-328): who leads, what the element behind does, and close combats with scripted dice."""

import pytest

from rules.engine import IllegalAction
from rules.hfg.combat import Outcome
from rules.hfg.engine import ENGINE, order_options, validate_setup
from rules.hfg.leading import behind, may_lead, rear_outcome
from rules.random import ScriptedSource


@pytest.mark.parametrize("cp,other,state,touching,leads", [
    ("CP", "HC", "ok", True, True),
    ("CP", "BAY", "ok", True, True),
    ("CP", "SBA", "ok", True, False),     # mounted or foot only
    ("CP", "HC", "routing", True, False),
    ("CP", "HC", "ok", False, False),
    ("HQ", "HC", "ok", True, False),      # a Command Party, not an Army HQ
])
def test_who_leads(cp, other, state, touching, leads):
    assert may_lead(cp, other, behind_state=state, touching_rear=touching) is leads


@pytest.mark.parametrize("out,does", [
    (Outcome("repulsed", (600, 1200), rear="spent"), "spent"),
    (Outcome("pursue", (300, 1200)), "follow"),
    (Outcome("press_forward", (0, 200)), "follow"),
    (Outcome("charge", (0, 600)), "follow"),
    (Outcome("routed", (800, 800)), "routed"),
    (Outcome("recoil", (200, 200)), "recoil"),
    (Outcome("destroyed"), "destroyed"),
    (Outcome("halt"), "stay"),
])
def test_what_the_element_behind_does(out, does):
    assert behind(out) == does


def test_the_element_behind_is_spent_or_shares_the_outcome():
    assert rear_outcome(Outcome("repulsed", (600, 1200), rear="spent"), 300).kind == "spent"
    assert rear_outcome(Outcome("routed", (800, 800)), 300).distance == (800, 800)
    assert rear_outcome(Outcome("recoil", (300, 300)), 200).distance == (200, 200)
    with pytest.raises(IllegalAction, match="no outcome"):
        behind(Outcome("close_in"))


def battle(behind_type="HC"):
    """a's Command Party at push of bayonet with b's Muskets, ``behind_type`` (or nothing)
    contiguous to its rear."""
    elements = [
        {"id": "cp", "side": "a", "command": "a", "type": "CP", "x": 6000, "y": 3000},
        {"id": "b-cp", "side": "b", "command": "b", "type": "CP", "x": 3000, "y": 5000,
         "heading": 180},
        {"id": "mus", "side": "b", "command": "b", "type": "MUS", "x": 6000, "y": 3000,
         "heading": 180}]
    if behind_type:
        elements.append({"id": "rear", "side": "a", "command": "a", "type": behind_type,
                         "x": 6000, "y": 2700})
    return validate_setup({
        "title": "Leading", "year": 1800, "attacker": "a", "max_bounds": 8,
        "sides": [{"id": "a", "name": "A", "commands": [{"id": "a", "general": "cp"}]},
                  {"id": "b", "name": "B", "commands": [{"id": "b", "general": "b-cp"}]}],
        "elements": elements})


def fought(setup, cp_die, mus_die):
    source = ScriptedSource(rolls=[3, cp_die, mus_die, 2])  # a's PIPs, the dice, b's PIPs
    state, _ = ENGINE.start(setup, source)
    state, events = ENGINE.apply(state, "side:a", "end", source)
    return state, events, next(e for e in events if e.kind == "combat")


def test_the_cavalry_behind_adds_its_factor_and_follows_the_pursuit():
    # CP 6 + 1 + Heavy Cavalry's 2 against foot = 9; Muskets 1 + 4 against staff = 5:
    # the Muskets beaten by mounted in good going are destroyed, the pair pursues 300p
    state, events, fight = fought(battle(), 6, 1)
    assert fight.data["scores"] == [9, 5] and fight.data["outcomes"] == ["pursue", "destroyed"]
    cp, rear = state["elements"]["cp"], state["elements"]["rear"]
    assert cp["y"] == 3300 and rear["y"] == 3300 - 300  # still contiguous to its rear
    assert "Heavy Cavalry (rear) follows Command Party (cp)." in [e.text for e in events]


def test_when_the_cavalry_would_be_spent_it_is_and_the_party_is_repulsed():
    # CP 3 + 3 = 6 against Muskets 4 + 4 = 8: mounted losing to foot are spent (L304)
    state, events, fight = fought(battle(), 3, 4)
    assert fight.data["scores"] == [6, 8] and fight.data["outcomes"][0] == "repulsed"
    assert state["elements"]["rear"]["state"] == "spent"
    assert state["elements"]["cp"]["y"] == 3000 - 600 and state["elements"]["cp"]["state"] == "ok"


def test_foot_behind_recoil_with_the_party():
    # CP 1 + 1 + Bayonets' 2 = 4 against 3 + 4 = 7: foot beaten by Muskets recoil; both do
    state, _, fight = fought(battle("BAY"), 1, 3)
    assert fight.data["scores"] == [4, 7] and fight.data["outcomes"][0] == "recoil"
    assert state["elements"]["rear"]["y"] == 2700 - 200  # its own depth, first
    # the party recoils its own 300p into the element behind, which has recoiled only its
    # 200p; staff pass through any friend (L255) and, not clear at the end, go on just
    # beyond it (L256): the party ends behind the Bayonets
    assert state["elements"]["cp"]["y"] == 2500 - 200


def test_alone_a_command_party_fights_with_its_own_factor():
    state, _, fight = fought(battle(None), 6, 1)
    assert fight.data["scores"] == [7, 5]  # 6 + 1, no element behind


def apart(behind_type="HC"):
    """The party 500p short of b's element, now Cuirassiers (cavalry: the party may close
    with them; foot would have to shoot at it), ``behind_type`` contiguous to its rear."""
    setup = battle(behind_type)
    for e in setup["elements"]:
        e["y"] -= 500 if e["id"] in ("cp", "rear") else 0
        e["type"] = "CUI" if e["id"] == "mus" else e["type"]
    state, _ = ENGINE.start(validate_setup(setup), ScriptedSource(rolls=[5] + [3] * 10))
    return state


def test_the_lead_order_takes_the_party_and_the_element_behind_into_contact():
    state = apart()
    opts = {k: c for k, _, c in order_options(state)}
    assert opts["lead:cp:mus"] == 1  # one group, in command
    assert not [k for k in opts if k.startswith(("attack:cp", "flank:cp"))]  # not alone
    state, events = ENGINE.apply(state, "side:a", "lead:cp:mus", ScriptedSource(rolls=[]))
    cp, rear = state["elements"]["cp"], state["elements"]["rear"]
    assert (cp["y"], rear["y"]) == (3000, 2700) and cp["moved"] and rear["moved"]
    assert events[0].text == ("Command Party (cp) leads Heavy Cavalry (rear) against "
                              "Cuirassiers (mus).")


def test_no_lead_order_without_an_element_behind_or_with_guns_behind():
    for behind_type in (None, "SBA"):
        keys = [k for k, _, _ in order_options(apart(behind_type))]
        assert "advance:cp" in keys and not [k for k in keys if k.startswith("lead:")]
