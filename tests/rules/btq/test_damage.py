"""Damage and healing (BtQ L1297-1426; ``rules/btq_characters.md`` §5, TV-15, TV-16;
``rules/DECISIONS.md`` D11, D12)."""

import pytest

from rules.btq.characters import DamageState
from rules.btq.damage import (
    HealError,
    check_heal,
    heal_route,
    healed,
    scar,
    scratch_restored,
    ship_refit,
    ship_repair,
    wound,
)
from rules.btq.tests import (
    Pool,
    Side,
    SuccessLevel,
    damage_penalty,
    overcome_great_hardship,
    simple_test,
)
from rules.btq.traits import pool_modifiers
from rules.cards import PLAYER_DECK, parse_card
from rules.random import ScriptedSource

H, I, M, D = DamageState  # noqa: E741 (the book's initials)
O, C, P = SuccessLevel.ORDINARY, SuccessLevel.CRITICAL, SuccessLevel.PERFECT  # noqa: E741
SCRATCH = {"is_but_a_scratch": 1}


@pytest.mark.parametrize("state, level, after", [
    (H, O, I), (H, C, M), (H, P, D), (I, O, M), (I, C, D), (I, P, D), (M, O, D), (M, C, D),
    (M, P, D),
])
def test_transitions_without_traits(state, level, after):
    """§5.1: new = min(Dead, state + level) (BtQ L1305-1329)."""
    assert wound(state, level).after == after


@pytest.mark.parametrize("scratched, level, after, now_scratched", [
    (False, O, H, True),     # the first Ordinary wound is ignored
    (False, C, I, False),    # a Critical leaves Injured
    (False, P, M, False),    # the Perfect case: Maimed (D12's reading)
    (True, O, I, False),     # scratched, the next Ordinary is a real wound
    (True, C, M, False),
    (True, P, D, False),
])
def test_d12_is_but_a_scratch_sir(scratched, level, after, now_scratched):
    """D12 (BtQ L1049-1050): an extra wound level before Injured."""
    hit = wound(H, level, traits=SCRATCH, scratched=scratched)
    assert (hit.after, hit.scratched) == (after, now_scratched)
    assert (hit.saved_by == "Is But A Scratch, Sir!") == (not scratched)


@pytest.mark.parametrize("setting, heal, session_end", [
    ("on_heal", True, False), ("session_end", False, True), ("both", True, True)])
def test_setting_scratch_resets(setting, heal, session_end):
    """A17: Is But A Scratch's used level comes back when Health heals to Healthy (the
    default), at a session's end, or both (the book is silent, BtQ L1049-1050)."""
    settings = {"scratch_resets": setting}
    assert (scratch_restored("heal", settings), scratch_restored("session_end", settings)) \
        == (heal, session_end)
    with pytest.raises(ValueError, match="no moment"):
        scratch_restored("dawn", settings)
    lasting = not heal
    # Scratched, then wounded past it: the level stays used only until a session's end.
    hit = wound(H, O, traits=SCRATCH, scratched=True, lasting=lasting)
    assert (hit.after, hit.scratched) == (I, lasting)
    # A Critical on a healthy character uses the level too ("makes you Injured instead").
    hit = wound(H, C, traits=SCRATCH, lasting=lasting)
    assert (hit.after, hit.scratched) == (I, lasting)
    # Healed back to Healthy with the level still used: the next Ordinary wound is real.
    if lasting:
        assert wound(H, O, traits=SCRATCH, scratched=True, lasting=True).after == I


def test_d12_is_but_a_scratch_changes_nothing_once_injured_nor_outside_health():
    assert wound(I, O, traits=SCRATCH).after == M
    assert wound(H, O, traits=SCRATCH, health=False).after == I


@pytest.mark.parametrize("state, level, combat, used, after, saved", [
    (I, C, True, True, I, "Cheat Death!"),     # Injured -> Dead negated
    (M, O, True, True, M, "Cheat Death!"),     # Maimed -> Dead negated
    (H, P, True, True, D, None),               # Healthy -> Dead: not Cheat Death's (D11)
    (I, C, False, True, D, None),              # only in combat (D11)
    (I, C, True, False, D, None),              # no use left, or not used
    (I, O, True, True, M, None),               # not a death
])
def test_d11_cheat_death(state, level, combat, used, after, saved):
    hit = wound(state, level, traits={"cheat_death": 1}, combat=combat, cheat_death=used)
    assert (hit.after, hit.saved_by) == (after, saved)


def test_jonah_ignores_a_maimed_or_dead_combat_result_at_a_mission_s_cost():
    """BtQ L1074: the Naval Mission counts one more failed challenge."""
    hit = wound(H, C, traits={"jonah": 1}, combat=True, jonah=True)
    assert (hit.after, hit.saved_by, hit.extra_failed_challenge) == (H, "Jonah", True)
    assert wound(H, O, traits={"jonah": 1}, combat=True, jonah=True).after == I
    assert wound(H, C, traits={"jonah": 1}, combat=False, jonah=True).after == M


@pytest.mark.parametrize("area, state, method, skills, to", [
    ("health", I, "simple_test", ("first_aid",), H),
    ("health", M, "challenge", ("first_aid",), I),
    ("ship_morale", I, "simple_test", ("command",), H),
    ("wealth", I, "simple_test", ("diplomacy",), H),
    ("wealth", M, "challenge", ("haggle", "diplomacy", "skullduggery"), I),
    ("personal", I, "simple_test", ("courtesy",), H),
    ("institution", I, "simple_test", ("diplomacy",), H),
    ("institution", D, "mission", (), M),
])
def test_healing_routes(area, state, method, skills, to):
    """§5.4 (BtQ L1361-1366, L1385-1411, L1747-1748)."""
    route = heal_route(area, state)
    assert (route.method, route.skills, route.to) == (method, skills, to)


def test_health_dead_never_heals_and_healthy_needs_nothing():
    with pytest.raises(HealError, match="no Mission can bring a character back"):
        heal_route("health", D)
    with pytest.raises(HealError, match="Healthy"):
        heal_route("wealth", H)
    with pytest.raises(HealError):
        healed(H)
    assert [healed(s) for s in (I, M, D)] == [H, I, M]


def test_a_failed_heal_locks_the_area_until_another_challenge():
    """BtQ L1366."""
    assert check_heal("health", I, locked=False).method == "simple_test"
    with pytest.raises(HealError, match="completed another challenge"):
        check_heal("health", I, locked=True)


def test_healing_injured_health_is_a_simple_first_aid_test():
    """D4: the First Aid pool against a lone Card of Fate; a Physician in the scene adds 1."""
    pool = Pool("first_aid", 2, modifiers=pool_modifiers({"physician": 1}, "first_aid"))
    record = simple_test(Side("pc:hale", pool, PLAYER_DECK), ScriptedSource("9C  2C 5H 8D"))
    assert pool.size() == 3 and record.outcome == "passed"


def test_tv15_maimed_health_gate_with_hard_as_nails_from_the_sheet():
    """TV-15 (BtQ L1322-1324): the Guts gate is Guts 4 against a lone CoF; Hard as Nails adds
    3 to it; the Skullduggery that follows is at -3."""
    mods = pool_modifiers({"hard_as_nails": 1}, "guts", {"maimed_gate"})
    gate = Side("pc:otoole", Pool("guts", 4, modifiers=mods), PLAYER_DECK)
    assert gate.pool.size() == 7
    # The fifth card, one of the trait's three, passes the gate; Guts 4 alone would not.
    assert simple_test(gate, ScriptedSource("9C  2H 5H KD 8S 3C 4D 10H")).outcome == "passed"
    bare = Side("pc:otoole", Pool("guts", 4), PLAYER_DECK)
    assert simple_test(bare, ScriptedSource("9C  2H 5H KD 8S")).outcome == "failed"
    assert Pool("skullduggery", 3, modifiers=[damage_penalty("Health", M)]).size() == 0


def test_tv16_great_hardship_lifts_the_penalty_for_a_point_of_discipline():
    """TV-16 (BtQ L1422-1426): with the rule Edwards spends 1 Discipline (3 -> 2) and fights
    without the -3; he then hands out 2 Discipline cards."""
    assert overcome_great_hardship(3, {"great_hardship": True}) == 2
    assert Pool("command", 4).size() == 4
    assert Pool("command", 4, modifiers=[damage_penalty("Ship Morale", M)]).size() == 1


@pytest.mark.parametrize("card, kind, lose", [
    ("7H", "scar", ()), ("2D", "scar", ()), ("9C", "infection", ()), ("10S", "infection", ()),
    ("QD", "delirium", ("charm", "influence")), ("JS", "illness", ("guts", "discipline")),
    ("AS", "crippled", ()), ("AH", "crippled", ()), ("JK", "any", ()),
])
def test_the_scar_rule(card, kind, lose):
    """BtQ L1318-1320."""
    result = scar(parse_card(card))
    assert (result.kind, result.lose) == (kind, lose)


def test_a_ship_s_area_is_repaired_by_a_success_and_refitted_in_port():
    """BtQ L2409-2416: one box at or below the success's level, the one that lifts the most
    penalty: with a Critical, the Injured box that leaves the Hull Healthy."""
    track, level = ship_repair("xx|x.|..", O)
    assert (str(track), level) == ("x.|x.|..", I)
    track, level = ship_repair("xx|x.|..", C)
    assert (str(track), level) == ("x.|x.|..", I)
    track, level = ship_repair("xx|xx|..", C)
    assert (str(track), level) == ("xx|x.|..", M)
    assert ship_repair("..|..|x.", C) == (ship_repair("..|..|x.", C)[0], None)
    assert {a: str(t) for a, t in ship_refit({"hull": "xx|x.|..", "crew": "x|x|x"}).items()} \
        == {"hull": "..|..|..", "crew": ".|.|."}
