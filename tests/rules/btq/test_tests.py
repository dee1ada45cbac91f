"""Every kind of BtQ card test through the kernel (rules/btq/tests.py).

The book's examples are rules/btq_characters.md §7 TV-10 to TV-17 (BtQ L1202-1426, L1749-1753),
played with ScriptedSource and the book's cards. Draw order: the Card of Fate, then each side
in the order given (in a static test the character, then the difficulty pool).
"""

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.btq.characters import DamageState
from rules.btq.settings import SettingError
from rules.btq.tests import (
    DIFFICULTIES,
    DIFFICULTY,
    AtRisk,
    Helper,
    Modifier,
    PendingTest,
    Pool,
    Reputation,
    Side,
    SuccessLevel,
    TestError,
    TestRecord,
    check_sides,
    compare,
    compare_successes,
    contested_test,
    crusty_old_seadog,
    damage_after,
    damage_penalty,
    grade,
    overcome_great_hardship,
    resume,
    simple_test,
    start_contested,
    start_simple,
    static_test,
    successes,
    summary,
    victor,
    won_to_none,
)
from rules.cards import (
    ALL_CARDS,
    GM_DECK,
    PLAYER_DECK,
    STANDARD_52,
    CardError,
    Deck,
    deck_cards,
    parse_card,
    parse_cards,
)
from rules.random import ScriptedSource, SeededSource

HEALTHY, INJURED, MAIMED, DEAD = DamageState
ORDINARY, CRITICAL, PERFECT = SuccessLevel.ORDINARY, SuccessLevel.CRITICAL, SuccessLevel.PERFECT
DISTRUSTED = "Distrusted by Captain Jones"


def otoole(skill="seamanship", value=4, crusty="maritime", **pool):
    """Master O'Toole's Seamanship pool as in TV-10 (BtQ L1210-1212), Charm 3."""
    mods = [m for m in (crusty_old_seadog(skill, {"crusty_old_seadog_skill": crusty}),) if m]
    pool.setdefault("reputation", Reputation(DISTRUSTED, 1, cap=3))
    return Side("pc:otoole", Pool(skill, value, modifiers=mods, **pool), PLAYER_DECK)


JONES = Side("npc:jones", Pool("seamanship", 4), GM_DECK, secret=True)


def roundtrip(obj):
    data = json.loads(json.dumps(obj.as_dict()))
    return type(obj).from_dict(data)


# --- TV-10 Card-pool construction (BtQ L1202-1216) -------------------------------------


def test_tv10_crusty_old_seadog_adds_to_maritime_by_default_pool_5():
    assert crusty_old_seadog("seamanship") is None
    assert crusty_old_seadog("maritime") == Modifier("Crusty Old Seadog", 1)
    pool = otoole().pool
    assert pool.size() == 5
    assert pool.explain() == "Seamanship 4 + Distrusted by Captain Jones 1 = 5"


def test_tv10_crusty_old_seadog_on_seamanship_as_the_books_example_pool_6():
    settings_ = {"crusty_old_seadog_skill": "seamanship"}
    assert crusty_old_seadog("maritime", settings_) is None
    pool = otoole(crusty="seamanship").pool
    assert pool.size() == 6
    assert pool.lines() == (("Seamanship", 4), ("Crusty Old Seadog", 1), (DISTRUSTED, 1))
    assert JONES.pool.size() == 4


def test_tv10_a_curio_that_does_not_apply_adds_nothing_but_is_recorded():
    pool = Pool("seamanship", 4, modifiers=[("Reef Map of the West Indies (wrong waters)", 0)])
    assert pool.size() == 4
    assert pool.modifiers == (Modifier("Reef Map of the West Indies (wrong waters)", 0),)


# --- TV-11 Contested test (BtQ L1223-1242) ----------------------------------------------

TV11_A = "4S  4C KD 3S QH JH 2C  4H AH 2D 7S"  # the cards as printed in the draw list
TV11_B = "4S  4C KD KS QH JH 2C  4H AH 2D 7S"  # as the narration reads them


def test_tv11_grading_of_both_hands():
    record = contested_test(otoole(crusty="seamanship"), JONES, ScriptedSource(TV11_A))
    first = record.rounds[0]
    assert str(first.fate) == "4S"
    mine, his = first.hand("pc:otoole"), first.hand("npc:jones")
    assert mine.levels == (CRITICAL, 0, ORDINARY, 0, 0, 0)
    assert his.levels == (CRITICAL, 0, 0, ORDINARY)
    assert mine.summary == his.summary == (0, 1, 1)
    assert mine.deck == "pc:otoole" and his.deck == "gm"


@pytest.mark.parametrize("mode, expected", [("one_step", INJURED), ("severity", MAIMED)])
def test_tv11_variant_a_jones_wins_and_the_reputation_is_damaged(mode, expected):
    record = contested_test(otoole(crusty="seamanship"), JONES, ScriptedSource(TV11_A),
                            {"crusty_old_seadog_skill": "seamanship",
                             "reputation_loss_mode": mode})
    assert record.outcome == "won"
    assert (record.winner, record.loser) == ("npc:jones", "pc:otoole")
    assert record.result == CRITICAL
    comparison = record.rounds[-1].comparison
    assert (comparison.result, comparison.by, comparison.position) == ("b", "tie_break", 2)
    assert (comparison.a, comparison.b) == ("3S", "7S")
    [damage] = record.damage
    assert (damage.who, damage.area, damage.cause) == ("pc:otoole", DISTRUSTED, "reputation")
    assert (damage.before, damage.after) == (HEALTHY, expected)
    assert record.settings["reputation_loss_mode"] == mode


def test_tv11_variant_b_otoole_wins_and_no_reputation_is_damaged():
    record = contested_test(otoole(crusty="seamanship"), JONES, ScriptedSource(TV11_B))
    assert (record.winner, record.loser) == ("pc:otoole", "npc:jones")
    assert record.result == CRITICAL
    comparison = record.rounds[-1].comparison
    assert (comparison.by, comparison.a, comparison.b) == ("tie_break", "KS", "7S")
    assert record.damage == ()
    assert record.retests == 0


def test_a_reputation_already_injured_drops_to_maimed_and_reduces_the_pool():
    rep = Reputation(DISTRUSTED, 2, cap=3, state=INJURED)
    side = otoole(crusty="seamanship", reputation=rep)
    assert side.pool.lines()[-2:] == ((DISTRUSTED, 2), (f"{DISTRUSTED} Injured", -1))
    assert side.pool.size() == 6
    record = contested_test(side, JONES, ScriptedSource("4S  4C KD 3S QH JH 2C  4H AH 2D 7S"))
    assert record.winner == "npc:jones"
    assert (record.damage[0].before, record.damage[0].after) == (INJURED, MAIMED)


def test_a_reputation_over_its_cap_counts_as_the_cap():
    rep = Reputation("Protected by Captain Hardy", 3, cap=2)
    assert rep.effective == 2 and rep.over_cap
    pool = Pool("diplomacy", 2, reputation=rep)
    assert pool.size() == 4
    assert pool.lines()[1] == ("Protected by Captain Hardy (capped at 2)", 2)
    assert Reputation("Trusted by HMS Hermes", 3).effective == 3


def test_a_maimed_reputation_adds_its_value_less_three():
    pool = Pool("courtesy", 2, reputation=Reputation("Loved by Lady Pemberton", 1, state=MAIMED))
    assert pool.size() == 0
    assert pool.explain() == ("Courtesy 2 + Loved by Lady Pemberton 1 - Loved by Lady "
                              "Pemberton Maimed 3 = 0")


def test_the_winner_deals_its_best_success_to_the_losers_area_at_risk():
    # A fight: both sides' Health at risk; only the loser is hurt (BtQ L1297-1328).
    a = Side("pc:a", Pool("brawl", 2), PLAYER_DECK, at_risk=AtRisk("Health", INJURED))
    b = Side("npc:b", Pool("brawl", 2), GM_DECK, at_risk=AtRisk("Health"))
    record = contested_test(a, b, ScriptedSource("9H  2C 3D  9C 2H"))
    assert (record.winner, record.result) == ("npc:b", CRITICAL)
    [damage] = record.damage
    assert (damage.who, damage.area, damage.cause, damage.level) == ("pc:a", "Health",
                                                                     "at_risk", CRITICAL)
    assert (damage.before, damage.after) == (INJURED, DEAD)


def test_a_reputation_that_is_the_area_at_risk_is_damaged_once_by_severity():
    rep = Reputation(DISTRUSTED, 1)
    side = Side("pc:otoole", Pool("intrigue", 1, reputation=rep), PLAYER_DECK,
                at_risk=AtRisk(DISTRUSTED))
    record = contested_test(side, JONES, ScriptedSource("4S  2C 3D  4H 5D 6D 7D"))
    assert [(d.area, d.cause, d.after) for d in record.damage] == [(DISTRUSTED, "at_risk", MAIMED)]


def test_a_losing_reputation_and_a_separate_area_at_risk_are_both_damaged():
    side = Side("pc:otoole", Pool("intrigue", 1, reputation=Reputation(DISTRUSTED, 1)),
                PLAYER_DECK, at_risk="Wealth")
    record = contested_test(side, JONES, ScriptedSource("4S  2C 3D  4H 5D 6D 7D"))
    assert [(d.area, d.cause, d.level, d.after) for d in record.damage] == [
        ("Wealth", "at_risk", CRITICAL, MAIMED), (DISTRUSTED, "reputation", ORDINARY, INJURED)]


@pytest.mark.parametrize("state, level, after", [
    (HEALTHY, ORDINARY, INJURED), (HEALTHY, CRITICAL, MAIMED), (HEALTHY, PERFECT, DEAD),
    (INJURED, ORDINARY, MAIMED), (INJURED, CRITICAL, DEAD), (INJURED, PERFECT, DEAD),
    (MAIMED, ORDINARY, DEAD), (MAIMED, CRITICAL, DEAD), (MAIMED, PERFECT, DEAD),
])
def test_damage_states_table(state, level, after):
    """BtQ L1305-1328; rules/btq_characters.md §5.1."""
    assert damage_after(state, level) == after


def test_tv18_a_maimed_wound_on_injured_wealth_leaves_it_dead():
    """TV-18: Wealth 3 at Injured takes a mission failure's "Wealth MAIMED" (a Critical's
    two levels): Dead; a Mission brings it back to Maimed (BtQ L1544-1545, L1365)."""
    from rules.btq.damage import heal_route

    assert damage_after(INJURED, CRITICAL) == DEAD
    assert heal_route("wealth", DEAD).method == "mission"
    assert heal_route("wealth", DEAD).to == MAIMED


# --- TV-12 Static test (BtQ L1253-1264) -------------------------------------------------


def test_tv12_static_test_against_a_challenging_pool():
    awareness = Side("pc:otoole", Pool("awareness", 2), PLAYER_DECK)
    record = static_test(awareness, "challenging", ScriptedSource("10S  10S 2H  4H 2D 8D 3C 2C"))
    assert record.kind == "static"
    difficulty = record.side(DIFFICULTY)
    assert (difficulty.pool.skill, difficulty.pool.size(), difficulty.deck) == (
        "Challenging", 5, GM_DECK)
    assert record.rounds[0].hand(DIFFICULTY).summary == (0, 0, 0)
    assert (record.winner, record.loser, record.result) == ("pc:otoole", DIFFICULTY, PERFECT)
    assert record.rounds[0].comparison.by == "perfect"


@pytest.mark.parametrize("name, cards", [
    ("easy", 1), ("Routine", 3), ("challenging", 5), ("Damned Hard!", 7), ("damned_hard", 7),
    ("heroic effort", 9), (4, 4),
])
def test_difficulty_pools(name, cards):
    """BtQ L1258-1260; a number is an opposition pool the GM sets (BtQ L1747)."""
    record = static_test(Side("pc:x", Pool("awareness", 1), PLAYER_DECK), name, SeededSource(1))
    assert len(record.rounds[0].hand(DIFFICULTY).cards) == cards
    assert DIFFICULTIES == {"easy": 1, "routine": 3, "challenging": 5, "damned_hard": 7,
                            "heroic_effort": 9}


@pytest.mark.parametrize("bad", ["impossible", -1, 2.5, True])
def test_an_unknown_difficulty_is_refused(bad):
    with pytest.raises(TestError):
        static_test(Side("pc:x", Pool("awareness", 1), PLAYER_DECK), bad, SeededSource(1))


# --- TV-13 Unskilled test (BtQ L1266-1272) ----------------------------------------------


def test_tv13_unskilled_test_turns_one_card_and_a_perfect_counts_as_ordinary():
    intrigue = Side("pc:otoole", Pool("intrigue", 0, unskilled=True), PLAYER_DECK)
    assert intrigue.pool.size() == 1
    assert intrigue.pool.explain() == "Intrigue unskilled: one card 1 = 1"
    record = simple_test(intrigue, ScriptedSource("6H 6H"))
    assert record.rounds[0].hand("pc:otoole").levels == (ORDINARY,)
    assert (record.outcome, record.winner, record.result) == ("passed", "pc:otoole", ORDINARY)


def test_an_unskilled_side_in_a_contested_test_is_capped_too():
    intrigue = Side("pc:otoole", Pool("intrigue", 0, unskilled=True), PLAYER_DECK)
    npc = Side("npc:spy", Pool("intrigue", 1), GM_DECK)
    record = contested_test(intrigue, npc, ScriptedSource("6H  6H  6D"))
    # capped Ordinary 6 against a Critical 6: the spy wins
    assert (record.winner, record.result) == ("npc:spy", CRITICAL)


@pytest.mark.parametrize("extra, message", [
    ({"reputation": Reputation("Admired by the Admiral", 2)}, "no reputation"),
    ({"helpers": [("Smith", 3)]}, "no helpers"),
])
def test_an_unskilled_pool_takes_no_reputation_or_helpers(extra, message):
    with pytest.raises(TestError, match=message):
        Pool("intrigue", 0, unskilled=True, **extra)


def test_setting_unskilled_traits():
    """A9: by default a trait or equipment adds nothing to an unskilled test ("you can
    overturn a single card", BtQ L1268); under ``unskilled_traits`` its cards are turned
    too, each still an Ordinary success at best (BtQ L1269-1272)."""
    side = Side("pc:otoole", Pool("intrigue", 0, modifiers=[("Cutpurse", 1)], unskilled=True),
                PLAYER_DECK)
    with pytest.raises(TestError, match="Cutpurse cannot add"):
        simple_test(side, ScriptedSource("6H  2C 6H"))
    with pytest.raises(TestError, match="Cutpurse cannot add"):
        check_sides("simple", (side,), {"unskilled_traits": False})
    record = simple_test(side, ScriptedSource("6H  2C 6H"), {"unskilled_traits": True})
    assert side.pool.explain() == "Intrigue unskilled: one card 1 + Cutpurse 1 = 2"
    assert [str(c) for c in record.rounds[0].hand("pc:otoole").cards] == ["2C", "6H"]
    assert (record.outcome, record.result) == ("passed", ORDINARY)
    assert record.settings["unskilled_traits"] is True
    # A penalty is no addition: it was taken under either reading.
    hurt = Side("pc:a", Pool("intrigue", 0, modifiers=[damage_penalty("Health", INJURED)],
                             unskilled=True), PLAYER_DECK)
    assert simple_test(hurt, ScriptedSource("6H")).rounds[0].hands[0].cards == ()


def test_an_unskilled_pool_has_no_skill_value_and_still_takes_penalties():
    with pytest.raises(TestError, match="no skill"):
        Pool("intrigue", 2, unskilled=True)
    pool = Pool("intrigue", 0, unskilled=True, modifiers=[damage_penalty("Health", INJURED)])
    assert pool.size() == 0
    assert pool.size(floor=1) == 1


# --- TV-14 Assisted test (BtQ L1280-1286) -----------------------------------------------


def test_tv14_a_helper_adds_at_most_three():
    pool = Pool("seamanship", 5, helpers=[Helper("Midshipman Jones", 4)])
    assert pool.size() == 8
    assert pool.lines()[-1] == ("help from Midshipman Jones (4, at most 3)", 3)
    record = static_test(Side("pc:otoole", pool, PLAYER_DECK), "damned_hard", SeededSource(8))
    assert len(record.rounds[0].hand("pc:otoole").cards) == 8
    assert len(record.rounds[0].hand(DIFFICULTY).cards) == 7


def test_the_pool_line_names_each_helper_s_cards_once():
    """"helped by Midshipman Smith 2 2 = 6 cards" repeated the number; one helper within the
    cap shows it once, several show what each adds."""
    one = Pool("seamanship", 4, helpers=[Helper("Midshipman Smith", 2)])
    assert one.explain() == "Seamanship 4 + help from Midshipman Smith 2 = 6"
    two = Pool("seamanship", 4, helpers=[Helper("Smith", 2), Helper("Jones", 1)])
    assert two.explain() == "Seamanship 4 + help from Smith and Jones (2 + 1) 3 = 7"


@pytest.mark.parametrize("helpers, size", [
    ([("A", 2), ("B", 2)], 8),           # +3 at most in total
    ([("A", 2), ("B", 0)], 6),           # +2 - 1
    ([("A", 1)], 6),
    ([("A", 0), ("B", 0)], 3),           # each unskilled helper -1
    ([{"who": "A", "skill": 3}], 8),
])
def test_tv14_derived_cases(helpers, size):
    assert Pool("seamanship", 5, helpers=helpers).size() == size


# --- TV-15 Maimed Health: the Guts gate and the Skullduggery pool (BtQ L1314-1324) ------


def test_tv15_the_guts_gate_is_a_simple_test_against_a_lone_card_of_fate():
    guts = Side("pc:otoole", Pool("guts", 4), PLAYER_DECK)
    passed = simple_test(guts, ScriptedSource("9C  2C 5H KD 8S"), intent="crawl into the trees")
    assert passed.kind == "simple" and passed.intent == "crawl into the trees"
    assert (passed.outcome, passed.winner, passed.result) == ("passed", "pc:otoole", ORDINARY)
    assert len(passed.rounds) == 1 and len(passed.rounds[0].hands) == 1
    failed = simple_test(guts, ScriptedSource("9C  2H 5H KD 8S"))
    assert (failed.outcome, failed.winner, failed.result) == ("failed", None, None)
    assert failed.rounds[0].comparison.by == "no_success"
    assert failed.damage == ()


def test_tv15_hard_as_nails_adds_three_to_the_gate():
    guts = Pool("guts", 4, modifiers=[("Hard as Nails", 3)])
    assert guts.size() == 7


def test_tv15_skullduggery_while_maimed_is_0_cards_by_default_and_1_with_the_floor():
    penalty = damage_penalty("Health", MAIMED)
    assert penalty == Modifier("Health Maimed", -3)
    pool = Pool("skullduggery", 3, modifiers=[penalty])
    assert pool.size() == 0
    assert pool.size(floor=1) == 1
    assert pool.explain(floor=1) == "Skullduggery 3 - Health Maimed 3 = 0, at least 1 card"
    assert pool.explain() == "Skullduggery 3 - Health Maimed 3 = 0"
    assert Pool("skullduggery", 1, modifiers=[penalty]).explain() == \
        "Skullduggery 1 - Health Maimed 3 = 0"  # never below 0 cards (D2)
    side = Side("pc:otoole", pool, PLAYER_DECK)
    nothing = simple_test(side, ScriptedSource("9C"))
    assert nothing.rounds[0].hand("pc:otoole").cards == ()
    assert nothing.outcome == "failed"
    one = simple_test(side, ScriptedSource("9C  3C"), {"personal_pool_floor": 1})
    assert one.rounds[0].hand("pc:otoole").cards == (parse_card("3C"),)
    assert one.outcome == "passed"


def test_the_floor_does_not_raise_a_pool_that_is_not_personal():
    assert Pool("Broadside!", 3, modifiers=[("Guns Maimed", -3)], personal=False).size(1) == 0


def test_damage_penalties():
    assert damage_penalty("Wealth", HEALTHY) is None
    assert damage_penalty("Wealth", "injured") == Modifier("Wealth Injured", -1)
    assert damage_penalty("Ship Morale", 2) == Modifier("Ship Morale Maimed", -3)
    with pytest.raises(TestError, match="Health is Dead"):
        damage_penalty("Health", DEAD)
    with pytest.raises(TestError, match="not a damage state"):
        damage_penalty("Health", "bruised")


# --- TV-16 Overcoming Great Hardship (BtQ L1415-1426) -----------------------------------


def test_tv16_edwards_spends_a_point_of_discipline_to_fight_without_penalty():
    rule = {"great_hardship": True}
    assert overcome_great_hardship(3, rule) == 2
    without = Pool("gunnery", 4, modifiers=[damage_penalty("Ship Morale", MAIMED)])
    assert without.size() == 1
    with pytest.raises(TestError, match="does not use the optional rule"):
        overcome_great_hardship(3)
    with pytest.raises(TestError, match="below 1"):
        overcome_great_hardship(1, rule)


# --- TV-17 Wealth test and damage (BtQ L1745-1753) --------------------------------------


def test_tv17_lonsdale_loses_his_wealth_test_and_wealth_is_injured():
    lonsdale = Side("pc:lonsdale", Pool("Wealth", 4), PLAYER_DECK, at_risk=AtRisk("Wealth"))
    record = static_test(lonsdale, 4, ScriptedSource("2D  10C 3C 10H 3S  5D 10S QH AH"))
    assert record.rounds[0].hand("pc:lonsdale").summary == (0, 0, 0)
    assert record.rounds[0].hand(DIFFICULTY).summary == (0, 0, 1)
    assert (record.winner, record.loser, record.result) == (DIFFICULTY, "pc:lonsdale", ORDINARY)
    [damage] = record.damage
    assert (damage.area, damage.before, damage.after) == ("Wealth", HEALTHY, INJURED)
    later = Pool("Wealth", 4, modifiers=[damage_penalty("Wealth", damage.after)])
    assert later.size() == 3


# --- D3: mutual failure and full ties are retested with a new Card of Fate --------------


def test_a_mutually_failed_test_is_retested_with_a_new_card_of_fate():
    a = Side("pc:a", Pool("awareness", 1), PLAYER_DECK)
    b = Side("npc:b", Pool("awareness", 1), GM_DECK)
    # round 1 both fail; round 2 the old Card of Fate (2S) is back in the GM deck and is
    # turned by the NPC, and a new Card of Fate decides it
    source = ScriptedSource("2S  3H  4D   5D  6D  2S")
    record = contested_test(a, b, source)
    assert [str(r.fate) for r in record.rounds] == ["2S", "5D"]
    assert record.rounds[0].comparison.result == "both_failed"
    assert (record.winner, record.retests) == ("pc:a", 1)
    assert [d.purpose for d in source.log] == [
        "card of fate", "pc:a pool", "npc:b pool",
        "card of fate, retest 1", "pc:a pool, retest 1", "npc:b pool, retest 1"]


def test_a_full_tie_is_retested():
    a = Side("pc:a", Pool("awareness", 1), PLAYER_DECK)
    b = Side("npc:b", Pool("awareness", 1), GM_DECK)
    # 7S from the PC's deck and 7S from the GM deck tie all the way down
    record = contested_test(a, b, ScriptedSource("5S  7S  7S   5S  8S  7S"))
    assert record.rounds[0].comparison.result == "tie"
    assert record.rounds[0].comparison.by == "full_tie"
    assert record.rounds[1].comparison.by == "tie_break"
    assert record.winner == "pc:a"


def test_setting_retest_fate():
    """A6: by default a retest turns a new Card of Fate (D3); under ``retest_fate = "same"``
    the first one stays out of the GM deck and stands (the book says only "redraw the same
    number of cards", BtQ L1276)."""
    a = Side("pc:a", Pool("awareness", 1), PLAYER_DECK)
    b = Side("npc:b", Pool("awareness", 1), GM_DECK)
    source = ScriptedSource("2S  3H  4D   2H  6D")
    record = contested_test(a, b, source, {"retest_fate": "same"})
    assert [str(r.fate) for r in record.rounds] == ["2S", "2S"]
    assert (record.winner, record.result, record.retests) == ("pc:a", CRITICAL, 1)
    assert [d.purpose for d in source.log] == [
        "card of fate", "pc:a pool", "npc:b pool", "pc:a pool, retest 1", "npc:b pool, retest 1"]
    assert record.settings["retest_fate"] == "same"
    # The Card of Fate is out of the GM deck in the retest too: the NPC cannot turn it.
    with pytest.raises(CardError):
        contested_test(a, b, ScriptedSource("2S  3H  4D   5D  2S"), {"retest_fate": "same"})
    # A retest paused by a Joker keeps the first Card of Fate when it is resumed.
    source = ScriptedSource("2S  JK  4D   JK  6D")
    first = start_contested(a, b, source, {"retest_fate": "same"})
    second = resume(PendingTest.from_dict(json.loads(json.dumps(first.as_dict()))),
                    {"pc:a": "3H"}, source)
    assert str(second.current.fate) == "2S"
    record = resume(second, {"pc:a": None}, source)
    assert (record.winner, record.result) == ("pc:a", PERFECT)


def test_by_default_a_record_carries_none_of_the_settings_left_at_the_book_reading():
    record = contested_test(Side("pc:a", Pool("awareness", 1), PLAYER_DECK),
                            Side("npc:b", Pool("awareness", 1), GM_DECK),
                            ScriptedSource("2S  2H  4D"))
    assert set(record.settings) == {"reputation_loss_mode", "personal_pool_floor",
                                    "max_retests"}


@pytest.mark.parametrize("kind", ["contested", "static"])
def test_setting_full_tie(kind):
    """A5: by default a full tie is retested as a mutual failure (D3); under ``full_tie =
    "defender"`` the defending side wins it at once: the opposition (``b``) unless the caller
    names the other, the difficulty in a static test (the book is silent, BtQ L1238-1239)."""
    a = Side("pc:a", Pool("awareness", 1), PLAYER_DECK, at_risk="Health")
    b = Side("npc:b", Pool("awareness", 1), GM_DECK)
    cards = "5S  7S  7S   5S  8S  7S"

    def play(settings, **kw):
        if kind == "static":
            return static_test(a, "easy", ScriptedSource(cards), settings)
        return contested_test(a, b, ScriptedSource(cards), settings, **kw)

    defender = DIFFICULTY if kind == "static" else "npc:b"
    record = play({})
    assert (record.winner, record.retests) == ("pc:a", 1)
    record = play({"full_tie": "defender"})
    assert record.rounds[0].comparison.by == "full_tie"
    assert (record.outcome, record.winner, record.loser, record.retests) == (
        "won", defender, "pc:a", 0)
    assert record.result == ORDINARY
    assert [(d.who, d.area, d.after) for d in record.damage] == [
        ("pc:a", "Health", DamageState.INJURED)]
    assert roundtrip(record) == record
    if kind == "contested":
        record = play({"full_tie": "defender"}, defender=0)
        assert (record.winner, record.loser) == ("pc:a", "npc:b")
        # A mutual failure is still retested.
        record = contested_test(a, b, ScriptedSource("2S  3H  4D   5S  5H  7D"),
                                {"full_tie": "defender"})
        assert (record.winner, record.retests) == ("pc:a", 1)


def test_a_paused_full_tie_keeps_its_defender():
    a = Side("pc:a", Pool("awareness", 1), PLAYER_DECK)
    b = Side("npc:b", Pool("awareness", 1), GM_DECK)
    source = ScriptedSource("5S  JK  7S")
    first = start_contested(a, b, source, {"full_tie": "defender"}, defender=0)
    stored = json.loads(json.dumps(first.as_dict()))
    assert stored["settings"]["defender"] == 0
    record = resume(PendingTest.from_dict(stored), {"pc:a": "7S"}, source)
    assert (record.winner, record.retests) == ("pc:a", 0)


def _failing_rounds(n, a_cards="3H"):
    return "  ".join([f"2S {a_cards} 4D"] * n)


def test_after_ten_retests_the_test_is_a_stalemate_and_nothing_changes():
    a = Side("pc:a", Pool("awareness", 1, reputation=Reputation("Feared by the crew", 1)),
             PLAYER_DECK, at_risk="Health")
    b = Side("npc:b", Pool("awareness", 1), GM_DECK, at_risk="Health")
    source = ScriptedSource(_failing_rounds(11, "3H 5H") + "  2S 2H 2D")
    record = contested_test(a, b, source)
    assert (record.outcome, record.winner, record.loser, record.result) == (
        "stalemate", None, None, None)
    assert len(record.rounds) == 11 and record.retests == 10
    assert record.damage == ()
    assert source.cards_left == 3  # no twelfth round was drawn
    assert roundtrip(record) == record


def test_the_tenth_retest_can_still_decide_the_test():
    a = Side("pc:a", Pool("awareness", 1), PLAYER_DECK)
    b = Side("npc:b", Pool("awareness", 1), GM_DECK)
    record = contested_test(a, b, ScriptedSource(_failing_rounds(10) + "  2S 2H 3D"))
    assert (record.outcome, record.winner, record.retests) == ("won", "pc:a", 10)


def test_a_static_test_that_both_fail_is_retested():
    side = Side("pc:a", Pool("awareness", 1), PLAYER_DECK)
    record = static_test(side, "easy", ScriptedSource("2S 3H 4D  9C 9C 9D"))
    assert record.retests == 1 and record.result == PERFECT and record.winner == "pc:a"


def test_a_simple_test_is_never_retested():
    record = simple_test(Side("pc:a", Pool("guts", 1), PLAYER_DECK), ScriptedSource("2S 3H"))
    assert record.outcome == "failed" and record.retests == 0


# --- Jokers (BtQ L1228; D5) ---------------------------------------------------------------


def test_by_default_a_joker_is_the_card_of_fate():
    record = contested_test(otoole(), JONES, ScriptedSource("4S  JK KD 3S QH JH  4H AH 2D 7S"))
    hand = record.rounds[0].hand("pc:otoole")
    assert str(hand.cards[0]) == "JK=4S"
    assert hand.levels[0] == PERFECT and hand.joker == "default"
    assert record.winner == "pc:otoole" and record.result == PERFECT


def test_a_joker_in_an_unskilled_test_still_counts_as_ordinary():
    side = Side("pc:otoole", Pool("intrigue", 0, unskilled=True), PLAYER_DECK)
    record = simple_test(side, ScriptedSource("6H JK"))
    assert record.rounds[0].hand("pc:otoole").levels == (ORDINARY,)
    assert record.result == ORDINARY


def test_a_scripted_declared_joker_counts_as_declared():
    record = simple_test(Side("pc:a", Pool("guts", 1), PLAYER_DECK), ScriptedSource("7D JK=7C"))
    hand = record.rounds[0].hand("pc:a")
    assert hand.joker == "declared" and hand.levels == (CRITICAL,)


def test_an_undeclared_joker_pauses_the_test_until_its_owner_names_it():
    source = ScriptedSource("4S  4C KD JK QH JH  4H AH 2D 7S")
    pending = start_contested(otoole(), JONES, source, intent="reach Portsmouth first")
    assert isinstance(pending, PendingTest)
    assert pending.awaiting == ("pc:otoole",)
    assert pending.rounds == ()
    hand = pending.current.hand("pc:otoole")
    assert hand.levels == (CRITICAL, 0, None, 0, 0) and hand.joker is None
    assert pending.current.comparison is None

    stored = json.loads(json.dumps(pending.as_dict()))  # kept by the web layer between requests
    assert stored["awaiting"] == ["pc:otoole"]
    assert stored["current"]["hands"][0]["cards"][2] == "JK"
    restored = PendingTest.from_dict(stored)
    assert restored == pending

    record = resume(restored, {"pc:otoole": "KS"}, source)
    assert isinstance(record, TestRecord)
    hand = record.rounds[0].hand("pc:otoole")
    assert str(hand.cards[2]) == "JK=KS" and hand.levels[2] == ORDINARY and hand.joker == "declared"
    assert record.winner == "pc:otoole"  # Variant B, the Joker as the King of Spades
    assert record.intent == "reach Portsmouth first"


def test_resume_with_none_takes_the_default():
    source = ScriptedSource("4S  JK  4H")
    pending = start_simple(Side("pc:a", Pool("guts", 1), PLAYER_DECK), source)
    record = resume(pending, {"pc:a": None}, source)
    assert record.rounds[0].hand("pc:a").joker == "default"
    assert record.result == PERFECT


def test_a_retest_that_turns_up_another_joker_pauses_again():
    a = Side("pc:a", Pool("awareness", 1), PLAYER_DECK)
    b = Side("npc:b", Pool("awareness", 1), GM_DECK)
    source = ScriptedSource("2S  JK  4D   5C  JK  6D")
    first = start_contested(a, b, source)
    assert first.awaiting == ("pc:a",) and first.current.number == 1
    second = resume(PendingTest.from_dict(json.loads(json.dumps(first.as_dict()))),
                    {"pc:a": "3H"}, source)  # a failure: both failed, retest
    assert isinstance(second, PendingTest)
    assert second.current.number == 2 and str(second.current.fate) == "5C"
    assert len(second.rounds) == 1 and second.rounds[0].comparison.result == "both_failed"
    record = resume(second, {"pc:a": "5C"}, source)
    assert (record.winner, record.result, record.retests) == ("pc:a", PERFECT, 1)
    assert [h.joker for r in record.rounds for h in r.hands] == [
        "declared", None, "declared", None]


@pytest.mark.parametrize("retests, rounds, outcome", [(10, 2, "won"), (0, 1, "stalemate")])
def test_a_test_with_no_retests_ends_at_its_first_mutual_failure(retests, rounds, outcome):
    # A skirmish's final test under mutual_fail_final = "stalemate" (btq_missions A8): the
    # bound travels with a paused test, so it holds after the Joker is named.
    a = Side("pc:a", Pool("awareness", 1), PLAYER_DECK)
    b = Side("npc:b", Pool("awareness", 1), GM_DECK)
    source = ScriptedSource("2S  JK  4D" + ("   5C  5H  6D" if retests else ""))
    first = start_contested(a, b, source, retests=retests)
    stored = json.loads(json.dumps(first.as_dict()))
    assert stored["settings"]["max_retests"] == retests
    record = resume(PendingTest.from_dict(stored), {"pc:a": "3H"}, source)  # both failed
    assert (len(record.rounds), record.outcome, record.settings["max_retests"]) == (
        rounds, outcome, retests)


def test_two_players_each_name_their_joker():
    a = Side("pc:a", Pool("gambling", 1), PLAYER_DECK)
    b = Side("pc:b", Pool("gambling", 1), PLAYER_DECK)
    source = ScriptedSource("9H  JK  JK")
    pending = start_contested(a, b, source)
    assert pending.awaiting == ("pc:a", "pc:b")
    with pytest.raises(TestError, match="waiting for pc:b"):
        resume(pending, {"pc:a": "9H"}, source)
    record = resume(pending, {"pc:a": "9H", "pc:b": "9C"}, source)
    assert record.winner == "pc:a" and record.rounds[0].comparison.by == "perfect"


def test_a_chooser_names_the_jokers_in_a_one_call_test():
    asked = []

    def choose(pending, who):
        asked.append((who, str(pending.current.fate)))
        return "KS"

    record = contested_test(otoole(), JONES, ScriptedSource("4S  4C KD JK QH JH  4H AH 2D 7S"),
                            choose_joker=choose)
    assert asked == [("pc:otoole", "4S")]
    assert record.winner == "pc:otoole"


@pytest.mark.parametrize("declarations, error, message", [
    ({}, TestError, "waiting for pc:a"),
    ({"pc:a": "9H", "npc:b": "9H"}, TestError, "npc:b has no Joker"),
    ({"pc:a": "JK"}, TestError, "one of the 52 cards"),
    ({"pc:a": "JK=9H"}, TestError, "one of the 52 cards"),
    ({"pc:a": "ZZ"}, CardError, "'ZZ' is not a card"),
    ({"pc:a": 9}, TestError, "one of the 52 cards"),
])
def test_bad_joker_declarations_are_refused(declarations, error, message):
    source = ScriptedSource("9H  JK")
    pending = start_simple(Side("pc:a", Pool("guts", 1), PLAYER_DECK), source)
    with pytest.raises(error, match=message):
        resume(pending, declarations, source)


def test_a_pending_test_whose_cards_could_not_have_been_drawn_is_refused():
    source = ScriptedSource("9H  JK 2C")
    data = start_simple(Side("pc:a", Pool("guts", 2), PLAYER_DECK), source).as_dict()
    data["current"]["hands"][0]["cards"] = ["JK", "JK"]
    with pytest.raises(CardError, match="already out"):
        resume(PendingTest.from_dict(data), {"pc:a": None}, source)


# --- Records ------------------------------------------------------------------------------


def test_the_record_json_round_trip_and_shape():
    side = otoole(crusty="seamanship", helpers=[Helper("Smith", 2), Helper("Bosworth", 0)],
                  reputation=Reputation(DISTRUSTED, 1, cap=3, state=INJURED))
    side = Side(side.who, side.pool, side.deck, at_risk=AtRisk("Health"))
    record = contested_test(side, JONES, SeededSource(1809), intent="race to Portsmouth")
    data = json.loads(json.dumps(record.as_dict()))
    assert TestRecord.from_dict(data) == record
    assert set(data) == {"kind", "intent", "settings", "sides", "rounds", "outcome", "winner",
                         "loser", "result", "damage"}
    pool = data["sides"][0]["pool"]
    assert pool["size"] == 4 + 1 + 1 - 1 + 2 - 1
    assert pool["lines"][-2:] == [["help from Smith", 2], ["Bosworth unskilled helper", -1]]
    assert pool["reputation"] == {"name": DISTRUSTED, "value": 1, "cap": 3, "state": "injured"}
    assert data["sides"][0]["at_risk"] == {"area": "Health", "state": "healthy"}
    hand = data["rounds"][0]["hands"][0]
    assert set(hand) == {"who", "deck", "cards", "levels", "summary", "best", "joker"}
    assert set(data["rounds"][0]["comparison"]) == {"result", "by", "a", "b", "position"}


def test_a_secret_pool_is_hidden_from_players():
    record = contested_test(otoole(), JONES, ScriptedSource(TV11_B))
    public = record.as_dict(reveal=False)
    assert public["sides"][1]["pool"] == {"secret": True, "size": 4}
    assert public["sides"][0]["pool"]["value"] == 4
    assert record.as_dict()["sides"][1]["pool"]["value"] == 4
    with pytest.raises(TestError, match="hidden from players"):
        TestRecord.from_dict(public)


def test_the_record_keeps_only_the_settings_the_test_used():
    record = simple_test(Side("pc:a", Pool("guts", 1), PLAYER_DECK), ScriptedSource("9H 9C"),
                         {"great_hardship": True})
    assert record.settings == {"reputation_loss_mode": "one_step", "personal_pool_floor": 0,
                               "max_retests": 10}


# --- Bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("build, message", [
    (lambda: Pool("seamanship", -1), "cannot be -1"),
    (lambda: Pool("seamanship", "4"), "whole number"),
    (lambda: Pool("", 4), "non-empty name"),
    (lambda: Pool("seamanship", 4, reputation=[Reputation("A", 1), Reputation("B", 1)]),
     "at most one reputation"),
    (lambda: Pool("seamanship", 4, modifiers=[("Crusty Old Seadog", 1.5)]), "whole number"),
    (lambda: Pool("seamanship", 4, helpers=[("Smith", -2)]), "cannot be -2"),
    (lambda: Pool("seamanship", 4, modifiers=[5]), "a modifier is a"),
    (lambda: Pool("seamanship", 4, helpers=["Smith"]), "a helper is a"),
    (lambda: Pool("seamanship", 4, reputation="Admired"), "by name and value"),
    (lambda: Reputation("Hated by the French", 0), "at least 1"),
    (lambda: Reputation("Hated by the French", 2, state="dead"), "Dead"),
    (lambda: Reputation("Hated by the French", 2, cap=0), "at least 1"),
    (lambda: AtRisk("Health", DEAD), "Dead"),
    (lambda: Side("pc:a", Pool("guts", 1), "tarot"), "unknown deck kind"),
    (lambda: Side("pc:a", Pool("guts", 1), PLAYER_DECK, deck_name="gm"), "cannot be called"),
    (lambda: Side("npc:a", Pool("guts", 1), GM_DECK, deck_name="gm2"), "one GM deck"),
    (lambda: Side("pc:a", 4, PLAYER_DECK), "must be a Pool"),
    (lambda: Side("pc:a", Pool("intrigue", 1, reputation=Reputation(DISTRUSTED, 1, state=INJURED)),
                  PLAYER_DECK, at_risk=AtRisk(DISTRUSTED)), "Injured in the pool"),
])
def test_bad_descriptions_raise_clear_errors(build, message):
    with pytest.raises(TestError, match=message):
        build()


def test_one_reputation_in_a_list_is_accepted():
    rep = Reputation("Admired by the crew", 2)
    assert Pool("command", 3, reputation=[rep]).reputation == rep
    assert Pool("command", 3, reputation=[]).reputation is None


def test_bad_tests_raise_clear_errors():
    a = Side("pc:a", Pool("guts", 1), PLAYER_DECK)
    with pytest.raises(TestError, match="must differ"):
        contested_test(a, a, SeededSource(1))
    twin = Side("pc:b", Pool("guts", 1), PLAYER_DECK, deck_name="pc:a")
    with pytest.raises(TestError, match="same player deck"):
        contested_test(a, twin, SeededSource(1))
    with pytest.raises(TestError, match="Side objects"):
        contested_test(a, "npc:b", SeededSource(1))
    with pytest.raises(TestError, match="simple test has no opposing pool"):
        simple_test(Side("pc:a", Pool("guts", 1), PLAYER_DECK, at_risk="Health"),
                    SeededSource(1))
    with pytest.raises(SettingError, match="reputation_loss_mode"):
        contested_test(a, JONES, SeededSource(1), {"reputation_loss_mode": "double"})


# --- Grading and comparison -----------------------------------------------------------------


def test_grading_helpers():
    fate = parse_card("4S")
    cards = parse_cards("4C KD KS QH JK 2C 4S")
    assert summary(cards, fate) == (2, 1, 1)  # the undeclared Joker counts as the CoF
    assert successes(cards, fate) == [(PERFECT, 4), (PERFECT, 4), (CRITICAL, 4), (ORDINARY, 13)]
    assert summary(cards, fate, unskilled=True) == (0, 0, 4)
    assert compare_successes([(ORDINARY, 13)], [(ORDINARY, 7)]) == "a"
    assert compare_successes([], []) == "both_failed"
    assert compare_successes([(ORDINARY, 7)], [(ORDINARY, 7)]) == "tie"
    assert victor(parse_cards("2H"), parse_cards("3D"), fate) == "both_failed"
    c = compare(parse_cards("AS"), parse_cards("KS QS"), fate)
    assert (c.result, c.by, c.a, c.b) == ("b", "ordinary", 1, 2)


def test_grade_of_every_card_against_every_card_of_fate():
    for fate in STANDARD_52:
        for card in ALL_CARDS:
            played = card.played_as or (fate if card.is_joker else card)
            expected = (3 if played == fate else 2 if played.rank == fate.rank
                        else 1 if played.suit == fate.suit else 0)
            assert grade(card, fate) == expected and type(grade(card, fate)) is SuccessLevel
            assert grade(card, fate, unskilled=True) == min(expected, 1)


def test_a_full_tie_break_names_the_cards_and_their_position():
    c = compare(parse_cards("4C KS 2S"), parse_cards("4H KS 3S"), parse_card("4S"))
    assert (c.result, c.by, c.a, c.b, c.position) == ("b", "tie_break", "2S", "3S", 3)
    c = compare(parse_cards("4C KS"), parse_cards("4H KS"), parse_card("4S"))
    assert (c.result, c.by, c.position) == ("tie", "full_tie", None)
    c = compare(parse_cards("4C"), parse_cards("AS 4H"), parse_card("4S"))
    assert (c.result, c.by, c.a, c.b) == ("b", "ordinary", 0, 1)


hands = st.lists(st.sampled_from(ALL_CARDS), max_size=12)


@given(hands, hands, st.sampled_from(STANDARD_52), st.booleans(), st.booleans())
def test_successes_and_compare_successes_agree_with_compare(a, b, fate, a_unskilled,
                                                            b_unskilled):
    found_a = successes(a, fate, unskilled=a_unskilled)
    found_b = successes(b, fate, unskilled=b_unskilled)
    assert found_a == sorted(found_a, reverse=True)
    assert summary(a, fate, unskilled=a_unskilled) == tuple(
        sum(1 for lv, _ in found_a if lv == level) for level in (3, 2, 1))
    assert compare_successes(found_a, found_b) == compare(
        a, b, fate, a_unskilled=a_unskilled, b_unskilled=b_unskilled).result


# --- Decks behave like real decks: property tests -----------------------------------------


class CheckingSource(SeededSource):
    """A seeded source that checks each deck after every draw, and remembers the decks."""

    def __init__(self, seed):
        super().__init__(seed)
        self.decks = {}

    def draw(self, deck, count, *, purpose="draw"):
        cards = super().draw(deck, count, purpose=purpose)
        self.decks[id(deck)] = deck
        assert len({c.base() for c in cards}) == len(cards), "a card twice in one draw"
        assert Counter(deck.remaining) + Counter(deck.out) == Counter(deck_cards(deck.kind))
        return cards


pools = st.integers(0, 14)


@st.composite
def random_tests(draw):
    kind = draw(st.sampled_from(["contested", "static", "simple"]))
    a_deck = draw(st.sampled_from([PLAYER_DECK, GM_DECK]))
    a = Side("a", Pool("awareness", draw(pools), unskilled=False), a_deck,
             at_risk=draw(st.sampled_from([None, "Health"])))
    if draw(st.booleans()):
        a = Side("a", Pool("awareness", 0, unskilled=True), a_deck)
    b = Side("b", Pool("awareness", draw(pools)), draw(st.sampled_from([PLAYER_DECK, GM_DECK])),
             at_risk=draw(st.sampled_from([None, AtRisk("Wealth", INJURED)])))
    return kind, a, b, draw(st.sampled_from([1, 3, 5, 7, 9, 0])), draw(st.integers(0, 2**32))


def _play(kind, a, b, difficulty, source, settings_=None):
    if kind == "contested":
        return contested_test(a, b, source, settings_)
    if kind == "static":
        return static_test(a, difficulty, source, settings_)
    return simple_test(Side(a.who, a.pool, a.deck), source, settings_)


@settings(max_examples=300, deadline=None)
@given(random_tests())
def test_decks_behave_like_real_decks(spec):
    kind, a, b, difficulty, seed = spec
    source = CheckingSource(seed)
    record = _play(kind, a, b, difficulty, source)
    for deck in source.decks.values():  # every card gathered back after the test
        assert deck.out == [] and Counter(deck.remaining) == Counter(deck_cards(deck.kind))
    for rnd in record.rounds:
        assert not rnd.fate.is_joker
        by_deck = {GM_DECK: [rnd.fate]}
        for hand in rnd.hands:
            side = record.side(hand.who)
            assert len(hand.cards) == side.pool.size()
            assert None not in hand.levels
            by_deck.setdefault(hand.deck, []).extend(c.base() for c in hand.cards)
        for deck, cards in by_deck.items():
            assert len(set(cards)) == len(cards), f"a card twice in the {deck} deck"
            assert set(cards) <= set(Deck(GM_DECK if deck == GM_DECK else PLAYER_DECK).cards)
    assert len(record.rounds) <= 11
    if record.outcome == "stalemate":
        assert len(record.rounds) == 11 and record.damage == ()
    assert TestRecord.from_dict(json.loads(json.dumps(record.as_dict()))) == record
    again = _play(kind, a, b, difficulty, SeededSource(seed))
    assert again == record  # the same seed gives the same test


def test_many_tests_in_a_row_from_one_source():
    source = CheckingSource(1805)
    a = Side("pc:a", Pool("gunnery", 6), PLAYER_DECK)
    b = Side("npc:b", Pool("gunnery", 5), GM_DECK)
    outcomes = Counter(contested_test(a, b, source).winner for _ in range(500))
    assert set(outcomes) <= {"pc:a", "npc:b", None}
    assert outcomes["pc:a"] > 0 and outcomes["npc:b"] > 0
    for deck in source.decks.values():
        assert deck.out == []


def _draw(result: str, by: str, a: list[int], b: list[int]) -> dict:
    """A draw as the campaign log keeps it (Round.as_dict() but the hands' summaries): the
    comparison and each hand's cards' levels, from its counts of Perfect, Critical and
    Ordinary successes and a failure."""
    def levels(counts: list[int]) -> list[str | None]:
        return [*(name for name, n in zip(("perfect", "critical", "ordinary"), counts)
                  for _ in range(n)), "failure", None]

    return {"comparison": {"result": result, "by": by},
            "hands": [{"who": "a", "levels": levels(a)}, {"who": "b", "levels": levels(b)}]}


@pytest.mark.parametrize("draw, expected", [
    (_draw("a", "ordinary", [0, 0, 2], [0, 0, 0]), 2),
    (_draw("b", "critical", [0, 0, 0], [0, 1, 1]), 2),
    (_draw("a", "ordinary", [0, 0, 2], [0, 0, 1]), None),  # the loser had one
    (_draw("a", "tie_break", [0, 0, 1], [0, 0, 1]), None),
    (_draw("tie", "no_success", [0, 0, 0], [0, 0, 0]), None),
])
def test_won_to_none_is_the_winners_successes_only_against_none(draw, expected):
    assert won_to_none(draw) == expected
