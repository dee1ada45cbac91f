"""A side's name agrees with its verbs in the wargames' logs: "The Pirates win", "The Royal
Navy wins" (rules/words.py; a tester found "The shore defenders moves" and "The Pirates
wins")."""

import re

import pytest

import rules.engines  # noqa: F401  (registers every engine)
from rules.engine import engines, play_out
from rules.random import SeededSource
from rules.words import agree, plural_flag

SINGULAR_VERBS = ("wins", "loses", "has", "draws", "plays", "goes", "rolls", "chooses",
                  "sets", "ends", "discards", "buys", "asks", "moves", "holds", "breaks")
PLURAL_VERBS = ("win", "lose", "have", "draw", "play", "go", "roll", "choose", "set", "end",
                "discard", "buy", "ask", "move", "hold", "break")
WARGAMES = [(name, scenario) for name in ("bvp", "viking", "brethren", "hfg")
            for scenario in sorted(engines()[name].scenarios())]


def test_agree_follows_the_plural_flag():
    pirates, navy = {"name": "The Pirates", "plural": True}, {"name": "The Royal Navy"}
    assert f"{pirates['name']} {agree(pirates, 'wins', 'win')}" == "The Pirates win"
    assert f"{navy['name']} {agree(navy, 'wins', 'win')}" == "The Royal Navy wins"


def test_plural_flag_is_true_or_false():
    assert plural_flag({}, "side a") is False
    assert plural_flag({"plural": True}, "side a") is True
    with pytest.raises(ValueError, match="side a: plural is true or false"):
        plural_flag({"plural": "yes"}, "side a")


@pytest.mark.parametrize(("engine_name", "scenario"), WARGAMES)
def test_every_side_agrees_with_its_verbs(engine_name, scenario):
    """Each scenario played to its end (two seeds): no plural side's name is followed by a
    singular verb, no singular side's by a plural verb."""
    engine = engines()[engine_name]
    setup = engine.validate_setup(engine.scenarios()[scenario].setup)
    sides = setup["sides"]
    texts = []
    for seed in range(2):
        source = SeededSource(seed)
        state, events = engine.start(setup, source)
        state, more = play_out(engine, state, source, max_steps=3000)
        texts += [e.text for e in events + more]
        outcome = engine.outcome(state)
        texts += [outcome.summary] if outcome else []
    text = "\n".join(texts)
    for side in sides:
        name = re.escape(side["name"])
        wrong = PLURAL_VERBS if not side.get("plural") else SINGULAR_VERBS
        found = re.findall(rf"{name} ({'|'.join(wrong)})\b", text)
        assert not found, f"{side['name']} {found[0]}"


def test_the_plural_scenario_sides_say_so():
    """The book scenarios' plural side names carry the flag ("The Pirates win")."""
    for engine_name, scenario in WARGAMES:
        for side in engines()[engine_name].scenarios()[scenario].setup["sides"]:
            plural = side["name"].endswith(("s", "men", "British"))
            assert side.get("plural", False) is plural, (scenario, side["name"])
