"""The demo campaign of ``make run`` (issue 2 item 9): every number is the book's example
of ship-to-ship combat, HMS Hermes against the Corsair (BtQ L2533-2543;
rules/btq_naval.md TV-N06)."""

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from campaigns.models import Campaign, CampaignLogEntry
from characters.models import Character
from combat.demo import DEMO_CAMPAIGN, DEMO_PASSWORD
from rules.btq.characters import SKILLS
from ships.models import Ship, ShipPosting
from ships.services import naval_setup, ship_stats_of


@pytest.fixture
def demo(db):
    call_command("load_demo")
    return Campaign.objects.get(name=DEMO_CAMPAIGN)


def test_the_demo_users_log_in_with_the_demo_password(demo):
    for username in ("gm", "otoole", "bosworth", "smith"):
        assert authenticate(username=username, password=DEMO_PASSWORD) is not None


def test_roles(demo):
    roles = {m.user.username: m.role for m in demo.memberships.select_related("user")}
    assert roles == {"gm": "gm", "otoole": "player", "bosworth": "player", "smith": "player"}


def test_the_hermes(demo):
    hermes = demo.ships.get(side="pc")
    assert hermes.display_name == "HMS Hermes (22)"
    assert hermes.ship_type.name == "Brig Sloop"
    assert [t.name for t in hermes.traits.all()] == ["Expertly Coppered Hull"]
    stats = ship_stats_of(hermes)  # Broadside +1, Speed 4, Handling +3 (BtQ L2535-2536)
    assert (stats.broadside, stats.speed, stats.handling) == (1, 4, 3)
    assert hermes.tracks == {area: "..|..|.." for area in ("hull", "guns", "crew", "rigging")}
    assert hermes.morale_state == 0


def test_the_corsair(demo):
    corsair = demo.ships.get(side="enemy")
    assert corsair.name == "Corsair" and corsair.ship_type.name == "Cutter"
    assert [t.name for t in corsair.traits.all()] == ["Heart of Oak"]
    stats = ship_stats_of(corsair)  # Broadside +0, Speed 4, Handling +4 (BtQ L2534-2535)
    assert (stats.broadside, stats.speed, stats.handling) == (0, 4, 4)
    assert corsair.tracks == {"hull": "..|..|..", "guns": ".|.|.", "crew": ".|.|.",
                              "rigging": ".|.|."}
    # Awareness 2, Seamanship 3, Gunnery 3 (BtQ L2535); the rest key - 2, at least 1 (L680).
    assert corsair.crew == {"awareness": 2, "seamanship": 3, "gunnery": 3, "command": 1,
                            "first_aid": 1, "maritime": 1}


def test_the_pcs(demo):
    pcs = {c.owner.username: c for c in demo.characters.filter(kind="pc")}
    assert set(pcs) == {"otoole", "bosworth", "smith"}
    otoole, bosworth, smith = pcs["otoole"], pcs["bosworth"], pcs["smith"]
    assert (otoole.title, bosworth.title, smith.title) == (
        "Master Gregory O'Toole", "Gunner Bosworth", "Midshipman Smith")
    assert (otoole.skill("seamanship"), bosworth.skill("gunnery"), smith.skill("maritime")) \
        == (5, 4, 3)
    for pc, special in ((otoole, "seamanship"), (bosworth, "gunnery"), (smith, "maritime")):
        others = {k: v for k, v in pc.skill_values().items() if k != special}
        assert len(others) == len(SKILLS) - 1 and set(others.values()) == {2}  # L2537
    # O'Toole commands: the most senior, and his Discipline 3 gives Smith 2 and Bosworth 1;
    # each may receive no more than his own Discipline (BtQ L2406-2407, L2540-2541).
    assert otoole.seniority > max(bosworth.seniority, smith.seniority)
    assert otoole.discipline == 3 and otoole.discipline >= 2 + 1
    assert smith.discipline >= 2 and bosworth.discipline >= 1
    for pc in (otoole, bosworth, smith):
        assert (pc.guts, pc.influence, pc.charm) == (1, 1, 1)  # Measures start at 1 (L97)


def test_the_postings(demo):
    postings = {p.character.owner.username: (p.ship.name, p.station)
                for p in ShipPosting.objects.select_related("character__owner", "ship")}
    assert postings == {"otoole": ("HMS Hermes", "master"),
                        "bosworth": ("HMS Hermes", "gunner"),
                        "smith": ("HMS Hermes", "midshipman")}


def test_loading_again_changes_nothing(demo):
    counts = (Campaign.objects.count(), Character.objects.count(), Ship.objects.count(),
              ShipPosting.objects.count(), CampaignLogEntry.objects.count())
    call_command("load_demo")
    call_command("load_demo")
    assert (Campaign.objects.count(), Character.objects.count(), Ship.objects.count(),
            ShipPosting.objects.count(), CampaignLogEntry.objects.count()) == counts


def test_the_demo_battle_setup(demo):
    setup = naval_setup(pc_ship=demo.ships.get(side="pc"),
                        enemy_ship=demo.ships.get(side="enemy"), weather="good_wind")
    assert [s["name"] for s in setup["ships"]] == ["HMS Hermes (22)", "Corsair"]
    assert [p["name"] for p in setup["pcs"]] == [
        "Master Gregory O'Toole", "Gunner Bosworth", "Midshipman Smith"]
    assert [p["discipline"] for p in setup["pcs"]] == [3, 1, 2]


def test_the_setup_validates_with_the_naval_engine(demo, naval_engine):
    hermes, corsair = demo.ships.get(side="pc"), demo.ships.get(side="enemy")
    for start in (None, 3):
        setup = naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind",
                            start_distance=start)
        normalised = naval_engine.validate_setup(setup)
        assert normalised["start_distance"] == start
        assert [s["id"] for s in normalised["ships"]] == [str(hermes.pk), str(corsair.pk)]
        assert len(normalised["pcs"]) == 3


def test_the_corsair_is_hidden_from_the_players_until_the_battle(demo):
    assert not demo.ships.get(name="Corsair").revealed
    assert demo.ships.get(name="HMS Hermes").revealed
