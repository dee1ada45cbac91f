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


def test_a_count_of_cards_is_singular_for_one(gm_client, campaign, gm, pc_a, pc_b):
    """The difficulties read "Easy (1 card)" (BtQ L1258-1260), a one-card pool "= 1 card",
    and a pool the floor raises to a card counts it once (setting personal_pool_floor, D2)."""
    from campaigns.services import campaign_update
    from rules.cards import card_count

    assert [card_count(n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert card_count(-1, signed=True) == "-1 card"
    assert card_count(2, "Discipline", signed=True) == "+2 Discipline cards"
    html = gm_client.get(reverse("card_tests:new", args=[campaign.pk]) + f"?character={pc_a.pk}"
                         ).content.decode()
    assert "Easy (1 card)</option>" in html and "Routine (3 cards)</option>" in html
    assert "1 cards" not in html
    unskilled = card_test_call(campaign=campaign, actor=gm, character=pc_b.pk,
                               skill="intrigue", opposition="difficulty", difficulty="easy",
                               intent="lay the ground")
    html = gm_client.get(reverse("card_tests:detail", args=[campaign.pk, unskilled.pk])
                         ).content.decode()
    assert '<span class="pool">Intrigue unskilled: one card 1 = 1 card</span>' in html
    assert "the Easy difficulty (1 card)" in html and "1 cards" not in html
    campaign_update(campaign=campaign, actor=gm, version=campaign.version,
                    settings={**campaign.rules_settings(), "personal_pool_floor": 1})
    floored = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="gunnery",
                             modifiers=[{"source": "Fog", "cards": -2}],
                             opposition="difficulty", difficulty="easy", intent="fire blind")
    html = gm_client.get(reverse("card_tests:detail", args=[campaign.pk, floored.pk])
                         ).content.decode()
    assert "= 0, at least 1 card</span>" in html and "card card" not in html
