"""The skirmish (``rules.btq.skirmish``; BtQ L1627-1690, ``rules/btq_missions.md`` §5,
TV-06, TV-22, A1, A8), with scripted cards."""

import pytest

from rules.btq.skirmish import discipline_cap
from rules.engine import IllegalAction, get_engine, play_out, play_scenario
from rules.random import ScriptedSource, SeededSource

ENGINE = get_engine("btq_skirmish")


def test_missions_tv06_the_book_skirmish():
    """missions TV-06 (BtQ L1651-1686): 2 cards each from Discipline 6; the Lieutenant, the
    Bosun's Mate and the rating win, the Midshipman loses and is Injured; the final Command
    test is at +2 and lost: captured, Ship Morale one level down (BtQ L1688-1690)."""
    scenario = ENGINE.scenarios()["escape_the_french_patrol"]
    source = ScriptedSource(scenario.cards)
    state, events = play_scenario(ENGINE, scenario, source)
    assert source.cards_left == 0
    outcome = ENGINE.outcome(state)
    assert state["cards"] == {"pc:midshipman": 2, "pc:mate": 2, "pc:rating": 2}
    assert outcome.data["results"] == {"pc:lieutenant": "won", "pc:midshipman": "lost",
                                       "pc:mate": "won", "pc:rating": "won"}
    assert outcome.data["fighters"]["pc:midshipman"]["health"] == "injured"
    assert all(outcome.data["fighters"][p]["health"] == "healthy"
               for p in ("pc:lieutenant", "pc:mate", "pc:rating"))
    final = next(e for e in events if e.kind == "final.draw")
    assert final.data["pools"]["a"]["breakdown"] == {"Command": 3, "PCs who won": 3,
                                                     "PCs who lost": -1}
    assert len(final.data["pools"]["a"]["cards"]) == 5
    assert "breakdown" not in final.data["pools"]["b"]  # the French officer's is the GM's
    assert final.gm_data["pools"]["b"]["breakdown"] == {"Command": 5}
    assert (outcome.result, outcome.winner) == ("defeat", "gm")
    assert outcome.data["ship_morale"] == {"from": "healthy", "to": "injured"}
    assert "they are captured" in outcome.summary or "captured" in events[-1].text


def _to_discipline(state):
    for _ in range(3):
        state, _ = ENGINE.apply(state, "pc:commander", "fight:npc:smuggler", SeededSource(1))
    return state


def test_missions_tv22_discipline_caps():
    """missions TV-22: Discipline 3 to share; A (Discipline 1) takes at most 1, B
    (Discipline 1, Born for Battle) at most 3; A=2 is refused, A=1 and B=2 allowed."""
    scenario = ENGINE.scenarios()["discipline_caps"]
    state, _ = ENGINE.start(ENGINE.validate_setup(scenario.setup), SeededSource(1))
    state = _to_discipline(state)
    a = ENGINE.pending(state)[0]
    assert (a.kind, [o.key for o in a.options]) == ("discipline.cards", ["0", "1"])
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, "pc:commander", "2", SeededSource(1))
    state, _ = ENGINE.apply(state, "pc:commander", "1", SeededSource(1))
    b = ENGINE.pending(state)[0]
    assert [o.key for o in b.options] == ["0", "1", "2"]  # 3 left of 3, less A's 1
    assert discipline_cap(state["fighters"]["pc:b"]) == 3
    state, _ = ENGINE.apply(state, "pc:commander", "2", SeededSource(1))
    assert state["cards"] == {"pc:a": 1, "pc:b": 2} and state["phase"] == "perform"


def test_no_discipline_cards_to_the_commander_or_an_unskilled_test():
    """BtQ L1669-1672, L1266-1270: the cards go to the others, never to an unskilled test."""
    scenario = ENGINE.scenarios()["discipline_caps"]
    state, _ = ENGINE.start(ENGINE.validate_setup(scenario.setup), SeededSource(1))
    state, _ = ENGINE.apply(state, "pc:commander", "fight:npc:smuggler", SeededSource(1))
    state, _ = ENGINE.apply(state, "pc:commander", "skill:riding", SeededSource(1))
    state, _ = ENGINE.apply(state, "pc:commander", "fight:npc:smuggler", SeededSource(1))
    state, _ = ENGINE.apply(state, "gm", "static:3", SeededSource(1))
    decision = ENGINE.pending(state)[0]
    assert decision.kind == "discipline.cards" and "Seaman B" in decision.prompt


def _morale_setup(morale, **more):
    return {"pcs": [{"id": "pc:lt", "name": "Lt", "discipline": 2, "command": 4,
                     "weapons": ["sword"]}],
            "opposition": [{"id": "npc:foe", "name": "Foe", "weapons": ["cutlass"]}],
            "opposing_commander": {"name": "Capitaine", "command": 2},
            "with_crew": True, "ship_morale": morale, **more}


def test_ship_morale_injured_costs_a_card_on_the_final_test():
    """BtQ L1645: Injured Ship Morale, -1 on the final test."""
    cards = "7S  7H 2D 3D 4D  9C 2C 3C 4C   AD  AH 3H 4H 5H  KC 2S"
    source = ScriptedSource(cards)
    state, _ = ENGINE.start(ENGINE.validate_setup(_morale_setup("injured")), source)
    state, _ = ENGINE.apply(state, "pc:lt", "fight:npc:foe", source)
    state, events = ENGINE.apply(state, "pc:lt", "sword", source)
    final = next(e for e in events if e.kind == "final.draw")
    assert final.data["pools"]["a"]["breakdown"] == {"Command": 4, "PCs who won": 1,
                                                     "Ship Morale Injured": -1}
    assert ENGINE.outcome(state).result == "victory"


def test_ship_morale_maimed_needs_a_discipline_test_to_act():
    """BtQ L1646-1647: Maimed, the commander's Discipline test against a lone Card of Fate
    first; failed, the crew will not act and the skirmish is lost (the reading)."""
    source = ScriptedSource("9S  2H 3H")
    state, _ = ENGINE.start(ENGINE.validate_setup(_morale_setup("maimed")), source)
    state, events = ENGINE.apply(state, "pc:lt", "fight:npc:foe", source)
    gate = next(e for e in events if e.kind == "morale.gate")
    assert gate.data["passed"] is False
    outcome = ENGINE.outcome(state)
    assert outcome.result == "defeat" and outcome.data["ship_morale"]["to"] == "dead"


def test_ship_morale_dead_the_pcs_skirmish_alone():
    """A1: Dead Ship Morale, the crew will not fight: no morale test and no penalty."""
    state, _ = ENGINE.start(ENGINE.validate_setup(_morale_setup("dead")), SeededSource(2))
    state, events = ENGINE.apply(state, "pc:lt", "fight:npc:foe", SeededSource(2))
    assert "skirmish alone" in next(e for e in events if e.kind == "morale.gate").text


def test_weather_as_the_opponent_and_as_a_modifier():
    """BtQ L1699-1716: the weather's -4 on every pool; a test against the weather itself
    turns twice its modifier, without the modifier on the tester (§6.3)."""
    setup = {"pcs": [{"id": "pc:lt", "name": "Lt", "discipline": 1, "command": 6,
                      "weapons": ["sword"], "skills": {"seamanship": 5}}],
             "opposing_commander": {"name": "the storm", "command": 1},
             "weather": {"wind": "storm", "precipitation": "storm"}}
    source = ScriptedSource("2S  3S 4S 5S 6S 7S  8D 9D 10D JD QD KD AD 2D   "
                            "3C  4C 5C  6C")
    state, _ = ENGINE.start(ENGINE.validate_setup(setup), source)
    state, _ = ENGINE.apply(state, "pc:lt", "skill:seamanship", source)
    state, _ = ENGINE.apply(state, "gm", "weather", source)
    state, events = ENGINE.apply(state, "pc:lt", "go", source)
    test = next(e for e in events if e.kind == "action.draw")
    assert len(test.data["pools"]["a"]["cards"]) == 5 and len(test.data["pools"]["b"]
                                                              ["cards"]) == 8
    final = next(e for e in events if e.kind == "final.draw")
    assert final.data["pools"]["a"]["breakdown"]["weather"] == -4


def test_stalemate_when_both_final_pools_are_empty():
    """A8: both commanders at 0 cards (here 0 Command - 1 for the lost test, against 0):
    a stalemate, with no card turned for the final test."""
    setup = _morale_setup("healthy", with_crew=False)
    setup["pcs"][0]["command"] = 0
    setup["opposing_commander"]["command"] = 0
    source = ScriptedSource("7S  2H  7D 4D 5D")
    state, _ = ENGINE.start(ENGINE.validate_setup(setup), source)
    state, _ = ENGINE.apply(state, "pc:lt", "skill:riding", source)
    state, _ = ENGINE.apply(state, "gm", "static:3", source)
    state, events = ENGINE.apply(state, "pc:lt", "go", source)
    assert source.cards_left == 0
    assert ENGINE.outcome(state).result == "stalemate"
    assert ENGINE.outcome(state).data["ship_morale"]["to"] == "healthy"


def test_player_view_hides_npc_statistics():
    scenario = ENGINE.scenarios()["escape_the_french_patrol"]
    state, _ = ENGINE.start(ENGINE.validate_setup(scenario.setup), SeededSource(1))
    view = ENGINE.view(state, "pc:mate")
    assert view["opposing_commander"] == {"name": "the French lieutenant"}
    assert "weapons" not in view["opposition"][0]
    assert set(ENGINE.participants(state)) == {"pc:lieutenant", "pc:midshipman", "pc:mate",
                                               "pc:rating"}


def test_every_scenario_plays_to_an_outcome_with_default_choices():
    for scenario in ENGINE.scenarios().values():
        state, _ = ENGINE.start(ENGINE.validate_setup(scenario.setup), SeededSource(5))
        state, _ = play_out(ENGINE, state, SeededSource(5))
        assert ENGINE.outcome(state) is not None


@pytest.mark.parametrize("seed", range(12))
def test_random_seeds_always_end(seed):
    scenario = ENGINE.scenarios()["escape_the_french_patrol"]
    setup = dict(scenario.setup, with_crew=True,
                 ship_morale=["healthy", "injured", "maimed", "dead"][seed % 4],
                 weather={"wind": "strong", "precipitation": "none"})
    state, _ = ENGINE.start(ENGINE.validate_setup(setup), SeededSource(seed))
    state, _ = play_out(ENGINE, state, SeededSource(seed), max_steps=40)
    assert ENGINE.outcome(state).result in ("victory", "defeat", "stalemate")


@pytest.mark.parametrize("setting", ["retest", "stalemate"])
def test_setting_mutual_fail_final(setting):
    """A8's option: a final Command test both commanders fail (CoF 2D, no Diamond on either
    side) is turned again by default (D3, BtQ L1274-1276), and here the Lt wins the retest;
    under ``mutual_fail_final = "stalemate"`` it ends the skirmish in a stalemate at once,
    no card turned again and no Ship Morale lost."""
    fight = "7S  7H 2D 3D 4D  9C 2C 3C 4C   "
    failed = "2D  3H 4H 5H 6H  3C 4C   "
    retest = "AD  AH 3H 4H 5H  KC 2S" if setting == "retest" else ""
    source = ScriptedSource(fight + failed + retest)
    setup = _morale_setup("injured", settings={"mutual_fail_final": setting})
    state, _ = ENGINE.start(ENGINE.validate_setup(setup), source)
    state, _ = ENGINE.apply(state, "pc:lt", "fight:npc:foe", source)
    state, events = ENGINE.apply(state, "pc:lt", "sword", source)
    assert source.cards_left == 0
    draws = [e.data["card_of_fate"] for e in events if e.kind == "final.draw"]
    outcome = ENGINE.outcome(state)
    if setting == "retest":
        assert (draws, outcome.result) == (["2D", "AD"], "victory")
    else:
        assert (draws, outcome.result) == (["2D"], "stalemate")
    assert outcome.data["ship_morale"] == {"from": "injured", "to": "injured"}


def test_setting_skirmish_morale_loss_only_with_the_crew():
    """A8's option: under ``skirmish_morale_loss = "with_crew"`` a skirmish the PCs fought
    alone costs no Ship Morale; as written (the default) it does (TV-06)."""
    scenario = ENGINE.scenarios()["escape_the_french_patrol"]
    setup = dict(scenario.setup, settings={"skirmish_morale_loss": "with_crew"})
    source = ScriptedSource(scenario.cards)
    state, _ = ENGINE.start(ENGINE.validate_setup(setup), source)
    for choice in scenario.choices:
        state, _ = ENGINE.apply(state, choice["actor"], choice["choice"], source)
    outcome = ENGINE.outcome(state)
    assert outcome.result == "defeat"
    assert outcome.data["ship_morale"] == {"from": "healthy", "to": "healthy"}


def test_an_assisting_pc_adds_his_skill_and_makes_no_test_of_his_own():
    """BtQ L1280-1286 (D6, A7): the rating helps the Midshipman's Seamanship test with his
    own Seamanship 2; he has no action, no Discipline cards and no entry in the final test."""
    setup = {"pcs": [
        {"id": "pc:lt", "name": "Lt", "seniority": 3, "discipline": 2, "command": 2,
         "weapons": ["sword"]},
        {"id": "pc:mid", "name": "Mid", "seniority": 2, "discipline": 1, "weapons": ["sword"],
         "skills": {"seamanship": 3}},
        {"id": "pc:rating", "name": "Rating", "seniority": 1, "discipline": 1,
         "weapons": ["knife"], "skills": {"seamanship": 2}}],
        "opposing_commander": {"name": "the storm", "command": 1}}
    source = ScriptedSource(
        "9H  9S 2S  3S 4S 5S "            # the Lt's Command (2) against Routine
        "8C  8H 2H 3H 4H 5H 6H  2D 3D 4D "  # Mid's Seamanship: 3 + 1 card + 2 help
        "5D  6D 7D 8D 9D  QS")            # the final test, 2 + 2 against 1
    state, _ = ENGINE.start(ENGINE.validate_setup(setup), source)
    state, _ = ENGINE.apply(state, "pc:lt", "skill:command", source)
    state, _ = ENGINE.apply(state, "pc:lt", "skill:seamanship", source)
    assert "assist:pc:mid" in [o.key for o in ENGINE.pending(state)[0].options]
    state, _ = ENGINE.apply(state, "pc:lt", "assist:pc:mid", source)
    state, _ = ENGINE.apply(state, "gm", "static:3", source)
    state, _ = ENGINE.apply(state, "gm", "static:3", source)
    decision = ENGINE.pending(state)[0]
    assert decision.kind == "discipline.cards" and "Mid" in decision.prompt
    state, _ = ENGINE.apply(state, "pc:lt", "1", source)
    state, _ = ENGINE.apply(state, "pc:lt", "go", source)
    state, events = ENGINE.apply(state, "pc:mid", "go", source)
    assert source.cards_left == 0
    test = next(e for e in events if e.kind == "action.draw")
    assert test.data["pools"]["a"]["breakdown"] == {"Seamanship": 3, "Discipline cards": 1,
                                                    "help from Rating": 2}
    assert len(test.data["pools"]["a"]["cards"]) == 6
    assert set(state["results"]) == {"pc:lt", "pc:mid"}
    final = next(e for e in events if e.kind == "final.draw")
    assert final.data["pools"]["a"]["breakdown"] == {"Command": 2, "PCs who won": 2}
    assert ENGINE.outcome(state).result == "victory"


def _led_by(health):
    """Anne against Captain Jones (Command 1, ``health``), who leads the foes himself; the
    GM gives his second 3 cards, should he fall."""
    return {"pcs": [{"id": "pc:anne", "name": "Anne", "seniority": 1, "command": 2,
                     "weapons": ["sword"]}],
            "opposition": [{"id": "npc:jones", "name": "Captain Jones", "health": health,
                            "weapons": ["sword"]}],
            "opposing_commander": {"name": "Captain Jones", "command": 1, "id": "npc:jones",
                                   "second": 3}}


@pytest.mark.parametrize(("health", "name", "cards"), [
    ("healthy", "Captain Jones", 1), ("maimed", "Captain Jones's second", 3)])
def test_a_fallen_opposing_commander_hands_the_final_test_to_his_second(health, name, cards):
    """BtQ L1679-1686: the final test is against the opposing commander's Command (a pool
    the GM sets); one who is Maimed or Dead by then commands no more, and, as aboard a ship
    (BtQ L2526-2528), his second takes over: the GM's figure for him. The log says so,
    the GM's view gives the figure used and why; a player's view has neither figure."""
    state, _ = ENGINE.start(ENGINE.validate_setup(_led_by(health)), SeededSource(1))
    state, events = play_out(ENGINE, state, SeededSource(4), max_steps=50)
    final = next(e for e in events if e.kind == "final.draw")
    assert f"against {name}" in final.text
    assert sum(final.gm_data["pools"]["b"]["breakdown"].values()) == cards
    gm = ENGINE.view(state, "gm")["opposing_commander"]
    assert (gm["name"], gm["command"]) == (name, cards)
    assert ENGINE.view(state, "pc:anne")["opposing_commander"] == {"name": name}
    fallen = [e for e in events if e.kind == "final.commander"]
    assert bool(fallen) == (health == "maimed")
    if fallen:
        assert "commands no more" in fallen[0].text and "3" not in fallen[0].text
        assert fallen[0].gm_data == {"command": 3}


def test_the_opposing_commander_s_id_must_be_one_of_the_foes():
    setup = _led_by("healthy")
    setup["opposing_commander"]["id"] = "npc:nobody"
    with pytest.raises(ValueError, match="one of the foes"):
        ENGINE.validate_setup(setup)
