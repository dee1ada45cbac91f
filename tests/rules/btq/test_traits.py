"""The 55 traits as data, and their effects on pools (BtQ L1025-1115;
``rules/btq_characters.md`` §3, TV-07, TV-10; ``rules/DECISIONS.md`` D9, D10)."""

import pytest

from rules.btq.tests import Modifier, Pool, Side, contested_test
from rules.btq.traits import (
    CATEGORIES,
    TAGS,
    TRAITS,
    TraitError,
    application,
    check_takes,
    cost,
    crew_modifiers,
    discipline_for_cards,
    limited_use,
    meets_prerequisites,
    pool_modifiers,
    reputation_grants,
    ship_pool_modifiers,
    trait,
    use,
    uses_left,
    uses_per_session,
    wealth_bonus,
)
from rules.cards import GM_DECK, PLAYER_DECK
from rules.random import ScriptedSource

# (key, category, cost, max takes) of every trait, as the book prints them (BtQ L1028-1111).
BOOK = [
    ("educated", "personal", 1, 1), ("swimming", "personal", 1, 1),
    ("read_and_write", "personal", 1, 1), ("pitch_perfect", "personal", 1, 1),
    ("second_language", "personal", 1, None), ("gods_servant", "personal", 1, 1),
    ("iron_stomach", "personal", 1, 1), ("silver_tongue", "personal", 1, 1),
    ("stargazer", "personal", 1, 1), ("whittler", "personal", 1, 1),
    ("natural_rider", "personal", 2, 1), ("strong_as_an_ox", "personal", 2, 1),
    ("fearless", "personal", 2, 1), ("fair_of_face", "personal", 2, 1),
    ("natural_mathematician", "personal", 2, 1), ("hard_as_nails", "personal", 3, 1),
    ("heartbreaker", "personal", 3, 1), ("is_but_a_scratch", "personal", 5, 1),
    ("under_the_lash", "naval", 1, 1), ("at_home_in_the_ward_room", "naval", 1, 1),
    ("tactical_genius", "naval", 2, 1), ("known_below_decks", "naval", 1, 1),
    ("topman", "naval", 1, 1), ("protege", "naval", 1, 3), ("born_for_battle", "naval", 2, 1),
    ("respect_of_the_men", "naval", 2, 1), ("jack_tar", "naval", 3, 1),
    ("lap_of_luxury", "social", 2, 1), ("blameless", "social", 2, 1),
    ("naysayer", "social", 2, 1), ("letter_from_london", "social", 3, 1),
    ("family_connections", "social", 3, 1), ("officer_patron", "social", 3, 1),
    ("crusty_old_seadog", "social", 3, 1), ("jonah", "social", 4, 1),
    ("cheat_death", "combat", 2, 3), ("crackshot", "combat", 1, 3),
    ("duellist", "combat", 1, 3), ("strong_swordarm", "combat", 1, 3),
    ("handy_in_a_scrap", "combat", 1, 3), ("hack_and_slay", "combat", 1, 3),
    ("master_gunner", "combat", 1, 3), ("knife_fighting", "combat", 1, 3),
    ("ferocious_boarder", "combat", 1, 3), ("accurate_gunner", "combat", 3, 1),
    ("cutpurse", "professional", 1, 1), ("scoundrel", "professional", 1, 1),
    ("agitator", "professional", 1, 1), ("grappler", "professional", 1, 1),
    ("keen_eyed", "professional", 1, 1), ("cosmopolitan", "professional", 1, 1),
    ("lower_deck_lawyer", "professional", 1, 1), ("thief_in_the_night", "professional", 2, 1),
    ("gastronome", "professional", 2, 1), ("physician", "professional", 2, 1),
]


def test_there_are_55_traits_in_the_book_s_order():
    assert [key for key, *_ in BOOK] == list(TRAITS)
    assert len(TRAITS) == 55
    assert [sum(1 for t in TRAITS.values() if t.category == c) for c in CATEGORIES] == [
        18, 9, 8, 10, 10]


@pytest.mark.parametrize("key, category, points, takes", BOOK)
def test_each_trait_s_data(key, category, points, takes):
    t = trait(key)
    assert (t.category, t.cost, t.max_takes) == (category, points, takes)
    assert t.source.startswith("BtQ L10") or t.source.startswith("BtQ L11")
    assert t.text and t.effects
    assert t.as_dict()["key"] == key


def test_take_limits():
    assert check_takes({"crackshot": 3, "second_language": 5}) == {"crackshot": 3,
                                                                  "second_language": 5}
    with pytest.raises(TraitError, match="Crackshot may be taken 3 times at most"):
        check_takes({"crackshot": 4})
    with pytest.raises(TraitError, match="Jack Tar may be taken once at most"):
        check_takes({"jack_tar": 2})
    with pytest.raises(TraitError, match="not a trait"):
        check_takes({"luck": 1})


def test_tv07_otoole_s_traits_cost_ten_points():
    """TV-07 (BtQ L1111-1115): Read and Write 1, Second Language 1, Swimming 1, Jack Tar 3,
    Crusty Old Seadog 3, Knife Fighting x1 1 = 10; for a literate class Read and Write is
    free."""
    taken = {"read_and_write": 1, "second_language": 1, "swimming": 1, "jack_tar": 1,
             "crusty_old_seadog": 1, "knife_fighting": 1}
    assert cost(taken) == 10
    assert cost(taken, free=["read_and_write"]) == 9
    # The book's own words: "Always Welcome of The Silver Fin", "Distrusted by the HMS
    # Achilles" (the trait's text offers "Trusted by" or "Despised by": the wording is free).
    assert reputation_grants("crusty_old_seadog", wordings=[
        {"descriptor": "Always Welcome of", "subject": "The Silver Fin"},
        {"descriptor": "Distrusted by", "subject": "the HMS Achilles"}]) == [
        {"kind": "institution", "descriptor": "Always Welcome of", "subject": "The Silver Fin",
         "value": 1},
        {"kind": "institution", "descriptor": "Distrusted by", "subject": "the HMS Achilles",
         "value": 1}]
    with pytest.raises(TraitError, match="give the descriptor of reputation 2"):
        reputation_grants("crusty_old_seadog", wordings=[
            {"descriptor": "Always Welcome of", "subject": "The Silver Fin"}])
    with pytest.raises(TraitError, match="subject is one of the Gun Deck, the Ward Room"):
        reputation_grants("gastronome", wordings=[{"subject": "the Admiralty"}])


@pytest.mark.parametrize("skill, setting, cards", [
    ("maritime", None, 1), ("seamanship", None, 0),
    ("seamanship", {"crusty_old_seadog_skill": "seamanship"}, 1),
])
def test_tv10_crusty_old_seadog_follows_its_setting(skill, setting, cards):
    """TV-10 (BtQ L1210-1212, L1080): Maritime by the trait's text, Seamanship by the
    example's (A4)."""
    found = pool_modifiers({"crusty_old_seadog": 1}, skill, (), setting)
    assert sum(m.cards for m in found) == cards


def test_tv10_the_book_s_pool_with_the_trait_from_the_sheet():
    """TV-10/TV-11 Variant B: O'Toole's Seamanship 4 + Crusty Old Seadog 1 (the example's
    reading) + Distrusted by Captain Jones 1 = 6, against Jones's 4; O'Toole wins."""
    mods = pool_modifiers({"crusty_old_seadog": 1, "jack_tar": 1}, "seamanship", (),
                          {"crusty_old_seadog_skill": "seamanship"})
    pool = Pool("seamanship", 4, modifiers=mods,
                reputation={"name": "Distrusted by Captain Jones", "value": 1, "cap": 3})
    assert pool.size() == 6
    record = contested_test(Side("pc:otoole", pool, PLAYER_DECK),
                            Side("npc:jones", Pool("seamanship", 4), GM_DECK),
                            ScriptedSource("4S  4C KD KS QH JH 2C  4H AH 2D 7S"))
    assert record.winner == "pc:otoole"


@pytest.mark.parametrize("taken, skill, tags, expected", [
    ({"crackshot": 3}, "soldiering", {"weapon:musket"}, [("Crackshot x3", 3)]),
    ({"crackshot": 3}, "soldiering", {"weapon:sword"}, []),
    ({"tactical_genius": 1}, "command", {"naval_combat"}, [("Tactical Genius", 1)]),
    ({"tactical_genius": 1}, "command", set(), []),
    ({"tactical_genius": 1}, "gunnery", {"naval_combat"}, []),
    ({"fearless": 1}, "command", {"under_fire_from_larger_ship"}, [("Fearless", 1)]),
    ({"fearless": 1}, "guts", {"resist_torture"}, [("Fearless", 2)]),
    ({"hard_as_nails": 1}, "guts", {"maimed_gate"}, [("Hard as Nails", 3)]),
    ({"hard_as_nails": 1}, "guts", set(), []),
    ({"natural_rider": 1}, "riding", set(), [("Natural Rider", 2)]),
    ({"physician": 1}, "first_aid", set(), [("Physician", 1)]),
    ({"thief_in_the_night": 1}, "skullduggery", {"stealth"}, [("Thief in the Night", 2)]),
    ({"iron_stomach": 1}, "guts", {"grog"}, [("Iron Stomach", 1)]),
    ({"educated": 1, "cosmopolitan": 1}, "the_arts", {"academic_knowledge", "new_customs"},
     [("Educated", 1), ("Cosmopolitan", 1)]),
    ({"swimming": 1, "jack_tar": 1, "lap_of_luxury": 1}, "maritime", set(TAGS), []),
])
def test_pool_effects(taken, skill, tags, expected):
    assert pool_modifiers(taken, skill, tags) == tuple(Modifier(s, c) for s, c in expected)


def test_the_ship_s_pool_the_crew_s_pool_and_discipline_cards():
    """For the naval battle (BtQ L1043, L1060, L1110-1111)."""
    assert ship_pool_modifiers({"natural_mathematician": 1}, {"assigned_gunnery"}) == (
        Modifier("Natural Mathematician", 1),)
    assert ship_pool_modifiers({"natural_mathematician": 1}, set()) == ()
    assert crew_modifiers({"Surgeon Hale": {"physician": 1}, "Dr Lind": {"physician": 1}},
                          {"healing_physical"}) == (Modifier("Physician in the scene", 1),)
    assert crew_modifiers({"Surgeon Hale": {"physician": 1}}, set()) == ()
    assert discipline_for_cards(3, {"born_for_battle": 1}) == 5
    assert discipline_for_cards(3, {}) == 3


def test_grants_wealth_reputations_prerequisites_and_uses():
    assert wealth_bonus({"lap_of_luxury": 1, "educated": 1}) == 2
    assert reputation_grants("officer_patron", "Sir Arnold Stobbs") == [
        {"kind": "personal", "descriptor": "Protected by", "subject": "Sir Arnold Stobbs",
         "value": 3}]
    with pytest.raises(TraitError, match="needs the captain named"):
        reputation_grants("protege")
    assert reputation_grants("gastronome", wordings=[{"subject": "the Ward Room"}])[0][
        "subject"] == "the Ward Room"
    assert len(reputation_grants("heartbreaker", wordings=[
        {"descriptor": "Adored by", "subject": "Lady Pemberton"},
        {"descriptor": "Pined for by", "subject": "Miss Hart"}])) == 2
    assert reputation_grants("under_the_lash")[0]["subject"] == "the Gun Deck"
    assert reputation_grants("under_the_lash", wordings=[{"descriptor": "Feared by"}])[0][
        "descriptor"] == "Feared by"
    assert reputation_grants("swimming") == []
    assert meets_prerequisites("at_home_in_the_ward_room", "officer")
    assert not meets_prerequisites("at_home_in_the_ward_room", "rating")
    assert meets_prerequisites("swimming", "rating")
    assert uses_per_session("cheat_death", 3) == 3
    with pytest.raises(TraitError, match="not of limited use"):
        uses_per_session("swimming", 1)


def test_limited_uses_are_counted_per_period_and_refused_when_spent():
    """BtQ L1060 (Jack Tar, per Naval Mission), L1074 (Naysayer, Jonah), L1084 (Cheat Death!
    per session, A18: a use per take); a new period gives every use back."""
    assert [k for k in TRAITS if limited_use(k)] == ["jack_tar", "naysayer", "jonah",
                                                      "cheat_death"]
    assert limited_use("jack_tar") == "per_naval_mission" and limited_use("swimming") is None
    ledger: dict = {}
    ledger = use("cheat_death", 2, ledger, "session:1")
    assert uses_left("cheat_death", 2, ledger, "session:1") == 1
    after = use("cheat_death", 2, ledger, "session:1")
    assert ledger["cheat_death"]["used"] == 1  # the argument is unchanged
    with pytest.raises(TraitError, match="Cheat Death! is used 2 times per session"):
        use("cheat_death", 2, after, "session:1")
    assert uses_left("cheat_death", 2, after, "session:2") == 2
    assert use("cheat_death", 2, after, "session:2")["cheat_death"] == {
        "period": "session:2", "used": 1}
    spent = use("jack_tar", 1, {}, "mission:4")
    with pytest.raises(TraitError, match="once per Naval Mission"):
        use("jack_tar", 1, spent, "mission:4")
    with pytest.raises(TraitError, match="not of limited use"):
        use("swimming", 1, {}, "session:1")


@pytest.mark.parametrize("key, words, by_gm", [
    ("natural_rider", "Applied by the app: +2 to Riding in every test.", False),
    ("tactical_genius", "Applied by the app: +1 to Seamanship, Command in ship battles.",
     False),
    ("iron_stomach", "Applied by the app: +1 to Guts in grog tests.", False),
    ("duellist", "The GM adds +1 when a test or fight involves a pistol.", True),
    ("swimming", "The GM applies it when it matters.", True),
    ("jonah", "Record each use on the sheet; the GM applies what it does.", True),
    ("under_the_lash", "Applied by the app: granted when taken.", False),
])
def test_each_trait_says_whether_the_app_or_the_gm_applies_it(key, words, by_gm):
    """A trait whose trigger needs the GM's word (A1: a weapon in a fight, "academic
    knowledge") says so on the sheet; one the app applies by itself says where."""
    assert application(key) == (words, by_gm)
    assert all(application(k)[0] for k in TRAITS)
