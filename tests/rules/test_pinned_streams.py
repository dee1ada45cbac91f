"""Seeded games draw and play exactly as they did before the kernel's hot path was made
faster (issue 11: "results do not change"; a stored battle is replayed from its seed, so a
change in a single draw would make its replay false).

Each registered engine's scenarios are played from their setups with the default choices
for a few seeds, and the Hermes-vs-Corsair battle and the card test are also played the way
the Monte Carlo plays them (an engine's ``auto_start``/``auto_play`` where it has them, no
events) and summed by
:func:`rules.montecarlo.run`. What they give (every draw, every event, the final state, the
outcome, the summary) is hashed and compared with the hashes the kernel of ``main`` at
2d708fb gave (:data:`PINNED`). A rule change that changes a battle on purpose changes
these hashes too: print the new ones with ``python -m tests.rules.test_pinned_streams`` and
say in the commit why the games changed.
"""

import hashlib
import json
import sys

import pytest

import rules.engines  # noqa: F401  (registers every engine)
from rules.engine import engines, play_out
from rules.montecarlo import _play, _start, job_seeds, run
from rules.random import SeededSource

SEEDS = range(3)
MONTE_CARLO = (("btq_naval", "hermes_vs_corsair", 300), ("btq_test", "otoole_vs_jones", 300))
"""``(engine, scenario, games)`` played the Monte Carlo's way."""


def _digest(value) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


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
        games.append({"draws": [d.as_dict() for d in source.log], "state": state,
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
        finals.append(_play(engine, _start(engine, setup, source), source))
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
    "brethren/beware_the_kraken": "62ac02f7d2da1ca4",
    "brethren/damn_the_torpedoes": "3009f66b600a3dcf",
    "brethren/first_broadside": "8d5cbe4d81c5f22f",
    "brethren/fleet_action": "eeecd53a8d1a2b38",
    "brethren/movin_on_up": "72462b0882828129",
    "brethren/sea_wolves": "592e3e08655583b3",
    "brethren/smugglers_blues": "d7096178cad4c556",
    "brethren/treasure_hunt": "3fc42bcdb5184e77",
    "btq_boarding/condor_boards_london": "b726e321914d5cd8",
    "btq_creation/otoole": "89d8ed914740ee0a",
    "btq_naval/condor_boards_london": "859fc4edfe1a8e20",
    "btq_naval/hermes_vs_corsair": "553ac6c1216a4160",
    "btq_naval/london_condor_and_vulture": "b86862b1f3011a4c",
    "btq_naval/london_fights_fire": "e4c9afd7e2550e0b",
    "btq_naval/london_on_fire": "859fc4edfe1a8e20",
    "btq_naval/london_vs_condor": "7ec58da5a42f0fc6",
    "btq_naval/london_vs_vulture": "2a38acdd199d8851",
    "btq_personal_combat/brawl_cannot_kill": "b44bf33c3d729472",
    "btq_personal_combat/coup_de_grace": "abcc6b471d428764",
    "btq_personal_combat/foe_busy_elsewhere": "e9a448ef61039be5",
    "btq_personal_combat/pistols_at_21_feet": "b2a247b5578fb9b0",
    "btq_personal_combat/simultaneous_wounds": "e0252ab67dba5410",
    "btq_ship_creation/hermes": "a6b9b9dfa7d22b54",
    "btq_skirmish/discipline_caps": "e24d01f66a91b42b",
    "btq_skirmish/escape_the_french_patrol": "b82bc2f4acf19436",
    "btq_test/edwards_rallies_the_crew": "6aec08a24a1533c6",
    "btq_test/lonsdale_buys_a_dress_uniform": "df36a9d943a0859c",
    "btq_test/otoole_before_the_admiral": "a339afdee975eb6b",
    "btq_test/otoole_crawls_into_the_trees": "614427dc28e14a4c",
    "btq_test/otoole_hides_in_the_trees": "c1a11c1d38f51f6f",
    "btq_test/otoole_in_the_storm": "ced0beafbf347a1a",
    "btq_test/otoole_through_the_streets": "916c2409f9d6ca3f",
    "btq_test/otoole_vs_jones": "938b5248dc4f3376",
    "btq_test/otoole_vs_jones_as_printed": "938b5248dc4f3376",
    "auto:btq_naval/hermes_vs_corsair": "96059320b7828b0d",
    "auto:btq_test/otoole_vs_jones": "694b4d1a1a89c577",
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
