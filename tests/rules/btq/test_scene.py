"""The Captain's table as the book plays it (BtQ L1872-1898): one contested test of all who
take part, one winner, the Favour or the Ire, and a reputation used and lost damaged
(``missions TV-14``; DECISIONS D1)."""

import pytest

from rules.btq.scene import SceneEngine, validate_setup
from rules.random import ScriptedSource

ENGINE = SceneEngine()


def table(johnson_state=0, **changes):
    """TV-14: Morgan sponsors Seamanship (5), the Captain joins (6), Johnson tests Seamanship
    2 with his Personal reputation Cuthbert Collingwood +4 (6 cards); Lt Stone abstains."""
    return {"scene": "captains_table", "skill": "seamanship",
            "topic": "handling the ship in a violent storm", "settings": {},
            "participants": [
                {"who": "pc:morgan", "name": "Morgan", "deck": "player", "cards": 5,
                 "breakdown": {"seamanship": 5}},
                {"who": "npc:captain", "name": "The Captain", "deck": "gm", "cards": 6,
                 "breakdown": {"seamanship": 6}},
                {"who": "pc:johnson", "name": "Johnson", "deck": "player", "cards": 6,
                 "breakdown": {"seamanship": 2, "reputation": 4},
                 "reputation": {"id": "7", "name": "Cuthbert Collingwood",
                                "state": johnson_state}}],
            **changes}


MORGAN = "2C 3C 4D 5S 9H"          # one Ordinary (the 9H)
CAPTAIN = "7D 2H 3S 4S 5C 6C"      # a Critical and an Ordinary
JOHNSON_WINS = "7C 7S 2D 3D 4C 5C"  # two Criticals
JOHNSON_LOSES = "2D 3D 4C 5C 6D 8S"  # nothing


def test_missions_tv14_johnson_wins_the_captains_favour():
    state, events = ENGINE.start(table(), ScriptedSource(f"7H {MORGAN} {CAPTAIN} "
                                                         f"{JOHNSON_WINS}"))
    outcome = ENGINE.outcome(state)
    assert (outcome.winner, outcome.result) == ("pc", "favour")
    assert outcome.data["winner"] == "pc:johnson"
    assert "Johnson wins: he holds the Captain's Favour." == outcome.summary
    # Morgan and the Captain used no reputation: no damage; the winner's is safe
    assert outcome.data["damage"] == []
    assert state["rounds"][0]["successes"] == {"pc:morgan": [0, 0, 1],
                                               "npc:captain": [0, 1, 1],
                                               "pc:johnson": [0, 2, 0]}
    assert [e.kind for e in events] == ["scene.start", "scene.round", "scene.result"]
    assert ENGINE.pending(state) == []


def test_the_captain_winning_earns_the_ire_and_injures_the_reputation_used():
    state, _ = ENGINE.start(table(), ScriptedSource(f"7H {MORGAN} {CAPTAIN} {JOHNSON_LOSES}"))
    outcome = ENGINE.outcome(state)
    assert (outcome.winner, outcome.result) == ("gm", "ire")
    assert outcome.data["damage"] == [{"who": "pc:johnson", "id": "7",
                                       "name": "Cuthbert Collingwood", "before": 0,
                                       "after": 1}]
    # the severity reading: as the winner's best success (the Captain's Critical: Maimed)
    state, _ = ENGINE.start(table(settings={"reputation_loss_mode": "severity"}),
                            ScriptedSource(f"7H {MORGAN} {CAPTAIN} {JOHNSON_LOSES}"))
    assert ENGINE.outcome(state).data["damage"][0]["after"] == 2


def test_a_tie_at_the_top_is_turned_again_until_one_wins():
    first = "7H  7C 2C 3C 4D 5S  7D 2S 3S 4S 5C 6C  7S 2D 3D 4C 5C 6D"  # a Critical 7 each
    second = f"7H {MORGAN} {CAPTAIN} {JOHNSON_WINS}"
    state, events = ENGINE.start(table(), ScriptedSource(f"{first} {second}"))
    assert len(state["rounds"]) == 2 and state["winner"] == "pc:johnson"
    assert "everyone turns again" in events[1].text


def test_setting_retest_fate_at_the_captains_table():
    """A6: under ``retest_fate = "same"`` everyone turns again against the first Card of
    Fate, which stays out of the GM deck."""
    first = "7H  7C 2C 3C 4D 5S  7D 2S 3S 4S 5C 6C  7S 2D 3D 4C 5C 6D"  # a Critical 7 each
    source = ScriptedSource(f"{first} {MORGAN} {CAPTAIN} {JOHNSON_WINS}")
    state, _ = ENGINE.start(table(settings={"retest_fate": "same"}), source)
    assert [r["fate"] for r in state["rounds"]] == ["7H", "7H"]
    assert state["winner"] == "pc:johnson"
    assert [d.purpose for d in source.log].count("card of fate, retest 1") == 0


@pytest.mark.parametrize("change, reason", [
    ({"participants": []}, "at least two"),
    ({"scene": "ball"}, "scene must be"),
    ({"skill": "dancing"}, "unknown skill"),
])
def test_bad_setups_are_refused_with_the_reason(change, reason):
    with pytest.raises(ValueError, match=reason):
        validate_setup(table(**change))


def test_a_pc_must_take_part_and_the_gun_deck_has_no_captains_exception():
    npcs = table()
    npcs["participants"] = [p for p in npcs["participants"] if p["deck"] == "gm"] * 2
    with pytest.raises(ValueError):
        validate_setup(npcs)
    deck = table(scene="gun_deck")
    deck["participants"][1]["skill"] = "gambling"
    with pytest.raises(ValueError, match="everyone tests"):
        validate_setup(deck)


def test_missions_tv14_as_the_engines_scenario():
    from rules.engine import play_scenario

    scenario = ENGINE.scenarios()["johnson_wins_the_captains_favour"]
    state, _ = play_scenario(ENGINE, scenario, ScriptedSource(scenario.cards))
    assert ENGINE.outcome(state).data["winner"] == "pc:johnson"
