"""The optional Scar rule's card as an engine (``rules.btq.scar``; BtQ L1318-1320,
``rules/btq_characters.md`` §5.5): the card turned from the player's deck, each row of the
table with the choice it leaves, the Joker the player's choice."""

import pytest

from rules.btq.scar import ENGINE
from rules.engine import GM, IllegalAction
from rules.random import ScriptedSource

PLAYER = "pc:7"


def start(cards, missions=()):
    source = ScriptedSource(cards.split())
    state, _ = ENGINE.start({"player": PLAYER, "name": "Anne Able",
                             "missions": [{"key": k, "name": f"Mission {k}"} for k in missions]},
                            source)
    return state, source


def play(cards, *choices, missions=()):
    state, source = start(cards, missions)
    for actor, choice in [(PLAYER, "draw"), *choices]:
        state, _ = ENGINE.apply(state, actor, choice, source)
    return state


@pytest.mark.parametrize("card, kind", [("7H", "scar"), ("10D", "scar"), ("AS", "crippled")])
def test_a_red_number_or_an_ace_ends_at_once(card, kind):
    state = play(card)
    outcome = ENGINE.outcome(state)
    assert outcome.result == kind and outcome.data["card"] == card
    assert ENGINE.pending(state) == []


@pytest.mark.parametrize("card, measures", [("KD", ["charm", "influence"]),
                                            ("JC", ["guts", "discipline"])])
def test_a_face_card_costs_one_measure_of_the_players_choice(card, measures):
    state, source = start(card)
    state, _ = ENGINE.apply(state, PLAYER, "draw", source)
    decision = ENGINE.pending(state)[0]
    assert (decision.actor, [o.key for o in decision.options]) == (PLAYER, measures)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, PLAYER, "romance", source)
    state, _ = ENGINE.apply(state, PLAYER, measures[1], source)
    assert ENGINE.outcome(state).data["measure"] == measures[1]


def test_a_black_number_reduces_a_mission_the_gm_records():
    state = play("5S", (GM, "12"), missions=("11", "12"))
    assert ENGINE.outcome(state).data == {
        "card": "5S", "kind": "infection", "text": ENGINE.outcome(state).data["text"],
        "measure": None, "mission": "12"}
    alone = play("5C")
    assert ENGINE.outcome(alone).data["mission"] is None  # on no Mission: nothing to reduce


def test_the_joker_is_any_row_the_player_chooses():
    state = play("JK", (PLAYER, "illness"), (PLAYER, "guts"))
    assert ENGINE.outcome(state).result == "illness"
    assert ENGINE.outcome(state).data["measure"] == "guts"


def test_only_the_player_turns_the_card_once():
    state, source = start("7H 8H")
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, "pc:8", "draw", source)
    state, _ = ENGINE.apply(state, PLAYER, "draw", source)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, PLAYER, "draw", source)


@pytest.mark.parametrize("name, result, measure, mission", [
    ("infection", "infection", None, "convoy"), ("delirium", "delirium", "charm", None)])
def test_the_scenarios_play_to_their_result(name, result, measure, mission):
    from rules.engine import play_scenario

    scenario = ENGINE.scenarios()[name]
    state, _ = play_scenario(ENGINE, scenario, ScriptedSource(scenario.cards))
    outcome = ENGINE.outcome(state)
    assert (outcome.result, outcome.data["measure"], outcome.data["mission"]) == (
        result, measure, mission)
