"""A player who leaves the campaign leaves their PCs behind without a player, so the GM plays
them: confirms their tests, or hands them to another player."""

from django.urls import reverse

from campaigns.models import Membership
from characters.services import character_update
from combat.card_tests.selectors import card_test_status
from combat.card_tests.services import card_test_call, card_test_confirm
from combat.models import Encounter


def test_removing_a_player_frees_their_pcs_and_the_gm_confirms_their_tests(
        gm, gm_client, campaign, pc_a, pc_b, player_a, player_b):
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="seamanship",
                          opposition="difficulty", difficulty=2, intent="Reef topsails.")
    membership = Membership.objects.get(campaign=campaign, user=player_a)
    response = gm_client.post(reverse("campaigns:member", args=[campaign.pk, membership.pk]),
                              {"action": "remove"})
    assert response.status_code == 302
    pc_a.refresh_from_db()
    pc_b.refresh_from_db()
    assert pc_a.owner is None and pc_a.version == 2
    assert pc_b.owner == player_b  # only the leaver's PCs
    entry = campaign.log_entries.get(kind="character.updated", data__character=pc_a.pk)
    assert "has no player now that player_a left" in entry.text
    test = card_test_confirm(test=Encounter.objects.get(pk=test.pk), actor=gm,
                             version=test.version)
    assert card_test_status(test) in ("done", "awaiting_joker")
    pc_a = character_update(character=pc_a, actor=gm, version=pc_a.version, owner=player_b)
    assert pc_a.owner == player_b

