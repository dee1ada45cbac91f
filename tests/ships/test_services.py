"""Ships through their services: traits checked against the rating, tracks sized from the
type and traits, stale edits refused, bad values named."""

import pytest
from django.core.exceptions import ValidationError

from campaigns.services import StaleVersion
from ships.models import ShipType
from ships.services import posting_set, ship_create, ship_update


def make(campaign, gm, type_name="Cutter", traits=(), **kw):
    return ship_create(campaign=campaign, actor=gm, name=kw.pop("name", "Test"),
                       ship_type=ShipType.objects.get(name=type_name), traits=traits, **kw)


def test_tracks_are_sized_from_the_type_and_traits(campaign, gm):
    ship = make(campaign, gm, "Ship Sloop", ["Jolly Tars"])
    assert ship.tracks == {"hull": "..|..|..", "guns": "..|..|..", "crew": "...|...|...",
                           "rigging": "...|...|..."}


def test_an_unrated_ship_takes_one_trait(campaign, gm):  # BtQ L2338-2339
    with pytest.raises(ValidationError, match="1 trait"):
        make(campaign, gm, "Cutter", ["Heart of Oak", "Weatherly"])


def test_a_rated_ship_takes_two_or_three(campaign, gm):
    make(campaign, gm, "Fifth Rate", ["Heart of Oak", "Sturdy Rigging"], guns=36)
    make(campaign, gm, "Third Rate", ["Heart of Oak", "Sturdy Rigging", "Carronades"], guns=74)
    with pytest.raises(ValidationError, match="2 trait"):
        make(campaign, gm, "Fifth Rate", ["Heart of Oak", "Sturdy Rigging", "Carronades"],
             guns=36)


def test_a_trait_is_taken_once(campaign, gm):
    with pytest.raises(ValidationError, match="only be taken once"):
        make(campaign, gm, "Third Rate", ["Heart of Oak", "Heart of Oak"], guns=74)


def test_the_book_alias_of_a_trait_is_accepted(campaign, gm):
    ship = make(campaign, gm, "Brig Sloop", ["Expertly Coppered Bottom"])  # BtQ L2535
    assert [t.name for t in ship.traits.all()] == ["Expertly Coppered Hull"]


def test_guns_must_fit_the_type(campaign, gm):
    with pytest.raises(ValidationError, match="32 to 44 guns"):
        make(campaign, gm, "Fifth Rate", guns=74)


def test_bad_crew_skills_are_named(campaign, gm):
    with pytest.raises(ValidationError) as exc:
        make(campaign, gm, crew={"gunnery": -1, "swimming": 2})
    text = str(exc.value)
    assert "Gunnery" in text and "swimming" in text


def test_adding_heart_of_oak_grows_the_hull_keeping_damage(enemy_ship, gm):
    ship = ship_update(ship=enemy_ship, actor=gm, version=1,
                       tracks={"hull": "x.|x.|..", "guns": ".|x|.", "crew": ".|.|.",
                               "rigging": ".|.|."})
    ship = ship_update(ship=ship, actor=gm, version=2, traits=[])
    assert ship.hull_track == "x|x|." and ship.guns_track == ".|x|."
    ship = ship_update(ship=ship, actor=gm, version=3, traits=["Heart of Oak"])
    assert ship.hull_track == "x.|x.|.."


def test_tracks_that_do_not_fit_are_refused(enemy_ship, gm):
    with pytest.raises(ValidationError) as exc:
        ship_update(ship=enemy_ship, actor=gm, version=1,
                    tracks={"hull": "x|.|.", "guns": "y|.|.", "crew": ".|.|.", "rigging": ".|.|."})
    assert set(exc.value.message_dict) == {"hull_track", "guns_track"}
    enemy_ship.refresh_from_db()
    assert enemy_ship.version == 1


def test_a_stale_update_is_refused_and_nothing_written(enemy_ship, gm):
    ship_update(ship=enemy_ship, actor=gm, version=1, gm_notes="first")
    with pytest.raises(StaleVersion, match="version 1.*version 2"):
        ship_update(ship=enemy_ship, actor=gm, version=1, name="Second")
    enemy_ship.refresh_from_db()
    assert enemy_ship.name == "Le Secret" and enemy_ship.gm_notes == "first"


def test_crew_updates_merge(enemy_ship, gm):
    ship = ship_update(ship=enemy_ship, actor=gm, version=1, crew={"gunnery": 5})
    assert ship.crew["gunnery"] == 5 and ship.crew["seamanship"] == 3


def test_overrides_change_the_figures_and_bad_ones_are_named(pc_ship, gm):
    from ships.services import ship_stats_of

    ship = ship_update(ship=pc_ship, actor=gm, version=1, overrides={"handling": 1})
    assert ship_stats_of(ship).handling == 1
    with pytest.raises(ValidationError, match="overrides"):
        ship_update(ship=ship, actor=gm, version=2, overrides={"wings": 2})


def test_a_character_serves_on_one_ship_at_a_time(pc_ship, enemy_ship, pc_a, gm):
    posting_set(ship=enemy_ship, character=pc_a, station="gunner", actor=gm)
    assert list(pc_a.postings.values_list("ship", "station")) == [(enemy_ship.pk, "gunner")]
    assert not pc_ship.postings.filter(character=pc_a).exists()
