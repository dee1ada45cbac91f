"""The shipboard page and API with the personas: who sees what, who may do what, the GM's
hidden data (a marker in every GM-only field) never reaching a player, and bad input
refused with the field and the reason (never a 500)."""

import pytest

from characters import shipboard as records
from characters.models import Infraction, PrizeShare
from combat.models import Encounter

MARKER = "gm-only-marker-7741"


@pytest.fixture
def charged(pc_a, gm):
    return records.infraction_record(character=pc_a, actor=gm, article=2,
                                     punishment="captains_discretion", lashes=6,
                                     details="drunk on watch", gm_notes=MARKER)


def url(character, action=""):
    base = f"/shipboard/character/{character.pk}/"
    return f"{base}{action}/" if action else base


def api(character, action=""):
    base = f"/api/characters/{character.pk}/shipboard/"
    return f"{base}{action}/" if action else base


def test_who_sees_the_shipboard_page(pc_a, npc, hidden_npc, charged, gm_client,
                                     player_a_client, player_b_client, outsider_client):
    gm_page = gm_client.get(url(pc_a)).content.decode()
    assert MARKER in gm_page and "Charge and punish" in gm_page and "Don Oculto" in gm_page
    own = player_a_client.get(url(pc_a))
    assert own.status_code == 200
    text = own.content.decode()
    assert "drunk on watch" in text and 'id="buy-form"' in text
    for hidden in (MARKER, "Don Oculto", "npc-secret", "Charge and punish", 'id="scene-form"'):
        assert hidden not in text
    other = player_b_client.get(url(pc_a)).content.decode()
    assert 'id="buy-form"' not in other and MARKER not in other and "drunk on watch" in other
    assert outsider_client.get(url(pc_a)).status_code == 404
    assert player_a_client.get(url(npc)).status_code == 404
    assert player_a_client.get(url(hidden_npc)).status_code == 404
    assert gm_client.get(url(npc)).status_code == 200


def test_the_character_and_campaign_pages_lead_to_it(pc_a, campaign, player_a_client):
    sheet = player_a_client.get(f"/characters/{pc_a.pk}/").content.decode()
    assert f'href="{url(pc_a)}"' in sheet
    page = player_a_client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'href="{url(pc_a)}"' in page


def test_a_player_buys_with_a_test_and_goes_to_its_cards(pc_a, gm, player_a_client,
                                                         player_b_client, outsider_client):
    from characters.services import character_update

    character_update(character=pc_a, actor=gm, version=pc_a.version, wealth=4)
    answer = player_a_client.post(url(pc_a, "buy"), {"buy-item": "officers_dress_uniform",
                                                     "buy-use_prize": "on"})
    test = Encounter.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == f"/campaigns/{pc_a.campaign_id}/tests/{test.pk}/"
    assert test.terms["shipboard"]["action"] == "purchase"
    assert player_b_client.post(url(pc_a, "buy"), {"buy-item": "fine_sword"}).status_code == 403
    assert outsider_client.post(url(pc_a, "buy"), {"buy-item": "fine_sword"}).status_code == 404
    refused = player_a_client.post(url(pc_a, "buy"), {"buy-item": "purchase_country_estate"})
    assert refused.status_code == 400
    assert "beyond Wealth 4 + 2" in refused.content.decode()
    # the GM's fields are not the player's: a forged one is ignored by the player's form
    player_a_client.post(url(pc_a, "buy"), {"buy-item": "ships_cat", "buy-opposition": "0"})
    assert Encounter.objects.count() == 1  # a Ship's Cat (1) is bought at once


def test_gm_only_forms_refuse_players(pc_a, player_a_client, gm_client):
    data = {"charge-article": "2", "charge-punishment": "captains_discretion",
            "charge-lashes": "3"}
    assert player_a_client.post(url(pc_a, "charge"), data).status_code == 403
    assert not Infraction.objects.exists()
    too_many = gm_client.post(url(pc_a, "charge"), {**data, "charge-lashes": "13"})
    assert too_many.status_code == 400
    assert "No more than 12 lashes for one crime" in too_many.content.decode()
    wrong = gm_client.post(url(pc_a, "charge"), {"charge-article": "11",
                                                 "charge-punishment": "captains_discretion"})
    assert "Article 11 is punished by Death" in wrong.content.decode()
    assert gm_client.post(url(pc_a, "charge"), data).status_code == 302
    assert Infraction.objects.get().lashes == 3
    assert gm_client.post(url(pc_a, "nothing"), {}).status_code == 404


def test_the_api_for_each_persona(pc_a, charged, gm_client, player_a_client, player_b_client,
                                  outsider_client):
    gm_view = gm_client.get(api(pc_a)).json()
    assert gm_view["infractions"][0]["gm_notes"] == MARKER
    for client in (player_a_client, player_b_client):
        answer = client.get(api(pc_a))
        assert answer.status_code == 200 and MARKER not in answer.content.decode()
    assert outsider_client.get(api(pc_a)).status_code == 404
    assert player_a_client.post(api(pc_a, "charge"), {"article": 2,
                                "punishment": "none"}, content_type="application/json"
                                ).status_code == 403


def test_the_api_refuses_bad_input_with_the_field(pc_a, gm, gm_client, player_a_client):
    from characters.services import character_update

    character_update(character=pc_a, actor=gm, version=pc_a.version, wealth=2)
    answer = player_a_client.post(api(pc_a, "buy"), {"item": "officers_dress_uniform"},
                                  content_type="application/json")
    assert answer.status_code == 400 and "beyond Wealth 2 + 2" in answer.json()["item"][0]
    answer = player_a_client.post(api(pc_a, "buy"), {"item": "yacht"},
                                  content_type="application/json")
    assert answer.status_code == 400 and "item" in answer.json()
    answer = player_a_client.post(api(pc_a, "buy"), {"item": "fine_sword", "opposition": 0},
                                  content_type="application/json")
    assert answer.status_code == 403
    answer = gm_client.post(api(pc_a, "grog"), {"drink": "spirits", "challenge": ""},
                            content_type="application/json")
    assert answer.status_code == 400 and "challenge" in answer.json()
    answer = gm_client.post(api(pc_a, "charge"), {"article": 2, "punishment":
                            "captains_discretion", "lashes": 20},
                            content_type="application/json")
    assert answer.status_code == 400 and "lashes" in answer.json()
    career = records.career_of(pc_a)
    stale = gm_client.post(api(pc_a, "career"), {"version": career.version + 5,
                           "voyages_completed": 3}, content_type="application/json")
    assert stale.status_code == 409
    ok = gm_client.post(api(pc_a, "career"), {"version": career.version,
                        "voyages_completed": 3}, content_type="application/json")
    assert ok.status_code == 200 and ok.json()["career"]["voyages_completed"] == 3
    started = gm_client.post(api(pc_a, "buy"), {"item": "guide"},
                             content_type="application/json")
    assert started.status_code == 201 and started.json()["test"] is None


def test_prize_shares_and_tokens_through_the_api(pc_a, gm_client, player_a_client,
                                                 player_b_client):
    share = PrizeShare.objects.create(character=pc_a, battle=1, captured="Le Secret",
                                      prize_class="unrated", row="lieutenant",
                                      entries=[[4, 1], [3, 2]])
    assert player_a_client.post(f"/api/prize-shares/{share.pk}/spent/").status_code == 403
    assert gm_client.post(f"/api/prize-shares/{share.pk}/spent/").json()["status"] == "spent"
    assert gm_client.post(f"/api/prize-shares/{share.pk}/spent/").status_code == 400
    from characters.models import SceneToken
    token = SceneToken.objects.create(campaign=pc_a.campaign, token="favour", holder=pc_a,
                                      earned_by=pc_a, topic="storms", scene_test=None)
    assert player_b_client.post(f"/api/scene-tokens/{token.pk}/spend/", {"challenge": "x"},
                                content_type="application/json").status_code == 403
    spent = player_a_client.post(f"/api/scene-tokens/{token.pk}/spend/",
                                 {"challenge": "the storm"}, content_type="application/json")
    assert spent.json() == {"source": "The Captain's Favour", "cards": 4}


def test_the_captains_skill_and_pool_stay_hidden_from_players(pc_a, pc_b, npc, gm, campaign,
                                                              player_a_client,
                                                              player_b_client, gm_client):
    from combat.shipboard import services

    scene = services.scene_start(character=pc_a, actor=gm, scene="captains_table",
                                 skill="seamanship", topic="the Baltic", others=[pc_b],
                                 captain=npc, captain_skill="the_arts",
                                 stacked_cards="4S  4C KD 3S 2H  2C  5D 6D 7D 8D 9D").test
    pages = [f"/combat/{scene.pk}/", f"/api/encounters/{scene.pk}/", url(pc_a),
             f"/campaigns/{campaign.pk}/log/"]
    for client in (player_a_client, player_b_client):
        for page in pages:
            text = client.get(page).content.decode()
            assert "The Arts" not in text and "the_arts" not in text, page
            assert "npc-secret" not in text
    assert "The Captain's Favour" in player_a_client.get(url(pc_a)).content.decode()
    assert "the_arts" in gm_client.get(f"/api/encounters/{scene.pk}/").content.decode()
    page = player_b_client.get(f"/combat/{scene.pk}/").content.decode()
    assert "the Baltic" in page and "Card of Fate" in page and "wins" in page


def test_the_call_form_takes_the_weather_as_a_modifier_or_as_the_opponent(
        gm_client, campaign, pc_a, npc):
    new = f"/campaigns/{campaign.pk}/tests/new/"
    form = gm_client.get(f"{new}?character={pc_a.pk}").content.decode()
    assert 'name="weather"' in form and 'name="precipitation"' in form
    base = {"character": pc_a.pk, "skill": "seamanship", "intent": "keep her off the rocks",
            "wind": "storm", "precipitation": "blizzard"}
    assert gm_client.post(new, {**base, "weather": "opponent", "opposition": "npc",
                                "opponent": npc.pk}).status_code == 302
    test = Encounter.objects.get()
    assert test.setup["kind"] == "static" and test.setup["difficulty"] == 10  # missions TV-08
    gm_client.post(new, {**base, "weather": "modifier", "precipitation": "storm",
                         "opposition": "difficulty", "difficulty": "routine"})
    second = Encounter.objects.latest("pk")
    assert second.setup["sides"][0]["pool"]["modifiers"] == [
        {"source": "Storm winds and Storm / Snow", "cards": -4}]  # missions TV-07
    calm = gm_client.post(new, {**base, "weather": "opponent", "wind": "light",
                                "precipitation": "mist", "opposition": "none"})
    assert calm.status_code in (200, 400)
    assert "has no pool to oppose a test" in calm.content.decode()
    assert Encounter.objects.count() == 2
