"""Exact odds of a card test (rules/btq/odds.py) against hand counts, brute-force enumeration
through the kernel's own comparison, and a Monte Carlo through the real decks and random
source (rules/btq_characters.md §4, §10.9; DECISIONS D2-D5; BtQ L1223-1276)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from rules.btq import odds
from rules.btq.tests import SuccessLevel, compare_successes, successes, victor
from rules.cards import STANDARD_52, Deck, deck_cards
from rules.random import SeededSource

DECK_PAIRS = [("player", "gm"), ("gm", "player"), ("player", "player"), ("gm", "gm")]
UNSKILLED = [(False, False), (True, False), (False, True), (True, True)]
OUTCOMES = ("a", "b", "tie", "both_failed")
WINNING_LEVELS = ("ordinary", "critical", "perfect")


def exact(a_pool, b_pool, **kwargs):
    return odds.first_draw(a_pool, b_pool, exact=True, **kwargs)


# --- small cases counted by hand --------------------------------------------------------------

def test_one_card_from_a_player_deck_succeeds_17_times_in_53():
    # Against a Card of Fate, say 4S, a player's 53 cards hold: the 4S itself (Perfect), the
    # Joker (played as the 4S: Perfect, D5), 4H 4D 4C (Critical), the 12 other spades
    # (Ordinary) and 36 failures. So one card succeeds with 1 + 1 + 3 + 12 = 17 of 53 cards.
    assert exact(1, 0)["a"] == Fraction(17, 53)
    assert exact(1, 0)["both_failed"] == Fraction(36, 53)
    assert odds.levels(1, exact=True) == {
        "failure": Fraction(36, 53), "ordinary": Fraction(12, 53),
        "critical": Fraction(3, 53), "perfect": Fraction(2, 53),
    }
    # Unskilled, the same 17 cards succeed, all as Ordinaries (BtQ L1269-1272).
    assert odds.levels(1, unskilled=True, exact=True) == {
        "failure": Fraction(36, 53), "ordinary": Fraction(17, 53),
        "critical": Fraction(0), "perfect": Fraction(0),
    }


def test_one_card_from_the_gm_deck_can_never_be_perfect():
    # The GM deck is the other 51 cards: 3 Criticals, 12 Ordinaries, 36 failures.
    assert exact(1, 0, a_deck="gm")["a"] == Fraction(15, 51)
    assert odds.levels(1, deck="gm", exact=True)["critical"] == Fraction(3, 51)
    for pool in (1, 5, 20, 51):
        assert odds.levels(pool, deck="gm", exact=True)["perfect"] == 0
        assert exact(5, pool, by_level=True)["b_by_level"]["perfect"] == 0


def test_one_card_against_one_card_counted_by_hand():
    # Player 1 card (2 P, 3 C, 12 O, 36 F of 53) against GM 1 card (3 C, 12 O, 36 F of 51):
    # A wins with a Perfect against anything, a Critical against an Ordinary or a failure, an
    # Ordinary against a failure, or an Ordinary against an Ordinary of a lower rank (half of
    # the 12 * 11 pairs of different ranks; the same rank, 12 pairs, ties). Two Criticals tie.
    a = 2 * 51 + 3 * (12 + 36) + 12 * 36 + 12 * 11 // 2
    b = 36 * 15 + 12 * 3 + 12 * 11 // 2
    tie = 3 * 3 + 12
    both_failed = 36 * 36
    assert a + b + tie + both_failed == 53 * 51
    assert exact(1, 1) == {"a": Fraction(a, 53 * 51), "b": Fraction(b, 53 * 51),
                           "tie": Fraction(tie, 53 * 51),
                           "both_failed": Fraction(both_failed, 53 * 51)}


def test_a_zero_card_pool_cannot_succeed():
    # DECISIONS D2: a 0-card pool turns nothing.
    assert exact(0, 0) == {"a": 0, "b": 0, "tie": 0, "both_failed": 1}
    assert exact(0, 4)["a"] == 0
    assert odds.levels(0, exact=True)["failure"] == 1


def test_a_simple_test_passes_with_any_success():
    # DECISIONS D4: b_pool=0 on the GM deck is the test against a lone Card of Fate.
    for pool in range(0, 21):
        levels = odds.levels(pool, exact=True)
        draw = exact(pool, 0)
        assert draw["a"] == 1 - levels["failure"]
        assert draw["both_failed"] == levels["failure"]
        whole = odds.final(pool, 0, exact=True, by_level=True)
        assert whole["a"] == draw["a"] and whole["b"] == levels["failure"]
        assert whole["stalemate"] == 0
        assert whole["a_by_level"] == {name: levels[name] for name in WINNING_LEVELS}


# --- invariants ---------------------------------------------------------------------------------

@pytest.mark.parametrize("a_deck, b_deck", DECK_PAIRS)
@pytest.mark.parametrize("a_unskilled, b_unskilled", UNSKILLED)
@pytest.mark.parametrize("a_pool, b_pool", [(0, 3), (1, 1), (3, 5), (6, 4), (9, 9), (15, 15),
                                            (20, 20), (20, 1)])
def test_probabilities_sum_to_exactly_one(a_pool, b_pool, a_deck, b_deck, a_unskilled,
                                          b_unskilled):
    kwargs = dict(a_deck=a_deck, b_deck=b_deck, a_unskilled=a_unskilled,
                  b_unskilled=b_unskilled, exact=True, by_level=True)
    draw = odds.first_draw(a_pool, b_pool, **kwargs)
    assert sum(draw[k] for k in OUTCOMES) == 1
    assert all(draw[k] >= 0 for k in OUTCOMES)
    assert sum(draw["a_by_level"].values()) == draw["a"]
    assert sum(draw["b_by_level"].values()) == draw["b"]
    whole = odds.final(a_pool, b_pool, **kwargs)
    assert whole["a"] + whole["b"] + whole["stalemate"] == 1
    assert sum(whole["a_by_level"].values()) == whole["a"]
    for pool, deck, unskilled in ((a_pool, a_deck, a_unskilled), (b_pool, b_deck, b_unskilled)):
        assert sum(odds.levels(pool, deck=deck, unskilled=unskilled, exact=True).values()) == 1
    floats = odds.first_draw(a_pool, b_pool, a_deck=a_deck, b_deck=b_deck,
                             a_unskilled=a_unskilled, b_unskilled=b_unskilled)
    assert floats == {k: float(draw[k]) for k in OUTCOMES}


@pytest.mark.parametrize("deck", ["player", "gm"])
@pytest.mark.parametrize("unskilled", [False, True])
def test_equal_sides_are_symmetric(deck, unskilled):
    for pool in range(0, 21):
        draw = exact(pool, pool, a_deck=deck, b_deck=deck, a_unskilled=unskilled,
                     b_unskilled=unskilled, by_level=True)
        assert draw["a"] == draw["b"]
        assert draw["a_by_level"] == draw["b_by_level"]


@pytest.mark.parametrize("a_deck, b_deck", DECK_PAIRS)
@pytest.mark.parametrize("a_unskilled, b_unskilled", UNSKILLED)
def test_swapping_the_sides_swaps_the_odds(a_deck, b_deck, a_unskilled, b_unskilled):
    for a_pool, b_pool in ((1, 4), (7, 3), (12, 16)):
        ab = exact(a_pool, b_pool, a_deck=a_deck, b_deck=b_deck, a_unskilled=a_unskilled,
                   b_unskilled=b_unskilled, by_level=True)
        ba = exact(b_pool, a_pool, a_deck=b_deck, b_deck=a_deck, a_unskilled=b_unskilled,
                   b_unskilled=a_unskilled, by_level=True)
        assert (ab["a"], ab["b"], ab["tie"], ab["both_failed"]) == (
            ba["b"], ba["a"], ba["tie"], ba["both_failed"])
        assert ab["a_by_level"] == ba["b_by_level"]


def test_two_gm_sides_with_the_same_ordinaries_never_tie_on_them():
    # Sharing the GM deck, two sides' Ordinaries are different cards of one suit, so different
    # ranks: a full tie needs equal Criticals and no Ordinary at all. One card each: only a
    # Critical against a Critical ties, 3 * 2 of the 51 * 50 ordered pairs.
    assert exact(1, 1, a_deck="gm", b_deck="gm")["tie"] == Fraction(3 * 2, 51 * 50)


def test_more_cards_win_more_often():
    previous = Fraction(0)
    for pool in range(0, 21):
        a = exact(pool, 5)["a"]
        assert a > previous or pool == 0
        previous = a


# --- brute force: every card of every deck, compared by the kernel -----------------------------

SPADES = [c for c in STANDARD_52 if c.suit == "S"]


def brute_force(a_pool, b_pool, a_deck, b_deck, a_unskilled, b_unskilled, fates):
    """Count every draw against every Card of Fate in ``fates``, as the kernel grades and
    compares them. All 52 Cards of Fate, or the 13 of one suit: relabelling the suits maps
    each deck onto itself and changes no comparison. Returns the odds of each outcome, and
    of A's and B's wins and of a full tie at each level."""
    outcome, a_level, b_level, tie_level = Counter(), Counter(), Counter(), Counter()
    for fate in fates:
        rest = [c for c in STANDARD_52 if c != fate]
        decks = {"player": list(deck_cards("player")), "gm": rest}
        memo: dict[tuple, tuple] = {}

        def graded(hand, unskilled, fate=fate, memo=memo):
            key = (hand, unskilled)
            if key not in memo:
                memo[key] = tuple(successes(hand, fate, unskilled=unskilled))
            return memo[key]

        pairs: Counter = Counter()
        if a_deck == b_deck == "gm":  # one deck: B draws from what A left
            for hand_a in combinations(rest, a_pool):
                left = [c for c in rest if c not in hand_a]
                got_a = graded(hand_a, a_unskilled)
                for hand_b in combinations(left, b_pool):
                    pairs[got_a, graded(hand_b, b_unskilled)] += 1
        else:
            got_a = Counter(graded(h, a_unskilled) for h in combinations(decks[a_deck], a_pool))
            got_b = Counter(graded(h, b_unskilled) for h in combinations(decks[b_deck], b_pool))
            for sa, na in got_a.items():
                for sb, nb in got_b.items():
                    pairs[sa, sb] += na * nb
        for (sa, sb), n in pairs.items():
            result = compare_successes(list(sa), list(sb))
            outcome[result] += n
            if result == "a":
                a_level[SuccessLevel(sa[0][0]).name.lower()] += n
            elif result == "b":
                b_level[SuccessLevel(sb[0][0]).name.lower()] += n
            elif result == "tie":
                tie_level[SuccessLevel(sb[0][0]).name.lower()] += n
    total = sum(outcome.values())
    return ({k: Fraction(outcome[k], total) for k in OUTCOMES},
            *({k: Fraction(level[k], total) for k in WINNING_LEVELS}
              for level in (a_level, b_level, tie_level)))


def assert_brute_force(a_pool, b_pool, a_deck, b_deck, a_unskilled, b_unskilled, fates):
    counted, a_levels, b_levels, _ = brute_force(a_pool, b_pool, a_deck, b_deck, a_unskilled,
                                                 b_unskilled, fates)
    draw = exact(a_pool, b_pool, a_deck=a_deck, b_deck=b_deck, a_unskilled=a_unskilled,
                 b_unskilled=b_unskilled, by_level=True)
    assert {k: draw[k] for k in OUTCOMES} == counted
    assert draw["a_by_level"] == a_levels
    assert draw["b_by_level"] == b_levels


@pytest.mark.parametrize("a_deck, b_deck", DECK_PAIRS)
@pytest.mark.parametrize("a_unskilled, b_unskilled", UNSKILLED)
@pytest.mark.parametrize("a_pool, b_pool", [(1, 1), (1, 0), (0, 1)])
def test_one_card_draws_equal_brute_force_over_all_52_cards_of_fate(
        a_pool, b_pool, a_deck, b_deck, a_unskilled, b_unskilled):
    assert_brute_force(a_pool, b_pool, a_deck, b_deck, a_unskilled, b_unskilled, STANDARD_52)


@pytest.mark.parametrize("a_deck, b_deck, a_unskilled, b_unskilled", [
    *[(a, b, ua, ub) for a, b in DECK_PAIRS[:3] for ua, ub in UNSKILLED],
    ("gm", "gm", False, False), ("gm", "gm", True, False),
])
def test_two_against_one_equals_brute_force(a_deck, b_deck, a_unskilled, b_unskilled):
    # One against two is the same by test_swapping_the_sides_swaps_the_odds.
    assert_brute_force(2, 1, a_deck, b_deck, a_unskilled, b_unskilled, SPADES)


@pytest.mark.parametrize("a_deck, b_deck, a_unskilled, b_unskilled", [
    ("player", "gm", False, False), ("player", "player", True, True),
])
def test_two_against_two_equals_brute_force(a_deck, b_deck, a_unskilled, b_unskilled):
    assert_brute_force(2, 2, a_deck, b_deck, a_unskilled, b_unskilled, SPADES)


@pytest.mark.parametrize("shared", [False, True])
@pytest.mark.parametrize("ja, ka, jb, kb", [
    (0, 1, 0, 1), (1, 0, 0, 1), (0, 1, 1, 0), (2, 0, 0, 2), (1, 1, 0, 2),
    (3, 0, 1, 2), (2, 1, 3, 0), (1, 1, 1, 1), (4, 0, 2, 2), (5, 0, 3, 2), (0, 2, 2, 0),
])
def test_tiebreak_counts_equal_enumeration_of_rank_sets(ja, ka, jb, kb, shared):
    # The tie-break among equal counts of Ordinaries, ``ja`` of them of the Card of Fate's
    # rank (an unskilled side's Criticals and Perfects) and ``ka`` of other ranks, counted over
    # every pair of rank sets and every rank of the Card of Fate by the kernel's comparison.
    ordinary = SuccessLevel.ORDINARY
    won = Counter()
    for fate_rank in range(2, 15):
        others = [r for r in range(2, 15) if r != fate_rank]
        for set_a in combinations(others, ka):
            for set_b in combinations(others, kb):
                if shared and set(set_a) & set(set_b):
                    continue
                a = sorted([(ordinary, fate_rank)] * ja + [(ordinary, r) for r in set_a],
                           reverse=True)
                b = sorted([(ordinary, fate_rank)] * jb + [(ordinary, r) for r in set_b],
                           reverse=True)
                won[compare_successes(a, b)] += 1
    assert odds._tiebreak_counts(ja, ka, jb, kb, shared) == (won["a"], won["b"], won["tie"])


# --- Monte Carlo through the real kernel --------------------------------------------------------

TRIALS = 200_000
# (A's pool, B's pool, keyword arguments of first_draw). The kernel's Deck.take() and victor()
# cost some 10 microseconds a card and 20 a comparison, so the cases share their draws (see
# pools()) and are few; two players' decks and the smaller cases are checked exactly by
# brute force above.
MONTE_CARLO_CASES = [
    (5, 5, {}),  # a player against a Challenging difficulty (BtQ L1258-1260)
    (1, 3, {"a_unskilled": True}),  # the book's unskilled test: one card (BtQ L1268)
    (5, 4, {"a_unskilled": True, "b_unskilled": True}),  # Ordinaries of the CoF's rank
    (2, 3, {"a_deck": "gm"}),  # two NPCs draw from the one GM deck
]


def pools(a_pool, b_pool, kwargs, a, g):
    """The cards of one case (A on the player's deck ``a`` or the GM's ``g``, B on the GM's),
    taken from the start of the trial's draws: the first n cards of a random draw are a
    random n-card draw, so one trial serves every case. Two GM sides take consecutive cards
    of the one GM draw."""
    a_cards = (g if kwargs.get("a_deck") == "gm" else a)[:a_pool]
    start = a_pool if kwargs.get("a_deck") == "gm" else 0
    return a_cards, g[start:start + b_pool]


@pytest.mark.slow
def test_monte_carlo_through_the_kernel_agrees_within_4_standard_errors():
    # Each trial turns a Card of Fate and 5 cards from the GM deck and 5 from a player's
    # deck through the kernel's seeded source, and asks the kernel's victor() about every case.
    source = SeededSource(20260601)
    gm, player = Deck("gm"), Deck("player", "pc:a")
    counts = [Counter() for _ in MONTE_CARLO_CASES]
    for _ in range(TRIALS):
        gm.gather()
        player.gather()
        fate, *g = source.draw(gm, 6, purpose="card of fate, then the GM pools")
        a = source.draw(player, 5, purpose="pool")
        source.log.clear()
        for seen, (a_pool, b_pool, kwargs) in zip(counts, MONTE_CARLO_CASES):
            a_cards, b_cards = pools(a_pool, b_pool, kwargs, a, g)
            seen[victor(a_cards, b_cards, fate, a_unskilled=kwargs.get("a_unskilled", False),
                        b_unskilled=kwargs.get("b_unskilled", False))] += 1
    for seen, (a_pool, b_pool, kwargs) in zip(counts, MONTE_CARLO_CASES):
        expected = odds.first_draw(a_pool, b_pool, **kwargs)
        for outcome in OUTCOMES:
            p = expected[outcome]
            error = math.sqrt(p * (1 - p) / TRIALS)
            frequency = seen[outcome] / TRIALS
            assert abs(frequency - p) <= 4 * error, (a_pool, b_pool, kwargs, outcome, frequency, p)


# --- retests -----------------------------------------------------------------------------------

@pytest.mark.parametrize("a_pool, b_pool, kwargs", [
    (1, 1, {}), (2, 2, {"b_deck": "player"}), (1, 1, {"a_unskilled": True, "b_unskilled": True,
                                                      "b_deck": "player"}),
    (0, 1, {"a_deck": "gm"}), (6, 4, {}),
])
def test_final_is_the_first_draw_repeated_until_decided(a_pool, b_pool, kwargs):
    draw = exact(a_pool, b_pool, **kwargs, by_level=True)
    again = draw["tie"] + draw["both_failed"]
    for retests in (0, 1, 3, 10):
        whole = odds.final(a_pool, b_pool, **kwargs, max_retests=retests, exact=True,
                           by_level=True)
        # Draw i + 1 happens only if the i before it were all undecided.
        reached = [again ** i for i in range(retests + 1)]
        assert whole["a"] == sum(draw["a"] * r for r in reached)
        assert whole["b"] == sum(draw["b"] * r for r in reached)
        assert whole["stalemate"] == again ** (retests + 1)
        assert whole["a_by_level"] == {k: v * sum(reached) for k, v in draw["a_by_level"].items()}


def test_final_with_no_retest_is_the_first_draw():
    draw = exact(3, 5)
    whole = odds.final(3, 5, max_retests=0, exact=True)
    assert whole == {"a": draw["a"], "b": draw["b"],
                     "stalemate": draw["tie"] + draw["both_failed"]}


def test_one_retest_more_is_one_more_chance():
    # final(R) = first draw + (tie or mutual failure) * final(R - 1)
    draw = exact(2, 3, b_deck="player")
    again = draw["tie"] + draw["both_failed"]
    for retests in range(1, 12):
        whole = odds.final(2, 3, b_deck="player", max_retests=retests, exact=True)
        shorter = odds.final(2, 3, b_deck="player", max_retests=retests - 1, exact=True)
        assert whole["a"] == draw["a"] + again * shorter["a"]
        assert whole["stalemate"] == again * shorter["stalemate"]


def test_stalemate_after_ten_retests():
    # Player 1 card against player 1 card: 36/53 of each fails, so (36/53)**2 + ties are
    # undecided; 11 undecided draws in a row (the first and 10 retests) are a stalemate.
    draw = exact(1, 1, b_deck="player")
    whole = odds.final(1, 1, b_deck="player", exact=True)
    assert whole["stalemate"] == (draw["tie"] + draw["both_failed"]) ** 11
    assert 0.0001 < whole["stalemate"] < 0.02
    # Two empty pools in a contested test can never be decided (D2, D3).
    assert odds.final(0, 0, b_deck="player", exact=True) == {"a": 0, "b": 0, "stalemate": 1}
    assert odds.final(0, 4, a_deck="gm", b_deck="gm", exact=True)["b"] < 1
    # ...but an empty pool in a simple test (D4) simply fails.
    assert odds.final(0, 0, exact=True) == {"a": 0, "b": 1, "stalemate": 0}


# --- the campaign settings full_tie and retest_fate (btq_characters A5, A6) --------------------

def played_out(draw, a_levels, b_levels, tie_levels, max_retests, full_tie):
    """A whole test from the odds of its draws, as rules.btq.tests._run plays it: each
    undecided draw (a mutual failure, or a full tie unless it goes to the defender B) is drawn
    again, at most ``max_retests`` times, then the test is a stalemate."""
    to_b = full_tie == "defender"
    again = draw["both_failed"] + (0 if to_b else draw["tie"])
    whole = {"a": Fraction(0), "b": Fraction(0),
             "a_by_level": dict.fromkeys(WINNING_LEVELS, Fraction(0)),
             "b_by_level": dict.fromkeys(WINNING_LEVELS, Fraction(0))}
    reached = Fraction(1)
    for _ in range(max_retests + 1):
        for level in WINNING_LEVELS:
            won_by_b = b_levels[level] + (tie_levels[level] if to_b else 0)
            whole["a_by_level"][level] += reached * a_levels[level]
            whole["b_by_level"][level] += reached * won_by_b
            whole["a"] += reached * a_levels[level]
            whole["b"] += reached * won_by_b
        reached *= again
    whole["stalemate"] = reached
    return whole


def mean(outcomes):
    """The average of whole tests' odds (one per Card of Fate)."""
    def average(values):
        return sum(values, Fraction(0)) / len(outcomes)
    return {key: {k: average([o[key][k] for o in outcomes]) for k in outcomes[0][key]}
            if isinstance(outcomes[0][key], dict) else average([o[key] for o in outcomes])
            for key in outcomes[0]}


@pytest.mark.parametrize("full_tie", ["retest", "defender"])
@pytest.mark.parametrize("retest_fate", ["new", "same"])
@pytest.mark.parametrize("a_pool, b_pool, a_deck, b_deck, a_unskilled, b_unskilled", [
    (1, 1, "player", "gm", True, False), (1, 1, "player", "gm", False, True),
    (2, 1, "player", "gm", True, True), (2, 1, "player", "player", True, False),
    (2, 2, "player", "gm", False, False),
])
def test_final_follows_the_settings_as_enumerated_over_every_card_of_fate(
        a_pool, b_pool, a_deck, b_deck, a_unskilled, b_unskilled, full_tie, retest_fate):
    # Every draw against every Card of Fate of one suit through the kernel's comparison. A new
    # Card of Fate for each retest (retest_fate "new") makes every draw the average draw; a
    # kept one ("same") makes every draw that Card of Fate's, so the test is played out for
    # each and averaged. Unskilled sides are those where its rank decides tie-breaks.
    if retest_fate == "new":
        whole = played_out(*brute_force(a_pool, b_pool, a_deck, b_deck, a_unskilled,
                                        b_unskilled, SPADES), 2, full_tie)
    else:
        whole = mean([played_out(*brute_force(a_pool, b_pool, a_deck, b_deck, a_unskilled,
                                              b_unskilled, [fate]), 2, full_tie)
                      for fate in SPADES])
    assert odds.final(a_pool, b_pool, a_deck=a_deck, b_deck=b_deck, a_unskilled=a_unskilled,
                      b_unskilled=b_unskilled, max_retests=2, full_tie=full_tie, exact=True,
                      by_level=True) == whole


def test_a_full_tie_to_the_defender_is_a_win_for_b_and_no_retest():
    draw = exact(1, 1, b_deck="player")
    whole = odds.final(1, 1, b_deck="player", full_tie="defender", exact=True)
    reached = [draw["both_failed"] ** i for i in range(11)]
    assert whole["a"] == draw["a"] * sum(reached)
    assert whole["b"] == (draw["b"] + draw["tie"]) * sum(reached)
    assert whole["stalemate"] == draw["both_failed"] ** 11
    assert whole["b"] > odds.final(1, 1, b_deck="player", exact=True)["b"]


# --- arguments --------------------------------------------------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda: odds.first_draw(-1, 3), "a_pool of -1"),
    (lambda: odds.first_draw(54, 3), "0 to 53 cards from the player deck"),
    (lambda: odds.first_draw(3, 52), "0 to 51 cards from the gm deck"),
    (lambda: odds.first_draw(30, 30, a_deck="gm"), "at most 51 cards"),
    (lambda: odds.first_draw(3, 3, b_deck="npc"), "b_deck must be 'player' or 'gm'"),
    (lambda: odds.first_draw(2.5, 3), "whole number"),
    (lambda: odds.first_draw(True, 3), "whole number"),
    (lambda: odds.final(3, 3, max_retests=-1), "max_retests"),
    (lambda: odds.final(3, 3, full_tie="attacker"), "full_tie must be 'retest' or 'defender'"),
    (lambda: odds.levels(60), "pool of 60"),
    (lambda: odds.levels(3, deck="joker"), "deck must be"),
])
def test_bad_arguments_are_refused_clearly(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_largest_pools_are_allowed():
    assert exact(53, 51)["a"] == 1  # the whole player deck holds the twin and the Joker
    assert exact(25, 26, a_deck="gm", b_deck="gm")["both_failed"] == 0

