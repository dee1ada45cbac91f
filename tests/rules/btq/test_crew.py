"""A ship's origin and NPC crew drawn as ship creation describes (``rules/btq_characters.md``
§2 Step 4.2 and 4.6, its TV-03: the Hermes, BtQ L756-766)."""

import pytest

from rules.btq.crew import (
    DISPOSITIONS,
    ESSENTIAL,
    competence,
    crew_skills,
    draw_crew,
    draw_origin,
)
from rules.cards import parse_card
from rules.engine import get_engine
from rules.random import ScriptedSource, SeededSource


def test_characters_tv_03_the_hermes_origin_and_crew():
    source = ScriptedSource("5C  3C KH 8D 7C JD 3S")
    assert draw_origin(source)[1].startswith("a captured French or Spanish prize")
    crew = draw_crew(source, ["purser", "marine", "gunner", "boatswain", "rating", "rating"])
    assert [(m.card, m.key, m.other) for m in crew] == [
        ("3C", 4, 2), ("KH", 2, 1), ("8D", 4, 2), ("7C", 4, 2), ("JD", 2, 1), ("3S", 4, 2)]
    assert [m.disposition for m in crew] == [DISPOSITIONS[s] for s in "CHDCDS"]
    assert crew[1].competence == "Incompetent" and crew[0].competence == "Moderate"
    assert [d.purpose for d in source.log] == ["ship origin", "crew purser", "crew marine",
                                              "crew gunner", "crew boatswain", "crew rating",
                                              "crew rating"]


def test_an_ace_is_exceptional_and_other_skills_are_key_less_two():
    assert competence(parse_card("AS")) == ("Exceptional", 6)
    assert competence(parse_card("10H")) == ("Moderate", 4)
    [gunner] = draw_crew(ScriptedSource("AD"), ["gunner"])
    assert (gunner.skill("gunnery"), gunner.skill("seamanship")) == (6, 4)


def test_the_crew_block_is_the_best_of_the_crew_and_sails_a_ship():
    crew = draw_crew(ScriptedSource("2C 3C 4C 5C AC 6C 7C KC 8C 9C 10C JC"), ESSENTIAL)
    # The Sailing Master's Ace: Maritime and Seamanship 6; the Surgeon's 7C: First Aid 4;
    # the Marine's KC: Incompetent, but the Lieutenants' Command is 4.
    assert crew_skills(crew) == {"awareness": 4, "command": 4, "first_aid": 4, "gunnery": 4,
                                 "maritime": 6, "seamanship": 6}
    assert crew_skills([]) == dict.fromkeys(crew_skills(crew), 0)
    setup = {"weather": "good_wind", "start_distance": 3, "ships": [
        {"id": "a", "side": "pc", "type": "Brig Sloop", "crew": crew_skills(crew)},
        {"id": "b", "side": "enemy", "type": "Cutter",
         "crew": crew_skills(draw_crew(SeededSource(1)))}]}
    engine = get_engine("btq_naval")
    assert engine.outcome(engine.auto_play(engine.start(setup, SeededSource(2))[0],
                                           SeededSource(3))) is not None


def test_an_unknown_position_is_refused():
    with pytest.raises(ValueError, match="unknown crew position 'cook'"):
        draw_crew(SeededSource(1), ["cook"])


def test_pcs_at_their_stations_draw_from_their_own_decks_and_the_crews_from_the_gms():
    # TV-N07's round 1 (BtQ L2541-2567): O'Toole in command turns the Hermes' Awareness and
    # Positioning from his deck, each PC his How Will You Fight? from his, Bosworth at the
    # guns her Broadside! from his; the Corsair's crew, every opposition and every Card of
    # Fate come from the GM's.
    from tests.rules.btq.test_naval import hermes_round_one

    log = hermes_round_one().source.log
    decks = [(d.purpose.split()[0], d.source) for d in log
             if not d.purpose.endswith("card of fate")]
    assert decks == [
        ("awareness", "pc:otoole"), ("awareness", "gm"),
        ("positioning", "pc:otoole"), ("positioning", "gm"),
        ("fight", "pc:otoole"), ("fight", "gm"), ("fight", "pc:bosworth"), ("fight", "gm"),
        ("fight", "pc:smith"), ("fight", "gm"),
        ("broadside", "pc:bosworth"), ("broadside", "gm")]
    assert {d.source for d in log if d.purpose.endswith("card of fate")} == {"gm"}
