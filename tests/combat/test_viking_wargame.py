"""A Viking sea fight started from a campaign (``combat.wargames``): who sees which orders on
the page and through the API, the house-rule mark on the page, a challenge met or failed by
its end, and the end written to the campaign log."""

import json

import pytest
from django.urls import reverse

from campaigns.models import CampaignLogEntry
from combat import services
from combat.models import Encounter
from combat.wargames import wargame_create

from .conftest import resolve_to_the_end

pytestmark = pytest.mark.django_db

SCENARIO = "viking/fleet_battle"


@pytest.fixture
def wargame(campaign, gm, pc_a, pc_b):
    """Two fleets meet: player_a's PC commands the Norsemen, player_b's the Danes."""
    return wargame_create(campaign=campaign, user=gm, scenario_key=SCENARIO,
                          commanders={"norse": f"pc:{pc_a.pk}", "danes": f"pc:{pc_b.pk}"})


def _act(client, wargame, actor, kind, choice, **kw):
    wargame.refresh_from_db()
    return client.post(reverse("combat:act", args=[wargame.pk]), {
        "actor": actor, "kind": kind, "choice": choice, "version": wargame.version}, **kw)


def test_each_player_sees_his_own_orders_only_until_both_are_in(
        wargame, gm_client, player_a_client, player_b_client, pc_a, pc_b):
    detail = reverse("combat:detail", args=[wargame.pk])
    page_a = player_a_client.get(detail).content.decode()
    assert "<svg" in page_a and "Long Serpent" in page_a and "Raven" in page_a
    assert "House rule (not in the source)" in page_a
    assert 'value="wind:norse"' in page_a and "wind:danes" not in page_a
    assert _act(player_a_client, wargame, f"pc:{pc_a.pk}", "wind:norse", "keep"
                ).status_code == 302
    assert _act(player_b_client, wargame, f"pc:{pc_b.pk}", "wind:danes", "keep"
                ).status_code == 302
    assert _act(player_a_client, wargame, f"pc:{pc_a.pk}", "orders:n1", "PACED@10/L4"
                ).status_code == 302
    wargame.refresh_from_db()
    assert wargame.state["orders"] == {"n1": "PACED@10/L4"}
    words = "Go paced, 10 in, facing 4 in to the left"
    page_b = player_b_client.get(detail).content.decode()
    status_b = page_b.split('class="orders-status"')[1].split("</p>")[0]
    assert "given (hidden until all are in)" in status_b and words not in status_b
    assert "facing 4 in to the left." not in page_b  # no log line tells it either
    api_b = player_b_client.get(reverse("api-encounter-detail", args=[wargame.pk])).json()
    assert '"n1": "given"' in json.dumps(api_b) and '"n1": "PACED@10/L4"' not in json.dumps(api_b)
    assert '"n1": "PACED@10/L4"' in json.dumps(gm_client.get(
        reverse("api-encounter-detail", args=[wargame.pk])).json())
    assert words in player_a_client.get(detail).content.decode()
    before = wargame.version
    response = _act(player_a_client, wargame, f"pc:{pc_a.pk}", "orders:n2", "FULL@70",
                    follow=True)
    assert "is not one of the choices" in response.content.decode()
    wargame.refresh_from_db()
    assert wargame.version == before and "n2" not in wargame.state["orders"]


def test_the_page_offers_every_whole_inch_of_a_speed_range_and_its_double(
        wargame, player_a_client, player_b_client, pc_a, pc_b):
    # the sides start over 24 in apart: the Long Serpent may double her paced 4-5 in
    for client, pc, side in ((player_a_client, pc_a, "norse"), (player_b_client, pc_b, "danes")):
        assert _act(client, wargame, f"pc:{pc.pk}", f"wind:{side}", "keep").status_code == 302
    page_a = player_a_client.get(reverse("combat:detail", args=[wargame.pk])).content.decode()
    paced = page_a.split('<optgroup label="Go paced">')[1].split("</optgroup>")[0]
    # 4-5 in, or doubled 8-10 in; nothing between (V-L63, L79)
    assert [f'value="PACED@{n}"' in paced for n in range(4, 11)] == [
        True, True, False, False, True, True, True]
    assert 'value="PACED@9"' not in page_a.split('<optgroup label="Go paced">')[0]
    assert _act(player_a_client, wargame, f"pc:{pc_a.pk}", "orders:n1", "PACED@9"
                ).status_code == 302
    wargame.refresh_from_db()
    assert wargame.state["orders"] == {"n1": "PACED@9"}


def test_the_end_meets_a_challenge_and_is_written_to_the_campaign_log(campaign, gm, pc_a):
    from campaigns.missions import services as missions
    from combat.challenges import players_won
    from rules.engine import get_engine

    mission = missions.mission_load_sample(campaign=campaign, actor=gm, key="scout_soukir_bay",
                                           characters=[pc_a.pk])
    challenge = missions.challenge_create(campaign=campaign, actor=gm, missions=[mission],
                                          description="sink the Danes")
    encounter = wargame_create(campaign=campaign, user=gm, scenario_key=SCENARIO,
                               commanders={"norse": f"pc:{pc_a.pk}"}, challenge=challenge.pk)
    resolve_to_the_end(encounter, gm)
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    won = players_won(encounter, get_engine("viking").outcome(encounter.state))
    assert won == {"norse": True, "danes": False, None: None}[encounter.outcome["winner"]]
    mission.refresh_from_db()
    assert (mission.successes, mission.failed) == {True: (1, 0), False: (0, 1),
                                                   None: (0, 0)}[won]
    entry = CampaignLogEntry.objects.filter(campaign=campaign, kind="battle.finished").get()
    assert "The fight ends" in entry.text
    assert services.encounter_replay(encounter=encounter)["matches"]


def test_a_distance_typed_on_the_page_is_given_and_a_bad_one_is_refused_plainly(
        wargame, player_a_client, player_b_client, pc_a, pc_b):
    for client, pc, side in ((player_a_client, pc_a, "norse"), (player_b_client, pc_b, "danes")):
        assert _act(client, wargame, f"pc:{pc.pk}", f"wind:{side}", "keep").status_code == 302
    detail = reverse("combat:detail", args=[wargame.pk])
    page = player_a_client.get(detail).content.decode()
    typed = page.split('class="typed-decision"')[1].split("</form>")[0]
    assert 'name="f_distance"' in typed and 'inputmode="decimal"' in typed
    assert "Go paced: 4 to 5 in, or doubled, 8 to 10 in" in typed
    act = reverse("combat:act", args=[wargame.pk])
    wargame.refresh_from_db()
    before = (wargame.version, wargame.state)
    form = {"actor": f"pc:{pc_a.pk}", "kind": "orders:n1", "version": wargame.version,
            "f_level": "PACED", "f_distance": "6.5", "f_facing": "", "f_side": "",
            "f_change": ""}
    refused = player_a_client.post(act, form, follow=True).content.decode()
    assert "At paced Long Serpent moves 4 to 5 in, or doubled, 8 to 10 in." in refused
    wargame.refresh_from_db()
    assert (wargame.version, wargame.state) == before
    player_a_client.post(act, {**form, "f_distance": "4.5", "f_facing": "1.5", "f_side": "R"})
    wargame.refresh_from_db()
    assert wargame.state["orders"] == {"n1": "PACED@4.5/R1.5"}


def test_the_side_is_named_once_in_the_decision_and_the_your_turn_banner(
        wargame, player_a_client):
    page = player_a_client.get(reverse("combat:detail", args=[wargame.pk])).content.decode()
    banner = page.split('class="your-turn message"')[1].split("</p>")[0]
    legend = page.split('data-kind="wind:norse"')[1].split("</legend>")[0]
    for text in (banner, legend):
        assert text.count("The Norsemen") == 1 and "the wind is" in text.lower()
