"""What a card test refuses, through the service layer: a stale version, a step its status
does not allow, a step that is not the user's, and bad input; each refusal changes nothing."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns.models import CampaignLogEntry
from campaigns.services import StaleVersion
from characters.services import character_update, reputation_create, reputation_delete
from combat.card_tests.selectors import card_test_status
from combat.card_tests.services import (
    IllegalStep,
    card_test_accept,
    card_test_call,
    card_test_cancel,
    card_test_confirm,
    card_test_decline,
    card_test_propose,
)
from combat.models import Encounter, EncounterEvent
from rules.btq.characters import DamageState

VARIANT_B = "4S  4C KD KS QH JH 2C  4H AH 2D 7S"


def snapshot(test):
    test.refresh_from_db()
    return (test.status, test.version, test.state, test.rng_state, test.terms,
            EncounterEvent.objects.count(), CampaignLogEntry.objects.count())


def test_a_stale_confirmation_is_refused_and_nothing_changes(race, player_a, gm):
    test = race()
    seen = test.version  # the player opens the test; meanwhile the GM cancels it
    card_test_cancel(test=test, actor=gm, version=seen)
    before = snapshot(test)
    with pytest.raises(StaleVersion, match="reload"):
        card_test_confirm(test=test, actor=player_a, version=seen)
    assert snapshot(test) == before and card_test_status(test) == "cancelled"


def test_two_confirmations_of_one_test_turn_the_cards_once(race, turn, player_a):
    test = race()
    seen = test.version
    turn(test, player_a, VARIANT_B)
    before = snapshot(test)
    with pytest.raises(StaleVersion):
        card_test_confirm(test=test, actor=player_a, version=seen)
    with pytest.raises(IllegalStep, match="done"):
        card_test_confirm(test=test, actor=player_a, version=test.version)
    assert snapshot(test) == before


@pytest.mark.parametrize("step,who", [
    ("accept", "gm"), ("decline", "gm"), ("joker", "player_a"),
])
def test_steps_the_status_does_not_allow(race, request, step, who):
    from combat.card_tests import services as card_tests

    test = race()
    actor = request.getfixturevalue(who)
    before = snapshot(test)
    act = {"accept": card_tests.card_test_accept, "decline": card_tests.card_test_decline,
           "joker": card_tests.card_test_declare_joker}[step]
    with pytest.raises(IllegalStep, match="awaiting confirmation"):
        act(test=test, actor=actor, version=test.version)
    assert snapshot(test) == before


@pytest.mark.parametrize("who", ["player_b", "gm", "outsider"])
def test_only_the_pc_s_player_confirms(race, request, who):
    test = race()
    before = snapshot(test)
    with pytest.raises(PermissionDenied):
        card_test_confirm(test=test, actor=request.getfixturevalue(who), version=test.version)
    assert snapshot(test) == before


def test_the_gm_confirms_for_a_pc_without_a_player(race, turn, gm, pc_a):
    pc_a.owner = None  # the player's account was deleted
    pc_a.save(update_fields=["owner"])
    assert card_test_status(turn(race(), gm, VARIANT_B)) == "done"


def test_a_player_proposes_for_their_own_pc_only_and_sets_no_npc_side(campaign, player_a,
                                                                        player_b, pc_a, jones):
    with pytest.raises(PermissionDenied, match="your own"):
        card_test_propose(campaign=campaign, actor=player_b, character=pc_a.pk,
                          skill="seamanship", opposition="none", intent="mine now")
    with pytest.raises(PermissionDenied, match="Only the GM"):
        card_test_propose(campaign=campaign, actor=player_a, character=pc_a.pk,
                          skill="seamanship", opposition="npc", opponent=jones.pk,
                          opponent_skill="courtesy", intent="he is a fool")
    with pytest.raises(PermissionDenied):
        card_test_call(campaign=campaign, actor=player_a, character=pc_a.pk,
                       skill="seamanship", opposition="none", intent="players propose")
    assert not Encounter.objects.exists()


def test_the_gm_completes_a_proposal_against_an_npc_and_the_player_confirms(
        campaign, gm, player_a, pc_a, jones, turn):
    test = card_test_propose(campaign=campaign, actor=player_a, character=pc_a.pk,
                             skill="seamanship", opposition="npc", opponent=jones.pk,
                             intent="outsail Jones")
    with pytest.raises(ValidationError, match="NPC tests"):
        card_test_accept(test=test, actor=gm, version=test.version)
    with pytest.raises(ValidationError, match="own character"):
        card_test_accept(test=test, actor=gm, version=test.version, character=jones.pk)
    test = card_test_accept(test=test, actor=gm, version=test.version,
                            opponent_skill="seamanship")
    assert turn(test, player_a, VARIANT_B).state["record"]["winner"] == f"pc:{pc_a.pk}"


def test_decline_and_cancel(campaign, gm, player_a, player_b, pc_a, race):
    proposal = card_test_propose(campaign=campaign, actor=player_a, character=pc_a.pk,
                                 skill="wealth", opposition="difficulty", difficulty="3",
                                 intent="a horse")
    with pytest.raises(PermissionDenied):
        card_test_decline(test=proposal, actor=player_b, version=proposal.version)
    with pytest.raises(PermissionDenied):
        card_test_cancel(test=proposal, actor=player_b, version=proposal.version)
    declined = card_test_decline(test=proposal, actor=gm, version=proposal.version,
                                 reason="No horses at sea.")
    assert card_test_status(declined) == "declined"
    assert declined.terms["declined"] == "No horses at sea."
    with pytest.raises(IllegalStep):
        card_test_cancel(test=declined, actor=player_a, version=declined.version)
    called = race()
    with pytest.raises(PermissionDenied):  # a player cancels only their own proposal
        card_test_cancel(test=called, actor=player_a, version=called.version)
    assert card_test_status(card_test_cancel(test=called, actor=gm,
                                             version=called.version)) == "cancelled"
    texts = list(campaign.log_entries.filter(kind__startswith="test.").values_list(
        "kind", flat=True))
    assert {"test.proposed", "test.declined", "test.called", "test.cancelled"} <= set(texts)


BAD_SETUPS = [
    ({"reputations": "two"}, "reputations", "at most one reputation"),
    ({"skill": "sorcery"}, "skill", "not a skill"),
    ({"skill": 5}, "skill", "not a skill"),
    ({"modifiers": [{"source": "Storm", "cards": -25}]}, "modifiers", "-20 to 20"),
    ({"modifiers": [{"source": "Storm", "cards": 0}]}, "modifiers", "whole number"),
    ({"modifiers": [{"source": "", "cards": 1}]}, "modifiers", "needs a source"),
    ({"opposition": "difficulty", "difficulty": "-3"}, "difficulty", "neither"),
    ({"opposition": "difficulty", "difficulty": "impossible"}, "difficulty", "neither"),
    ({"opposition": "npc", "opponent": None}, "opponent", "Choose the NPC"),
    ({"opposition": "npc", "opponent_skill": ""}, "opponent_skill", "Choose the skill"),
    ({"opposition": "sideways"}, "opposition", "Choose the opposition"),
    ({"intent": "  "}, "intent", "State the intent"),
    ({"at_risk": "soul"}, "at_risk", "not an area"),
    ({"character": 9999}, "character", "no such player character"),
    ({"helpers": ["pc_a"]}, "helpers", "cannot help"),
    ({"opponent_at_risk": "reputation:1"}, "opponent_at_risk", "health, ship_morale"),
]


@pytest.mark.parametrize("changes,field,message", BAD_SETUPS)
def test_bad_input_is_refused_with_a_message_on_its_field(race, pc_a, gm, changes, field,
                                                          message, distrusted):
    changes = dict(changes)
    if changes.get("reputations") == "two":
        second = reputation_create(character=pc_a, actor=gm, kind="institution",
                                   descriptor="Respected by", subject="the Ward Room", value=1)
        changes["reputations"] = [distrusted.pk, second.pk]
    if changes.get("helpers") == ["pc_a"]:
        changes["helpers"] = [pc_a.pk]
    with pytest.raises(ValidationError) as caught:
        race(**changes)
    assert message in " ".join(caught.value.message_dict[field])
    assert not Encounter.objects.exists()


def test_unknown_fields_are_refused(race):
    with pytest.raises(ValidationError, match="Unknown test fields: luck"):
        race(luck=3)


@pytest.mark.parametrize("changes,message", [
    ({"skill": "intrigue"}, "No reputation may be added to an unskilled test"),
    ({"skill": "guts", "reputations": [], "helpers": "pc_b"}, "Helpers add their skill"),
])
def test_what_the_rules_forbid_is_refused(race, pc_b, changes, message):
    if changes.get("helpers") == "pc_b":
        changes["helpers"] = [pc_b.pk]
    with pytest.raises(ValidationError, match=message):
        race(**changes)


def test_a_dead_area_or_reputation_cannot_be_at_risk_or_used(race, gm, pc_a, distrusted):
    character_update(character=pc_a, actor=gm, version=pc_a.version,
                     wealth_state=DamageState.DEAD)
    with pytest.raises(ValidationError, match="Wealth is Dead"):
        race(at_risk="wealth")
    distrusted.damage_state = DamageState.DEAD
    distrusted.save()
    with pytest.raises(ValidationError, match="Distrusted by Captain Jones is Dead"):
        race()
    with pytest.raises(ValidationError, match="Dead"):
        race(reputations=[], at_risk=f"reputation:{distrusted.pk}")
    pc_a.refresh_from_db()
    character_update(character=pc_a, actor=gm, version=pc_a.version,
                     health_state=DamageState.DEAD)
    with pytest.raises(ValidationError, match="the dead take no tests"):
        race(reputations=[])


def test_an_area_that_dies_before_the_draw_stops_the_confirmation(race, gm, player_a, pc_a):
    test = race(at_risk="health")
    character_update(character=pc_a, actor=gm, version=pc_a.version,
                     health_state=DamageState.DEAD)
    before = snapshot(test)
    with pytest.raises(ValidationError, match="Dead"):
        card_test_confirm(test=test, actor=player_a, version=test.version)
    assert snapshot(test) == before


def test_a_reputation_in_an_open_test_is_not_removed(race, gm, distrusted):
    race()
    with pytest.raises(ValidationError, match="not over yet"):
        reputation_delete(reputation=distrusted, actor=gm, version=distrusted.version)
    assert type(distrusted).objects.filter(pk=distrusted.pk).exists()


def test_a_pool_that_changed_since_the_call_is_not_drawn(race, gm, player_a, pc_a):
    """The pools are fixed when the test is called (its seed's hash published with them): if
    a sheet changes before the draw, the page says so and the confirmation is refused."""
    from combat.card_tests.selectors import card_test_view

    test = race()
    assert card_test_view(player_a, test)["problem"] is None
    character_update(character=pc_a, actor=gm, version=pc_a.version,
                     skills={**pc_a.skills, "seamanship": 5})
    assert "changed since the test was called" in card_test_view(player_a, test)["problem"]
    before = snapshot(test)
    with pytest.raises(ValidationError, match="calls it again"):
        card_test_confirm(test=test, actor=player_a, version=test.version)
    assert snapshot(test) == before
