"""A ship's reputation in a card test's pool (BtQ L770: a ship's reputations serve "in
battles or political scheming within the Admiralty"; ``rules/btq_characters.md`` A22: a PC
acting on the ship's behalf uses one in place of a personal one, no Measure caps it), and
the damage it takes when the test is lost (BtQ L1241-1242, D1)."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.services import StaleVersion, campaign_update
from combat.card_tests.forms import CardTestForm
from combat.card_tests.selectors import card_test_view
from combat.card_tests.services import card_test_accept, card_test_propose
from rules.btq.characters import DamageState
from ships import reputations
from ships.models import ShipReputation


def post(client, url, data):
    return client.post(url, json.dumps(data), content_type="application/json")


LOST = "4S  4C KD 3S QH JH 2C 9D  4H AH 2D 7S"
"""TV-11's draw list (BtQ L1228-1241) with a seventh card for the ship's +2: the tie-break
goes to Jones, 7S against 3S, with a Critical success at best."""


@pytest.fixture
def feared(pc_ship, gm):
    return reputations.ship_reputation_create(
        ship=pc_ship, actor=gm, kind="institution", descriptor="Feared by",
        subject="Smugglers", value=2)


def test_the_ship_s_reputation_joins_the_pool_and_is_injured_when_the_test_is_lost(
        race, turn, player_a, pc_a, jones, feared, distrusted, campaign, gm):
    test = race(reputations=[], ship_reputation=feared.pk)
    view = card_test_view(player_a, test)
    assert view["pool"]["explanation"] == (
        "Seamanship 4 + Crusty Old Seadog 1 + Feared by Smugglers 2 = 7")
    assert view["reputation"]["name"] == "Feared by Smugglers"
    test = turn(test, player_a, LOST)
    assert test.state["record"]["winner"] == f"npc:{jones.pk}"
    feared.refresh_from_db()
    assert feared.damage_state == DamageState.INJURED and feared.version == 2  # one level, D1
    distrusted.refresh_from_db()
    assert distrusted.damage_state == DamageState.HEALTHY  # not in the pool
    assert "Feared by Smugglers: Healthy → Injured" in campaign.log_entries.get(
        kind="test.finished").text
    entry = campaign.log_entries.filter(kind="ship.reputation").latest("pk")
    assert entry.data["reputation"] == feared.pk and not entry.gm_only
    with pytest.raises(StaleVersion):  # an edit made before the test is refused
        reputations.ship_reputation_update(reputation=feared, actor=gm, version=1, value=3)
    # Injured, it adds a card fewer to the next test.
    again = card_test_view(player_a, race(reputations=[], ship_reputation=feared.pk))
    assert again["pool"]["explanation"] == (
        "Seamanship 4 + Crusty Old Seadog 1 + Feared by Smugglers 2 - Feared by Smugglers "
        "Injured 1 = 6")


def test_under_the_severity_setting_it_takes_the_winner_s_best_success(
        race, turn, player_a, feared, campaign, gm):
    campaign_update(campaign=campaign, actor=gm, version=campaign.version,
                    settings={**campaign.rules_settings(), "reputation_loss_mode": "severity"})
    turn(race(reputations=[], ship_reputation=feared.pk), player_a, LOST)
    feared.refresh_from_db()
    assert feared.damage_state == DamageState.MAIMED  # Jones's Critical


def test_a_won_test_leaves_the_ship_s_reputation_whole(race, turn, player_a, feared):
    turn(race(reputations=[], ship_reputation=feared.pk), player_a,
         "4S  4C KD KS QH JH 2C 9D  4H AH 2D 7S")
    feared.refresh_from_db()
    assert feared.damage_state == DamageState.HEALTHY and feared.version == 1


def test_one_reputation_only_and_only_of_the_ship_the_character_serves_on(
        race, feared, distrusted, enemy_ship, gm, campaign):
    with pytest.raises(ValidationError, match="not both"):
        race(ship_reputation=feared.pk)  # with the personal one still in the pool
    with pytest.raises(ValidationError, match="unskilled"):  # BtQ L1266-1272, as a personal one
        race(reputations=[], ship_reputation=feared.pk, skill="diplomacy",
             opponent_skill="diplomacy")
    theirs = reputations.ship_reputation_create(
        ship=enemy_ship, actor=gm, kind="institution", descriptor="Feared by",
        subject="Couriers", value=1)
    with pytest.raises(ValidationError) as refused:
        race(reputations=[], ship_reputation=theirs.pk)
    assert "ship_reputation" in refused.value.message_dict
    reputations.ship_reputation_update(reputation=feared, actor=gm, version=1,
                                       damage_state=DamageState.DEAD)
    with pytest.raises(ValidationError, match="Dead"):
        race(reputations=[], ship_reputation=feared.pk)
    assert not campaign.encounters.filter(engine="btq_test").exists()


def test_the_form_offers_the_ship_s_reputations_beside_the_character_s(
        campaign, pc_a, feared, distrusted, jones):
    form = CardTestForm(campaign=campaign, character=pc_a, gm=True)
    choices = dict(form.fields["reputation"].choices)
    assert choices[f"ship:{feared.pk}"].endswith("Feared by Smugglers +2")
    assert str(distrusted.pk) in choices
    form = CardTestForm({
        "skill": "seamanship", "reputation": f"ship:{feared.pk}", "opposition": "npc",
        "opponent": str(jones.pk), "opponent_skill": "seamanship", "intent": "outrun Jones",
    }, campaign=campaign, character=pc_a, gm=True)
    assert form.is_valid(), form.errors
    setup = form.setup()
    assert setup["ship_reputation"] == feared.pk and setup["reputations"] == []
    assert CardTestForm.initial_from({**setup, "difficulty": "", "opponent_skill": "",
                                      "opponent_modifiers": [], "opponent_at_risk": "",
                                      "helpers": []})["reputation"] == f"ship:{feared.pk}"


def test_a_ship_reputation_in_a_test_not_over_is_kept_until_the_test_ends(
        race, turn, player_a, feared, gm):
    test = race(reputations=[], ship_reputation=feared.pk)
    with pytest.raises(ValidationError, match="not over yet"):
        reputations.ship_reputation_delete(reputation=feared, actor=gm, version=1)
    turn(test, player_a, "4S  4C KD KS QH JH 2C 9D  4H AH 2D 7S")
    reputations.ship_reputation_delete(reputation=feared, actor=gm, version=1)
    assert not ShipReputation.objects.filter(pk=feared.pk).exists()


def test_a_player_proposes_a_test_with_the_ship_s_reputation_through_the_api(
        player_a_client, player_b_client, outsider_client, campaign, pc_a, jones, feared):
    url = reverse("api-campaign-card-tests", args=[campaign.pk])
    setup = {"character": pc_a.pk, "skill": "seamanship", "opposition": "difficulty",
             "difficulty": "routine", "ship_reputation": feared.pk,
             "intent": "get the dockyard to refit her first"}
    assert post(outsider_client, url, setup).status_code == 404
    proposed = post(player_a_client, url, setup)
    assert proposed.status_code == 201, proposed.json()
    body = player_b_client.get(reverse("api-card-test-detail",
                                       args=[proposed.json()["id"]])).json()
    assert body["reputation"] == {"id": feared.pk, "name": "Feared by Smugglers",
                                  "ship": feared.ship_id}
    refused = post(player_a_client, url, {**setup, "ship_reputation": feared.pk + 999})
    assert refused.status_code == 400 and "ship_reputation" in refused.json()
    assert campaign.encounters.filter(engine="btq_test").count() == 1


def test_the_page_offers_the_ship_s_reputation_and_the_call_puts_it_in_the_pool(
        gm_client, player_a_client, campaign, pc_a, jones, feared):
    new = reverse("card_tests:new", args=[campaign.pk])
    form = player_a_client.get(f"{new}?character={pc_a.pk}").content.decode()
    assert f'value="ship:{feared.pk}"' in form and "Feared by Smugglers +2" in form
    response = gm_client.post(new, {
        "character": pc_a.pk, "skill": "seamanship", "reputation": f"ship:{feared.pk}",
        "opposition": "npc", "opponent": jones.pk, "opponent_skill": "seamanship",
        "intent": "have the harbour master refit her first"})
    assert response.status_code == 302
    test = campaign.encounters.get(engine="btq_test")
    assert test.terms["ship_reputation"] == feared.pk and test.terms["reputations"] == []
    page = player_a_client.get(response["Location"]).content.decode()
    assert "Seamanship 4 + Feared by Smugglers 2 = 6" in page


def test_the_gm_accepts_a_proposal_with_the_ship_s_reputation_and_a_loss_injures_it(
        campaign, gm, player_a, pc_a, feared, turn):
    test = card_test_propose(campaign=campaign, actor=player_a, character=pc_a.pk,
                             skill="seamanship", ship_reputation=feared.pk,
                             opposition="difficulty", difficulty="routine",
                             intent="be first in line at the dockyard")
    test = card_test_accept(test=test, actor=gm, version=test.version, difficulty="4")
    assert test.terms["ship_reputation"] == feared.pk and test.terms["difficulty"] == "4"
    # Six cards (Seamanship 4, Feared by Smugglers 2) against four: the difficulty's Critical.
    test = turn(test, player_a, "2D  10C 3C 10H 5S 9H 7C  2S QH AH 4C")
    assert test.state["record"]["winner"] == "difficulty"
    feared.refresh_from_db()
    assert feared.damage_state == DamageState.INJURED
