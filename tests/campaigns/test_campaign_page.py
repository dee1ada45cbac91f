"""The campaign page leads to everything a member can do: its battles (unfinished first) and
the card tests that wait for the viewer."""

import pytest
from django.urls import reverse
from django.utils import timezone

from combat.card_tests.services import card_test_call
from combat.models import Encounter


def _battle(campaign, title, status):
    started = None if status == Encounter.Status.SETUP else timezone.now()
    return Encounter.objects.create(campaign=campaign, engine="btq_naval", title=title,
                                    setup={}, seed="1", seed_hash="x", status=status,
                                    started_at=started)


def _page(client, campaign):
    return client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()


def test_battles_section_lists_unfinished_battles_first_with_links(gm_client, campaign):
    done = _battle(campaign, "Old fight", Encounter.Status.FINISHED)
    live = _battle(campaign, "Chase off Ushant", Encounter.Status.ACTIVE)
    html = _page(gm_client, campaign)
    section = html[html.index('id="battles"'):html.index('id="characters"')]
    assert section.index("Chase off Ushant") < section.index("Old fight")
    assert reverse("combat:detail", args=[live.pk]) in section
    assert reverse("combat:detail", args=[done.pk]) in section
    assert reverse("combat:list", args=[campaign.pk]) in section
    assert reverse("combat:new", args=[campaign.pk]) in section


def test_players_see_begun_battles_but_no_new_battle_button(player_a_client, campaign):
    _battle(campaign, "Secret ambush", Encounter.Status.SETUP)
    _battle(campaign, "Chase off Ushant", Encounter.Status.ACTIVE)
    html = _page(player_a_client, campaign)
    assert "Chase off Ushant" in html
    assert "Secret ambush" not in html
    assert reverse("combat:list", args=[campaign.pk]) in html
    assert reverse("combat:new", args=[campaign.pk]) not in html


@pytest.mark.parametrize("persona,sees", [("player_a", True), ("player_b", False)])
def test_a_called_test_waits_on_its_players_page_and_is_at_the_table_for_all(
        request, campaign, gm, pc_a, persona, sees):
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="seamanship",
                          opposition="difficulty", difficulty=2, intent="Reef topsails.")
    html = _page(request.getfixturevalue(f"{persona}_client"), campaign)
    link = reverse("card_tests:detail", args=[campaign.pk, test.pk])
    assert link in html  # the whole table watches it: a way in for every member
    assert ('id="awaiting-me"' in html) == sees
    assert ('id="tests-at-table"' in html) != sees  # the others' tests are "at the table"
