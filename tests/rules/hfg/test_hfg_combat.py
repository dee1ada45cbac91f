"""HFG combat resolution (``rules/hfg.md`` §10-§11): vectors X with scripted dice, vectors H
by enumerating all 36 dice pairs, and the outcome table cell by cell where X does not reach."""

from collections import Counter
from itertools import product

import pytest

from rules.engine import IllegalAction
from rules.hfg.combat import (
    LOSE,
    LOSE_HALF,
    TIE,
    WIN,
    Fighter,
    fight,
    outcome,
    tactical_factors,
)
from rules.random import ScriptedSource

F = Fighter


def close(a, b, dice, phasing="a", **kw):
    return fight(a, b, ScriptedSource(rolls=list(dice)), close=True, phasing=phasing, **kw)


def shoot(a, b, dice, **kw):
    return fight(a, b, ScriptedSource(rolls=list(dice)), close=False, **kw)


def kinds(r):
    return tuple(o.kind for o in r.outcomes)


def test_X1_to_X4_muskets_against_cuirassiers():
    # X1: Cuirassiers' bound, dice 3 (Muskets) / 5 (Cuirassiers)
    r = close(F("CUI"), F("MUS"), [5, 3])
    assert r.scores == (8, 7) and r.bands == (WIN, LOSE)
    assert kinds(r) == ("pursue", "destroyed") and r.outcomes[0].distance == (300, 1200)
    r = close(F("CUI"), F("MUS"), [4, 5])  # X2
    assert r.scores == (7, 9) and kinds(r) == ("spent", "press_forward")
    r = close(F("CUI"), F("MUS"), [1, 6])  # X3
    assert r.scores == (4, 10) and r.bands[0] == LOSE_HALF and r.outcomes[0].kind == "destroyed"
    r = close(F("CUI"), F("MUS"), [4, 3])  # X4
    assert r.scores == (7, 7) and kinds(r) == ("repulsed", "halt")
    assert r.outcomes[0].distance == (600, 1200)


def test_X5_X6_light_horse_and_cuirassiers():
    r = close(F("LH"), F("CUI"), [2, 3])
    assert r.scores == (3, 7) and r.bands[0] == LOSE_HALF
    assert kinds(r) == ("repulsed", "pursue")
    r = close(F("CUI"), F("LH"), [1, 5])
    assert r.scores == (5, 6) and kinds(r) == ("destroyed", "pursue")


def test_X7_X8_elite_bayonets_and_own_bound():
    r = close(F("BAY", "E"), F("MUS"), [5, 4])
    assert r.totals == (7, 7) and r.grading == (1, 0) and r.scores == (8, 7)
    assert kinds(r) == ("press_forward", "routed") and r.outcomes[1].distance == (800, 800)
    r = close(F("BAY", "E"), F("MUS"), [4, 5], phasing="b")  # X8: the Muskets' die first
    assert r.outcomes[1].kind == "repulsed" and r.outcomes[1].distance == (400, 400)


def test_X9_no_elite_bonus_against_skirmishers():
    r = close(F("BAY", "E"), F("SK"), [3, 4])
    assert r.scores == (5, 5) and kinds(r) == ("halt", "halt")


def test_X10_X11_inferior_muskets_shot_by_smoothbore():
    r = shoot(F("SBA"), F("MUS", "I"), [3, 3], distance=1000, b_shoots_back=False)
    assert r.totals == (6, 6) and r.grading == (0, -1) and r.scores == (6, 5)
    assert kinds(r) == ("none", "recoil") and r.outcomes[1].distance == (200, 200)
    r = shoot(F("SBA"), F("MUS", "I"), [3, 3], distance=300, b_shoots_back=False)
    assert r.totals == (6, 5) and r.grading == (0, 0) and kinds(r) == ("none", "recoil")


def test_X12_smoothbore_shot_by_rifled_artillery():
    def case(dice, **kw):
        return shoot(F("RFA"), F("SBA", **kw), dice, distance=2000, b_shoots_back=False)
    r = case([2, 2])
    assert r.scores == (6, 5) and r.outcomes[1].kind == "none"
    r = case([2, 1])
    assert r.scores == (6, 4) and r.outcomes[1] .kind == "repulsed"
    assert r.outcomes[1].distance == (400, 400)
    r = case([6, 1], works="redoubt")
    assert r.scores == (10, 7) and r.outcomes[1].kind == "destroyed"
    r = case([4, 1])
    assert r.scores == (8, 4) and r.bands[1] == LOSE_HALF and r.outcomes[1].kind == "destroyed"


def test_X13_cuirassiers_shot_at_win_and_charge():
    r = shoot(F("MUS"), F("CUI", moved=True), [5, 1], distance=200, phasing="b",
              b_shoots_back=False)
    assert r.scores == (5, 8) and kinds(r) == ("none", "charge")
    assert r.outcomes[1].distance == (0, 600)


@pytest.mark.parametrize("target,distance,want", [
    (F("RIF"), 1000, "halt"), (F("RIF"), 300, "recoil"), (F("STO"), 200, "halt"),
    (F("BL"), 600, "halt"), (F("DRG", dismounted=True), 200, "repulsed"),
])
def test_X14_distant_lose_by_type(target, distance, want):
    assert outcome(target, F("MUS"), LOSE, close=False, own_bound=False,
                   distance=distance).kind == want


def test_X14_foot_in_a_town_shot_by_guns():
    o = outcome(F("MUS", in_bua=True), F("SBA"), LOSE, close=False, own_bound=False)
    assert (o.kind, o.afire) == ("none", True)
    assert (2, "in a town or strong point") in tactical_factors(
        F("MUS", in_bua=True), F("SBA"), close=False, shot_at=True)
    assert not tactical_factors(F("MUS", in_bua=True, bua_afire=True), F("SBA"),
                                close=False, shot_at=True, distance=1000)


@pytest.mark.parametrize("enemy,is_close,going,want", [
    (F("MUS"), True, "good", "routed"), (F("BAY"), True, "good", "destroyed"),
    (F("MUS"), False, "good", "routed"), (F("CUI"), True, "good", "destroyed"),
])
def test_X15_skirmishers_losing_by_half(enemy, is_close, going, want):
    o = outcome(F("SK", going=going), enemy, LOSE_HALF, close=is_close, own_bound=False)
    assert o.kind == want and (want != "routed" or o.distance == (1200, 1200))


def test_X16_staff_losing_by_half():
    cp = outcome(F("CP"), F("SBA"), LOSE_HALF, close=False, own_bound=False)
    assert (cp.kind, cp.disabled, cp.distance) == ("recoil", True, (300, 300))
    assert outcome(F("NP"), F("SBA"), LOSE_HALF, close=False, own_bound=False).kind == "destroyed"
    assert outcome(F("HQ"), F("HC"), LOSE_HALF, close=True, own_bound=False).kind == "destroyed"


def test_X17_horse_artillery_losing_a_close_combat():
    o = outcome(F("SBA", "HOR"), F("BAY"), LOSE, close=True, own_bound=False)
    assert (o.kind, o.distance) == ("routed", (1200, 1200))
    assert outcome(F("SBA", "HOR"), F("HC"), LOSE, close=True, own_bound=False).kind == \
        "destroyed"


def test_X18_command_party_leading_cuirassiers():
    r = close(F("CP", leading="CUI"), F("HC"), [3, 3])
    assert r.scores == (8, 7) and kinds(r) == ("pursue", "repulsed")
    lost = outcome(F("CP", leading="CUI"), F("MUS"), LOSE, close=True, own_bound=True)
    assert (lost.kind, lost.distance, lost.rear) == ("repulsed", (600, 1200), "spent")


def test_X19_modifier_stacking():
    factors = tactical_factors(F("MUS", flank_contact=True, overlaps=1), F("MUS"),
                               close=True, shot_at=False)
    assert sum(v for v, _ in factors) == -3


def test_X20_submarine_tie():
    r = close(F("SUB"), F("IRC"), [5, 2])  # the Submarine -1 against the Ironclad's guns
    assert r.scores == (6, 6) and kinds(r) == ("destroyed", "destroyed")


def test_X21_defeated_command():
    def total(me, enemy):
        return sum(v for v, _ in tactical_factors(me, enemy, close=True, shot_at=False))
    assert total(F("HC", defeated_command=True), F("MUS")) == -1
    assert total(F("MUS", defeated_command=True), F("HC")) == -1
    assert total(F("MUS", defeated_command=True), F("MUS")) == 0


def distribution(a, b, *, is_close, b_shoots_back=True):
    """Bands of a and b over all 36 dice pairs (digest H)."""
    ca, cb = Counter(), Counter()
    for da, db in product(range(1, 7), repeat=2):
        r = fight(a, b, ScriptedSource(rolls=[da, db]), close=is_close, distance=600,
                  b_shoots_back=b_shoots_back)
        ca[r.bands[0]] += 1
        cb[r.bands[1]] += 1
    order = (WIN, TIE, LOSE, LOSE_HALF)
    return tuple(ca[k] for k in order), tuple(cb[k] for k in order)


@pytest.mark.parametrize("vid,a,b,is_close,back,want_a,want_b", [
    ("H1", F("MUS"), F("CUI"), True, True, (21, 5, 10, 0), (10, 5, 17, 4)),
    ("H2", F("MUS"), F("MUS"), False, True, (15, 6, 13, 2), (15, 6, 13, 2)),
    ("H3", F("BAY", "E"), F("MUS"), True, True, (15, 0, 15, 6), (21, 0, 14, 1)),
    ("H4", F("STO", "I"), F("RIF"), False, True, (3, 3, 21, 9), (30, 3, 3, 0)),
    ("H5", F("CUI"), F("LH"), True, True, (30, 3, 3, 0), (3, 3, 15, 15)),
    ("H6", F("MUS", "I"), F("SBA"), False, True, (10, 5, 19, 2), (21, 5, 9, 1)),
])
def test_H_exact_distributions(vid, a, b, is_close, back, want_a, want_b):
    if vid == "H6":  # the artillery shoots, the Muskets cannot reply (at 600p): a is the gun
        got_b, got_a = distribution(b, a, is_close=False, b_shoots_back=False)
    else:
        got_a, got_b = distribution(a, b, is_close=is_close, b_shoots_back=back)
    assert (got_a, got_b) == (want_a, want_b)


def test_every_combat_die_is_recorded():
    source = ScriptedSource(rolls=[2, 5])
    fight(F("MUS"), F("BAY"), source, close=True, phasing="b")
    assert [str(d) for d in source.log] == ["d6 combat BAY: 2", "d6 combat MUS: 5"]


@pytest.mark.parametrize("fighter,message", [
    (F("MUS", dismounted=True), "cannot dismount"), (F("MUS", going="swamp"), "going"),
    (F("MUS", leading="CUI"), "only a Command Party"), (F("CP", leading="SBA"), "leads only"),
])
def test_impossible_fighters_are_refused(fighter, message):
    with pytest.raises(IllegalAction, match=message):
        close(fighter, F("MUS"), [1, 1])


def test_a_submarine_cannot_fight_land_troops():
    with pytest.raises(IllegalAction, match="Submarine cannot fight Muskets"):
        close(F("SUB"), F("MUS"), [1, 1])


@pytest.mark.parametrize("me,enemy,want", [
    (F("MUS", in_bua=True), F("HC"), ("routed", 800)),       # A4: a town is not good going
    (F("MUS", in_wood=True), F("BAY"), ("recoil", 200)),
    (F("BAY", attacking_bua=True), F("MUS", in_bua=True), ("repulsed", 400)),
    (F("BAY"), F("MUS"), ("recoil", 200)),
    (F("STO"), F("BAY"), ("recoil", 200)),
    (F("MUS"), F("SPR"), ("destroyed", 0)),
    (F("HQ"), F("SPR"), ("routed", 1200)),                      # errata F7
    (F("MUS", contacted_in_flank=True), F("MIN"), ("routed", 800)),
    (F("SPG"), F("BAY"), ("destroyed", 0)),
    (F("DRG", dismounted=True, in_bua=True), F("BAY"), ("routed", 1200)),
    (F("MR", dismounted=True), F("SK"), ("repulsed", 400)),
    (F("MR", dismounted=True), F("SPR"), ("repulsed", 800)),
    (F("MR", dismounted=True), F("HC"), ("destroyed", 0)),
    (F("MR", dismounted=True), F("RIF"), ("routed", 1200)),
    (F("HC", repulsed_this_bound=True), F("HC"), ("routed", 1200)),
    (F("HC", routing=True), F("HC"), ("destroyed", 0)),
    (F("HC"), F("MR", dismounted=True), ("spent", 0)),          # errata F5 default
    (F("HC"), F("HC"), ("repulsed", 600)),
    (F("FLO"), F("STM"), ("repulsed", 400)),
    (F("STM"), F("FLO"), ("destroyed", 0)),
    (F("IRC"), F("STM"), ("none", 0)),
])
def test_close_lose_cells(me, enemy, want):
    o = outcome(me, enemy, LOSE, close=True, own_bound=False)
    assert (o.kind, o.distance[0]) == want


def test_settings_give_the_other_reading():
    o = outcome(F("HC"), F("MR", dismounted=True), LOSE, close=True, own_bound=False,
                settings={"hfg_spent_vs_dismounted": False})
    assert o.kind == "repulsed"
    town = F("MUS", in_bua=True)
    assert outcome(town, F("SBA"), LOSE_HALF, close=False, own_bound=False).kind == "destroyed"
    o = outcome(town, F("SBA"), LOSE_HALF, close=False, own_bound=False,
                settings={"hfg_bua_half_loss_by_artillery": "afire_only"})
    assert (o.kind, o.afire) == ("none", True)
    assert outcome(F("SPG"), F("SBA"), LOSE_HALF, close=False, own_bound=False).afire
    assert outcome(F("SPG"), F("MUS"), LOSE_HALF, close=False, own_bound=False).kind == "none"


def test_tie_and_win_cells():
    assert outcome(F("LH"), F("HC"), TIE, close=True, own_bound=True).kind == "none"
    assert outcome(F("MUS"), F("MUS"), TIE, close=False, own_bound=True).kind == "press_forward"
    assert outcome(F("MUS"), F("SBA"), TIE, close=False, own_bound=True).kind == "halt"
    assert outcome(F("MUS"), F("SBA"), WIN, close=False, own_bound=True).kind == "none"
    assert outcome(F("STM"), F("SBA"), WIN, close=False, own_bound=True).kind == "close_in"
    assert outcome(F("IRC"), F("RFA", "HVY"), LOSE_HALF, close=False,
                   own_bound=False).kind == "destroyed"
    assert outcome(F("IRC"), F("RFA"), LOSE_HALF, close=False, own_bound=False).kind == "repulsed"
    assert outcome(F("STM"), F("RIF"), LOSE_HALF, close=False, own_bound=False).kind == "repulsed"
