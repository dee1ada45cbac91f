"""The card-test form and result say things plainly: a missing NPC is asked for, only the
fields of the chosen opposition show, the odds sit above the stakes, and damage names whose
it is."""

from django.urls import reverse

from combat.card_tests.selectors import card_test_status
from combat.card_tests.services import card_test_call


def test_the_preview_asks_for_the_npc_instead_of_naming_none(gm_client, campaign, pc_a):
    html = gm_client.post(reverse("card_tests:preview", args=[campaign.pk]),
                          {"character": pc_a.pk, "skill": "seamanship", "opposition": "npc",
                           "intent": "x"}).content.decode()
    assert "Choose the NPC." in html and "None" not in html


def test_the_form_tags_each_opposition_field_and_shows_the_odds_above_the_stakes(
        gm_client, campaign, pc_a):
    url = reverse("card_tests:new", args=[campaign.pk])
    html = gm_client.get(f"{url}?character={pc_a.pk}").content.decode()
    for name, opposition in (("opponent", "npc"), ("opponent_skill", "npc"),
                             ("difficulty", "difficulty"), ("difficulty_cards", "difficulty"),
                             ("opponent_at_risk", "npc")):
        start = html.index(f'name="{name}"')
        wrapper = html[html.rindex("<div", 0, start):start]
        assert f'data-shown-for="{opposition}"' in wrapper, name
    assert 'data-shown-for' not in html[html.rindex("<div", 0, html.index('name="intent"')):
                                        html.index('name="intent"')]
    assert html.index('id="odds-preview"') < html.index("The stakes")


def test_the_result_names_whose_health_was_damaged(player_a_client, campaign, gm, pc_a, npc,
                                                   turn):
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="seamanship",
                          opposition="npc", opponent=npc.pk, opponent_skill="command",
                          intent="Board her.", at_risk="health", opponent_at_risk="health")
    test = turn(test, pc_a.owner, "2C 2D 3D 4D 5D AH KH QH JH 10H")
    assert card_test_status(test) == "done"
    html = player_a_client.get(reverse("card_tests:detail",
                                       args=[campaign.pk, test.pk])).content.decode()
    assert "Lieutenant Anne Able won" in html
    assert "Captain Nemo Nobody’s Health: Healthy →" in html
