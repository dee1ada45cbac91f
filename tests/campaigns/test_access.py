"""Who sees what on the campaign pages, with the four personas (DESIGN.md, "Roles and
trust"): outsiders get 404, players never see GM-only entries or GM pages."""

import pytest
from django.urls import reverse

from campaigns.models import Membership
from campaigns.services import log_append

PERSONAS = ["gm", "player_a", "player_b", "outsider"]


def client_of(request, persona):
    return request.getfixturevalue(f"{persona}_client")


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 200), ("player_b", 200), ("outsider", 404),
])
@pytest.mark.parametrize("page", ["detail", "log"])
def test_campaign_pages_are_for_members_only(request, campaign, persona, expected, page):
    response = client_of(request, persona).get(reverse(f"campaigns:{page}", args=[campaign.pk]))
    assert response.status_code == expected


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 403), ("player_b", 403), ("outsider", 404),
])
def test_settings_page_is_for_gms(request, campaign, persona, expected):
    url = reverse("campaigns:settings", args=[campaign.pk])
    assert client_of(request, persona).get(url).status_code == expected
    assert client_of(request, persona).post(url, {}).status_code == expected


def test_an_unknown_campaign_looks_like_a_forbidden_one(outsider_client, campaign):
    missing = outsider_client.get(reverse("campaigns:detail", args=[campaign.pk + 1000]))
    forbidden = outsider_client.get(reverse("campaigns:detail", args=[campaign.pk]))
    assert missing.status_code == forbidden.status_code == 404


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_list_shows_only_the_users_campaigns(request, campaign, persona):
    html = client_of(request, persona).get(reverse("campaigns:list")).content.decode()
    assert ("The Test Cruise" in html) == (persona != "outsider")


@pytest.mark.parametrize("persona", PERSONAS)
def test_gm_only_log_entries_reach_gms_only(request, campaign, gm, persona):
    log_append(campaign=campaign, kind="note", text="The admiral is a traitor.", gm_only=True)
    log_append(campaign=campaign, kind="note", text="Fair winds today.")
    response = client_of(request, persona).get(reverse("campaigns:log", args=[campaign.pk]))
    if persona == "outsider":
        assert response.status_code == 404
        return
    html = response.content.decode()
    assert "Fair winds today." in html
    assert ("The admiral is a traitor." in html) == (persona == "gm")
    detail = client_of(request, persona).get(reverse("campaigns:detail", args=[campaign.pk]))
    assert ("The admiral is a traitor." in detail.content.decode()) == (persona == "gm")


def test_the_log_is_newest_first(gm_client, campaign):
    log_append(campaign=campaign, kind="note", text="first-entry")
    log_append(campaign=campaign, kind="note", text="second-entry")
    html = gm_client.get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    assert html.index("second-entry") < html.index("first-entry")


def test_the_detail_page_shows_members_pcs_and_ships(player_a_client, campaign):
    html = player_a_client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    for text in ("gm", "player_a", "player_b", "Lieutenant Anne Able", "Midshipman Ben Baker",
                 "HMS Testament (22)", "Le Secret (14)"):
        assert text in html
    for secret in ("secret-a", "npc-secret", "enemy-secret"):
        assert secret not in html


def test_the_gm_makes_a_player_gm_and_back(gm_client, campaign, player_a):
    membership = Membership.objects.get(campaign=campaign, user=player_a)
    url = reverse("campaigns:member", args=[campaign.pk, membership.pk])
    gm_client.post(url, {"action": "gm"})
    membership.refresh_from_db()
    assert membership.role == "gm"
    gm_client.post(url, {"action": "player"})
    membership.refresh_from_db()
    assert membership.role == "player"


def test_the_last_gm_cannot_step_down_or_leave(gm_client, campaign, gm):
    membership = Membership.objects.get(campaign=campaign, user=gm)
    url = reverse("campaigns:member", args=[campaign.pk, membership.pk])
    for action in ("player", "remove"):
        response = gm_client.post(url, {"action": action}, follow=True)
        assert "at least one GM" in response.content.decode()
    membership.refresh_from_db()
    assert membership.role == "gm"


def test_the_gm_removes_a_player(gm_client, player_b_client, campaign, player_b):
    membership = Membership.objects.get(campaign=campaign, user=player_b)
    gm_client.post(reverse("campaigns:member", args=[campaign.pk, membership.pk]),
                   {"action": "remove"})
    assert not campaign.memberships.filter(user=player_b).exists()
    assert player_b_client.get(reverse("campaigns:detail", args=[campaign.pk])).status_code == 404


@pytest.mark.parametrize("persona,expected", [("player_a", 403), ("outsider", 404)])
def test_only_gms_manage_members(request, campaign, player_b, persona, expected):
    membership = Membership.objects.get(campaign=campaign, user=player_b)
    url = reverse("campaigns:member", args=[campaign.pk, membership.pk])
    assert client_of(request, persona).post(url, {"action": "gm"}).status_code == expected
    membership.refresh_from_db()
    assert membership.role == "player"


def test_a_new_campaign_makes_its_creator_gm(outsider_client, outsider):
    response = outsider_client.post(reverse("campaigns:new"), {"name": "Cruise Two"})
    membership = Membership.objects.get(user=outsider)
    assert membership.role == "gm" and membership.campaign.name == "Cruise Two"
    assert response.url == reverse("campaigns:detail", args=[membership.campaign_id])


def test_a_new_campaign_needs_a_name(outsider_client, outsider):
    response = outsider_client.post(reverse("campaigns:new"), {"name": ""})
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    assert not Membership.objects.filter(user=outsider).exists()
