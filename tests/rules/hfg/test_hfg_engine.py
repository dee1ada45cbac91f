"""The ``hfg`` engine (``rules/hfg.md`` §5-§12): its scenarios, bad setups and orders refused
with the reason, a bound's sequence with every die recorded, replays through JSON, any seed
ending, and the default AI against a random legal policy."""

import copy
import json
import random

import pytest

from rules.btq.settings import resolve
from rules.engine import GM, IllegalAction, get_engine, play_out
from rules.hfg.engine import ENGINE, order_options, validate_setup
from rules.random import ScriptedSource, SeededSource


def scenario(name="landing_party"):
    return copy.deepcopy(ENGINE.scenarios()[name].setup)


def start(name="landing_party", seed=1):
    source = SeededSource(seed)
    state, events = ENGINE.start(validate_setup(scenario(name)), source)
    return state, events, source


def test_registered_as_a_wargame_with_its_scenarios():
    engine = get_engine("hfg")
    assert engine is ENGINE and engine.wargame
    scenarios = engine.scenarios()
    assert set(scenarios) == {"landing_party", "first_manassas"}
    for sc in scenarios.values():
        assert [set(s) >= {"id", "name", "commander"} for s in sc.setup["sides"]] == [True] * 2
        state, _ = engine.start(engine.validate_setup(sc.setup), SeededSource(0))
        assert engine.pending(state)[0].actor == "side:" + sc.setup["attacker"]


def test_a_bound_rolls_pips_then_moves_shoots_and_fights():
    source = ScriptedSource(rolls=[4] + [3] * 40)
    state, events = ENGINE.start(validate_setup(scenario()), source)
    assert state["pips"] == {"party": 4} and str(source.log[0]) == "d6 PIPs party: 4"
    decision = ENGINE.pending(state)[0]
    keys = [o.key for o in decision.options]
    assert keys[-1] == "end" and "advance:marines" in keys
    state2, _ = ENGINE.apply(state, "side:a", "advance:marines", source)
    assert state2["pips"]["party"] == 3 and state2["elements"]["marines"]["y"] == 1800
    assert state["elements"]["marines"]["y"] == 1200  # the old state is untouched
    assert "advance:marines" not in [o.key for o in ENGINE.pending(state2)[0].options]
    state3, events = ENGINE.apply(state2, "side:a", "end", source)
    assert state3["phasing"] == "b" and state3["bound"] == 2
    kinds = [e.kind for e in events]
    assert "combat" in kinds and kinds[-1] == "bound.start"
    assert all(d.purpose.startswith(("PIPs", "combat")) for d in source.log)


@pytest.mark.parametrize("change,message", [
    (lambda s: s.update(sides=s["sides"][:1]), "two sides"),
    (lambda s: s["elements"][2].update(type="XYZ"), "unknown troop type"),
    (lambda s: s["elements"].append({**s["elements"][2], "id": "marines2", "x": 1700}),
     "overlap"),
    (lambda s: s["elements"][2].update(y=3300), "y must be between 0 and 3200"),
    (lambda s: s["elements"][2].update(y=3190, heading=180), "not on the table"),
    (lambda s: s["elements"][3].update(x=600, y=500), "ships stay on the waterway"),
    (lambda s: s["elements"][2].update(dismounted=True), "cannot dismount"),
    (lambda s: s["elements"][2].update(command="shore"), "its command"),
    (lambda s: s.update(settings={"hfg_nonsense": 1}), "unknown campaign setting .hfg_nonsense."),
    (lambda s: s.update(max_bounds=99), "max_bounds"),
    (lambda s: s["terrain"].append({"id": "x", "kind": "lava", "x": 0, "y": 0, "w": 100,
                                    "h": 100}), "terrain is one of"),
    (lambda s: s["sides"][0].update(army={"list": "gnw-swedish", "year": 1708,
                                          "counts": {}}), "must have"),
])
def test_bad_setups_are_refused_with_the_rule(change, message):
    setup = scenario()
    change(setup)
    with pytest.raises(IllegalAction, match=message):
        validate_setup(setup)


def test_a_campaigns_settings_reach_the_battle_as_hfg_reads_them():
    # a campaign passes every setting it has (rules.btq.settings): HFG keeps its own
    setup = scenario()
    setup["settings"] = resolve({"hfg_army_break_fraction": 0.25, "repair_lockout": "next_round"})
    checked = validate_setup(setup)
    assert checked["settings"] == {"hfg_spent_vs_dismounted": True,
                                   "hfg_bua_half_loss_by_artillery": "afire_and_destroyed",
                                   "hfg_submarine_can_shoot": False,
                                   "hfg_army_break_fraction": 0.25,
                                   "hfg_rout_contagion": "book",
                                   "hfg_ford_both_banks": 4,
                                   "hfg_foot_charge_shooters": False}
    state, _ = ENGINE.start(checked, SeededSource(0))
    assert state["settings"]["hfg_army_break_fraction"] == 0.25
    setup["settings"] = {"hfg_army_break_fraction": 0.3}
    with pytest.raises(IllegalAction, match="hfg_army_break_fraction: 0.3 is not one of"):
        validate_setup(setup)


def test_bad_orders_are_refused_and_nothing_changes():
    state, _, source = start()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction, match="not an order the rules allow"):
        ENGINE.apply(state, "side:a", "advance:battery", source)
    with pytest.raises(IllegalAction, match="no orders to give"):
        ENGINE.apply(state, "side:b", "end", source)
    with pytest.raises(IllegalAction, match="not an order"):
        ENGINE.apply(state, "side:a", "teleport:marines", source)
    assert json.dumps(state, sort_keys=True) == before


def test_the_army_battle_is_checked_against_its_lists():
    setup = scenario("first_manassas")
    assert validate_setup(setup)["sides"][0]["army"]["list"] == "acw1861-east-union"
    setup["sides"][1]["army"]["counts"]["bay"] = 16
    with pytest.raises(IllegalAction, match="10 to 15 of BAY"):
        validate_setup(setup)


def test_views_show_the_table_to_each_commander():
    state, _, _ = start()
    assert ENGINE.view(state, GM)["my_sides"] == ["a", "b"]
    assert ENGINE.view(state, "side:b")["my_sides"] == ["b"]
    assert ENGINE.participants(state) == {"side:a": "The landing party",
                                          "side:b": "The shore defenders"}


@pytest.mark.parametrize("seed", range(3))
def test_any_seed_ends_and_replays_through_json(seed):
    state, _, source = start(seed=seed)
    # half way through, the stored state (PostgreSQL's jsonb) plays on the same
    for _ in range(10):
        d = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, d.actor, d.default, source)
    stored = json.loads(json.dumps(state))
    copy_source = SeededSource(0, state=source.state())
    end_a, _ = play_out(ENGINE, state, source)
    end_b, _ = play_out(ENGINE, stored, copy_source)
    assert ENGINE.outcome(end_a) == ENGINE.outcome(end_b)
    assert ENGINE.outcome(end_a).result in ("break", "time", "draw")
    with pytest.raises(IllegalAction, match="the battle is over"):
        ENGINE.apply(end_a, "side:a", "end", source)


def ai_against_random(seeds, name="landing_party"):
    """Games of the default AI against a random legal policy (any of the orders the rules
    allow, ``end`` included, at equal odds), the AI attacking in even games and defending in
    odd ones; the seeds the AI won."""
    won = []
    for g in seeds:
        source, rng = SeededSource(g), random.Random(g)
        state, _ = ENGINE.start(validate_setup(scenario(name)), source)
        ai_side = state["side_ids"][g % 2]
        while ENGINE.outcome(state) is None:
            actor = state["sides"][state["phasing"]]["commander"]
            if state["phasing"] == ai_side:
                choice = ENGINE.pending(state)[0].default
            else:  # the legal orders, as the decision offers them, without asking the AI
                choice = rng.choice(order_options(state))[0]
            state, _ = ENGINE.apply(state, actor, choice, source)
        if ENGINE.outcome(state).data["winner_side"] == ai_side:
            won.append(g)
    return won


def test_the_ai_beats_a_random_policy_16_games():
    assert len(ai_against_random(range(16))) >= 14


@pytest.mark.slow
def test_the_ai_beats_a_random_policy_in_90_percent_of_500_games():
    """Issue 13: at least 90 % of 500 seeded games. As measured: 475 of the 500 (attacking
    in the even seeds, 227 of 250; defending in the odd ones, 248 of 250); of the 25 lost,
    18 attacks ran out of time and 5 broke, 2 defences broke."""
    assert len(ai_against_random(range(500))) >= 450


def duel(*others: dict, settings: dict | None = None):
    """Bayonets (a) and Muskets (b) already at push of bayonet, each with a general far off,
    and ``others`` (more elements) on the table."""
    return validate_setup({
        "title": "A duel", "year": 1800, "attacker": "a", "max_bounds": 8,
        "settings": settings or {},
        "sides": [{"id": s, "name": s.upper(), "commands": [{"id": s, "general": f"{s}-cp"}]}
                  for s in ("a", "b")],
        "elements": [
            {"id": "a-cp", "side": "a", "command": "a", "type": "CP", "x": 3000, "y": 1000},
            {"id": "bay", "side": "a", "command": "a", "type": "BAY", "x": 6000, "y": 3000},
            {"id": "b-cp", "side": "b", "command": "b", "type": "CP", "x": 3000, "y": 5000,
             "heading": 180},
            {"id": "mus", "side": "b", "command": "b", "type": "MUS", "x": 6000, "y": 3000,
             "heading": 180}, *others]})


def test_a_rout_then_a_rally_or_the_routers_end():
    # a's PIPs 3; the combat: Bayonets 5 + 2, Muskets 1 + 3: beaten by Bayonets in their
    # own bound, the Muskets rout 800 paces; then b's PIPs 6
    source = ScriptedSource(rolls=[3, 5, 1, 6])
    state, _ = ENGINE.start(duel(), source)
    state, events = ENGINE.apply(state, "side:a", "end", source)
    mus = state["elements"]["mus"]
    assert mus["state"] == "routing" and mus["heading"] == 0 and mus["y"] == 3200 + 800
    assert "Muskets (mus) routs 800 paces." in [e.text for e in events]
    options = {o.key: o.label for o in ENGINE.pending(state)[0].options}
    assert options["rally:mus"].endswith("(3 PIPs)")  # 2, and 1 more out of command
    rallied, _ = ENGINE.apply(state, "side:b", "rally:mus", source)
    assert rallied["elements"]["mus"]["state"] == "ok"
    assert rallied["elements"]["mus"]["heading"] == 180 and rallied["pips"]["b"] == 3
    lost, events = ENGINE.apply(state, "side:b", "end", ScriptedSource(rolls=[2]))
    assert lost["elements"]["mus"]["state"] == "destroyed"  # not rallied in its own bound
    assert "Muskets (mus) is not rallied and is lost." in [e.text for e in events]


def test_uphill_in_close_combat_only():
    from rules.hfg.engine import _fighter, _initial_state

    setup = duel()
    setup["terrain"] = [{"id": "h", "kind": "hill", "x": 5000, "y": 3000, "w": 2000,
                         "h": 1000, "name": "a hill"}]
    st = _initial_state(validate_setup(setup))
    mus, bay = st["elements"]["mus"], st["elements"]["bay"]
    assert _fighter(st, mus, bay, close=True).uphill  # it stands on the hill
    assert not _fighter(st, bay, mus, close=True).uphill
    assert not _fighter(st, mus, bay, close=False).uphill  # A11: not in shooting


def facing_foot(settings=None):
    """Bayonets (a) 400 paces in front of Muskets (b), face to face, generals far off."""
    setup = duel()
    setup["elements"][1].update(y=2600)
    setup["settings"] = resolve(settings)
    return validate_setup(setup)


@pytest.mark.parametrize("charge", [False, True])
def test_foot_charge_foot_that_must_shoot_at_them_only_if_the_table_reads_it_so(charge):
    """HFG L258: "Only mounted elements can move closer than 200p to enemy that must shoot
    at them." L270: an element is a valid target if "it is not in frontal edge contact with
    enemy". The digest (7.7) and errata F21.2 read the first strictly: foot close with foot
    that would shoot at them only by winning the firefight and pressing forward 200 paces
    (L298-299, L323), as the mounted exception and the 200 paces of a press forward bear
    out; ``hfg_foot_charge_shooters`` lets a table read the second as freeing a move that
    ends in frontal contact."""
    source = ScriptedSource(rolls=[3])
    state, _ = ENGINE.start(facing_foot({"hfg_foot_charge_shooters": charge}), source)
    keys = [o.key for o in ENGINE.pending(state)[0].options]
    assert ("attack:bay:mus" in keys) is charge
    state, _ = ENGINE.apply(state, "side:a", "advance:bay", source)
    assert state["elements"]["bay"]["y"] == 2800  # the advance stops 200 paces short
    assert ENGINE.validate_setup(facing_foot())["settings"]["hfg_foot_charge_shooters"] \
        is False
