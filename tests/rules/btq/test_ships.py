"""The Ship Roster, ship traits, damage tracks and Broadside! hits (``rules/btq_naval.md``
§2-3, §4.8-4.9; BtQ L2245-2347, L2464-2479)."""

import pytest

from rules.btq.ships import (
    AREAS,
    SHIP_TRAITS,
    SHIP_TYPES,
    SUIT_AREA,
    DamageState,
    DamageTrack,
    broadside_hits,
    canonical_trait,
    ship_stats,
    trait_limit,
)
from rules.btq.tests import SuccessLevel
from rules.cards import parse_card, parse_cards

# The roster as printed at BtQ L2322-2333 (boxes per segment: hull, guns, crew, rigging),
# with the type table's command and guns (L2245-2303).
ROSTER = {
    # name: (command, rating, guns_min, guns_max, boxes, broadside, speed, handling)
    "Cutter": ("Lieutenant", None, 1, 18, (1, 1, 1, 1), 0, 4, 4),
    "Brig Sloop": ("Commander", None, 1, 22, (2, 2, 2, 2), 1, 3, 3),
    "Ship Sloop": ("Commander", None, 1, 28, (2, 2, 2, 3), 1, 3, 3),
    "Sixth Rate": ("Post Captain", 6, 20, 28, (3, 3, 3, 3), 2, 4, 1),
    "Fifth Rate": ("Post Captain", 5, 32, 44, (4, 4, 4, 4), 2, 4, 2),
    "Fourth Rate": ("Post Captain", 4, 50, 60, (5, 5, 5, 5), 3, 3, 0),
    "Third Rate": ("Post Captain", 3, 64, 80, (6, 6, 6, 6), 4, 3, 0),
    "Second Rate": ("Post Captain", 2, 90, 98, (7, 7, 7, 7), 5, 2, -1),
    "First Rate": ("Post Captain", 1, 100, None, (8, 8, 8, 8), 6, 2, -2),
}


def test_constants():
    assert AREAS == ("hull", "guns", "crew", "rigging")
    assert SUIT_AREA == {"H": "crew", "D": "guns", "C": "rigging", "S": "hull"}
    assert [int(s) for s in DamageState] == [0, 1, 2, 3]


@pytest.mark.parametrize("name", ROSTER)
def test_roster_against_the_book(name):
    command, rating, gmin, gmax, boxes, broadside, speed, handling = ROSTER[name]
    t = SHIP_TYPES[name]
    assert (t.name, t.command, t.rating, t.guns_min, t.guns_max) == (
        name, command, rating, gmin, gmax)
    assert {a: t.boxes[a] for a in AREAS} == {a: (n,) * 3 for a, n in zip(AREAS, boxes)}
    assert (t.broadside, t.speed, t.handling) == (broadside, speed, handling)
    assert t.source.startswith("BtQ L2245-2303")


def test_roster_is_exactly_the_nine_types():
    assert list(SHIP_TYPES) == list(ROSTER)


def test_tv_n01_phoebe_roster_value_and_override():
    # TV-N01: the roster's Fifth Rate has Handling +2; the Phoebe prints +1 (BtQ L2313-2316).
    assert ship_stats("Fifth Rate").handling == 2
    phoebe = ship_stats("Fifth Rate", overrides={"handling": 1})
    assert (phoebe.broadside, phoebe.speed, phoebe.handling) == (2, 4, 1)
    assert all(phoebe.boxes[a] == (4, 4, 4) for a in AREAS)


@pytest.mark.parametrize("trait, field, delta", [
    ("Expertly Coppered Hull", "speed", 1),
    ("Well-drilled Topmen", "handling", 1),
    ("Weight of Lead", "broadside", 1),
])
def test_trait_modifiers(trait, field, delta):
    base = ship_stats("Fifth Rate")
    assert getattr(ship_stats("Fifth Rate", [trait]), field) == getattr(base, field) + delta


@pytest.mark.parametrize("trait, area", [
    ("Heart of Oak", "hull"), ("Sturdy Rigging", "rigging"),
    ("Jolly Tars", "crew"), ("Carronades", "guns"),
])
def test_trait_boxes(trait, area):
    stats = ship_stats("Sixth Rate", [trait])
    for a in AREAS:
        assert stats.boxes[a] == ((4, 4, 4) if a == area else (3, 3, 3))


@pytest.mark.parametrize("trait", ["Renowned Name", "Wily Sea Dogs", "Weatherly"])
def test_traits_without_figures_change_nothing_in_the_stats(trait):
    base, with_trait = ship_stats("Cutter"), ship_stats("Cutter", [trait])
    assert (with_trait.broadside, with_trait.speed, with_trait.handling, with_trait.boxes) == (
        base.broadside, base.speed, base.handling, base.boxes)
    assert with_trait.traits == (trait,)


def test_all_ten_traits_present():
    assert list(SHIP_TRAITS) == [
        "Expertly Coppered Hull", "Well-drilled Topmen", "Weight of Lead", "Heart of Oak",
        "Sturdy Rigging", "Jolly Tars", "Carronades", "Renowned Name", "Wily Sea Dogs",
        "Weatherly"]


def test_trait_limit():
    assert [trait_limit(r) for r in (1, 2, 3, 4, 5, 6, None)] == [3, 3, 3, 2, 2, 2, 1]
    with pytest.raises(ValueError):
        trait_limit(7)


def test_aliases():
    assert canonical_trait("Expertly Coppered Bottom") == "Expertly Coppered Hull"
    assert canonical_trait("Wily Sea Dogs (Gunnery)") == "Wily Sea Dogs"
    assert canonical_trait("Well Drilled Topmen") == "Well-drilled Topmen"


def test_tv_n14_hermes_and_corsair():
    # BtQ L2534-2536: the Corsair is a Cutter with Heart of Oak; the Hermes a Brig Sloop
    # with Expertly Coppered Bottom.
    corsair = ship_stats("Cutter", ["Heart of Oak"])
    assert corsair.boxes == {"hull": (2, 2, 2), "guns": (1, 1, 1), "crew": (1, 1, 1),
                             "rigging": (1, 1, 1)}
    assert (corsair.broadside, corsair.speed, corsair.handling, corsair.rating) == (0, 4, 4, None)
    hermes = ship_stats("Brig Sloop", ["Expertly Coppered Bottom"])
    assert all(hermes.boxes[a] == (2, 2, 2) for a in AREAS)
    assert (hermes.broadside, hermes.speed, hermes.handling) == (1, 4, 3)
    assert hermes.traits == ("Expertly Coppered Hull",)


def test_tv_n14_samples_that_match_the_roster():
    # San Augustin (74): Third Rate + Heart of Oak, Sturdy Rigging, Carronades (BtQ L2931-2957).
    san_augustin = ship_stats("Third Rate", ["Heart of Oak", "Sturdy Rigging", "Carronades"])
    assert san_augustin.boxes == {"hull": (7, 7, 7), "guns": (7, 7, 7), "crew": (6, 6, 6),
                                  "rigging": (7, 7, 7)}
    assert (san_augustin.broadside, san_augustin.speed, san_augustin.handling) == (4, 3, 0)
    # Peregrina (36): Fifth Rate + Heart of Oak, Sturdy Rigging (BtQ L2959-2985).
    peregrina = ship_stats("Fifth Rate", ["Heart of Oak", "Sturdy Rigging"])
    assert [peregrina.boxes[a][0] for a in AREAS] == [5, 4, 4, 5]
    # The President's four traits on a fifth rate need the limit overridden (BtQ L3023-3049).
    president = ["Weight of Lead", "Jolly Tars", "Heart of Oak", "Well Drilled Topmen"]
    with pytest.raises(ValueError, match="2 trait"):
        ship_stats("Fifth Rate", president)
    stats = ship_stats("Fifth Rate", president, {"trait_limit": 4})
    assert (stats.broadside, stats.handling, stats.boxes["crew"]) == (3, 3, (5, 5, 5))


@pytest.mark.parametrize("args, message", [
    (("Frigate",), "unknown ship type"),
    (("Cutter", ["Copper"]), "unknown ship trait"),
    (("Fifth Rate", ["Heart of Oak", "Heart of Oak"]), "only be taken once"),
    (("Cutter", ["Heart of Oak", "Weatherly"]), "un-rated ship may take 1"),
    (("Cutter", (), {"colour": 1}), "unknown ship override"),
    (("Cutter", (), {"hull": (1, 0, 1)}), "boxes per segment"),
    (("Cutter", (), {"speed": "fast"}), "whole number"),
    (("Cutter", (), {"speed": -5}), "cannot be negative"),
])
def test_ship_stats_errors(args, message):
    with pytest.raises(ValueError, match=message):
        ship_stats(*args)


def test_box_override():
    # The Minerve prints Guns 4/4/5 (BtQ L2859-2885); an override can keep the print.
    assert ship_stats("Fifth Rate", overrides={"guns": (4, 4, 5)}).boxes["guns"] == (4, 4, 5)
    assert ship_stats("Cutter", overrides={"crew": 2}).boxes["crew"] == (2, 2, 2)


# --- damage tracks -------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["x.|..|..", ".|x|.", "xxx|x..|...", "x|x|x", "..|..|.."])
def test_track_round_trip(text):
    track = DamageTrack.parse(text)
    assert str(track) == text
    assert DamageTrack.parse(str(track)) == track
    assert hash(track) == hash(DamageTrack.parse(text))


def test_track_accepts_the_books_glyphs():
    assert str(DamageTrack.parse("n¨| ¨¨| ¨¨")) == "x.|..|.."


@pytest.mark.parametrize("text, message", [
    ("x.|..", "three segments"),
    ("x.||..", "Maimed segment has no boxes"),
    ("x.|o.|..", "not a box"),
    (7, "written as text"),
])
def test_track_parse_errors(text, message):
    with pytest.raises(ValueError, match=message):
        DamageTrack.parse(text)


def test_clean_track():
    track = DamageTrack.clean((2, 2, 2))
    assert str(track) == "..|..|.."
    assert track.state == DamageState.HEALTHY
    assert track.sizes == (2, 2, 2) and track.crossed == 0


@pytest.mark.parametrize("text, state", [
    (".|x|.", DamageState.MAIMED),        # the Corsair's Guns after round 1 (BtQ L2563)
    ("x.|x.|..", DamageState.HEALTHY),    # the Corsair's Hull at the end (BtQ L2600)
    ("xx|..|..", DamageState.INJURED),    # the Corsair's Hull after round 1
    ("x.|..|..", DamageState.HEALTHY),    # the Hermes' light damage (BtQ L2569)
    (".|x|x", DamageState.DEAD),
    ("x|x|x", DamageState.DEAD),
    ("..|..|xx", DamageState.DEAD),
])
def test_state_is_the_highest_full_segment(text, state):
    assert DamageTrack.parse(text).state == state


def test_track_is_immutable():
    track = DamageTrack.parse("..|..|..")
    with pytest.raises(AttributeError):
        track.segments = ()
    assert str(track.hit(1)) == "x.|..|.."
    assert str(track) == "..|..|.."


def test_tv_n09_crew_overflow():
    # Two Injured hits and a Dead hit on a clean 1/1/1 Crew: the second Injured overflows
    # into Maimed (BtQ L2596-2597).
    crew = DamageTrack.parse(".|.|.")
    crew = crew.hit(SuccessLevel.ORDINARY).hit(SuccessLevel.ORDINARY).hit(SuccessLevel.PERFECT)
    assert str(crew) == "x|x|x" and crew.state == DamageState.DEAD


def test_tv_n09_guns_overflow():
    # A Maimed hit on Guns .|x|. overflows to Dead (BtQ L2597).
    guns = DamageTrack.parse(".|x|.").hit(DamageState.MAIMED)
    assert str(guns) == ".|x|x" and guns.state == DamageState.DEAD


def test_tv_n09_hull():
    assert str(DamageTrack.parse("x.|..|..").hit(2)) == "x.|x.|.."


def test_hit_with_nothing_free_to_the_right_is_lost():
    track = DamageTrack.parse(".|.|x")
    assert track.hit(3) == track
    assert str(DamageTrack.parse(".|x|x").hit(2)) == ".|x|x"
    # never leftwards: the free Injured box stays free
    assert str(DamageTrack.parse(".|x|.").hit(3)) == ".|x|x"


def test_hit_level_must_be_1_to_3():
    with pytest.raises(ValueError, match="level 1"):
        DamageTrack.parse(".|.|.").hit(0)


def test_repair_clears_the_highest_level_box_allowed():
    track = DamageTrack.parse("x.|x.|x.")
    assert [str(t) for t, _ in (track.repair(1), track.repair(2), track.repair(3))] == [
        "..|x.|x.", "x.|..|x.", "x.|x.|.."]
    assert track.repair(2)[1] == DamageState.MAIMED


def test_repair_tv_n08():
    # An Ordinary success clears the Injured box (BtQ L2578, L2581).
    hull, level = DamageTrack.parse("xx|..|..").repair(SuccessLevel.ORDINARY)
    assert str(hull) == "x.|..|.." and level == DamageState.INJURED
    assert hull.state == DamageState.HEALTHY
    # An Ordinary cannot clear the Corsair's Maimed Guns box.
    guns = DamageTrack.parse(".|x|.")
    assert guns.repair(1) == (guns, None)
    assert not guns.repairable(1) and guns.repairable(2)


# --- Broadside! hits ------------------------------------------------------------------------

def test_tv_n05_londons_broadside_hits():
    hits = broadside_hits(parse_cards("2S 3C 4S 4C KD QH 7S"), parse_card("4S"))
    assert hits == [("hull", 1), ("hull", 3), ("rigging", 2), ("hull", 1)]


def test_tv_n07_hermes_broadside_hits():
    hits = broadside_hits(parse_cards("KS 2S 10D 2C AD QH 8D"), parse_card("AS"))
    assert hits == [("hull", 1), ("hull", 1), ("guns", 2)]


def test_tv_n09_declared_joker():
    hits = broadside_hits(parse_cards("2H 10H KH 2S 4S KS AS 4D JK=KD"), parse_card("KH"))
    assert hits == [("crew", 1), ("crew", 1), ("crew", 3), ("hull", 2), ("guns", 2)]


def test_undeclared_joker_is_the_card_of_fate():
    assert broadside_hits(parse_cards("JK"), parse_card("7D")) == [("guns", 3)]
