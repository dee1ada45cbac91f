"""The bridge to the btq_naval engine: the setup a battle starts from and the damage it
leaves (ships.services.naval_setup, ship_record_battle)."""

import pytest
from django.core.exceptions import ValidationError

from ships.services import naval_setup, ship_record_battle
from tests.conftest import ENEMY_CREW


def test_setup_lists_both_ships_and_the_pcs_aboard_ours(pc_ship, enemy_ship, pc_a, pc_b):
    setup = naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="good_wind")
    assert setup["weather"] == "good_wind"
    assert setup["start_distance"] is None
    assert setup["settings"]["repair_lockout"] == "same_round"
    ours, theirs = setup["ships"]
    assert ours == {
        "id": str(pc_ship.pk), "name": "HMS Testament (22)", "side": "pc", "type": "Brig Sloop",
        "traits": ["Expertly Coppered Hull"], "morale": 0,
        "tracks": {"hull": "..|..|..", "guns": "..|..|..", "crew": "..|..|..",
                   "rigging": "..|..|.."},
        "crew": {"awareness": 0, "command": 0, "first_aid": 0, "gunnery": 0, "maritime": 0,
                 "seamanship": 0},
    }
    assert theirs["side"] == "enemy" and theirs["name"] == "Le Secret (14)"
    assert theirs["tracks"]["hull"] == "..|..|.." and theirs["tracks"]["guns"] == ".|.|."
    assert theirs["crew"] == ENEMY_CREW
    assert "overrides" not in theirs
    assert [p["id"] for p in setup["pcs"]] == [str(pc_a.pk), str(pc_b.pk)]  # seniority first
    first = setup["pcs"][0]
    assert first["name"] == "Lieutenant Anne Able" and first["station"] == "lieutenant"
    assert first["ship"] == str(pc_ship.pk) and first["discipline"] == 3
    assert first["seniority"] == 2
    assert len(first["skills"]) == 22 and first["skills"]["seamanship"] == 4
    assert first["skills"]["courtesy"] == 0


def test_setup_validates_with_the_naval_engine(pc_ship, enemy_ship, gm, naval_engine):
    from ships.services import ship_update

    ship_update(ship=enemy_ship, actor=gm, version=1, overrides={"handling": 3},
                tracks={"hull": "x.|..|..", "guns": ".|x|.", "crew": ".|.|.", "rigging": ".|.|."})
    enemy_ship.refresh_from_db()
    setup = naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="storm",
                        start_distance=5)
    assert setup["ships"][1]["overrides"] == {"handling": 3}
    normalised = naval_engine.validate_setup(setup)
    assert normalised["ships"][1]["tracks"]["guns"] == ".|x|."
    assert normalised["ships"][1]["crew"] == ENEMY_CREW
    assert [p["station"] for p in normalised["pcs"]] == ["lieutenant", "midshipman"]


def test_setup_refuses_ships_on_the_wrong_sides(pc_ship, enemy_ship):
    with pytest.raises(ValidationError):
        naval_setup(pc_ship=enemy_ship, enemy_ship=pc_ship, weather="good_wind")


def test_record_battle_writes_tracks_morale_version_and_log(enemy_ship, campaign):
    before = enemy_ship.version
    changes = ship_record_battle(
        ship=enemy_ship,
        tracks={"hull": "x.|x.|..", "guns": ".|x|x", "crew": "x|x|x", "rigging": ".|.|."},
        morale=1, note="The Le Secret struck her colours.",
    )
    ship = enemy_ship
    ship.refresh_from_db()
    assert ship.hull_track == "x.|x.|.." and ship.crew_track == "x|x|x"
    assert ship.morale_state == 1 and ship.version == before + 1
    entry = campaign.log_entries.first()
    # each change in words, Ship Morale too, never the raw tracks
    name = ship.display_name
    assert entry.kind == "ship.battle" and entry.text == (
        f"The Le Secret struck her colours. {name}'s Hull: Healthy, 0 boxes crossed → "
        f"Healthy, 2 boxes crossed. {name}'s Guns: Healthy → Dead. {name}'s Crew: Healthy "
        f"→ Dead. {name}'s Ship Morale: Healthy → Injured.")
    assert changes == entry.data["changes"] and len(changes) == 4
    assert entry.gm_only, "an enemy ship's Ship Morale must not reach the players' log"


def test_record_battle_of_the_players_ship_is_in_their_log(pc_ship, campaign):
    ship_record_battle(
        ship=pc_ship,
        tracks={"hull": "x.|..|..", "guns": "..|..|..", "crew": "..|..|..", "rigging": "..|..|.."},
        morale=0, note="HMS Testament took light damage.",
    )
    entry = campaign.log_entries.first()
    assert entry.kind == "ship.battle" and not entry.gm_only


def test_record_battle_refuses_a_track_that_does_not_fit(enemy_ship):
    with pytest.raises(ValidationError, match="hull"):
        ship_record_battle(
            ship=enemy_ship,
            tracks={"hull": "x|.|.", "guns": ".|.|.", "crew": ".|.|.", "rigging": ".|.|."},
            morale=0, note="bad",
        )
    enemy_ship.refresh_from_db()
    assert enemy_ship.hull_track == "..|..|.." and enemy_ship.version == 1


def test_a_pcs_traits_reach_the_battle_as_cards_of_his_tests(pc_ship, enemy_ship, pc_a, gm,
                                                           naval_engine):
    """A PC's traits add to his pools in a ship battle (BtQ L2459-2460 "Any traits from
    PCs"; ``rules.btq.traits``): Master Gunner taken twice adds 2 cards to his Gunnery."""
    from characters.services import trait_add

    trait_add(character=pc_a, actor=gm, trait="master_gunner", times=2)
    setup = naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="good_wind")
    anne, ben = setup["pcs"]
    assert anne["trait_cards"] == {"gunnery": 2} and ben["trait_cards"] == {}
    state = naval_engine.validate_setup(setup)
    assert {p["id"]: p["trait_cards"] for p in state["pcs"]}[str(pc_a.pk)] == {"gunnery": 2}
