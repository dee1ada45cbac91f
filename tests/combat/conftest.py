"""The book's example battle as test data: HMS Hermes against the Corsair (BtQ L2533-2603;
``rules/btq_naval.md`` TV-N06..N09), built through the services of the campaign, character
and ship apps, in the shared test campaign (``tests/conftest.py``).

* ``hermes``: the players' ship HMS Hermes (22), a Brig Sloop with Expertly Coppered Hull,
  with Master O'Toole (player_a: Seamanship 5, Discipline 3, in command), Gunner Bosworth
  (player_b: Gunnery 4) and Midshipman Smith (the GM's test PC: Maritime 3); every other skill
  of theirs is 2 (TV-N06);
* ``corsair``: the Corsair, a Cutter with Heart of Oak; Awareness 2, Seamanship 3,
  Gunnery 3 (L2534-2535);
* ``sparrow`` and ``vautour``: a second ship of each side, for battles of several ships a
  side (an allied cutter with Player B's Lieutenant aboard; a Sixth Rate with GM-only
  notes).
"""

import pytest

from rules.btq.characters import SKILLS

BOOK_PC_SKILLS = {"otoole": {"seamanship": 5}, "bosworth": {"gunnery": 4},
                  "smith": {"maritime": 3}}


def _skills(own: dict) -> dict:
    return {key: own.get(key, 2) for key in SKILLS}


@pytest.fixture
def hermes(campaign, gm, player_a, player_b):
    from characters.services import character_create
    from ships.models import Ship, ShipType
    from ships.services import posting_set, ship_create

    ship = ship_create(
        campaign=campaign, actor=gm, name="HMS Hermes", guns=22, side=Ship.Side.PC,
        ship_type=ShipType.objects.get(name="Brig Sloop"), traits=["Expertly Coppered Hull"],
    )
    crew = [
        (player_a, "Gregory O'Toole", "Master", 5, 3, "otoole", "master"),
        (player_b, "Bosworth", "Gunner", 4, 1, "bosworth", "gunner"),
        (player_a, "Smith", "Midshipman", 3, 2, "smith", "midshipman"),
    ]
    for owner, name, rank, seniority, discipline, key, station in crew:
        pc = character_create(
            campaign=campaign, actor=gm, owner=owner, name=name, rank=rank,
            seniority=seniority + 10, discipline=discipline, skills=_skills(BOOK_PC_SKILLS[key]),
        )
        posting_set(ship=ship, character=pc, station=station, actor=gm)
    return ship


@pytest.fixture
def corsair(campaign, gm):
    from ships.models import Ship, ShipType
    from ships.services import ship_create

    return ship_create(
        campaign=campaign, actor=gm, name="Corsair", guns=None, side=Ship.Side.ENEMY,
        ship_type=ShipType.objects.get(name="Cutter"), traits=["Heart of Oak"],
        crew={"awareness": 2, "seamanship": 3, "gunnery": 3, "command": 3},
        gm_notes="smugglers",
    )


ROUND_1 = ["3", "1", "2", "1", "seamanship", "contested:seamanship", "gunnery", "static:3",
           "first_aid", "static:3", "roundshot", "roundshot", "continue", "continue"]
"""The choices of the book's battle up to the end of round 1, in the order the engine asks
for them (TV-N06, TV-N07): the Hermes picks Distance 3; O'Toole gives Bosworth 1 Discipline
card and Smith 2; the Hermes closes to Distance 1; How Will You Fight? (O'Toole against the
Corsair's Seamanship, Bosworth and Smith against Routine); both load roundshot; both
continue."""
ROUNDS_2_3 = ["hull:pc:{smith}", "hull:crew", "2", "continue", "continue", "guns:crew", "1",
              "seamanship", "contested:seamanship", "gunnery", "static:3", "first_aid",
              "static:3", "roundshot", "KD"]
"""The rest of the book's battle (TV-N08, TV-N09); ``{smith}`` is Smith's character pk."""


@pytest.fixture
def book_battle(campaign, gm, hermes, corsair):
    """The book's battle, created and begun by the GM with the book's cards stacked, in Good
    Wind, the starting distance left to the Awareness test."""
    from combat.forms import book_cards
    from combat.services import encounter_create, encounter_start
    from ships.services import naval_setup

    encounter = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Hermes vs Corsair",
        setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind"),
        stacked_cards=book_cards(), ships=[hermes, corsair],
    )
    return encounter_start(encounter=encounter, user=gm, expected_version=encounter.version)


@pytest.fixture
def smith(campaign):
    return campaign.characters.get(name="Smith")


@pytest.fixture
def play(gm):
    """``play(encounter, choices, user=gm)``: make the pending decisions one after another
    with ``choices`` through ``encounter_act``, as ``user``; returns the encounter."""
    from combat.services import encounter_act
    from rules.engine import get_engine

    def run(encounter, choices, user=gm):
        engine = get_engine(encounter.engine)
        for choice in choices:
            encounter.refresh_from_db()
            decision = engine.pending(encounter.state)[0]
            encounter_act(encounter=encounter, user=user, actor=decision.actor,
                          decision_kind=decision.kind, choice=choice,
                          expected_version=encounter.version)
        encounter.refresh_from_db()
        return encounter

    return run


def resolve_to_the_end(encounter, user):
    """The rest of ``encounter`` resolved by a ``resolve_rest`` job, slice after slice, as
    the workers would take it on; returns the job. (A test's transaction never commits, so
    a slice's hand-off sends no message for the next: each is run here, however many the
    machine's speed needs.)"""
    from combat.models import Job
    from combat.services import encounter_resolve_rest, job_run

    job = encounter_resolve_rest(encounter=encounter, user=user)
    while job.status in Job.OPEN and job_run(job_id=job.pk) is not None:
        job.refresh_from_db()
    return job


@pytest.fixture
def sparrow(campaign, gm, player_b):
    """An allied cutter of the players' side, commanded by Player B's Lieutenant Cutter."""
    from characters.services import character_create
    from ships.models import Ship, ShipType
    from ships.services import posting_set, ship_create

    ship = ship_create(campaign=campaign, actor=gm, name="HMS Sparrow", guns=10,
                       side=Ship.Side.PC, ship_type=ShipType.objects.get(name="Cutter"),
                       traits=["Weatherly"])
    carl = character_create(campaign=campaign, actor=gm, owner=player_b, name="Carl Cutter",
                            rank="Lieutenant", seniority=3, discipline=2,
                            skills={"seamanship": 3, "gunnery": 3, "maritime": 2})
    posting_set(ship=ship, character=carl, station="captain", actor=gm)
    return ship


@pytest.fixture
def vautour(campaign, gm):
    """A second enemy, a Sixth Rate, with GM-only notes."""
    from ships.models import Ship, ShipType
    from ships.services import ship_create, ship_reveal

    ship = ship_create(campaign=campaign, actor=gm, name="Le Vautour", guns=24,
                       side=Ship.Side.ENEMY, ship_type=ShipType.objects.get(name="Sixth Rate"),
                       traits=["Carronades", "Weight of Lead"],
                       crew={"awareness": 3, "command": 4, "first_aid": 2, "gunnery": 5,
                             "maritime": 3, "seamanship": 4}, gm_notes="vautour-secret")
    ship_reveal(ship=ship, actor=gm)
    return ship
