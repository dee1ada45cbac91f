"""The sample characters of "Friends and Foes" as reference data (``rules.btq.npcs``; BtQ
L2680-3086, ``rules/btq_naval.md`` §5.3)."""

import pytest

from rules.btq.creation import classes
from rules.btq.npcs import sample_npcs
from rules.btq.traits import TRAITS


def test_twenty_one_characters_each_of_the_rules():
    npcs = sample_npcs()
    assert len(npcs) == 21
    assert sum(1 for n in npcs.values() if n.template) == 12  # and nine named
    for npc in npcs.values():
        assert all(key in TRAITS for key, _, _ in npc.traits)
        assert all(1 <= v <= 8 for v in npc.measures().values())


def test_the_book_s_figures_and_its_corrections():
    npcs = sample_npcs()
    # BtQ L2891-2907: Fournier, Command 6, Seamanship 7, Strong Swordarm (3); Measures
    # printed Guts, Discipline, Charm, Influence
    fournier = npcs["fournier"]
    assert fournier.title == "Chef de Division André Fournier"
    assert (fournier.skills["command"], fournier.skills["seamanship"]) == (6, 7)
    assert ("strong_swordarm", 3, "") in fournier.traits
    assert any("Charm, Influence" in c for c in fournier.corrections)
    # BtQ L3084-3086: the Barbary Rais is printed as a copy of the American Captain
    rais, captain = npcs["barbary_rais"], npcs["american_captain"]
    assert (rais.skills, rais.traits, rais.reputations) == (
        captain.skills, captain.traits, captain.reputations)
    assert rais.corrections and not captain.corrections
    assert npcs["spanish_lieutenant"].tags[0] == "Spanish"


# Checked against the book, entry by entry (BtQ L2680-3086): rank, Measures as Guts,
# Discipline, Influence, Charm (re-ordered where the book prints Charm before Influence),
# Wealth (none for a generic template), and a few skills, traits, curios and reputations of
# each, as printed (spelling normalised: Skulduggery, Scavange, Solidering, Romanc).
BOOK = {
    "higgins": ("Gunner's Mate", (4, 3, 4, 4), 0,
                {"gunnery": 4, "awareness": 3, "diplomacy": 3, "skullduggery": 2},
                [("master_gunner", 2), ("duellist", 2), ("thief_in_the_night", 1)],
                [("Short-barrelled Carbine", "weapon", "musket")],
                [("personal", "Feared by", "the Gunner", 3),
                 ("institution", "Supplier for", "the Port Royal docks", 2)]),
    "harburton_wolsington": ("Lieutenant", (2, 3, 5, 4), 6,
                             {"seamanship": 6, "command": 3, "courtesy": 3, "the_arts": 1},
                             [("strong_swordarm", 2), ("cheat_death", 1),
                              ("family_connections", 1)],
                             [("Extensive collection of old charts", "skill", "seamanship")],
                             [("personal", "Beloved pupil of", "Admiral Goodenough", 1),
                              ("institution", "Favoured by", "the Admiralty", 2)]),
    "brodie": ("Midshipman", (3, 3, 4, 2), 0,
               {"awareness": 4, "maritime": 5, "profession": 3, "romance": 1},
               [("ferocious_boarder", 2), ("whittler", 1), ("blameless", 1)],
               [("Extensive collection of old charts", "skill", "seamanship")],
               [("personal", "Despised by", "Midshipman Lewis", 3),
                ("personal", "Mistrusted by", "Captain Campbell", 2)]),
    "rodriguez": ("Rated Landsman", (3, 2, 3, 2), 3,
                  {"courtesy": 4, "gambling": 4, "intimidate": 4, "skullduggery": 3},
                  [("strong_swordarm", 3), ("scoundrel", 1), ("cheat_death", 1)],
                  [("Lucky Dice", "skill", "gambling"), ("Rakish Hat", "skill", "romance")],
                  [("personal", "Beloved of", "'The Infanta'", 2),
                   ("institution", "Renowned Gambler in", "Madrid", 1)]),
    "tolani": ("", (4, 2, 1, 3), 1,
               {"intimidate": 4, "maritime": 4, "seamanship": 4, "scavenge": 3},
               [("hack_and_slay", 3), ("jack_tar", 1), ("swimming", 1)],
               [],
               [("institution", "Feared by", "superstitious sailors", 2),
                ("institution", "Distrusted by", "the French Navy", 1)]),
    "hawk": ("Surgeon", (5, 2, 1, 3), 2,
             {"first_aid": 5, "profession": 4, "intrigue": 2, "haggle": 1},
             [("physician", 1), ("hard_as_nails", 1), ("knife_fighting", 1)],
             [("Well-stocked medical bag", "skill", "first_aid")],
             [("institution", "Snubbed by", "the Wardroom", 2),
              ("personal", "Confidante of", "the Purser", 2)]),
    "french_sailor": ("", (3, 2, 3, 2), None,
                      {"awareness": 2, "profession": 2, "skullduggery": 2, "scavenge": 2},
                      [("agitator", 1), ("knife_fighting", 1)], [],
                      [("institution", "Loyal to", "the Revolution", 1)]),
    "french_lieutenant": ("", (3, 3, 4, 4), None,
                          {"seamanship": 4, "command": 3, "courtesy": 3, "the_arts": 1},
                          [("master_gunner", 2), ("strong_swordarm", 2), ("protege", 1)], [],
                          [("institution", "Loyal to", "the Revolution", 3),
                           ("personal", "Protégé of", "Captain Gerard", 1)]),
    "french_captain": ("", (3, 3, 6, 5), None,
                       {"seamanship": 6, "intrigue": 5, "the_arts": 5, "riding": 2},
                       [("strong_swordarm", 3), ("cosmopolitan", 1), ("educated", 1)], [],
                       [("institution", "Loyal to", "the King", 4),
                        ("institution", "Respected by", "the Ward Room", 4)]),
    "fournier": ("Chef de Division", (3, 6, 4, 4), 6,
                 {"engineering": 4, "gunnery": 5, "intimidate": 5, "the_arts": 5},
                 [("tactical_genius", 1), ("crusty_old_seadog", 1), ("duellist", 2)],
                 [("Ornate Swordstick", "weapon", "sword"),
                  ("Black eyepatch", "skill", "intimidate")],
                 [("personal", "Victorious Nemesis of", "Capt. Poe", 3),
                  ("institution", "Contemptuous of", "the Royal Navy", 2)]),
    "spanish_sailor": ("", (3, 3, 2, 2), None,
                       {"maritime": 3, "scavenge": 3, "gambling": 1, "seamanship": 1},
                       [("gods_servant", 1), ("iron_stomach", 1), ("naysayer", 1)], [],
                       [("institution", "Loyal to", "the Crown", 1)]),
    "spanish_lieutenant": ("", (4, 4, 3, 4), None,
                           {"gunnery": 3, "maritime": 3, "purser": 2, "scavenge": 1},
                           [("ferocious_boarder", 2), ("officer_patron", 1),
                            ("known_below_decks", 1)], [],
                           [("personal", "Protected by", "Capitán Gonzalez", 3),
                            ("institution", "Feared by", "the Gun Room", 1)]),
    "spanish_captain": ("", (4, 6, 4, 5), None,
                        {"seamanship": 5, "riding": 3, "music": 3, "scavenge": 2},
                        [("duellist", 1), ("strong_swordarm", 2), ("lap_of_luxury", 1)], [],
                        [("institution", "Respected by", "the Ward Room", 4),
                         ("institution", "Loyal to", "the Crown", 2)]),
    "perez": ("", (4, 4, 4, 4), 4,
              {"courtesy": 5, "scavenge": 5, "skullduggery": 5, "soldiering": 2},
              [("strong_swordarm", 3), ("topman", 1), ("cheat_death", 1)], [],
              [("institution", "Hates", "the French", 2),
               ("institution", "Hunted by", "the authorities in Kingston", 2)]),
    "american_sailor": ("", (3, 3, 1, 2), None,
                        {"profession": 2, "riding": 1, "seamanship": 1, "courtesy": 1},
                        [("under_the_lash", 1), ("is_but_a_scratch", 1),
                         ("handy_in_a_scrap", 2)], [],
                        [("personal", "Feared by", "Captain McKenzie", 2)]),
    "american_lieutenant": ("", (3, 4, 2, 3), None,
                            {"maritime": 4, "seamanship": 3, "music": 1, "command": 2},
                            [("gods_servant", 1), ("jonah", 1)], [],
                            [("institution", "Revered by", "the Gun Deck", 2)]),
    "american_captain": ("", (4, 5, 2, 4), None,
                         {"haggle": 5, "maritime": 5, "seamanship": 5, "profession": 3},
                         [("respect_of_the_men", 1), ("duellist", 2)], [],
                         [("personal", "Rival of", "Captain McKenzie", 1),
                          ("institution", "Feared by", "British Merchants", 1)]),
    "mcnulty": ("Captain", (6, 3, 2, 4), 2,
                {"romance": 5, "maritime": 5, "scavenge": 4, "profession": 3},
                [("natural_rider", 1), ("fearless", 1), ("scoundrel", 1)], [],
                [("personal", "Vengeful towards", "HMS Brunswick (74)", 2),
                 ("institution", "Inspirational Captain of", "the President (44)", 1)]),
    "barbary_corsair": ("", (4, 2, 1, 2), None,
                        {"awareness": 3, "haggle": 3, "riding": 1, "profession": 2},
                        [("handy_in_a_scrap", 1), ("gods_servant", 1)], [],
                        [("personal", "Terrified Subject of", "the Bey", 1)]),
    "barbary_janissary": ("", (5, 3, 1, 1), None,
                          {"intimidate": 4, "soldiering": 3, "first_aid": 3, "gunnery": 2},
                          [("strong_swordarm", 2), ("handy_in_a_scrap", 2)], [],
                          [("institution", "Terrorise", "Local Merchants", 1)]),
    "barbary_rais": ("", (4, 5, 2, 4), None,
                     {"haggle": 5, "command": 4, "the_arts": 2, "purser": 3},
                     [("stargazer", 1), ("strong_swordarm", 2)], [],
                     [("institution", "Respect of", "the Gun Deck", 1)]),
}


@pytest.mark.parametrize("key", sorted(BOOK))
def test_each_character_as_the_book_prints_it(key):
    npc = sample_npcs()[key]
    rank, measures, wealth, skills, traits, curios, reputations = BOOK[key]
    assert npc.rank == rank
    assert (npc.guts, npc.discipline, npc.influence, npc.charm) == measures
    assert npc.wealth == wealth
    assert {s: npc.skills.get(s) for s in skills} == skills
    taken = {t: n for t, n, _ in npc.traits}
    assert {t: taken.get(t) for t, _ in traits} == dict(traits)
    assert [(c["name"], *next((k, v) for k, v in c.items() if k != "name"))
            for c in npc.curios] == curios
    held = [(r["kind"], r["descriptor"], r["subject"], r["value"]) for r in npc.reputations]
    assert all(rep in held for rep in reputations)


def test_every_character_checked():
    assert set(BOOK) == set(sample_npcs())


def test_professions_and_languages_as_printed():
    npcs = sample_npcs()
    # "Profession (Blacksmith)-2", "(Carpenter)-3", "(Surgeon)-4", "(Tailor)-3" ...
    assert npcs["higgins"].professions == {"Blacksmith": 2}
    assert npcs["french_lieutenant"].professions == {"Blacksmith": 2}
    assert npcs["brodie"].professions == {"Carpenter": 3}
    assert npcs["hawk"].professions == {"Surgeon": 4}
    assert npcs["mcnulty"].professions == {"Tailor": 3}
    assert npcs["barbary_corsair"].professions == {"Camel herder": 2}
    assert npcs["american_sailor"].professions == {"Horse Breeder": 2}
    # Tolani and Hawk each have two Second Languages
    langs = {k: sorted(d for t, _, d in n.traits if t == "second_language")
             for k, n in npcs.items()}
    assert langs["tolani"] == ["English", "French"]
    assert langs["hawk"] == ["French", "Spanish"]
    assert langs["rodriguez"] == ["English"]  # printed "Spanish", his own tongue
    assert langs["spanish_captain"] == ["English"]  # "Spanish" printed too: left out


def test_each_has_a_personal_station_or_a_note_that_the_book_gives_none():
    """BtQ L397-442: a personal station is one of the social classes. Brodie's ("Sailor,
    Carpenter") and the Barbary Corsair's ("Sailor, Hand") tags are both professions, and
    the Janissary's "Soldier" is no class: the GM's notes say so."""
    stations = set(classes())
    for key, npc in sample_npcs().items():
        station = [t for t in npc.tags if t.lower().replace(" ", "_") in stations]
        noted = any("personal station" in c for c in npc.corrections)
        assert (not station) == noted == (key in {"brodie", "barbary_corsair",
                                                  "barbary_janissary"}), key
