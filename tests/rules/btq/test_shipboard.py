"""Shipboard life through the kernel: weather, Wealth and prize money, grog, the Captain's
Favour, the Articles of War and promotion (rules/btq/{weather,wealth,shipboard,promotion}.py).

The worked examples are ``rules/btq_missions.md`` §16 TV-07 to TV-16 (named "missions TV-nn")
and ``rules/btq_characters.md`` TV-17 and TV-20, with scripted cards where a test is drawn.
Draw order (rules/btq/tests.py): the Card of Fate, then the character, then the opposition.
"""

import pytest

from rules.btq.characters import DamageState
from rules.btq.promotion import (
    EXAMINATION,
    EXAMINATION_POOL,
    PATHS,
    PROMOTION_MISSIONS,
    PromotionError,
    eligible,
    examination_next,
    prerequisites,
)
from rules.btq.shipboard import (
    ARTICLES,
    IRON_STOMACH,
    ShipboardError,
    check_punishment,
    drink,
    grog_effect,
    scene_token,
    token_modifier,
)
from rules.btq.tests import (
    DIFFICULTY,
    AtRisk,
    Pool,
    Reputation,
    Side,
    SuccessLevel,
    static_test,
)
from rules.btq.wealth import (
    PRICE_LIST,
    PRICES,
    PRIZE_TABLE,
    WealthError,
    automatic_successes,
    price_item,
    prize_class,
    prize_entries,
    prize_row,
    purchase_terms,
    rejudge_with_automatic,
)
from rules.btq.weather import (
    Weather,
    WeatherError,
    awareness_modifier,
    becalmed,
    opponent_pool,
    static_modifier,
    towing_pool,
    weather_modifiers,
)
from rules.cards import PLAYER_DECK
from rules.random import ScriptedSource

HEALTHY, INJURED, MAIMED, DEAD = DamageState


# --- Weather ----------


def test_missions_tv07_storm_winds_and_storm_snow_take_four_cards_from_every_test():
    """missions TV-07: the weather as a static modifier (BtQ L1706-1707)."""
    weather = Weather("storm", "storm")
    assert static_modifier(weather) == -4
    assert weather_modifiers(weather, "seamanship") == [
        {"source": "Storm winds and Storm / Snow", "cards": -4}]


def test_missions_tv08_the_weather_as_opponent_turns_ten_cards_and_wins_with_a_critical():
    """missions TV-08: the weather as the opponent (BtQ L1716-1722)."""
    weather = Weather("storm", "blizzard")
    assert opponent_pool(weather) == 10
    # Seamanship 4 against the storm: no success; the storm's 10 cards hold the 7C (a Critical)
    master = Side("pc:master", Pool("seamanship", 4), PLAYER_DECK, at_risk=AtRisk("Health"))
    record = static_test(master, opponent_pool(weather), ScriptedSource(
        "7H  2C 3C 4S 5D  7C 2D 3D 4D 5S 6S 8S 9S 10S JS"))
    assert (record.winner, record.result) == (DIFFICULTY, SuccessLevel.CRITICAL)


def test_missions_tv09_mist_fog_and_no_wind():
    """missions TV-09: mist, fog and no wind (derived from the footnotes of §6.1)."""
    assert 5 + awareness_modifier(Weather("light", "mist")) == 3
    assert 5 + awareness_modifier(Weather("light", "fog_bank")) == 1
    calm = Weather("no_wind", "none")
    assert becalmed(calm) == {"speed": 0}
    assert becalmed(calm, towing=True) == {"speed": 1, "crew_pool_halved": True}
    assert towing_pool(7) == 3
    assert becalmed(Weather("strong", "none")) is None
    assert weather_modifiers(Weather("light", "fog_bank"), "awareness") == [
        {"source": "Fog bank", "cards": -4}]
    with pytest.raises(WeatherError):
        Weather("gale", "none")


# --- Wealth ----------


def test_missions_tv10_purchase_eligibility():
    """missions TV-10: purchase eligibility (BtQ L1745-1746)."""
    assert purchase_terms(wealth=2, state=HEALTHY, cost=5).mode == "forbidden"
    assert purchase_terms(wealth=4, state=HEALTHY, cost=3).mode == "automatic"
    assert purchase_terms(wealth=4, state=HEALTHY, cost=3, available=False).mode == "test"
    assert purchase_terms(wealth=4, state=HEALTHY, cost=4).mode == "test"
    six = purchase_terms(wealth=4, state=HEALTHY, cost=6)
    assert (six.mode, six.opposition) == ("test", 6)
    assert purchase_terms(wealth=4, state=HEALTHY, cost=7).mode == "forbidden"
    assert purchase_terms(wealth=4, state=DEAD, cost=1).mode == "forbidden"
    maimed = purchase_terms(wealth=4, state=MAIMED, cost=3)
    assert (maimed.mode, maimed.gate) == ("automatic", True)
    assert purchase_terms(wealth=4, state=HEALTHY, cost=4, rarity="rare").opposition == 6
    with pytest.raises(WealthError):
        purchase_terms(wealth=11, state=HEALTHY, cost=1)


def test_missions_tv11_and_tv17_lonsdale_fails_his_wealth_test_for_a_dress_uniform():
    """missions TV-11 and characters TV-17: Captain Lonsdale's Wealth test (BtQ L1749-1753)."""
    uniform = price_item("officers_dress_uniform")
    assert uniform.cost == 5
    terms = purchase_terms(wealth=4, state=HEALTHY, cost=uniform.cost, opposition=4)
    assert (terms.mode, terms.opposition) == ("test", 4)  # the GM set 4 cards (A2)
    lonsdale = Side("pc:lonsdale", Pool("Wealth", 4), PLAYER_DECK, at_risk=AtRisk("Wealth"))
    record = static_test(lonsdale, terms.opposition,
                         ScriptedSource("2D  10C 3C 10H 3S  5D 10S QH AH"))
    assert (record.winner, record.result) == (DIFFICULTY, SuccessLevel.ORDINARY)
    [damage] = record.damage
    assert (damage.before, damage.after) == (HEALTHY, INJURED)
    # the next Wealth test is at -1 card
    assert purchase_terms(wealth=4, state=INJURED, cost=5).mode == "test"


def test_the_price_list_is_the_books_forty_items():
    assert len(PRICE_LIST) == 40
    assert PRICES["ships_cat"].cost == 1
    assert PRICES["purchase_country_estate"].cost == 8
    assert {i.category for i in PRICE_LIST} == {
        "Clothes", "Weapons", "Livestock & Animals", "Services", "Accommodation",
        "Entertainment"}


def test_missions_tv12_prize_share_lookup():
    """missions TV-12: the prize share lookup (BtQ L1772-1773)."""
    assert automatic_successes(prize_entries("captain", "rated_1_3"), 4) == 4
    assert automatic_successes(prize_entries("captain", "rated_1_3"), 6) == 2
    assert automatic_successes(prize_entries("captain", "rated_1_3"), 7) == 0
    assert automatic_successes(prize_entries("seaman", "unrated"), 1) == 1
    assert automatic_successes(prize_entries("seaman", "unrated"), 2) == 1
    assert automatic_successes(prize_entries("seaman", "unrated"), 3) == 0
    assert automatic_successes(prize_entries("lieutenant", "unrated"), 1) == 3
    # the book's own example: 4(3), three automatic successes against 4
    assert automatic_successes(prize_entries("captain", "rated_4_6"), 4) == 3
    assert sum(len(cells) for cells in PRIZE_TABLE.values()) == 18


def test_prize_rows_and_classes_follow_rank_and_the_captured_ships_rate():
    assert prize_row("Master") == "warrant_officer"
    assert prize_row("Midshipman") == "midshipman"
    assert prize_row("Gunner's Mate") == "warrant_officer"
    assert prize_row("Gunner's Mate", {"petty_officer_tier": "rating"}) == "able_seaman"
    assert prize_row("Able Seaman") == "able_seaman"
    assert prize_row("Landsman") == "seaman"
    assert prize_row("Commander") == "captain"
    assert prize_row("Passenger") is None
    assert [prize_class(r) for r in (None, 6, 4, 3, 1)] == [
        "unrated", "rated_4_6", "rated_4_6", "rated_1_3", "rated_1_3"]


def test_a_prize_shares_automatic_successes_turn_a_lost_wealth_test_into_a_win():
    lonsdale = Side("pc:lonsdale", Pool("Wealth", 4), PLAYER_DECK, at_risk=AtRisk("Wealth"))
    record = static_test(lonsdale, 4, ScriptedSource("2D  10C 3C 10H 3S  5D 10S QH AH"))
    judged = rejudge_with_automatic(record.as_dict(), "pc:lonsdale", 2)
    assert judged == {"outcome": "won", "winner": "pc:lonsdale", "loser": DIFFICULTY,
                      "result": "ordinary", "round": 1, "changed": True}
    # one automatic success ties the GM's one Ordinary and ranks below its 5D
    assert rejudge_with_automatic(record.as_dict(), "pc:lonsdale", 1)["winner"] == DIFFICULTY


# --- Grog ----------


def _guts(who: str, guts: int, *modifiers) -> Side:
    return Side(who, Pool("guts", guts, modifiers=list(modifiers)), PLAYER_DECK)


def test_missions_tv13_higgins_gains_dutch_courage_and_kent_loses_a_card():
    """missions TV-13: grog (BtQ L1862-1868)."""
    spirits = drink("spirits")[1]
    assert spirits == 6
    # Higgins, Guts 2, turns the Card of Fate itself: a Perfect beats the grog's Critical
    higgins = static_test(_guts("pc:higgins", 2), spirits,
                          ScriptedSource("4S  4S 2H  5S 4H 3D 7C 9D JC"))
    assert higgins.winner == "pc:higgins"
    effect = grog_effect(won=True, best=higgins.result,
                         grog_best=higgins.rounds[-1].hand(DIFFICULTY).best)
    assert 4 + effect == 5
    # Kent, Guts 5 + Iron Stomach 1 = 6 cards, loses to the grog's one Ordinary
    kent = static_test(_guts("pc:kent", 5, IRON_STOMACH), spirits,
                       ScriptedSource("9H  2C 3C 4C 5C 6C 7C  10H 2D 3D 4D 5D 6D"))
    assert kent.sides[0].pool.size() == 6
    assert kent.winner == DIFFICULTY
    effect = grog_effect(won=False, best=None, grog_best=kent.result)
    assert 3 + effect == 2


def test_grog_failed_critically_is_minus_three_and_a_plain_win_is_nothing():
    assert grog_effect(won=False, best=None, grog_best=SuccessLevel.CRITICAL) == -3
    assert grog_effect(won=True, best=SuccessLevel.CRITICAL, grog_best=None) == 0
    other = {"grog_critical_failure": "no_success"}
    assert grog_effect(won=False, best=None, grog_best=SuccessLevel.ORDINARY,
                       settings=other) == -3
    assert grog_effect(won=False, best=SuccessLevel.ORDINARY, grog_best=SuccessLevel.CRITICAL,
                       settings=other) == -1
    with pytest.raises(ShipboardError):
        drink("rum punch")


# --- The Captain's Favour -------------------------------------------------------------------------


def test_missions_tv14_johnson_wins_the_captains_favour_and_spends_it_in_the_storm():
    """missions TV-14: the Captain's Favour (BtQ L1891-1898)."""
    johnson = Pool("seamanship", 2, reputation=Reputation("Cuthbert Collingwood", 4, cap=4))
    assert johnson.size() == 6
    assert scene_token("captains_table", pc_won=True) == "favour"
    assert scene_token("captains_table", pc_won=False) == "ire"
    assert scene_token("gun_deck", pc_won=False) == "shame"
    storm = Pool("seamanship", 2, modifiers=[tuple(token_modifier("favour").values())])
    assert storm.size() == 6
    assert token_modifier("shame")["cards"] == -4


# --- Articles of War ----------


def test_the_thirty_six_articles_and_their_punishments():
    assert len(ARTICLES) == 36
    assert check_punishment(27, "captains_discretion", lashes=12) == ("captains_discretion",)
    assert check_punishment(8, "court_martial") == ("loss_of_prize", "court_martial")
    assert check_punishment(34, "death", broken_on_ship=19) == ("death",)
    for bad in ((11, "captains_discretion", 0), (2, "captains_discretion", 13),
                (19, "death", 3)):
        with pytest.raises(ShipboardError):
            check_punishment(bad[0], bad[1], lashes=bad[2])
    with pytest.raises(ShipboardError):
        check_punishment(37, "none")


# --- Promotion ----------


def test_missions_tv15_and_tv20_seaman_to_gunners_mate():
    """missions TV-15 and characters TV-20: the Mate promotion (BtQ L2170-2171)."""
    skills = {"awareness": 2, "gunnery": 2, "engineering": 2}
    checks = prerequisites("mate", skills=skills, voyages_since=1, profession="gunner",
                           vacancy=True)
    assert [c.key for c in checks] == [
        "voyages", "skill:awareness", "skill:gunnery", "skill:engineering", "vacancy"]
    assert eligible(checks)
    # TV-20: each of the three skills at 2, one Voyage since Seaman, a vacancy
    for missing in ({"voyages_since": 0}, {"vacancy": False}):
        args = {"voyages_since": 1, "vacancy": True, **missing}
        assert not eligible(prerequisites("mate", skills=skills, profession="gunner", **args))
    # TV-15: Engineering 1 is not enough
    short = prerequisites("mate", skills={"awareness": 2, "gunnery": 3, "engineering": 1},
                          voyages_since=1, profession="gunner", vacancy=True)
    assert [c.key for c in short if not c.met] == ["skill:engineering"]


def test_missions_tv16_the_lieutenants_examination():
    """missions TV-16: the Lieutenant's Examination (derived, BtQ L2191-2193)."""
    assert EXAMINATION == ("maritime", "seamanship", "command") and EXAMINATION_POOL == 3
    assert examination_next([]) == {"status": "next", "challenge": 0, "skill": "maritime"}
    assert examination_next([True, False]) == {"status": "failed", "challenge": 1}
    assert examination_next([True, True, True]) == {"status": "passed"}
    with pytest.raises(PromotionError):
        examination_next([False, True])
    # drawn: Maritime 3 wins against 3 cards, Seamanship 2 loses
    source = ScriptedSource("5H  5C 2S 3S  6D 7D 8D   KS  2D 3D  QS 4H 4C")
    first = static_test(Side("pc:mid", Pool("maritime", 3), PLAYER_DECK), EXAMINATION_POOL,
                        source)
    second = static_test(Side("pc:mid", Pool("seamanship", 2), PLAYER_DECK), EXAMINATION_POOL,
                         source)
    results = [first.winner == "pc:mid", second.winner == "pc:mid"]
    assert examination_next(results)["status"] == "failed"
    mission = PROMOTION_MISSIONS["examination_for_lieutenant"]
    assert (mission["challenges"], mission["deadline_failures"]) == (3, 1)
    locked = prerequisites("lieutenant", skills={}, voyages_since=2, locked=True)
    assert [c.key for c in locked if not c.met] == ["retry"]


def test_the_promotion_missions_keep_to_their_budgets():
    for mission in PROMOTION_MISSIONS.values():
        assert sum(r["cost"] for r in mission["rewards"]) <= mission["challenges"]
        assert sum(f["cost"] for f in mission["failures"]) <= mission["challenges"]
    assert set(PATHS) == {"seaman", "mate", "warrant_officer", "lieutenant"}
    ward_room = PROMOTION_MISSIONS["enter_the_ward_room"]
    assert sum(f["cost"] for f in ward_room["failures"]) == 7
