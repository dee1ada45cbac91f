"""The ``viking`` engine: its scenarios, bad setups and orders refused with the reason and
nothing changed, what each commander sees, replays through JSON, every seeded game ending
in a result with the house rules, and the default policy against a random one."""

import copy
import json
import random

import pytest

from rules.engine import GM, IllegalAction, get_engine, play_out
from rules.random import SeededSource
from rules.viking.engine import ENGINE, validate_setup

SCENARIOS = ENGINE.scenarios()


def _setup(name="fleet_battle"):
    return copy.deepcopy(SCENARIOS[name].setup)


def test_the_engine_is_registered_as_a_wargame():
    assert get_engine("viking") is ENGINE and ENGINE.wargame
    for scenario in SCENARIOS.values():
        assert all({"id", "name", "commander"} <= set(s) for s in scenario.setup["sides"])


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_scenario_validates_starts_and_ends(name):
    setup = validate_setup(SCENARIOS[name].setup)
    assert validate_setup(setup) == setup
    state, events = ENGINE.start(setup, SeededSource(7))
    assert events[0].kind == "game.start" and ENGINE.pending(state)
    final, _ = play_out(ENGINE, state, SeededSource(8))
    outcome = ENGINE.outcome(final)
    assert outcome.winner in {s["id"] for s in setup["sides"]} | {None}
    assert ENGINE.pending(final) == []


@pytest.mark.parametrize("change,reason", [
    ({"sides": []}, "two sides"),
    ({"vessels": []}, "2 to 16 vessels"),
    ({"board": {"w": 10, "h": 48}}, "width"),
    ({"turn_limit": 99}, "turn limit"),
    ({"wind": {"from": 0, "speed": 7}}, "wind's speed"),
    ({"settings": {"viking_facing": "loose"}}, "viking_facing"),
    ({"house_rules": {"boarding": "house"}}, "no phase"),
    ({"colour": "red"}, "unknown setup key"),
])
def test_a_bad_setup_is_refused_with_the_reason(change, reason):
    with pytest.raises(ValueError, match=reason):
        validate_setup({**_setup(), **change})


@pytest.mark.parametrize("vessel,reason", [
    ({"class": "GALLEY"}, "class is one of"),
    ({"side": "picts"}, "side is one of"),
    ({"x": 500}, "x must be"),
    ({"order": "FORWARD"}, "order is one of"),
    ({"crew": 90}, "crew must be"),
    ({"sail": "UP", "oars_out": True}, "not with sail up"),
    ({"level": "RAMMING"}, "level is"),
    ({"id": "n2"}, "two vessels"),
    ({"flagship": True, "id": "n9"}, "more than one flagship"),
])
def test_a_bad_vessel_is_refused_with_the_reason(vessel, reason):
    setup = _setup()
    setup["vessels"].append({**setup["vessels"][0], **vessel} if "id" in vessel
                            else {**setup["vessels"][0], "id": "n9", **vessel})
    with pytest.raises(ValueError, match=reason):
        validate_setup(setup)


def _to_orders(seed=1):
    state, _ = ENGINE.start(_setup(), SeededSource(seed))
    source = SeededSource(seed + 1)
    for d in ENGINE.pending(state):
        state, _ = ENGINE.apply(state, d.actor, "keep", source)
    return state, source


@pytest.mark.parametrize("actor,choice,reason", [
    ("side:norse", "FULL@30", "moves"),
    ("side:norse", "SPRINT@3", "not an order"),
    ("side:norse", "PACED@5/L9", "face at most"),
    ("side:outsider", "FULL@8", "no orders to give"),
    ("side:norse", "CENTER>PACED@5", "may not change her order"),
])
def test_a_bad_order_is_refused_and_nothing_changes(actor, choice, reason):
    state, source = _to_orders()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction, match=reason):
        ENGINE.apply(state, actor, choice, source)
    assert json.dumps(state, sort_keys=True) == before


def test_orders_stay_hidden_from_the_other_side_until_both_are_in():
    state, source = _to_orders()
    d = ENGINE.pending(state)[0]
    assert d.actor == "side:norse" and d.kind == "orders:n1"
    state, events = ENGINE.apply(state, "side:norse", d.default, source)
    given = next(e for e in events if e.kind == "orders.given")
    assert given.visible("side:norse") and given.visible(GM)
    assert not given.visible("side:danes")
    assert ENGINE.view(state, "side:danes")["orders"] == {"n1": "given"}
    assert ENGINE.view(state, "side:norse")["orders"] == {"n1": d.default}
    assert ENGINE.view(state, GM)["orders"] == {"n1": d.default}
    while state["turn"] == 1:
        d = ENGINE.pending(state)[0]
        state, events = ENGINE.apply(state, d.actor, d.default, source)
    revealed = next(e for e in events if e.kind == "orders.revealed")
    assert revealed.visible_to is None and "Long Serpent" in revealed.text


def test_a_game_replays_the_same_through_json():
    state, _ = ENGINE.start(_setup(), SeededSource(3))
    a, _ = play_out(ENGINE, state, SeededSource(4))
    b, _ = play_out(ENGINE, json.loads(json.dumps(state)), SeededSource(4))
    assert a == b


def test_house_rules_are_marked_on_the_page_view():
    state, _ = ENGINE.start(_setup(), SeededSource(3))
    view = ENGINE.view(state, "side:danes")
    assert view["house_mark"] == "house rule (not in the source)"
    assert "impact results" in view["house_rule_phases"] and view["undefined_phases"] == []


def _names():
    return sorted(SCENARIOS)


@pytest.mark.parametrize("seed", range(4 * len(SCENARIOS)))
def test_every_seeded_game_ends_in_a_result_with_the_house_rules(seed):
    """Four seeds a scenario, each game's house rules marked as such; that every game ends is
    the claim of the thousand games of make test-slow."""
    name = _names()[seed % len(_names())]
    state, events = ENGINE.start(_setup(name), SeededSource(seed))
    final, more = play_out(ENGINE, state, SeededSource(seed + 10_000))
    out = ENGINE.outcome(final)
    assert out.result in {"fleet_taken", "mutual", "turn_limit", "draw"}
    assert all("house rule (not in the source)" in e.text for e in events + more
               if e.data.get("house_rule"))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_a_thousand_seeded_games_end_in_a_result(chunk):
    for seed in range(chunk * 100, chunk * 100 + 100):
        name = _names()[seed % len(_names())]
        state, _ = ENGINE.start(_setup(name), SeededSource(seed))
        final, _ = play_out(ENGINE, state, SeededSource(seed + 10_000))
        assert ENGINE.outcome(final).result != "unresolved_rules_missing"


def ai_against_random(seed: int, name: str = "fleet_battle") -> bool:
    """One game of the default policy against a random legal one (sides alternate with the
    seed); whether the default policy won."""
    setup = _setup(name)
    ai_side = setup["sides"][seed % 2]["id"]
    source, rng = SeededSource(seed), random.Random(seed)
    state, _ = ENGINE.start(setup, source)
    while ENGINE.outcome(state) is None:
        d = ENGINE.pending(state)[0]
        mine = d.actor == f"side:{ai_side}"
        choice = d.default if mine else ENGINE.random_choice(state, d, rng)
        state, _ = ENGINE.apply(state, d.actor, choice, source)
    return ENGINE.outcome(state).winner == ai_side


def test_the_default_policy_beats_a_random_one_in_16_games():
    assert sum(ai_against_random(seed) for seed in range(16)) >= 14


@pytest.mark.slow
def test_the_default_policy_beats_a_random_one_in_90_percent_of_500_games():
    assert sum(ai_against_random(seed) for seed in range(500)) >= 450
