"""TV-N14: every sample ship of "Friends and Foes" and of the book's examples recomputed from
the roster and her traits and compared with the printed figures (``rules/btq_naval.md``
§5.1, N26; BtQ L2313-2316, L2533-2536, L2831-3142): the differences are the book's errors
the digest flags, and nothing else."""

import pytest

from rules.btq.ships import sample_ships
from rules.engine import get_engine
from rules.random import SeededSource

BOOK_ERRORS = {
    "Intrepid": {"handling": (3, 0)},                  # a second "Speed: 3" printed
    "Minerve": {"guns": ((4, 4, 5), (4, 4, 4))},       # Guns 4/4/5 without Carronades
    "San Augustin": {},
    "Peregrina": {},
    "President": {"crew": ((4, 4, 4), (5, 5, 5)),      # Jolly Tars not in her Crew
                  "rigging": ((5, 5, 5), (4, 4, 4)),   # no Sturdy Rigging
                  "traits": (4, 2)},                   # four traits on a Fifth Rate
    "The Falcon": {},
    "The Golden Ibis": {},
    "Corsair": {},
    "HMS Hermes": {},
    "HMS Phoebe": {"handling": (1, 2)},                # TV-N01: +1 printed, +2 the roster
}


@pytest.mark.parametrize("name", list(BOOK_ERRORS))
def test_tv_n14_sample_ship(name):
    ship = sample_ships()[name]
    assert ship.differences() == BOOK_ERRORS[name]
    # Every departure from the print is explained, and only those.
    assert set(ship.book_errors) == set(BOOK_ERRORS[name])


def test_tv_n14_the_samples_are_the_digests_ten():
    assert list(sample_ships()) == list(BOOK_ERRORS)
    stats = {name: ship.stats() for name, ship in sample_ships().items()}
    # The Falcon (Barbary Brigantine) and Golden Ibis (Xebec) are no roster types: a Brig
    # Sloop's tracks with their own Speed and Handling (BtQ L3092-3142).
    assert (stats["The Falcon"].speed, stats["The Falcon"].handling) == (5, 5)
    assert stats["The Golden Ibis"].boxes["crew"] == (3, 3, 3)
    assert stats["HMS Hermes"].speed == 4                # Expertly Coppered: 3 + 1
    assert stats["Intrepid"].boxes["hull"] == (7, 7, 7)


def test_every_sample_ship_fights_in_the_engine():
    engine = get_engine("btq_naval")
    samples = list(sample_ships().values())
    for i, ship in enumerate(samples):
        foe = samples[(i + 1) % len(samples)]
        setup = {"weather": "good_wind", "start_distance": 3, "ships": [
            {"id": "a", "name": ship.display_name, "side": "pc", "type": ship.type,
             "traits": list(ship.traits), "overrides": ship.overrides, "crew": ship.crew},
            {"id": "b", "name": foe.display_name, "side": "enemy", "type": foe.type,
             "traits": list(foe.traits), "overrides": foe.overrides, "crew": foe.crew}]}
        state, _ = engine.start(setup, SeededSource(i))
        assert engine.outcome(engine.auto_play(state, SeededSource(i))) is not None
