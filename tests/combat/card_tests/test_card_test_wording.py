"""The card-test form and result say things plainly: a missing NPC is asked for, only the
fields of the chosen opposition show, the odds sit above the stakes, and damage names whose
it is."""

from html import unescape

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


def _page(client, test):
    """The test's page as ``client`` reads it (entities such as the apostrophe unescaped)."""
    return unescape(client.get(reverse("card_tests:detail", args=[test.campaign_id, test.pk])
                               ).content.decode())


def test_the_odds_name_the_character_to_all_but_his_player_and_the_difficulty_says_so(
        gm_client, player_a_client, player_b_client, campaign, gm, pc_a):
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="seamanship",
                          opposition="difficulty", difficulty="4", intent="Make sail.")
    assert card_test_status(test) == "awaiting_confirmation"
    for client, caption in ((gm_client, "Lieutenant Anne Able's best card (4 cards)"),
                            (player_b_client, "Lieutenant Anne Able's best card (4 cards)"),
                            (player_a_client, "Your best card (4 cards)")):
        html = _page(client, test)
        assert caption in html
        assert "<strong>Difficulty: 4 cards</strong>" in html
    assert "Your best card" not in _page(gm_client, test)
    preview = gm_client.post(reverse("card_tests:preview", args=[campaign.pk]), {
        "character": pc_a.pk, "skill": "seamanship", "opposition": "difficulty",
        "difficulty": "cards", "difficulty_cards": 4, "intent": "x"}).content.decode()
    preview = unescape(preview)
    assert "Lieutenant Anne Able's best card" in preview and "Your best" not in preview


def test_the_odds_of_a_pool_alone_against_an_npc_are_named_for_whose_they_are(
        player_a_client, player_b_client, race):
    test = race()
    assert "the odds of your own 6 cards alone" in _page(player_a_client, test)
    assert "the odds of Lieutenant Anne Able's 6 cards alone" in _page(player_b_client, test)


def test_a_draw_won_against_no_success_says_to_none(
        gm_client, player_a_client, player_b_client, campaign, gm, pc_a, turn):
    # The Card of Fate 5H; Anne's 3H 7H are Ordinary, 9C 2S nothing; the difficulty's four
    # cards nothing: two successes to none (BtQ L1238-1239).
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="seamanship",
                          opposition="difficulty", difficulty="4", intent="Make sail.")
    test = turn(test, pc_a.owner, "5H 3H 7H 9C 2S 4S 6C KD 2D")
    for client in (gm_client, player_a_client, player_b_client):
        html = _page(client, test)
        assert "Decided by 2 successes to none." in html
        assert "(2 to 0)" not in html


def test_a_draw_won_on_more_ordinaries_beside_equal_criticals_keeps_the_count_by_level(
        gm_client, campaign, gm, pc_a, turn):
    # Both sides turn a Critical (5D, 5S against 5H); Anne has two Ordinaries more.
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="seamanship",
                          opposition="difficulty", difficulty="4", intent="Make sail.")
    test = turn(test, pc_a.owner, "5H 5D 3H 7H 9C 5S 4S 6C KD")
    assert "Decided by more Ordinary successes (2 to 0)." in _page(gm_client, test)
