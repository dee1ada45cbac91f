"""The mission kernel (``rules.btq.missions``) against the book's worked examples
(``rules/btq_missions.md`` §16 TV-01 to TV-05, ``rules/btq_characters.md`` TV-18, TV-19)."""

import pytest

from rules.btq import missions as m
from rules.btq.characters import DamageState


def terms(n, d, rewards=(), failures=()):
    return m.Terms("A mission", n, d, rewards=tuple(rewards), failures=tuple(failures))


def statuses(t, results):
    return [p.status for p in m.replay(t, results)]


def test_missions_tv_01_deadline_gordon():
    """missions TV-01 (BtQ L1455-1457): four failures before four successes fail the mission;
    S,F,S,F,S,F,S meets it at the 7th result; S,S,S,F,F,F,F fails it."""
    gordon = m.sample_missions()["deliver_admiral_gordon"]
    assert (gordon.challenges_required, gordon.deadline_failures) == (4, 4)
    assert statuses(gordon, "FFFF") == ["active"] * 3 + ["failed"]
    run = m.replay(gordon, "SFSFSFS")
    assert [p.status for p in run[:-1]] == ["active"] * 6
    assert (run[-1].successes, run[-1].failures, run[-1].status) == (4, 3, m.REQUIREMENT_MET)
    assert m.confirm_complete(run[-1]).status == m.COMPLETED
    assert m.replay(gordon, "SSSFFFF")[-1] == m.Progress(3, 4, m.FAILED)


def test_missions_tv_01_a_mission_over_takes_no_more_challenges():
    gordon = m.sample_missions()["deliver_admiral_gordon"]
    with pytest.raises(m.MissionError, match="takes no more"):
        m.replay(gordon, "FFFFS")
    with pytest.raises(m.MissionError, match="all met"):
        m.confirm_complete(m.Progress(3, 0))


def test_missions_tv_02_costing_gordon_and_pemberton():
    """missions TV-02: Gordon's reward 2 + 2 = 4 and failure MAIMED 4; Pemberton's +2
    Personal 4 and MAIMED 4; both within their budget of 4."""
    samples = m.sample_missions()
    assert m.budget(samples["deliver_admiral_gordon"]) == {"reward": 4, "failure": 4,
                                                           "budget": 4}
    assert m.budget(samples["seduce_lady_pemberton"]) == {"reward": 4, "failure": 4,
                                                          "budget": 4}
    assert m.check(samples["deliver_admiral_gordon"]) == []
    assert m.check(samples["seduce_lady_pemberton"]) == []


def test_missions_tv_03_scout_soukir_bay():
    """missions TV-03 (BtQ L1549-1561): budgets 4/4; deadline 2: F,F fails with no success;
    S,S,F,S,S meets it."""
    soukir = m.sample_missions()["scout_soukir_bay"]
    assert m.budget(soukir) == {"reward": 4, "failure": 4, "budget": 4}
    assert [(e.kind, e.target) for e in soukir.rewards] == [
        ("reputation", "institution:Hated by:Barbary Pirates"), ("trait_point", "")]
    assert [(e.kind, e.target) for e in soukir.failures] == [("maimed", "ship_morale")]
    assert statuses(soukir, "FF") == ["active", "failed"]
    assert m.replay(soukir, "SSFSS")[-1] == m.Progress(4, 1, m.REQUIREMENT_MET)


def test_missions_tv_04_failure_escalation():
    """missions TV-04 (BtQ L1543-1545): Wealth 3 at INJURED, the failure "Wealth - MAIMED":
    the Wealth state becomes DEAD and the value stays 3."""
    maimed = m.Entry("maimed", target="wealth")
    assert m.apply_failure(maimed, DamageState.INJURED) == DamageState.DEAD
    heal = m.Entry("heal_dead", target="wealth")
    assert m.apply_reward(heal, DamageState.DEAD) == DamageState.MAIMED


def test_tv_18_mission_failure_wound_stacking():
    """characters TV-18 (BtQ L1544-1545): INJURED + a MAIMED consequence is DEAD; every
    wound adds its level and stops at DEAD."""
    assert m.apply_failure(m.Entry("injured"), DamageState.HEALTHY) == DamageState.INJURED
    assert m.apply_failure(m.Entry("maimed"), DamageState.INJURED) == DamageState.DEAD
    assert m.apply_failure(m.Entry("dead"), DamageState.HEALTHY) == DamageState.DEAD
    assert m.apply_failure(m.Entry("injured"), DamageState.DEAD) == DamageState.DEAD


def test_missions_tv_05_enter_the_ward_room():
    """missions TV-05 (BtQ L2184-2185): reward 8 of 8, failure 7 of 8 (INJURED priced as
    printed, 1; 8 with INJURED at 2); six failures before eight successes fail it, and its
    failure lowers Influence by 1 (never below 1) and wounds Gun Deck MAIMED and the
    Captain's reputation INJURED."""
    ward = m.sample_missions()["enter_the_ward_room"]
    assert m.budget(ward) == {"reward": 8, "failure": 7, "budget": 8}
    assert m.budget(ward, m.purchase_tables(injured_cost=2))["failure"] == 8
    assert m.replay(ward, "SSSSSSSFFFFFF")[-1] == m.Progress(7, 6, m.FAILED)
    gun_deck, captain, influence = ward.failures
    assert m.apply_failure(gun_deck, DamageState.HEALTHY) == DamageState.MAIMED
    assert m.apply_failure(captain, DamageState.HEALTHY) == DamageState.INJURED
    assert (influence.kind, influence.target) == ("measure", "influence")
    assert m.apply_failure(influence, 3) == 2
    assert m.apply_failure(influence, 1) == 1


def test_tv_19_mission_budgets():
    """characters TV-19 (BtQ L1549-1561, L1456-1458, L2163-2191): every book mission spends
    at most its number of challenges on each side, with INJURED at 1 or 2."""
    expected = {  # key: (budget, reward, failure with INJURED 1, with INJURED 2)
        "scout_soukir_bay": (4, 4, 4, 4),
        "deliver_admiral_gordon": (4, 4, 4, 4),
        "seduce_lady_pemberton": (4, 4, 4, 4),
        "enter_the_ward_room": (8, 8, 7, 8),
        "accepted_as_a_seaman": (2, 2, 1, 2),
        "promoted_to_mate": (2, 2, 1, 2),
        "examination_for_lieutenant": (3, 0, 1, 2),
    }
    samples = m.sample_missions()
    assert set(samples) == set(expected)
    for key, (n, reward, fail1, fail2) in expected.items():
        assert m.budget(samples[key]) == {"reward": reward, "failure": fail1, "budget": n}, key
        doubled = m.purchase_tables(injured_cost=2)
        assert m.budget(samples[key], doubled)["failure"] == fail2, key
        assert m.validate(samples[key])[0] == {}, key
        assert m.validate(samples[key], doubled)[0] == {}, key


def test_validation_names_each_rule():
    """§3.6: at least 2 challenges, a deadline of at least 1, each budget at most the number
    of challenges; a deadline above the challenges is a warning only (A18)."""
    errors, _ = m.validate(terms(1, 0))
    assert "at least 2 challenges" in errors["challenges_required"][0]
    assert "at least 1" in errors["deadline_failures"][0]
    over = terms(2, 2, rewards=[m.Entry("wealth")], failures=[m.Entry("dead", target="health")])
    errors, _ = m.validate(over)
    assert errors["rewards"] == ["The reward costs 4 points, but a mission of 2 challenges "
                                 "may spend at most 2 (one point per challenge)."]
    assert errors["failures"][0].startswith("The failure costs 8 points,")
    errors, warnings = m.validate(terms(2, 3))
    assert errors == {} and "more than the 2 challenges" in warnings[0]
    errors, _ = m.validate(terms(4, 4, rewards=[m.Entry("measure", target="luck"),
                                                m.Entry("narrative")]))
    assert any("not a Measure" in e for e in errors["rewards"])
    assert any("needs words" in e for e in errors["rewards"])
    with pytest.raises(m.MissionError, match="at least 2"):
        m.check(terms(1, 1))


def test_reward_and_failure_values():
    """BtQ L1525-1543: +1 to a value; -1 never below 1 (Wealth to 0); a skill at 0 cannot be
    lowered; Wealth at most 10."""
    assert m.apply_reward(m.Entry("reputation", amount=2), 0) == 2
    assert m.apply_reward(m.Entry("wealth"), 10, maximum=10) == 10
    assert m.apply_failure(m.Entry("wealth"), 1) == 0
    assert m.apply_failure(m.Entry("reputation"), 1) == 1
    with pytest.raises(m.MissionError, match="skill at 0"):
        m.apply_failure(m.Entry("skill"), 0)
    with pytest.raises(m.MissionError, match="Only a Dead"):
        m.apply_reward(m.Entry("heal_dead"), DamageState.MAIMED)


def test_scopes_and_officers():
    """BtQ L1447, L1517: rewards for Officers, Ratings or one character; a Mate counts by
    the setting petty_officer_tier (D7)."""
    assert m.is_officer("Lieutenant") and m.is_officer("Master")
    assert not m.is_officer("Able Seaman")
    assert m.is_officer("Gunner's Mate") and not m.is_officer("Gunner's Mate",
                                                               petty_officer_tier="rating")
    only_b = m.Entry("skill", scope="character", character=7)
    assert m.applies_to(only_b, character=7, officer=True)
    assert not m.applies_to(only_b, character=8, officer=True)
    assert not m.applies_to(m.Entry("skill", scope="ratings"), character=1, officer=True)


def test_scar_rule_reduces_the_deadline():
    """BtQ L1319: a black number card lowers one mission's failed-challenge deadline by 1,
    which fails a mission already at the new deadline."""
    t, p = m.reduce_deadline(terms(4, 2), m.Progress(0, 1))
    assert t.deadline_failures == 1 and p.status == m.FAILED
    t, _ = m.reduce_deadline(terms(4, 1), m.Progress())
    assert t.deadline_failures == 1


def test_reputation_caps_and_ship_reputations():
    """D9: the full value is kept, the cap counts in tests, with a warning; a ship
    reputation adds its value less its damage penalty, nothing when Dead (A22)."""
    capped = m.reputation_cap(4, 3, "Charm")
    assert (capped.value, capped.effective) == (4, 3) and "above your Charm" in capped.warning
    assert m.reputation_cap(2, 3, "Charm").warning == ""
    feared = m.ShipReputation("Feared by Smugglers", 2)
    assert m.ship_reputation_cards(feared) == 2
    assert m.ship_reputation_cards(m.ShipReputation("x", 2, DamageState.INJURED)) == 1
    assert m.ship_reputation_cards(m.ShipReputation("x", 4, DamageState.MAIMED)) == 1
    assert m.ship_reputation_cards(m.ShipReputation("x", 4, DamageState.MAIMED),
                                   gate_passed=False) == 0
    assert m.ship_reputation_cards(m.ShipReputation("x", 4, DamageState.DEAD)) == 0


def test_entries_round_trip_and_bad_shapes():
    entry = m.Entry("reputation", 2, "personal:Loved by:Lady Pemberton")
    assert m.Entry.from_dict(entry.as_dict()) == entry
    for bad in ({"kind": "skill", "amount": "2"}, {"kind": "skill", "colour": "red"}, {}):
        with pytest.raises(m.MissionError):
            m.Entry.from_dict(bad)


def test_the_budget_is_each_character_s_when_rewards_differ():
    """BtQ L1447, L1517: different rewards for Officers and Ratings (or one character) are
    each bought within the budget."""
    t = terms(4, 4, rewards=[m.Entry("skill", scope="officers"),
                             m.Entry("wealth", scope="ratings")])
    assert m.budget(t)["reward"] == 4 and m.validate(t)[0] == {}
    t = terms(4, 4, rewards=[m.Entry("skill"), m.Entry("wealth", scope="ratings")])
    errors, _ = m.validate(t)
    assert errors["rewards"] == ["The reward costs 6 points for the Ratings, but a mission of "
                                 "4 challenges may spend at most 4 (one point per challenge)."]
    t = terms(4, 4, rewards=[m.Entry("skill", scope="officers"),
                             m.Entry("measure", scope="character", character=3),
                             m.Entry("skill", scope="character", character=5)])
    assert m.budget(t)["reward"] == 4


def test_a_ship_reputation_used_in_a_lost_battle_drops_one_level():
    """BtQ L1241-1242 and D1: a reputation in the pool of the side that lost is Injured, an
    Injured one Maimed, a Maimed one Dead; a won or drawn battle leaves it."""
    after = m.ship_reputation_after_battle
    assert [after(s, winner="enemy") for s in DamageState] == [
        DamageState.INJURED, DamageState.MAIMED, DamageState.DEAD, DamageState.DEAD]
    assert after(DamageState.INJURED, winner="pc") == DamageState.INJURED
    assert after(DamageState.HEALTHY, winner=None) == DamageState.HEALTHY


@pytest.mark.parametrize("kind, written, key, label", [
    ("skill", "Gunnery", "gunnery", "Gunnery"),
    ("skill", "gunnery", "gunnery", "Gunnery"),
    ("skill", " FIRST AID ", "first_aid", "First Aid"),
    ("skill", "first_aid", "first_aid", "First Aid"),
    ("measure", "Influence", "influence", "Influence"),
    ("injured", "Ship Morale", "ship_morale", "Ship Morale"),
    ("heal_dead", "HEALTH", "health", "Health"),
])
def test_a_skill_measure_or_area_is_named_in_any_case(kind, written, key, label):
    """A reward's skill written as the book does ("Gunnery") or in any case is its key, and
    is shown in the book's words; a target that names nothing is left for validate."""
    entry = m.Entry.from_dict({"kind": kind, "target": written})
    assert entry.target == key and m.target_label(kind, entry.target) == label
    assert m.check(terms(4, 4, [entry] if kind in ("skill", "measure") else [],
                         [entry] if kind == "injured" else [])) == []


def test_every_error_of_a_side_is_said_at_once():
    """A wound bought twice and a failure over its budget are both said, as are a reward
    over its budget and a target that names nothing: one round trip shows them all."""
    errors, _ = m.validate(terms(3, 3, rewards=[m.Entry("wealth"), m.Entry("skill", 2),
                                                m.Entry("skill", target="Gunnary")],
                                 failures=[m.Entry("injured", 5, "health"),
                                           m.Entry("dead", target="wealth")]))
    assert errors["rewards"] == ["“Gunnary” is not a skill.",
                                 "The reward costs 10 points, but a mission of 3 challenges "
                                 "may spend at most 3 (one point per challenge)."]
    assert errors["failures"][0] == "A wound is bought once per area: its amount is 1."
    assert errors["failures"][1].startswith("The failure costs 13 points,")


@pytest.mark.parametrize("side, data, words", [
    ("reward", {"kind": "reputation", "target": "institution:Feared by:Smugglers"},
     "Institution: Feared by Smugglers +1"),
    ("reward", {"kind": "skill", "target": "gunnery", "amount": 2}, "Gunnery +2"),
    ("reward", {"kind": "heal_dead", "target": "wealth"}, "Heal Wealth"),
    ("reward", {"kind": "skill", "amount": 2}, "+1 to a Skill ×2"),
    ("failure", {"kind": "injured", "target": "ship_morale"}, "Ship Morale Injured"),
    ("failure", {"kind": "maimed", "target": "reputation:Gun Deck"}, "Gun Deck Maimed"),
    ("failure", {"kind": "measure", "target": "guts"}, "Guts -1"),
])
def test_an_entry_reads_in_words(side, data, words):
    """The mission's page reads an entry in words, never its stored target syntax."""
    entry = m.Entry.from_dict(data)
    assert m.entry_words(entry, m.purchase_tables()[side][entry.kind].label) == words


def test_a_target_that_names_no_skill_is_still_refused():
    entry = m.Entry.from_dict({"kind": "skill", "target": "Gunnary"})
    assert entry.target == "Gunnary"
    with pytest.raises(m.MissionError, match="“Gunnary” is not a skill"):
        m.check(terms(2, 2, [entry]))
