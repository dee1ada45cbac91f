"""A player proposes a challenge for a mission he sees; the GM accepts it (perhaps changed)
or declines it, as card tests are proposed. Only an accepted challenge is played or counts;
a stale or second step is refused; a player never proposes for a hidden mission nor writes
GM notes."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from campaigns.missions import selectors, services
from campaigns.missions.models import Challenge
from campaigns.models import CampaignLogEntry
from campaigns.services import Conflict
from tests.campaigns.test_missions import gordon

pytestmark = pytest.mark.django_db


@pytest.fixture
def mission(campaign, gm, pc_a):
    return gordon(campaign, gm, pc_a)


def test_a_player_proposes_and_the_gm_accepts_with_changes(campaign, gm, player_a, mission):
    proposed = services.challenge_create(campaign=campaign, actor=player_a,
                                         missions=[mission], description="Bribe the pilot")
    assert proposed.status == "proposed" and proposed.created_by == player_a
    assert not selectors.open_challenges(campaign).exists()  # nothing to play it for yet
    with pytest.raises(ValidationError):
        services.challenge_open_for(campaign, proposed.pk)
    with pytest.raises(ValidationError, match="accepts it first"):
        services.challenge_record(challenge=proposed, met=True, actor=gm)
    assert selectors.gm_waiting(campaign)["proposed_challenges"] == [proposed]
    with pytest.raises(PermissionDenied):
        services.challenge_accept(challenge=proposed, actor=player_a)
    called = services.challenge_accept(challenge=proposed, actor=gm,
                                       description="Bribe the Gibraltar pilot", kind="social",
                                       gm_notes="he is a French agent")
    assert (called.status, called.description, called.kind) == (
        "called", "Bribe the Gibraltar pilot", "social")
    assert list(selectors.open_challenges(campaign)) == [called]
    with pytest.raises(Conflict):
        services.challenge_decline(challenge=called, actor=gm)
    services.challenge_record(challenge=called, met=True, actor=gm)
    mission.refresh_from_db()
    assert mission.successes == 1
    kinds = list(CampaignLogEntry.objects.filter(kind__startswith="challenge.")
                 .order_by("pk").values_list("kind", flat=True))
    assert kinds == ["challenge.proposed", "challenge.called", "challenge.met"]
    assert not CampaignLogEntry.objects.filter(text__contains="French agent").exists()


def test_the_gm_declines_and_the_challenge_never_counts(campaign, gm, player_a, mission):
    proposed = services.challenge_create(campaign=campaign, actor=player_a,
                                         missions=[mission], description="Race the frigate")
    declined = services.challenge_decline(challenge=proposed, actor=gm,
                                          reason="not in these waters")
    assert declined.status == "declined"
    with pytest.raises(Conflict):
        services.challenge_accept(challenge=declined, actor=gm)
    assert "not in these waters" in CampaignLogEntry.objects.get(
        kind="challenge.declined").text
    mission.refresh_from_db()
    assert (mission.successes, mission.failed) == (0, 0)


def test_a_player_cannot_propose_for_a_hidden_mission_nor_write_gm_notes(
        campaign, gm, player_a, mission, outsider):
    hidden = gordon(campaign, gm, name="The secret errand", hidden=True)
    with pytest.raises(ValidationError) as refused:
        services.challenge_create(campaign=campaign, actor=player_a, missions=[hidden],
                                  description="Snoop")
    assert "missions" in refused.value.message_dict
    with pytest.raises(PermissionDenied):
        services.challenge_create(campaign=campaign, actor=player_a, missions=[mission],
                                  description="x", gm_notes="mine")
    with pytest.raises(PermissionDenied):
        services.challenge_create(campaign=campaign, actor=outsider, missions=[mission],
                                  description="x")
    assert not Challenge.objects.exists()


def test_pages_propose_accept_and_decline(campaign, mission, gm_client, player_a_client,
                                          player_b_client):
    new = reverse("missions:challenge_new", args=[campaign.pk])
    form = player_a_client.get(f"{new}?mission={mission.pk}").content.decode()
    assert "Propose a challenge" in form and "gm_notes" not in form
    player_a_client.post(new, {"missions": [mission.pk], "description": "Bribe the pilot",
                               "kind": "test"})
    proposed = Challenge.objects.get()
    detail = reverse("missions:detail", args=[campaign.pk, mission.pk])
    assert "waiting for the GM" in player_b_client.get(detail).content.decode()
    assert "Accept" not in player_a_client.get(detail).content.decode()
    accept = reverse("missions:challenge_accept", args=[campaign.pk, proposed.pk])
    assert player_a_client.post(accept, {"description": "x", "kind": "test"}
                                ).status_code == 403
    page = gm_client.get(detail).content.decode()
    assert "Accept" in page and "Decline" in page
    gm_client.post(accept, {"description": "Bribe the Gibraltar pilot", "kind": "social"})
    proposed.refresh_from_db()
    assert (proposed.status, proposed.description) == ("called", "Bribe the Gibraltar pilot")
    again = gm_client.post(reverse("missions:challenge_decline", args=[campaign.pk,
                                                                       proposed.pk]),
                           {"reason": ""}, follow=True)
    assert "no longer waiting" in again.content.decode()
    proposed.refresh_from_db()
    assert proposed.status == "called"


def test_the_api_proposes_accepts_and_declines(campaign, mission, gm_client, player_a_client,
                                               player_b_client):
    url = reverse("api-challenge-list", args=[campaign.pk])
    body = {"missions": [mission.pk], "description": "Bribe the pilot"}
    made = player_a_client.post(url, body, content_type="application/json")
    assert made.status_code == 201 and made.json()["status"] == "proposed"
    assert player_a_client.post(url, {**body, "gm_notes": "x"},
                                content_type="application/json").status_code == 403
    cid = made.json()["id"]
    accept = reverse("api-challenge-accept", args=[campaign.pk, cid])
    decline = reverse("api-challenge-decline", args=[campaign.pk, cid])
    assert player_b_client.post(decline, {}, content_type="application/json"
                                ).status_code == 403
    assert gm_client.post(accept, {"kind": "sunk"},
                          content_type="application/json").status_code == 400
    done = gm_client.post(accept, {"gm_notes": "PILOT-SECRET"},
                          content_type="application/json")
    assert done.status_code == 200 and done.json()["status"] == "called"
    assert gm_client.post(decline, {}, content_type="application/json").status_code == 409
    seen = player_a_client.get(url).json()
    assert seen[0]["status"] == "called" and "PILOT-SECRET" not in str(seen)
    dashboard = gm_client.get(reverse("api-dashboard", args=[campaign.pk]))
    assert dashboard.json()["proposed_challenges"] == []
