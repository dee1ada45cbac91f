"""Seeded games draw and play exactly as they did before the kernel's hot path was made
faster (issue 11: "results do not change"; a stored battle is replayed from its seed, so a
change in a single draw would make its replay false).

Each registered engine's scenarios are played from their setups with the default choices
for a few seeds, and the Hermes-vs-Corsair battle and the card test are also played the way
the Monte Carlo plays them (an engine's ``auto_starter``/``auto_play`` where it has them, no
events) and summed by
:func:`rules.montecarlo.run`. What they give (every draw, every event, the final state, the
outcome, the summary; the state without the settings it carries) is hashed and compared
with the hashes the kernel of ``main`` at 2d708fb gave, and the engines added since as they
first played (:data:`PINNED`). A rule change that changes a battle on purpose changes these
hashes too: print the new ones with ``python -m tests.rules.test_pinned_streams`` and
say in the commit why the games changed.
"""

import hashlib
import json
import sys

import pytest

import rules.engines  # noqa: F401  (registers every engine)
from rules.engine import engines, play_out
from rules.montecarlo import _play, _starter, job_seeds, run
from rules.random import SeededSource

SEEDS = range(3)
MONTE_CARLO = (("btq_naval", "hermes_vs_corsair", 300), ("btq_test", "otoole_vs_jones", 300))
"""``(engine, scenario, games)`` played the Monte Carlo's way."""


def _digest(value) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _rules_free(state: dict) -> dict:
    """``state`` without the campaign's settings it carries (``settings``, or its setup's):
    every setting's value is there, so a new setting (its default changing nothing) would
    change the hash of every game though none plays differently; what a setting changes
    shows in the draws and events."""
    state = {k: v for k, v in state.items() if k != "settings"}
    if isinstance(state.get("setup"), dict):
        state["setup"] = {k: v for k, v in state["setup"].items() if k != "settings"}
    return state


def played(engine_name: str, scenario: str) -> str:
    """The hash of every seed of :data:`SEEDS` of ``scenario`` played to its end with the
    default choices: the draws, events, final state and outcome."""
    engine = engines()[engine_name]
    setup = engine.scenarios()[scenario].setup
    games = []
    for seed in SEEDS:
        source = SeededSource(seed)
        state, events = engine.start(engine.validate_setup(setup), source)
        state, more = play_out(engine, state, source, max_steps=3000)
        outcome = engine.outcome(state)
        games.append({"draws": [d.as_dict() for d in source.log], "state": _rules_free(state),
                      "events": [e.as_dict() for e in events + more],
                      "outcome": outcome.as_dict() if outcome else None})
    return _digest(games)


def auto_played(engine_name: str, scenario: str, games: int) -> str:
    """The hash of ``games`` games of ``scenario`` played as the Monte Carlo plays them:
    each final state, and the summary of a job's seeds."""
    engine = engines()[engine_name]
    setup = engine.scenarios()[scenario].setup
    finals = []
    for seed in range(games):
        source = SeededSource(seed, record=False)
        finals.append(_rules_free(_play(engine, _starter(engine, setup)(source), source)))
    summary = run(engine, setup, seeds=job_seeds(11, 0, games)).as_dict()
    return _digest({"finals": finals, "summary": summary})


def fingerprints() -> dict[str, str]:
    """What :data:`PINNED` holds, worked out from the kernel as it is now."""
    found = {f"{name}/{key}": played(name, key)
             for name, engine in sorted(engines().items()) for key in engine.scenarios()}
    for name, key, games in MONTE_CARLO:
        found[f"auto:{name}/{key}"] = auto_played(name, key, games)
    return found


PINNED = {
    "auto:btq_naval/hermes_vs_corsair": "64f5d99c2c9b4507",
    "auto:btq_test/otoole_vs_jones": "ccbc61a58f841426",
    "brethren/beware_the_kraken": "207fa4c330bfc369",
    "brethren/damn_the_torpedoes": "b4841a335e1c3240",
    "brethren/first_broadside": "769fc98d357e81ff",
    "brethren/fleet_action": "f5abc41744a7cea3",
    "brethren/movin_on_up": "33ad7e9a29cd467a",
    "brethren/sea_wolves": "de2ddfad0593d93e",
    "brethren/smugglers_blues": "13cd79257892079b",
    "brethren/treasure_hunt": "d05bb03a1bf9ef70",
    "btq_boarding/condor_boards_london": "24f737c63ee9692b",
    "btq_creation/otoole": "5ecd137e1215e919",
    "btq_naval/condor_boards_london": "e3a0e70decd6b1bc",
    "btq_naval/hermes_vs_corsair": "66b96ec20c2d1b46",
    "btq_naval/london_condor_and_vulture": "016f10fb74aed2a7",
    "btq_naval/london_fights_fire": "0b5ddb91f9972fd4",
    "btq_naval/london_on_fire": "e3a0e70decd6b1bc",
    "btq_naval/london_vs_condor": "af4c5a515a8efe44",
    "btq_naval/london_vs_vulture": "1f0845193891368e",
    "btq_personal_combat/brawl_cannot_kill": "0691248461ea3f95",
    "btq_personal_combat/coup_de_grace": "91739f251e71ffc1",
    "btq_personal_combat/foe_busy_elsewhere": "f24292546038fc10",
    "btq_personal_combat/pistols_at_21_feet": "68bac6608233e59f",
    "btq_personal_combat/simultaneous_wounds": "bcc700d8674d85a5",
    "btq_scar/delirium": "2b09b02743f5da6a",
    "btq_scar/infection": "809bb7619bd3a080",
    "btq_scene/johnson_wins_the_captains_favour": "d7ce50b8769b591b",
    "btq_ship_creation/hermes": "b662cfd6a07d9368",
    "btq_skirmish/discipline_caps": "622814f6d3f7a5e8",
    "btq_skirmish/escape_the_french_patrol": "f9798d96aee785d5",
    "btq_test/edwards_rallies_the_crew": "e81e6f43dd7933a7",
    "btq_test/lonsdale_buys_a_dress_uniform": "3e259b99e0b87cc6",
    "btq_test/otoole_before_the_admiral": "521d95e08e695072",
    "btq_test/otoole_crawls_into_the_trees": "bd14ef30952cc65b",
    "btq_test/otoole_hides_in_the_trees": "d61d9b6984345cf6",
    "btq_test/otoole_in_the_storm": "ca81c48eedc399e0",
    "btq_test/otoole_through_the_streets": "a3f8b0ace480caeb",
    "btq_test/otoole_vs_jones": "f02445cafdd8c593",
    "btq_test/otoole_vs_jones_as_printed": "f02445cafdd8c593",
    "bvp/annihilation_duel": "bde17170b53ef2c7",
    "bvp/first_broadside": "7759fb2ad8ae80a9",
    "bvp/medium_battle": "7b090bea323561cc",
    "bvp/merchant_escort": "bfb2616abd32155b",
    "bvp/three_factions_escort": "fd496323ccbbbdf5",
    "hfg/first_manassas": "5f65978165be4516",
    "hfg/landing_party": "e19593e4460e01da",
    "viking/fleet_battle": "22e97ec78f674a23",
    "viking/merchant_taken": "af90f537d907879d",
    "viking/single_combat": "ad46a0025f65d18e",
}
"""The hashes ``main`` at 2d708fb gave, before the hot path was changed."""


@pytest.mark.parametrize("name, scenario", [
    (name, key) for name, engine in sorted(engines().items()) for key in engine.scenarios()])
def test_a_seeded_game_plays_as_it_did(name, scenario):
    assert played(name, scenario) == PINNED[f"{name}/{scenario}"]


@pytest.mark.parametrize("name, scenario, games", MONTE_CARLO)
def test_the_monte_carlo_plays_as_it_did(name, scenario, games):
    assert auto_played(name, scenario, games) == PINNED[f"auto:{name}/{scenario}"]


if __name__ == "__main__":
    json.dump(fingerprints(), sys.stdout, indent=4)
    print()
